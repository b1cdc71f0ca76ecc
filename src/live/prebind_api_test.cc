#include "live/prebind_api.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace ksched::live {
namespace prebind_api_test {

using nlohmann::json;

TEST(PreBindApiTest, BindPatchCarriesThePreconditionTheClaimRefAndTheAnnotation) {
  const json patch = json::parse(BindPersistentVolumePatch(
      "41", framework::ClaimReference{"shop", "data", "u-1", "7"}, /*bound_by_controller=*/true));
  EXPECT_EQ(patch["metadata"]["resourceVersion"], "41");
  EXPECT_EQ(patch["metadata"]["annotations"]["pv.kubernetes.io/bound-by-controller"], "yes");
  EXPECT_EQ(patch["spec"]["claimRef"],
            json::parse(R"({"kind":"PersistentVolumeClaim","apiVersion":"v1","namespace":"shop",
                           "name":"data","uid":"u-1","resourceVersion":"7","fieldPath":null})"));
}

TEST(PreBindApiTest, UnchangedPvGetsOnlyThePrecondition) {
  EXPECT_EQ(json::parse(BindPersistentVolumePatch("41", std::nullopt, false)),
            json::parse(R"({"metadata":{"resourceVersion":"41"}})"));
}

TEST(PreBindApiTest, SelectedNodePatch) {
  EXPECT_EQ(json::parse(SelectedNodePatch("9", "node-a")),
            json::parse(R"({"metadata":{"resourceVersion":"9",
                "annotations":{"volume.kubernetes.io/selected-node":"node-a"}}})"));
}

}  // namespace prebind_api_test
}  // namespace ksched::live
