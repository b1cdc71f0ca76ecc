#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "explain/explain_test_util.h"

namespace ksched::explain {
namespace taints_test {

using ::testing::ElementsAre;
using testing::List;
using testing::ScheduleAndExplain;

TEST(ExplainTaints, EveryUntoleratedTaintIsNamed) {
  const char* node = R"({"kind":"Node","metadata":{"name":"gpu"},"spec":{"taints":[
      {"key":"nvidia.com/gpu","value":"present","effect":"NoSchedule"},
      {"key":"dedicated","effect":"NoExecute"},
      {"key":"soft","value":"x","effect":"PreferNoSchedule"},
      {"key":"team","value":"ml","effect":"NoSchedule"}]},"status":{"allocatable":{"pods":"10"}}})";
  const char* pod = R"({"kind":"Pod","metadata":{"name":"p","namespace":"default"},"spec":{
      "tolerations":[{"key":"team","operator":"Equal","value":"ml","effect":"NoSchedule"}],
      "containers":[{"name":"c"}]}})";
  auto e = ScheduleAndExplain(List({node}), pod);
  EXPECT_THAT(e.reasons["gpu"], ElementsAre("node(s) had taints that the pod didn't tolerate"));
  EXPECT_THAT(e.Messages("gpu"),
              ElementsAre("taint nvidia.com/gpu=present:NoSchedule is not tolerated",
                          "taint dedicated:NoExecute is not tolerated"));
  EXPECT_EQ(e.causes["gpu"][0].details["key"], "nvidia.com/gpu");
  EXPECT_EQ(e.causes["gpu"][0].details["effect"], "NoSchedule");
}

TEST(ExplainNodeState, CordonedNode) {
  const char* node =
      R"({"kind":"Node","metadata":{"name":"n1"},"spec":{"unschedulable":true},"status":{"allocatable":{"pods":"10"}}})";
  auto e = ScheduleAndExplain(
      List({node}),
      R"({"kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c"}]}})");
  ASSERT_EQ(e.causes["n1"].size(), 1u) << ::testing::PrintToString(e.reasons["n1"]);
  EXPECT_EQ(e.causes["n1"][0].kind, "node");
  EXPECT_THAT(e.causes["n1"][0].message, ::testing::HasSubstr("spec.unschedulable: true"));
}

}  // namespace taints_test
}  // namespace ksched::explain
