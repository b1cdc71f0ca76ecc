#include "framework/plugins/noderesources/balanced_allocation.h"

#include <gtest/gtest.h>

#include <cmath>

#include "framework/plugins/registry_factories.h"
#include "tests/fixtures.h"

namespace ksched::framework::noderesources {
namespace {

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

}  // namespace
}  // namespace ksched::framework::noderesources
