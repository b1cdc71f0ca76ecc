#include "framework/plugins/noderesources/balanced_allocation.h"

#include <gtest/gtest.h>

#include <cmath>

#include "config/feature_gates.h"
#include "framework/plugins/registry_factories.h"
#include "tests/fixtures.h"

namespace ksched::framework::noderesources {
namespace balanced_allocation_test {

using ksched::testing::TestCluster;
using ksched::testing::TestPod;

ClusterState Cluster(const std::string& allocatable, const std::string& running_requests) {
  return TestCluster(R"({"kind":"List","items":[{"kind":"Node","metadata":{"name":"n"},
      "status":{"allocatable":{)" +
                     allocatable + R"(}}},
      {"kind":"Pod","metadata":{"name":"a","namespace":"default"},"spec":{"nodeName":"n",
      "containers":[{"name":"c","resources":{"requests":{)" +
                     running_requests + "}}}]}}]}");
}
Pod PendingRequesting(const std::string& requests) {
  return TestPod(R"({"kind":"Pod","metadata":{"name":"p","namespace":"default"},
      "spec":{"containers":[{"name":"c","resources":{"requests":{)" +
                 requests + "}}}]}}");
}

int64_t RunScore(const config::NodeResourcesBalancedAllocationArgs& args, const Pod& pod,
                 const NodeInfo& node, bool pre_score = true) {
  BalancedAllocation plugin(args);
  CycleState state;
  if (pre_score) {
    EXPECT_TRUE(plugin.PreScore(&state, pod, {node.id}).IsSuccess());
  }
  int64_t score = -1;
  EXPECT_TRUE(plugin.Score(state, pod, node, &score).IsSuccess());
  return score;
}

TEST(NodeResourcesBalancedAllocation, TwoResourcesHalfTheDifference) {
  ClusterState c = Cluster(R"("cpu":"4","memory":"10Gi")", R"("cpu":"1","memory":"1Gi")");
  // cpu 0.25, memory 0.1: std 0.075 -> int64(92.5) = 92.
  EXPECT_EQ(RunScore({}, PendingRequesting(""), c.node_info(0)), 92);
  EXPECT_EQ(RunScore({}, PendingRequesting(""), c.node_info(0), /*pre_score=*/false), 92);
  // Pod's own requests count, without non-zero defaults: cpu 0.5, memory 0.1.
  EXPECT_EQ(RunScore({}, PendingRequesting(R"("cpu":"1")"), c.node_info(0)), 80);
}

TEST(NodeResourcesBalancedAllocation, RequestsWithoutNonZeroDefaults) {
  ClusterState c = Cluster(R"("cpu":"4","memory":"10Gi")", "");
  EXPECT_EQ(RunScore({}, PendingRequesting(""), c.node_info(0)), 100);
}

TEST(NodeResourcesBalancedAllocation, FractionsCappedAtOne) {
  ClusterState c = Cluster(R"("cpu":"1","memory":"10Gi")", R"("cpu":"3")");
  // cpu 3 / 1 -> 1, memory 0: std 0.5.
  EXPECT_EQ(RunScore({}, PendingRequesting(""), c.node_info(0)), 50);
}

TEST(NodeResourcesBalancedAllocation, ThreeResourcesStandardDeviation) {
  ClusterState c = Cluster(R"("cpu":"4","memory":"10Gi","ephemeral-storage":"10Gi")",
                           R"("cpu":"2","memory":"1Gi","ephemeral-storage":"4Gi")");
  config::NodeResourcesBalancedAllocationArgs args;
  args.resources = {{"cpu", 1}, {"memory", 1}, {"ephemeral-storage", 1}};
  const double f[] = {0.5, 0.1, 0.4};
  const double mean = (f[0] + f[1] + f[2]) / 3;
  double sum = 0;
  for (double x : f) sum = sum + (x - mean) * (x - mean);
  const auto want = static_cast<int64_t>((1 - std::sqrt(sum / 3)) * 100);
  EXPECT_EQ(want, 83);
  EXPECT_EQ(RunScore(args, PendingRequesting(""), c.node_info(0)), want);
}

TEST(NodeResourcesBalancedAllocation, ResourcesWithoutAllocatableAreLeftOut) {
  ClusterState c = Cluster(R"("cpu":"4","memory":"10Gi")", R"("cpu":"2")");
  config::NodeResourcesBalancedAllocationArgs args;
  // No ephemeral storage on the node; the gpu is not requested: cpu alone.
  args.resources = {{"cpu", 1}, {"ephemeral-storage", 1}, {"example.com/gpu", 1}};
  EXPECT_EQ(RunScore(args, PendingRequesting(""), c.node_info(0)), 100);
}

TEST(NodeResourcesBalancedAllocation, Factory) {
  Status error;
  auto plugin = plugins::NewNodeResourcesBalancedAllocation(config::PluginArgs{}, nullptr, &error);
  ASSERT_NE(plugin, nullptr);
  EXPECT_EQ(plugin->Name(), "NodeResourcesBalancedAllocation");
  EXPECT_EQ(
      plugins::NewNodeResourcesBalancedAllocation(config::NodeResourcesFitArgs{}, nullptr, &error),
      nullptr);
  EXPECT_EQ(error.Message(),
            "want args to be of type NodeResourcesBalancedAllocationArgs, got "
            "*config.NodeResourcesFitArgs");
}

// ---------------------------------------------------------------- v1.35

config::FeatureGates Gates135() {
  return config::DefaultFeatureGates(config::SchedulerVersion::kV135);
}

TEST(NodeResourcesBalancedAllocationVersions, BestEffortPodsSkipInV135) {
  ClusterState c = Cluster(R"("cpu":"4","memory":"10Gi")", R"("cpu":"1","memory":"1Gi")");
  // No requests, or explicit zeros only: nothing to balance.
  for (const Pod& pod : {PendingRequesting(""), PendingRequesting(R"("cpu":"0")")}) {
    CycleState state;
    BalancedAllocation v126({});
    EXPECT_TRUE(v126.PreScore(&state, pod, {0}).IsSuccess());
    BalancedAllocation v135({}, Gates135());
    EXPECT_EQ(v135.PreScore(&state, pod, {0}).code(), Code::kSkip);
    // Score without PreScore's state: 0, as upstream's fallback.
    CycleState empty;
    int64_t score = -1;
    EXPECT_TRUE(v135.Score(empty, pod, c.node_info(0), &score).IsSuccess());
    EXPECT_EQ(score, 0);
  }
  CycleState state;
  BalancedAllocation v135({}, Gates135());
  EXPECT_TRUE(v135.PreScore(&state, PendingRequesting(R"("cpu":"1m")"), {0}).IsSuccess());
}

TEST(NodeResourcesBalancedAllocationVersions, PodLevelAndResizedRequestsInV135) {
  ClusterState c = Cluster(R"("cpu":"4","memory":"8Gi")", "");
  // Only pod-level requests: 2 cpu / 1Gi -> |0.5 - 0.125| / 2 = 0.1875 -> 81.
  Pod pod_level = TestPod(R"({"kind":"Pod","metadata":{"name":"p","namespace":"default"},
      "spec":{"resources":{"requests":{"cpu":"2","memory":"1Gi"}},"containers":[{"name":"c"}]}})");
  auto run = [&](const BalancedAllocation& plugin_in, const Pod& pod) {
    BalancedAllocation plugin = plugin_in;
    CycleState state;
    Status s = plugin.PreScore(&state, pod, {0});
    if (s.code() == Code::kSkip) return int64_t{-2};
    int64_t score = -1;
    EXPECT_TRUE(plugin.Score(state, pod, c.node_info(0), &score).IsSuccess());
    return score;
  };
  EXPECT_EQ(run(BalancedAllocation({}), pod_level), 100);  // v1.26: requests nothing
  EXPECT_EQ(run(BalancedAllocation({}, Gates135()), pod_level), 81);
  config::FeatureGates off = Gates135();
  off.pod_level_resources = false;
  EXPECT_EQ(run(BalancedAllocation({}, off), pod_level), -2);  // best effort without them

  // A pending pod whose status reports resized requests (1 cpu for 100m).
  Pod resized = PendingRequesting(R"("cpu":"100m")");
  ContainerStatus cs;
  cs.name = "c";
  cs.resources.emplace();
  cs.resources->requests = {{.name = Intern("cpu"), .value = 1, .milli = 1000}};
  resized.container_statuses.push_back(cs);
  // cpu 0.025 (v1.26) or 0.25 (v1.35), memory 0.
  EXPECT_EQ(run(BalancedAllocation({}), resized), 98);
  EXPECT_EQ(run(BalancedAllocation({}, Gates135()), resized), 87);
}

}  // namespace balanced_allocation_test
}  // namespace ksched::framework::noderesources
