#include "preemption/pod_eligible_to_preempt_others.h"

#include <gtest/gtest.h>

#include "preemption/preemption_test_util.h"

namespace ksched {
namespace pod_eligible_to_preempt_others_test {

using namespace ksched::testing;

std::string Terminating(const std::string& name, const std::string& node, int priority) {
  return fmt::format(R"({{"kind":"Pod","metadata":{{"name":"{}","namespace":"default",
    "deletionTimestamp":"2020-01-01T00:00:00Z"}},"spec":{{"nodeName":"{}","priority":{},
    "containers":[{{"name":"c"}}]}}}})",
                     name, node, priority);
}

TEST(PodEligibleToPreemptOthers, WaitsForItsVictimsToGo) {
  ClusterState c = TestCluster(ListOf(
      {NodeJson("a"), NodeJson("b"), Terminating("t", "a", 10), Terminating("t-high", "b", 1000)}));
  Pod p = TestPod(PendingPodJson("p", "1", 100));
  EXPECT_TRUE(PodEligibleToPreemptOthers(p, c)) << "not nominated";
  p.nominated_node_name = "a";
  EXPECT_FALSE(PodEligibleToPreemptOthers(p, c)) << "a lower-priority pod is still terminating";
  p.nominated_node_name = "b";
  EXPECT_TRUE(PodEligibleToPreemptOthers(p, c)) << "the terminating pod has higher priority";
  p.nominated_node_name = "gone";
  EXPECT_TRUE(PodEligibleToPreemptOthers(p, c)) << "nominated to a node that no longer exists";
}

}  // namespace pod_eligible_to_preempt_others_test
}  // namespace ksched
