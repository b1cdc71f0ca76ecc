#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "predicates/check_test_helper.h"
#include "predicates/factories.h"
#include "tests/fixtures.h"

namespace ksched {
namespace check_node_unschedulable_test {

using ::testing::ElementsAre;
using testing::RunCheck;
using testing::TestCluster;
using testing::TestPod;

constexpr const char* kCluster = R"({"kind":"List","items":[
  {"kind":"Node","metadata":{"name":"ok"}},
  {"kind":"Node","metadata":{"name":"cordoned"},"spec":{"unschedulable":true}},
  {"kind":"Node","metadata":{"name":"tainted"},"spec":{"taints":[
    {"key":"node.kubernetes.io/unschedulable","effect":"NoSchedule"}]}}]})";

Pod PodTolerating(const std::string& tolerations) {
  return TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{"tolerations":)" + tolerations +
                 R"(,"containers":[]}})");
}

TEST(CheckNodeUnschedulable, UnschedulableNodeRejectsPlainPods) {
  ClusterState c = TestCluster(kCluster);
  auto p = NewCheckNodeUnschedulablePredicate();
  Pod pod = PodTolerating("[]");
  EXPECT_TRUE(RunCheck(*p, pod, c, "ok").fits);
  EXPECT_THAT(RunCheck(*p, pod, c, "cordoned").reasons, ElementsAre("node(s) were unschedulable"));
  // The taint itself is PodToleratesNodeTaints' business, not this predicate's.
  EXPECT_TRUE(RunCheck(*p, pod, c, "tainted").fits);
}

TEST(CheckNodeUnschedulable, ToleratingTheUnschedulableTaint) {
  ClusterState c = TestCluster(kCluster);
  auto p = NewCheckNodeUnschedulablePredicate();
  for (const char* tolerations :
       {R"([{"key":"node.kubernetes.io/unschedulable","operator":"Exists","effect":"NoSchedule"}])",
        R"([{"key":"node.kubernetes.io/unschedulable","operator":"Exists"}])",
        R"([{"key":"node.kubernetes.io/unschedulable"}])",  // Equal with empty value
        R"([{"operator":"Exists"}])"}) {
    EXPECT_TRUE(RunCheck(*p, PodTolerating(tolerations), c, "cordoned").fits) << tolerations;
  }
  for (const char* tolerations :
       {R"([{"key":"node.kubernetes.io/unschedulable","operator":"Exists","effect":"NoExecute"}])",
        R"([{"key":"node.kubernetes.io/unschedulable","value":"true"}])",
        R"([{"key":"node.kubernetes.io/not-ready","operator":"Exists"}])"}) {
    EXPECT_FALSE(RunCheck(*p, PodTolerating(tolerations), c, "cordoned").fits) << tolerations;
  }
}

}  // namespace check_node_unschedulable_test
}  // namespace ksched
