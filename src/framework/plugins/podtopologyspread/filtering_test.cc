#include "framework/plugins/podtopologyspread/filtering.h"

#include <gtest/gtest.h>

#include <map>

#include "config/feature_gates.h"
#include "framework/plugins/podtopologyspread/plugin.h"
#include "framework/plugins/podtopologyspread/test_util.h"

namespace ksched::framework::plugins::podtopologyspread {
namespace podtopologyspread_filtering_test {

using ::ksched::testing::TestCluster;
using ::ksched::testing::TestPod;
using spread_testing::ListJson;
using spread_testing::NodeJson;
using spread_testing::PodJson;
using spread_testing::Spread;
using spread_testing::TestHandle;

const std::string kHost = "kubernetes.io/hostname";
const std::string kNotMatch = "node(s) didn't match pod topology spread constraints";
const std::string kMissing =
    "node(s) didn't match pod topology spread constraints (missing required label)";

// zone1: node-a (1 foo pod), node-b (2); zone2: node-x (1), node-y (0);
// node-z has no zone.
std::vector<std::string> ZoneCluster(const std::string& x_spec = "") {
  return {
      NodeJson("node-a", {{"zone", "zone1"}, {kHost, "node-a"}}),
      NodeJson("node-b", {{"zone", "zone1"}, {kHost, "node-b"}}),
      NodeJson("node-x", {{"zone", "zone2"}, {kHost, "node-x"}}, x_spec),
      NodeJson("node-y", {{"zone", "zone2"}, {kHost, "node-y"}}),
      NodeJson("node-z", {{kHost, "node-z"}}),
      PodJson("p-a1", "node-a", {{"foo", ""}}),
      PodJson("p-b1", "node-b", {{"foo", ""}}),
      PodJson("p-b2", "node-b", {{"foo", ""}}),
      PodJson("p-x1", "node-x", {{"foo", ""}}),
      PodJson("p-y1", "node-y", {{"bar", ""}}),
  };
}

Pod PodWith(std::vector<TopologySpreadConstraint> constraints,
            std::vector<std::pair<std::string, std::string>> labels = {{"foo", ""}},
            const std::string& extra_spec = "") {
  Pod pod = TestPod(PodJson("p", "", labels, "default", "", extra_spec));
  pod.spec.topology_spread_constraints = std::move(constraints);
  return pod;
}

// Filter's verdict per node: "" for success, else code and reason.
std::map<std::string, std::string> FilterAll(const PodTopologySpread& plugin,
                                             const CycleState& state, const Pod& pod,
                                             const ClusterState& cluster) {
  std::map<std::string, std::string> out;
  // The batch form answers as Filter's code on every node of the cluster.
  std::vector<NodeId> ids;
  for (NodeId id = 0; id < cluster.num_nodes(); ++id) ids.push_back(id);
  std::vector<Code> codes(ids.size());
  const bool answered = plugin.FilterCodesOf(state, pod, ids.data(), ids.size(), codes.data());
  EXPECT_EQ(answered, state.ReadAs<PreFilterState>(kPreFilterStateKey) != nullptr);
  if (answered) {
    for (NodeId id : ids) {
      EXPECT_EQ(codes[id], plugin.Filter(state, pod, cluster.node_info(id)).code())
          << cluster.node_info(id).name();
    }
  }
  for (const NodeInfo& node : cluster.node_infos()) {
    Status s = plugin.Filter(state, pod, node);
    std::string v;
    if (s.code() == Code::kUnschedulable) v = "U: " + s.Message();
    if (s.code() == Code::kUnschedulableAndUnresolvable) v = "UR: " + s.Message();
    if (s.IsError()) v = "E: " + s.Message();
    out[std::string(node.name())] = v;
  }
  return out;
}

std::map<std::string, std::string> RunFilter(TestHandle* handle, const Pod& pod,
                                             const config::PodTopologySpreadArgs& args = {}) {
  PodTopologySpread plugin(args, handle);
  CycleState state;
  Status s = plugin.PreFilter(&state, pod, nullptr);
  EXPECT_TRUE(s.IsSuccess()) << s.Message();
  return FilterAll(plugin, state, pod, handle->cluster());
}

TEST(PodTopologySpreadFilter, SpreadsByZone) {
  TestHandle handle(TestCluster(ListJson(ZoneCluster())));
  auto got = RunFilter(&handle, PodWith({Spread(1, "zone", "DoNotSchedule")}));
  EXPECT_EQ(got, (std::map<std::string, std::string>{{"node-a", "U: " + kNotMatch},
                                                     {"node-b", "U: " + kNotMatch},
                                                     {"node-x", ""},
                                                     {"node-y", ""},
                                                     {"node-z", "UR: " + kMissing}}));
}

TEST(PodTopologySpreadFilter, SelfMatchOnlyWhenThePodMatches) {
  // The pod does not carry foo: zone1 = 3 - 1 = 2 > 1 still fails, but a
  // maxSkew of 2 now lets zone1 through.
  TestHandle handle(TestCluster(ListJson(ZoneCluster())));
  auto got = RunFilter(&handle, PodWith({Spread(2, "zone", "DoNotSchedule")}, {{"bar", ""}}));
  EXPECT_EQ(got["node-a"], "");
  EXPECT_EQ(got["node-x"], "");
}

TEST(PodTopologySpreadFilter, SoftConstraintsAndNoConstraintsPassEverywhere) {
  TestHandle handle(TestCluster(ListJson(ZoneCluster())));
  for (const Pod& pod : {PodWith({Spread(1, "zone", "ScheduleAnyway")}), PodWith({})}) {
    for (const auto& [node, verdict] : RunFilter(&handle, pod)) EXPECT_EQ(verdict, "") << node;
  }
}

TEST(PodTopologySpreadFilter, MinDomainsBehindItsGate) {
  auto constraint = Spread(1, "zone", "DoNotSchedule");
  constraint.min_domains = 3;  // only 2 zones: the global minimum becomes 0
  TestHandle handle(TestCluster(ListJson(ZoneCluster())));
  EXPECT_EQ(RunFilter(&handle, PodWith({constraint}))["node-x"], "");
  handle.gates.min_domains_in_pod_topology_spread = true;
  EXPECT_EQ(RunFilter(&handle, PodWith({constraint}))["node-x"], "U: " + kNotMatch);
  EXPECT_EQ(RunFilter(&handle, PodWith({constraint}))["node-a"], "U: " + kNotMatch);
}

TEST(PodTopologySpreadFilter, NodeAffinityPolicy) {
  // Only zone1 nodes pass the pod's nodeSelector: zone1 is the only domain
  // counted (min 3), so zone1 passes; zone2 has no pair (count 0) and passes.
  TestHandle handle(TestCluster(ListJson(ZoneCluster())));
  Pod honor = PodWith({Spread(1, "zone", "DoNotSchedule")}, {{"foo", ""}},
                      R"("nodeSelector":{"zone":"zone1"})");
  auto got = RunFilter(&handle, honor);
  EXPECT_EQ(got["node-a"], "");
  EXPECT_EQ(got["node-x"], "");
  // Ignore: every node counts again.
  honor.spec.topology_spread_constraints[0].node_affinity_policy = "Ignore";
  EXPECT_EQ(RunFilter(&handle, honor)["node-a"], "U: " + kNotMatch);
  // With the inclusion-policy gate off, the pod's affinity always filters.
  honor.spec.topology_spread_constraints[0].node_affinity_policy = "Ignore";
  handle.gates.node_inclusion_policy_in_pod_topology_spread = false;
  EXPECT_EQ(RunFilter(&handle, honor)["node-a"], "");
}

TEST(PodTopologySpreadFilter, NodeTaintsPolicy) {
  // node-x is tainted: honouring taints leaves zone2 with node-y alone (0
  // pods), so the minimum drops to 0 and only zone2 fits.
  TestHandle handle(TestCluster(
      ListJson(ZoneCluster(R"("taints":[{"key":"k","value":"v","effect":"NoSchedule"}])"))));
  auto constraint = Spread(1, "zone", "DoNotSchedule");
  constraint.node_taints_policy = "Honor";
  Pod pod = PodWith({constraint});
  auto got = RunFilter(&handle, pod);
  EXPECT_EQ(got["node-a"], "U: " + kNotMatch);
  EXPECT_EQ(got["node-x"], "");
  // A toleration puts node-x back: zone2 = 1, zone1 = 3 - 1 + 1 = 3 fails,
  // zone2 passes either way; check the counts instead.
  Toleration toleration;
  toleration.key = Intern("k");
  toleration.op = "Exists";
  pod.spec.tolerations.push_back(toleration);
  PodTopologySpread plugin({}, &handle);
  CycleState state;
  ASSERT_TRUE(plugin.PreFilter(&state, pod, nullptr).IsSuccess());
  const auto* s = state.ReadAs<PreFilterState>(kPreFilterStateKey);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->paths[0].paths[0].num, 1);
  EXPECT_EQ(Str(s->paths[0].paths[0].value), "zone2");
}

TEST(PodTopologySpreadFilter, AddAndRemovePodMoveTheCounts) {
  TestHandle handle(TestCluster(ListJson(ZoneCluster())));
  PodTopologySpread plugin({}, &handle);
  Pod pod = PodWith({Spread(1, "zone", "DoNotSchedule")});
  CycleState state;
  ASSERT_TRUE(plugin.PreFilter(&state, pod, nullptr).IsSuccess());
  const ClusterState& cluster = handle.cluster();
  PodInfo extra = MakePodInfo(TestPod(PodJson("new", "", {{"foo", ""}})));
  // zone2 gets a second pod: zone1 3, zone2 2; min 2.
  ASSERT_TRUE(
      plugin.AddPod(&state, pod, extra, cluster.node_info(cluster.FindNode("node-y"))).IsSuccess());
  auto got = FilterAll(plugin, state, pod, cluster);
  EXPECT_EQ(got["node-a"], "U: " + kNotMatch);  // 3 + 1 - 2 = 2
  EXPECT_EQ(got["node-x"], "");                 // 2 + 1 - 2 = 1
  // Removing two zone1 pods: zone1 1, zone2 2.
  const NodeInfo& b = cluster.node_info(cluster.FindNode("node-b"));
  ASSERT_TRUE(plugin.RemovePod(&state, pod, cluster.pod(b.pods[0]), b).IsSuccess());
  ASSERT_TRUE(plugin.RemovePod(&state, pod, cluster.pod(b.pods[1]), b).IsSuccess());
  got = FilterAll(plugin, state, pod, cluster);
  EXPECT_EQ(got["node-a"], "");                 // 1 + 1 - 1 = 1
  EXPECT_EQ(got["node-x"], "U: " + kNotMatch);  // 2 + 1 - 1 = 2
  // A pod of another namespace changes nothing.
  PodInfo other = MakePodInfo(TestPod(PodJson("o", "", {{"foo", ""}}, "other")));
  ASSERT_TRUE(plugin.AddPod(&state, pod, other, b).IsSuccess());
  EXPECT_EQ(FilterAll(plugin, state, pod, cluster), got);
}

TEST(PodTopologySpreadFilter, CloneIsIndependent) {
  TestHandle handle(TestCluster(ListJson(ZoneCluster())));
  PodTopologySpread plugin({}, &handle);
  Pod pod = PodWith({Spread(1, "zone", "DoNotSchedule")});
  CycleState state;
  ASSERT_TRUE(plugin.PreFilter(&state, pod, nullptr).IsSuccess());
  CycleState copy = state.Clone();
  const ClusterState& cluster = handle.cluster();
  const NodeInfo& b = cluster.node_info(cluster.FindNode("node-b"));
  ASSERT_TRUE(plugin.RemovePod(&copy, pod, cluster.pod(b.pods[0]), b).IsSuccess());
  EXPECT_EQ(state.ReadAs<PreFilterState>(kPreFilterStateKey)->counts[0],
            (std::vector<int64_t>{3, 1, 0}));
  EXPECT_EQ(copy.ReadAs<PreFilterState>(kPreFilterStateKey)->counts[0],
            (std::vector<int64_t>{2, 1, 0}));
}

TEST(PodTopologySpreadFilter, ConstraintsOnOneKeyShareItsPairs) {
  // Per node the last constraint on a key sets the pair's count: zone1
  // counts only bar pods (none), zone2 one.
  TestHandle handle(TestCluster(ListJson(ZoneCluster())));
  PodTopologySpread plugin({}, &handle);
  Pod pod = PodWith(
      {Spread(5, "zone", "DoNotSchedule", "foo"), Spread(5, "zone", "DoNotSchedule", "bar")});
  CycleState state;
  ASSERT_TRUE(plugin.PreFilter(&state, pod, nullptr).IsSuccess());
  const auto* s = state.ReadAs<PreFilterState>(kPreFilterStateKey);
  ASSERT_EQ(s->counts.size(), 1u);
  EXPECT_EQ(s->counts[0], (std::vector<int64_t>{0, 1, 0}));
}

TEST(PodTopologySpreadFilter, MatchLabelKeysBehindItsGate) {
  std::vector<std::string> items = {
      NodeJson("node-a", {{"zone", "zone1"}}),
      NodeJson("node-x", {{"zone", "zone2"}}),
      PodJson("p-a1", "node-a", {{"foo", ""}, {"app", "v1"}}),
      PodJson("p-x1", "node-x", {{"foo", ""}, {"app", "v2"}}),
      PodJson("p-x2", "node-x", {{"foo", ""}, {"app", "v2"}}),
  };
  TestHandle handle(TestCluster(ListJson(items)));
  auto constraint = Spread(1, "zone", "DoNotSchedule");
  constraint.match_label_keys = {"app"};
  Pod pod = PodWith({constraint}, {{"foo", ""}, {"app", "v2"}});
  // Gate off: every foo pod counts (1 / 2): zone2 = 2 + 1 - 1 = 2 fails.
  EXPECT_EQ(RunFilter(&handle, pod)["node-x"], "U: " + kNotMatch);
  // Gate on: only app=v2 pods count (0 / 2): zone2 = 3 fails, zone1 passes.
  handle.gates.match_label_keys_in_pod_topology_spread = true;
  auto got = RunFilter(&handle, pod);
  EXPECT_EQ(got["node-a"], "");
  EXPECT_EQ(got["node-x"], "U: " + kNotMatch);
  // The keys replace a nil selector instead of ANDing with Nothing().
  pod.spec.topology_spread_constraints[0].label_selector.reset();
  got = RunFilter(&handle, pod);
  EXPECT_EQ(got["node-a"], "");
  EXPECT_EQ(got["node-x"], "U: " + kNotMatch);
}

TEST(PodTopologySpreadFilter, InvalidSelectorIsAnError) {
  TestHandle handle(TestCluster(ListJson(ZoneCluster())));
  PodTopologySpread plugin({}, &handle);
  auto constraint = Spread(1, "zone", "DoNotSchedule");
  constraint.label_selector->match_expressions[0].op = "Bogus";
  CycleState state;
  Status s = plugin.PreFilter(&state, PodWith({constraint}), nullptr);
  EXPECT_TRUE(s.IsError());
  EXPECT_EQ(s.Message().rfind("obtaining pod's hard topology spread constraints: ", 0), 0u)
      << s.Message();
}

TEST(PodTopologySpreadFilter, MissingStateIsAnError) {
  TestHandle handle(TestCluster(ListJson(ZoneCluster())));
  PodTopologySpread plugin({}, &handle);
  CycleState state;
  Status s = plugin.Filter(state, PodWith({}), handle.cluster().node_info(0));
  EXPECT_EQ(s.Message(), "reading \"PreFilterPodTopologySpread\" from cycleState: not found");
}

// ---- v1.26 and v1.35 on one input (every version-keyed decision)

using config::SchedulerVersion;

// PreFilter and Filter on every node as release `v` decides, once counting
// every node's pods and once from kept counts (Handle::reuse_between_cycles):
// the two must agree. A PreFilter Skip gives {"": "skip"}.
std::map<std::string, std::string> RunVersion(const std::vector<std::string>& items, const Pod& pod,
                                              SchedulerVersion v) {
  std::map<std::string, std::string> results[2];
  for (bool reuse : {false, true}) {
    TestHandle handle(TestCluster(ListJson(items)));
    handle.gates = config::DefaultFeatureGates(v);
    handle.reuse = reuse;
    PodTopologySpread plugin({}, &handle);
    CycleState state;
    Status s = plugin.PreFilter(&state, pod, nullptr);
    if (s.IsSkip()) {
      results[reuse] = {{"", "skip"}};
      continue;
    }
    EXPECT_TRUE(s.IsSuccess()) << s.Message();
    results[reuse] = FilterAll(plugin, state, pod, handle.cluster());
  }
  EXPECT_EQ(results[0], results[1]) << "kept counts differ from counting";
  return results[0];
}

const std::map<std::string, std::string> kSkipped = {{"", "skip"}};

TEST(PodTopologySpreadFilterVersions, PreFilterSkipsWithoutHardConstraints) {
  const auto items = ZoneCluster();
  for (const Pod& pod : {PodWith({Spread(1, "zone", "ScheduleAnyway")}), PodWith({})}) {
    // v1.26: Filter runs on an empty state and passes every node.
    for (const auto& [node, verdict] : RunVersion(items, pod, SchedulerVersion::kV126))
      EXPECT_EQ(verdict, "") << node;
    EXPECT_EQ(RunVersion(items, pod, SchedulerVersion::kV135), kSkipped);
  }
}

TEST(PodTopologySpreadFilterVersions, ConstraintsOnOneKeyKeptApart) {
  // foo (maxSkew 1) and bar (maxSkew 5) on zone. v1.26: per node the bar
  // count overwrites foo's in the shared pairs (zone1 0, zone2 1), so the
  // foo constraint fails zone2; v1.35 counts foo alone (zone1 3, zone2 1)
  // and fails zone1.
  const auto items = ZoneCluster();
  const Pod pod = PodWith(
      {Spread(1, "zone", "DoNotSchedule", "foo"), Spread(5, "zone", "DoNotSchedule", "bar")});
  const auto v126 = RunVersion(items, pod, SchedulerVersion::kV126);
  EXPECT_EQ(v126.at("node-a"), "");
  EXPECT_EQ(v126.at("node-x"), "U: " + kNotMatch);
  const auto v135 = RunVersion(items, pod, SchedulerVersion::kV135);
  EXPECT_EQ(v135.at("node-a"), "U: " + kNotMatch);
  EXPECT_EQ(v135.at("node-x"), "");
  EXPECT_EQ(v135.at("node-z"), "UR: " + kMissing);
  // The v1.35 state: a slot per constraint.
  TestHandle handle(TestCluster(ListJson(items)));
  handle.gates = config::DefaultFeatureGates(SchedulerVersion::kV135);
  PodTopologySpread plugin({}, &handle);
  CycleState state;
  ASSERT_TRUE(plugin.PreFilter(&state, pod, nullptr).IsSuccess());
  const auto* s = state.ReadAs<PreFilterState>(kPreFilterStateKey);
  ASSERT_EQ(s->counts.size(), 2u);
  EXPECT_EQ(s->counts[0], (std::vector<int64_t>{3, 1, 0}));
  EXPECT_EQ(s->counts[1], (std::vector<int64_t>{0, 1, 0}));
}

TEST(PodTopologySpreadFilterVersions, EmptySelectorCountsNoPodInV135) {
  // labelSelector {} (Everything): v1.26 counts every pod of the namespace
  // (zone1 3, zone2 2: zone1 fails), v1.35 none (every zoned node passes).
  const auto items = ZoneCluster();
  auto constraint = Spread(1, "zone", "DoNotSchedule", "");
  constraint.label_selector = LabelSelector{};
  const Pod pod = PodWith({constraint});
  const auto v126 = RunVersion(items, pod, SchedulerVersion::kV126);
  EXPECT_EQ(v126.at("node-a"), "U: " + kNotMatch);
  EXPECT_EQ(v126.at("node-x"), "");
  const auto v135 = RunVersion(items, pod, SchedulerVersion::kV135);
  EXPECT_EQ(v135.at("node-a"), "");
  EXPECT_EQ(v135.at("node-x"), "");
  EXPECT_EQ(v135.at("node-z"), "UR: " + kMissing);
}

TEST(PodTopologySpreadFilterVersions, EmptySelectorStillCountsAddedPodsInV135) {
  // AddPod (a nominated pod) reads the selector itself, not
  // countPodsMatchSelector: the pod counts in node-a's zone.
  TestHandle handle(TestCluster(ListJson(ZoneCluster())));
  handle.gates = config::DefaultFeatureGates(SchedulerVersion::kV135);
  PodTopologySpread plugin({}, &handle);
  auto constraint = Spread(1, "zone", "DoNotSchedule", "");
  constraint.label_selector = LabelSelector{};
  const Pod pod = PodWith({constraint});
  CycleState state;
  ASSERT_TRUE(plugin.PreFilter(&state, pod, nullptr).IsSuccess());
  const ClusterState& cluster = handle.cluster();
  PodInfo nominated = MakePodInfo(TestPod(PodJson("nom", "", {{"bar", ""}})));
  ASSERT_TRUE(plugin.AddPod(&state, pod, nominated, cluster.node_info(cluster.FindNode("node-a")))
                  .IsSuccess());
  auto got = FilterAll(plugin, state, pod, cluster);
  EXPECT_EQ(got["node-a"], "U: " + kNotMatch);  // 1 + 1 - 0
  EXPECT_EQ(got["node-x"], "");
}

TEST(PodTopologySpreadFilterVersions, MatchLabelKeysOnANilSelector) {
  // The pod's app=v2 merged into a nil selector: v1.26 counts app=v2 pods
  // (zone1 0, zone2 2: zone2 fails), v1.35 keeps Nothing() (no pod counts,
  // the pod does not match itself: every node passes). Both with the gate
  // on (beta on in v1.35).
  std::vector<std::string> items = {
      NodeJson("node-a", {{"zone", "zone1"}}),
      NodeJson("node-x", {{"zone", "zone2"}}),
      PodJson("p-x1", "node-x", {{"app", "v2"}}),
      PodJson("p-x2", "node-x", {{"app", "v2"}}),
  };
  auto constraint = Spread(1, "zone", "DoNotSchedule", "");
  constraint.match_label_keys = {"app"};
  const Pod pod = PodWith({constraint}, {{"app", "v2"}});
  TestHandle v126(TestCluster(ListJson(items)));
  v126.gates.match_label_keys_in_pod_topology_spread = true;
  auto got = RunFilter(&v126, pod);
  EXPECT_EQ(got["node-a"], "");
  EXPECT_EQ(got["node-x"], "U: " + kNotMatch);
  const auto v135 = RunVersion(items, pod, SchedulerVersion::kV135);
  EXPECT_EQ(v135.at("node-a"), "");
  EXPECT_EQ(v135.at("node-x"), "");
}

TEST(PodTopologySpreadFilterVersions, MergedSelectorCountsAsUnmerged) {
  // The API server already merged matchLabelKeys (app In [v2]): the
  // scheduler merges again, and the repeated requirement changes nothing.
  std::vector<std::string> items = {
      NodeJson("node-a", {{"zone", "zone1"}}),
      NodeJson("node-x", {{"zone", "zone2"}}),
      PodJson("p-a1", "node-a", {{"foo", ""}, {"app", "v1"}}),
      PodJson("p-x1", "node-x", {{"foo", ""}, {"app", "v2"}}),
      PodJson("p-x2", "node-x", {{"foo", ""}, {"app", "v2"}}),
  };
  auto constraint = Spread(1, "zone", "DoNotSchedule");
  constraint.match_label_keys = {"app"};
  const Pod pod = PodWith({constraint}, {{"foo", ""}, {"app", "v2"}});
  Pod merged = pod;
  merged.spec.topology_spread_constraints[0].label_selector->match_expressions.push_back(
      SelectorRequirement{"app", "In", {"v2"}});
  const auto got = RunVersion(items, pod, SchedulerVersion::kV135);
  EXPECT_EQ(RunVersion(items, merged, SchedulerVersion::kV135), got);
  EXPECT_EQ(got.at("node-a"), "");
  EXPECT_EQ(got.at("node-x"), "U: " + kNotMatch);
}

TEST(PodTopologySpreadFilterVersions, MinDomainsWithoutAGateInV135) {
  auto constraint = Spread(1, "zone", "DoNotSchedule");
  constraint.min_domains = 3;  // only 2 zones: the global minimum becomes 0
  const Pod pod = PodWith({constraint});
  EXPECT_EQ(RunVersion(ZoneCluster(), pod, SchedulerVersion::kV126).at("node-x"), "");
  EXPECT_EQ(RunVersion(ZoneCluster(), pod, SchedulerVersion::kV135).at("node-x"),
            "U: " + kNotMatch);
}

TEST(PodTopologySpreadFilterVersions, ComparisonTolerationsBehindTheirGate) {
  // node-x carries k=5:NoSchedule; the pod tolerates k Lt 10. With
  // TaintTolerationComparisonOperators (alpha, off by default) that
  // tolerates the taint and node-x counts for nodeTaintsPolicy Honor.
  const auto items = ZoneCluster(R"("taints":[{"key":"k","value":"5","effect":"NoSchedule"}])");
  auto constraint = Spread(1, "zone", "DoNotSchedule");
  constraint.node_taints_policy = "Honor";
  Pod pod = PodWith({constraint});
  Toleration lt;
  lt.key = Intern("k");
  lt.op = "Lt";
  lt.value = Intern("10");
  pod.spec.tolerations.push_back(lt);
  for (bool gate : {false, true}) {
    TestHandle handle(TestCluster(ListJson(items)));
    handle.gates = config::DefaultFeatureGates(SchedulerVersion::kV135);
    handle.gates.taint_toleration_comparison_operators = gate;
    PodTopologySpread plugin({}, &handle);
    CycleState state;
    ASSERT_TRUE(plugin.PreFilter(&state, pod, nullptr).IsSuccess());
    const auto* s = state.ReadAs<PreFilterState>(kPreFilterStateKey);
    // zone2's pods: node-x's one only when node-x is included.
    EXPECT_EQ(s->counts[0][1], gate ? 1 : 0) << gate;
  }
}

TEST(PodTopologySpreadFilterVersions, InvalidSelectorErrorWrappedOnceMoreInV135) {
  auto constraint = Spread(1, "zone", "DoNotSchedule");
  constraint.label_selector->match_expressions[0].op = "Bogus";
  for (SchedulerVersion v : {SchedulerVersion::kV126, SchedulerVersion::kV135}) {
    TestHandle handle(TestCluster(ListJson(ZoneCluster())));
    handle.gates = config::DefaultFeatureGates(v);
    PodTopologySpread plugin({}, &handle);
    CycleState state;
    Status s = plugin.PreFilter(&state, PodWith({constraint}), nullptr);
    EXPECT_TRUE(s.IsError());
    const std::string want =
        std::string(v == SchedulerVersion::kV135 ? "get constraints from pod: " : "") +
        "obtaining pod's hard topology spread constraints: ";
    EXPECT_EQ(s.Message().rfind(want, 0), 0u) << s.Message();
  }
}

TEST(PodTopologySpreadCriticalPaths, KeepsTheMinimumFirst) {
  CriticalPaths p;
  p.Update(Intern("a"), 3);
  p.Update(Intern("b"), 1);
  p.Update(Intern("c"), 2);
  EXPECT_EQ(Str(p.paths[0].value), "b");
  EXPECT_EQ(p.paths[0].num, 1);
  EXPECT_EQ(Str(p.paths[1].value), "c");
  p.Update(Intern("b"), 4);  // known value: swapped behind
  EXPECT_EQ(Str(p.paths[0].value), "c");
  EXPECT_EQ(p.paths[0].num, 2);
  EXPECT_EQ(p.paths[1].num, 4);
}

}  // namespace podtopologyspread_filtering_test
}  // namespace ksched::framework::plugins::podtopologyspread
