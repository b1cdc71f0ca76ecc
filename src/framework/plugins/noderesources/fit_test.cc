#include "framework/plugins/noderesources/fit.h"

#include <gtest/gtest.h>

#include "framework/plugins/registry_factories.h"
#include "tests/fixtures.h"

namespace ksched::framework::noderesources {
namespace {

using ksched::testing::TestCluster;
using ksched::testing::TestPod;
using Reasons = std::vector<std::string>;

// A node with the given allocatable map (JSON object body) and pods running
// on it with the given requests.
std::string NodeJson(const std::string& name, const std::string& allocatable) {
  return R"({"kind":"Node","metadata":{"name":")" + name + R"("},"status":{"allocatable":{)" +
         allocatable + "}}}";
}
std::string PodJson(const std::string& name, const std::string& node, const std::string& requests) {
  return R"({"kind":"Pod","metadata":{"name":")" + name +
         R"(","namespace":"default"},"spec":{"nodeName":")" + node +
         R"(","containers":[{"name":"c","resources":{"requests":{)" + requests + "}}}]}}";
}
ClusterState Cluster(const std::vector<std::string>& items) {
  std::string list = R"({"kind":"List","items":[)";
  for (size_t i = 0; i < items.size(); ++i) list += (i ? "," : "") + items[i];
  return TestCluster(list + "]}");
}
Pod Pending(const std::string& spec) {
  return TestPod(R"({"kind":"Pod","metadata":{"name":"p","namespace":"default"},"spec":)" + spec +
                 "}");
}
Pod PendingRequesting(const std::string& requests) {
  return Pending(R"({"containers":[{"name":"c","resources":{"requests":{)" + requests + "}}}]}");
}

std::unique_ptr<Fit> MakeFit(const config::NodeResourcesFitArgs& args = {}) {
  Status error;
  auto fit = Fit::New(args, &error);
  EXPECT_TRUE(error.IsSuccess()) << error.Message();
  return fit;
}

Status RunFilter(const Fit& fit, const Pod& pod, const NodeInfo& node) {
  CycleState state;
  PreFilterResult result;
  EXPECT_TRUE(const_cast<Fit&>(fit).PreFilter(&state, pod, &result).IsSuccess());
  return fit.Filter(state, pod, node);
}

int64_t RunScore(Fit& fit, const Pod& pod, const NodeInfo& node, bool pre_score = true) {
  CycleState state;
  if (pre_score) {
    EXPECT_TRUE(fit.PreScore(&state, pod, {node.id}).IsSuccess());
  }
  int64_t score = -1;
  EXPECT_TRUE(fit.Score(state, pod, node, &score).IsSuccess());
  return score;
}

TEST(NodeResourcesFitRequest, InitContainersMaxAndOverheadAdded) {
  Pod pod = Pending(R"({"initContainers":[
      {"name":"i1","resources":{"requests":{"cpu":"2","memory":"1G"}}},
      {"name":"i2","resources":{"requests":{"cpu":"2","memory":"3G"}}}],
    "containers":[
      {"name":"c1","resources":{"requests":{"cpu":"2","memory":"1G"}}},
      {"name":"c2","resources":{"requests":{"cpu":"1","memory":"1G"}}}]})");
  pod.spec.overhead = {{Intern("cpu"), 1, 500}, {Intern("memory"), 1000, 1000000}};
  Resource r = ComputePodResourceRequest(pod);
  EXPECT_EQ(r.milli_cpu, 3500);
  EXPECT_EQ(r.memory, 3000001000);
}

TEST(NodeResourcesFitRequest, ZeroInitContainerScalarStillCreatesAnEntry) {
  Pod pod = Pending(R"({"initContainers":[
      {"name":"i","resources":{"requests":{"example.com/foo":"0"}}}],
    "containers":[{"name":"c"}]})");
  Resource r = ComputePodResourceRequest(pod);
  ASSERT_EQ(r.scalars.size(), 1u);
  EXPECT_EQ(r.scalars[0].second, 0);
}

TEST(NodeResourcesFitFilter, ReasonsInUpstreamOrder) {
  ClusterState c = Cluster({NodeJson("n", R"("cpu":"1","memory":"1Gi","pods":"1",
      "ephemeral-storage":"1Gi","example.com/gpu":"1","hugepages-2Mi":"2Mi")"),
                            PodJson("a", "n", R"("cpu":"500m")")});
  auto fit = MakeFit();
  Pod pod = PendingRequesting(R"("cpu":"600m","memory":"2Gi","ephemeral-storage":"2Gi",
      "hugepages-2Mi":"4Mi","example.com/gpu":"2")");
  Status s = RunFilter(*fit, pod, c.node_info(0));
  EXPECT_EQ(s.code(), Code::kUnschedulable);
  EXPECT_EQ(s.reasons(), (Reasons{"Too many pods", "Insufficient cpu", "Insufficient memory",
                                  "Insufficient ephemeral-storage", "Insufficient example.com/gpu",
                                  "Insufficient hugepages-2Mi"}));
}

TEST(NodeResourcesFitFilter, FitsExactlyAndEmptyPodOnlyCountsPods) {
  ClusterState c = Cluster({NodeJson("n", R"("cpu":"1","memory":"1Gi","pods":"2")"),
                            PodJson("a", "n", R"("cpu":"500m")")});
  auto fit = MakeFit();
  EXPECT_TRUE(RunFilter(*fit, PendingRequesting(R"("cpu":"500m")"), c.node_info(0)).IsSuccess());
  EXPECT_EQ(RunFilter(*fit, PendingRequesting(R"("cpu":"501m")"), c.node_info(0)).reasons(),
            Reasons{"Insufficient cpu"});
  ClusterState full =
      Cluster({NodeJson("n", R"("cpu":"1","pods":"1")"), PodJson("a", "n", R"("cpu":"2")")});
  // Nothing requested: only the pod count is checked, although the node is
  // over-committed.
  EXPECT_EQ(
      RunFilter(*fit, Pending(R"({"containers":[{"name":"c"}]})"), full.node_info(0)).reasons(),
      Reasons{"Too many pods"});
  // A zero scalar request still makes upstream check cpu against the
  // over-committed node.
  EXPECT_EQ(
      RunFilter(*fit, PendingRequesting(R"("example.com/foo":"0")"), full.node_info(0)).reasons(),
      (Reasons{"Too many pods", "Insufficient cpu"}));
}

TEST(NodeResourcesFitFilter, IgnoredResourcesAndGroupsOnlyForExtendedResources) {
  ClusterState c = Cluster({NodeJson("n", R"("cpu":"1","pods":"10")")});
  Pod pod = PendingRequesting(R"("example.com/gpu":"1","other.io/fpga":"1","hugepages-2Mi":"2Mi")");
  EXPECT_EQ(RunFilter(*MakeFit(), pod, c.node_info(0)).reasons(),
            (Reasons{"Insufficient example.com/gpu", "Insufficient hugepages-2Mi",
                     "Insufficient other.io/fpga"}));
  config::NodeResourcesFitArgs args;
  args.ignored_resource_groups = {"example.com", "hugepages-2Mi"};
  args.ignored_resources = {"other.io/fpga"};
  EXPECT_EQ(RunFilter(*MakeFit(args), pod, c.node_info(0)).reasons(),
            Reasons{"Insufficient hugepages-2Mi"});
}

TEST(NodeResourcesFitFilter, MissingPreFilterStateIsAnError) {
  ClusterState c = Cluster({NodeJson("n", R"("cpu":"1")")});
  CycleState state;
  Pod pod = PendingRequesting(R"("cpu":"1")");
  Status s = MakeFit()->Filter(state, pod, c.node_info(0));
  EXPECT_TRUE(s.IsError());
  EXPECT_EQ(s.Message(), "error reading \"PreFilterNodeResourcesFit\" from cycleState: not found");
}

TEST(NodeResourcesFitScore, LeastAllocatedUsesNonZeroDefaults) {
  // Node: 4 cpu, 10Gi. Running pod has no requests: counts 100m / 200Mi.
  ClusterState c =
      Cluster({NodeJson("n", R"("cpu":"4","memory":"10Gi","pods":"10")"), PodJson("a", "n", "")});
  auto fit = MakeFit();
  Pod pod = PendingRequesting(R"("cpu":"1900m")");
  // cpu: (4000 - 2000) * 100 / 4000 = 50; memory: (10240 - 400) * 100 / 10240 = 96.
  EXPECT_EQ(RunScore(*fit, pod, c.node_info(0)), (50 + 96) / 2);
  EXPECT_EQ(RunScore(*fit, pod, c.node_info(0), /*pre_score=*/false), (50 + 96) / 2);
}

TEST(NodeResourcesFitScore, MostAllocatedWeighted) {
  ClusterState c = Cluster({NodeJson("n", R"("cpu":"4","memory":"10Gi","pods":"10")"),
                            PodJson("a", "n", R"("cpu":"1","memory":"1Gi")")});
  config::NodeResourcesFitArgs args;
  args.scoring_strategy.type = config::kMostAllocated;
  args.scoring_strategy.resources = {{"cpu", 3}, {"memory", 1}};
  auto fit = MakeFit(args);
  Pod pod = PendingRequesting(R"("cpu":"2","memory":"1Gi")");
  // cpu 3000/4000 -> 75 (x3); memory 2Gi/10Gi -> 20.
  EXPECT_EQ(RunScore(*fit, pod, c.node_info(0)), (75 * 3 + 20) / 4);
}

TEST(NodeResourcesFitScore, ExtendedResourceOnlyWhenRequested) {
  ClusterState c = Cluster({NodeJson("n", R"("cpu":"4","memory":"4Gi","example.com/gpu":"4")")});
  config::NodeResourcesFitArgs args;
  args.scoring_strategy.resources = {{"cpu", 1}, {"memory", 1}, {"example.com/gpu", 2}};
  auto fit = MakeFit(args);
  // cpu 1000/4000 -> 75, memory 1Gi/4Gi -> 75; gpu left out.
  EXPECT_EQ(RunScore(*fit, PendingRequesting(R"("cpu":"1","memory":"1Gi")"), c.node_info(0)), 75);
  // gpu 3/4 requested -> 25, weight 2: (75 + 75 + 50) / 4 = 50.
  EXPECT_EQ(RunScore(*fit, PendingRequesting(R"("cpu":"1","memory":"1Gi","example.com/gpu":"3")"),
                     c.node_info(0)),
            50);
}

TEST(NodeResourcesFitScore, OverheadAddsWholeUnitsEvenForCpu) {
  ClusterState c = Cluster({NodeJson("n", R"("cpu":"1","memory":"1Gi")")});
  config::NodeResourcesFitArgs args;
  args.scoring_strategy.type = config::kMostAllocated;
  args.scoring_strategy.resources = {{"cpu", 1}};
  auto fit = MakeFit(args);
  Pod pod = PendingRequesting(R"("cpu":"499m")");
  EXPECT_EQ(RunScore(*fit, pod, c.node_info(0)), 49);
  // 250m of overhead is Value() 1 in upstream's scoring: 500/1000 -> 50.
  pod.spec.overhead = {{Intern("cpu"), 1, 250}};
  EXPECT_EQ(RunScore(*fit, pod, c.node_info(0)), 50);
}

TEST(NodeResourcesFitScore, RequestedToCapacityRatioRoundsTheMean) {
  ClusterState c = Cluster({NodeJson("n", R"("cpu":"10","memory":"10Gi")")});
  config::NodeResourcesFitArgs args;
  args.scoring_strategy.type = config::kRequestedToCapacityRatio;
  args.scoring_strategy.resources = {{"cpu", 1}, {"memory", 2}};
  args.scoring_strategy.requested_to_capacity_ratio.shape = {{0, 0}, {70, 7}, {100, 10}};
  auto fit = MakeFit(args);
  // cpu 35% -> 35; memory 1Gi/10Gi = 10% -> 10: (35 + 2 * 10) / 3 = 18.33 -> 18.
  EXPECT_EQ(RunScore(*fit, PendingRequesting(R"("cpu":"3500m","memory":"1Gi")"), c.node_info(0)),
            18);
  // memory 0.5% -> 0 is left out of the mean: cpu 35 alone.
  EXPECT_EQ(RunScore(*fit, PendingRequesting(R"("cpu":"3500m","memory":"50Mi")"), c.node_info(0)),
            35);
}

TEST(NodeResourcesFitFactory, DefaultsAndBadArgs) {
  Status error;
  EXPECT_NE(plugins::NewNodeResourcesFit(config::PluginArgs{}, nullptr, &error), nullptr);
  EXPECT_TRUE(error.IsSuccess());
  EXPECT_EQ(
      plugins::NewNodeResourcesFit(config::NodeResourcesBalancedAllocationArgs{}, nullptr, &error),
      nullptr);
  EXPECT_EQ(error.Message(),
            "want args to be of type NodeResourcesFitArgs, got "
            "*config.NodeResourcesBalancedAllocationArgs");
  config::NodeResourcesFitArgs args;
  args.scoring_strategy.type = "Nope";
  error = Status();
  EXPECT_EQ(plugins::NewNodeResourcesFit(args, nullptr, &error), nullptr);
  EXPECT_EQ(error.Message(), "scoring strategy Nope is not supported");
  auto fit = plugins::NewNodeResourcesFit(config::PluginArgs{}, nullptr, &error);
  auto* ext = dynamic_cast<EnqueueExtensions*>(fit.get());
  ASSERT_NE(ext, nullptr);
  auto events = ext->EventsToRegister();
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].resource, EventResource::kPod);
  EXPECT_EQ(events[0].action, uint32_t{kDelete});
  EXPECT_EQ(events[1].action, uint32_t{kAdd | kUpdate});
}

}  // namespace
}  // namespace ksched::framework::noderesources
