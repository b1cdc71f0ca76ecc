#include "framework/plugins/helper/taint.h"

#include <gtest/gtest.h>

#include "tests/fixtures.h"

namespace ksched::framework::helper {
namespace taint_test {

using ksched::testing::TestNode;
using ksched::testing::TestPod;

TEST(FindMatchingUntoleratedTaint, FirstUntoleratedDoNotScheduleTaint) {
  Node node = TestNode(R"({"kind":"Node","metadata":{"name":"n"},"spec":{"taints":[
      {"key":"soft","value":"x","effect":"PreferNoSchedule"},
      {"key":"a","value":"1","effect":"NoSchedule"},
      {"key":"b","value":"2","effect":"NoExecute"}]}})");
  Pod tolerates_a = TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{
      "containers":[{"name":"c"}],
      "tolerations":[{"key":"a","operator":"Equal","value":"1","effect":"NoSchedule"}]}})");
  const Taint* t =
      FindMatchingUntoleratedTaint(node.taints, tolerates_a.spec.tolerations, DoNotScheduleTaint);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Str(t->key), "b");

  Pod tolerates_all = TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{
      "containers":[{"name":"c"}], "tolerations":[{"operator":"Exists"}]}})");
  EXPECT_EQ(
      FindMatchingUntoleratedTaint(node.taints, tolerates_all.spec.tolerations, DoNotScheduleTaint),
      nullptr);
}

}  // namespace taint_test
}  // namespace ksched::framework::helper
