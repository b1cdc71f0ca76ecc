#include "framework/plugins/noderesources/fit.h"

#include <gtest/gtest.h>

#include "config/feature_gates.h"
#include "framework/cache_options.h"
#include "framework/plugins/registry_factories.h"
#include "tests/fixtures.h"

namespace ksched::framework::noderesources {
namespace fit_test {

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
  pod.spec.overhead = {{.name = Intern("cpu"), .value = 1, .milli = 500},
                       {.name = Intern("memory"), .value = 1000, .milli = 1000000}};
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
  pod.spec.overhead = {{.name = Intern("cpu"), .value = 1, .milli = 250}};
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

// ---------------------------------------------------------------- v1.35

config::FeatureGates Gates135() {
  return config::DefaultFeatureGates(config::SchedulerVersion::kV135);
}

// A cluster counted as the v1.35 framework counts it.
ClusterState Cluster135(const std::vector<std::string>& items) {
  std::string list = R"({"kind":"List","items":[)";
  for (size_t i = 0; i < items.size(); ++i) list += (i ? "," : "") + items[i];
  return TestCluster(list + "]}", FrameworkCacheOptions(Gates135()));
}

std::unique_ptr<Fit> MakeFit135(const config::NodeResourcesFitArgs& args = {},
                                config::FeatureGates gates = Gates135()) {
  Status error;
  auto fit = Fit::New(args, &error, gates);
  EXPECT_TRUE(error.IsSuccess()) << error.Message();
  return fit;
}

TEST(NodeResourcesFitVersions, FilterChecksOnlyRequestedResourcesInV135) {
  // The node is over-committed on cpu; the pod asks for memory only.
  const std::vector<std::string> items = {NodeJson("n", R"("cpu":"1","memory":"4Gi","pods":"10")"),
                                          PodJson("a", "n", R"("cpu":"2")")};
  ClusterState c126 = Cluster(items), c135 = Cluster135(items);
  Pod pod = PendingRequesting(R"("memory":"1Gi")");
  Status v126 = RunFilter(*MakeFit(), pod, c126.node_info(0));
  EXPECT_EQ(v126.code(), Code::kUnschedulable);
  EXPECT_EQ(v126.reasons(), Reasons{"Insufficient cpu"});
  EXPECT_TRUE(RunFilter(*MakeFit135(), pod, c135.node_info(0)).IsSuccess());
}

TEST(NodeResourcesFitVersions, RequestBeyondAllocatableIsUnresolvableInV135) {
  const std::vector<std::string> items = {NodeJson("n", R"("cpu":"4","memory":"4Gi","pods":"10")"),
                                          PodJson("a", "n", R"("cpu":"3")")};
  ClusterState c126 = Cluster(items), c135 = Cluster135(items);
  // 16 cpu: no node of 4 ever holds it.
  Pod huge = PendingRequesting(R"("cpu":"16")");
  EXPECT_EQ(RunFilter(*MakeFit(), huge, c126.node_info(0)).code(), Code::kUnschedulable);
  Status s = RunFilter(*MakeFit135(), huge, c135.node_info(0));
  EXPECT_EQ(s.code(), Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(s.reasons(), Reasons{"Insufficient cpu"});
  // 2 cpu fits once the running pod goes: preemption may help.
  Pod two = PendingRequesting(R"("cpu":"2")");
  EXPECT_EQ(RunFilter(*MakeFit135(), two, c135.node_info(0)).code(), Code::kUnschedulable);
  // One unresolvable resource among others makes the whole status so.
  Pod both = PendingRequesting(R"("cpu":"2","memory":"5Gi")");
  Status mixed = RunFilter(*MakeFit135(), both, c135.node_info(0));
  EXPECT_EQ(mixed.code(), Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(mixed.reasons(), (Reasons{"Insufficient cpu", "Insufficient memory"}));
  // A scalar the node lacks entirely.
  Pod gpu = PendingRequesting(R"("example.com/gpu":"1")");
  EXPECT_EQ(RunFilter(*MakeFit(), gpu, c126.node_info(0)).code(), Code::kUnschedulable);
  EXPECT_EQ(RunFilter(*MakeFit135(), gpu, c135.node_info(0)).code(),
            Code::kUnschedulableAndUnresolvable);
}

TEST(NodeResourcesFitVersions, TooManyPodsStaysResolvable) {
  const std::vector<std::string> items = {NodeJson("n", R"("cpu":"4","pods":"1")"),
                                          PodJson("a", "n", "")};
  ClusterState c135 = Cluster135(items);
  Status s = RunFilter(*MakeFit135(), PendingRequesting(R"("cpu":"1")"), c135.node_info(0));
  EXPECT_EQ(s.code(), Code::kUnschedulable);
  EXPECT_EQ(s.reasons(), Reasons{"Too many pods"});
}

TEST(NodeResourcesFitVersions, SidecarsAddToTheRequestInV135) {
  // Containers 1 cpu; a sidecar of 500m first, then an init container of 2:
  // v1.35 counts max(1 + 0.5, 2 + 0.5) = 2.5, v1.26 max(1, 0.5, 2) = 2.
  Pod pod = Pending(R"({"initContainers":[
      {"name":"proxy","restartPolicy":"Always","resources":{"requests":{"cpu":"500m"}}},
      {"name":"init","resources":{"requests":{"cpu":"2"}}}],
    "containers":[{"name":"c","resources":{"requests":{"cpu":"1"}}}]})");
  EXPECT_EQ(MakeFit()->MakeFitRequest(pod)->milli_cpu, 2000);
  EXPECT_EQ(MakeFit135()->MakeFitRequest(pod)->milli_cpu, 2500);
  const std::vector<std::string> items = {NodeJson("n", R"("cpu":"2","pods":"10")")};
  ClusterState c126 = Cluster(items), c135 = Cluster135(items);
  EXPECT_TRUE(RunFilter(*MakeFit(), pod, c126.node_info(0)).IsSuccess());
  EXPECT_EQ(RunFilter(*MakeFit135(), pod, c135.node_info(0)).reasons(),
            Reasons{"Insufficient cpu"});
}

TEST(NodeResourcesFitVersions, PodLevelRequestsInV135WithTheGate) {
  Pod pod = Pending(R"({"resources":{"requests":{"cpu":"3","memory":"1Gi"}},
    "containers":[{"name":"c","resources":{"requests":{"cpu":"1"}}}]})");
  EXPECT_EQ(MakeFit()->MakeFitRequest(pod)->milli_cpu, 1000);
  auto v135 = MakeFit135()->MakeFitRequest(pod);
  EXPECT_EQ(v135->milli_cpu, 3000);
  EXPECT_EQ(v135->memory, int64_t{1} << 30);
  config::FeatureGates off = Gates135();
  off.pod_level_resources = false;
  EXPECT_EQ(MakeFit135({}, off)->MakeFitRequest(pod)->milli_cpu, 1000);
}

TEST(NodeResourcesFitVersions, SidecarsRefusedOnlyWithoutTheirGateInV135) {
  Pod pod = Pending(R"({"initContainers":[{"name":"proxy","restartPolicy":"Always"}],
    "containers":[{"name":"c"}]})");
  CycleState state;
  PreFilterResult result;
  EXPECT_TRUE(MakeFit()->PreFilter(&state, pod, &result).IsSuccess());
  EXPECT_TRUE(MakeFit135()->PreFilter(&state, pod, &result).IsSuccess());
  config::FeatureGates off = Gates135();
  off.sidecar_containers = false;
  Status s = MakeFit135({}, off)->PreFilter(&state, pod, &result);
  EXPECT_EQ(s.code(), Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(s.Message(),
            "Pod has a restartable init container and the SidecarContainers feature is disabled");
}

TEST(NodeResourcesFitVersions, ScoreAddsOverheadAsAQuantityInV135) {
  // 1 cpu / 1Gi with 250m / 100Mi overhead on a 4 cpu / 8Gi node
  // (LeastAllocated): v1.35 counts 1250m, v1.26 1001m.
  const std::vector<std::string> items = {NodeJson("n", R"("cpu":"4","memory":"8Gi","pods":"10")")};
  ClusterState c126 = Cluster(items), c135 = Cluster135(items);
  Pod pod = PendingRequesting(R"("cpu":"1","memory":"1Gi")");
  pod.spec.overhead = {
      {.name = Intern("cpu"), .value = 1, .milli = 250},
      {.name = Intern("memory"), .value = 100 << 20, .milli = int64_t{100 << 20} * 1000}};
  const int64_t mem = (8192 - 1124) * 100 / 8192;  // 86
  EXPECT_EQ(RunScore(*MakeFit(), pod, c126.node_info(0)), ((4000 - 1001) * 100 / 4000 + mem) / 2);
  EXPECT_EQ(RunScore(*MakeFit135(), pod, c135.node_info(0)),
            ((4000 - 1250) * 100 / 4000 + mem) / 2);
  EXPECT_EQ(RunScore(*MakeFit135(), pod, c135.node_info(0), /*pre_score=*/false), 77);
}

TEST(NodeResourcesFitVersions, ScoreIgnoresPodLevelRequestsButCountsSidecarsInV135) {
  const std::vector<std::string> items = {NodeJson("n", R"("cpu":"4","memory":"8Gi","pods":"10")")};
  ClusterState c126 = Cluster(items), c135 = Cluster135(items);
  // Only pod-level requests: upstream's Fit scorer never reads them, so the
  // pod scores as one container of 100m / 200Mi in both releases.
  Pod pod_level = Pending(R"({"resources":{"requests":{"cpu":"2","memory":"1Gi"}},
    "containers":[{"name":"c"}]})");
  const int64_t one = ((4000 - 100) * 100 / 4000 + (8192 - 200) * 100 / 8192) / 2;  // 97
  EXPECT_EQ(RunScore(*MakeFit(), pod_level, c126.node_info(0)), one);
  EXPECT_EQ(RunScore(*MakeFit135(), pod_level, c135.node_info(0)), one);
  // A sidecar without requests adds its own non-zero defaults in v1.35
  // (200m / 400Mi in all); v1.26 takes the larger of the two containers.
  Pod sidecar = Pending(R"({"initContainers":[{"name":"proxy","restartPolicy":"Always"}],
    "containers":[{"name":"c"}]})");
  EXPECT_EQ(RunScore(*MakeFit(), sidecar, c126.node_info(0)), one);
  EXPECT_EQ(RunScore(*MakeFit135(), sidecar, c135.node_info(0)),
            ((4000 - 200) * 100 / 4000 + (8192 - 400) * 100 / 8192) / 2);
}

}  // namespace fit_test
}  // namespace ksched::framework::noderesources
