#include "priorities/resource_allocation.h"

#include <gtest/gtest.h>

#include <string>

#include "priorities/factories.h"
#include "priorities/priority_test_util.h"
#include "tests/fixtures.h"

namespace ksched {
namespace priorities_resource_allocation_test {

using testing::ListOf;
using testing::ScoreNodes;
using testing::TestCluster;
using testing::TestPod;

std::string Node(const std::string& name, const std::string& allocatable) {
  return R"({"kind":"Node","metadata":{"name":")" + name + R"("},"status":{"allocatable":)" +
         allocatable + "}}";
}

// A pod whose containers have the given `requests` objects ("" = no
// resources at all), plus optional init-container requests.
std::string PodJson(const std::string& name, const std::vector<std::string>& requests,
                    const std::string& node = "", const std::string& init_requests = "") {
  std::string s =
      R"({"kind":"Pod","metadata":{"name":")" + name + R"(","namespace":"default"},"spec":{)";
  if (!node.empty()) s += R"("nodeName":")" + node + R"(",)";
  if (!init_requests.empty()) {
    s += R"("initContainers":[{"name":"i","resources":{"requests":)" + init_requests + "}}],";
  }
  s += R"("containers":[)";
  for (size_t i = 0; i < requests.size(); ++i) {
    if (i > 0) s += ",";
    s += R"({"name":"c)" + std::to_string(i) + R"(")";
    if (!requests[i].empty()) s += R"(,"resources":{"requests":)" + requests[i] + "}";
    s += "}";
  }
  return s + "]}}";
}

// MostRequested reads back the summed non-zero requests most directly:
// each resource scores floor(10 * requested / allocatable).
TEST(ResourceAllocationPriority, MissingRequestsCountAsDefaults) {
  // 1000m cpu, 2000Mi memory. The existing pod has no requests: 100m, 200Mi.
  ClusterState c = TestCluster(
      ListOf({Node("n1", R"({"cpu":"1","memory":"2000Mi"})"), PodJson("old", {""}, "n1")}));
  auto p = NewMostRequestedPriority();
  // New pod without requests: cpu 200/1000 -> 2, memory 400Mi/2000Mi -> 2.
  EXPECT_EQ(ScoreNodes(*p, TestPod(PodJson("new", {""})), c).at("n1"), 2);
  // Only cpu given (700m): 800/1000 -> 8; memory still defaulted -> 2.
  EXPECT_EQ(ScoreNodes(*p, TestPod(PodJson("new", {R"({"cpu":"700m"})"})), c).at("n1"), 5);
}

TEST(ResourceAllocationPriority, ExplicitZeroStaysZero) {
  ClusterState c = TestCluster(
      ListOf({Node("n1", R"({"cpu":"1","memory":"1000Mi"})"), PodJson("old", {""}, "n1")}));
  auto p = NewMostRequestedPriority();
  // cpu "0": 100/1000 -> 1 (a default would make it 2); memory 400Mi -> 4.
  EXPECT_EQ(ScoreNodes(*p, TestPod(PodJson("new", {R"({"cpu":"0"})"})), c).at("n1"), 2);
  // Both zero: cpu 1, memory 2 -> 1.
  EXPECT_EQ(ScoreNodes(*p, TestPod(PodJson("new", {R"({"cpu":"0","memory":"0"})"})), c).at("n1"),
            1);
}

TEST(ResourceAllocationPriority, DefaultsApplyPerContainer) {
  ClusterState c = TestCluster(ListOf({Node("n1", R"({"cpu":"1","memory":"10000Mi"})")}));
  auto p = NewMostRequestedPriority();
  // Three containers without requests: 300m -> 3; 600Mi/10000Mi -> 0.
  EXPECT_EQ(ScoreNodes(*p, TestPod(PodJson("new", {"", "", ""})), c).at("n1"), 1);
}

TEST(ResourceAllocationPriority, InitContainersAreIgnored) {
  ClusterState c = TestCluster(ListOf({Node("n1", R"({"cpu":"1","memory":"1000Mi"})")}));
  auto p = NewMostRequestedPriority();
  Pod with_init = TestPod(PodJson("new", {R"({"cpu":"100m","memory":"100Mi"})"}, "",
                                  R"({"cpu":"900m","memory":"900Mi"})"));
  // 100/1000 -> 1, 100Mi/1000Mi -> 1.
  EXPECT_EQ(ScoreNodes(*p, with_init, c).at("n1"), 1);
}

TEST(ResourceAllocationPriority, AssumedPodsCount) {
  ClusterState c = TestCluster(ListOf({Node("n1", R"({"cpu":"1","memory":"1000Mi"})"),
                                       Node("n2", R"({"cpu":"1","memory":"1000Mi"})")}));
  Pod big = TestPod(PodJson("big", {R"({"cpu":"500m","memory":"500Mi"})"}));
  c.Assume(big, c.FindNode("n1"));
  auto p = NewLeastRequestedPriority();
  auto scores = ScoreNodes(*p, TestPod(PodJson("new", {R"({"cpu":"100m","memory":"100Mi"})"})), c);
  EXPECT_EQ(scores.at("n1"), 4);  // (400*10/1000, 400Mi*10/1000Mi) = (4, 4)
  EXPECT_EQ(scores.at("n2"), 9);
}

TEST(ResourceAllocationPriority, NodeWithoutAllocatable) {
  ClusterState c = TestCluster(ListOf({Node("n1", "{}")}));
  EXPECT_EQ(ScoreNodes(*NewLeastRequestedPriority(), TestPod(PodJson("new", {""})), c).at("n1"), 0);
  EXPECT_EQ(ScoreNodes(*NewMostRequestedPriority(), TestPod(PodJson("new", {""})), c).at("n1"), 0);
  EXPECT_EQ(ScoreNodes(*NewBalancedResourceAllocation(), TestPod(PodJson("new", {""})), c).at("n1"),
            0);
  // The default shape scores an empty resource as fully used: 0.
  EXPECT_EQ(ScoreNodes(*NewRequestedToCapacityRatioPriority({}), TestPod(PodJson("new", {""})), c)
                .at("n1"),
            0);
}

}  // namespace priorities_resource_allocation_test
}  // namespace ksched
