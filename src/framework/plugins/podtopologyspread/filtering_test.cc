#include "framework/plugins/podtopologyspread/filtering.h"

#include <gtest/gtest.h>

#include <map>

#include "framework/plugins/podtopologyspread/plugin.h"
#include "framework/plugins/podtopologyspread/test_util.h"

namespace ksched::framework::plugins::podtopologyspread {
namespace {

using spread_testing::ListJson;
using spread_testing::NodeJson;
using spread_testing::PodJson;
using spread_testing::Spread;
using spread_testing::TestHandle;
using testing::TestCluster;
using testing::TestPod;

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

}  // namespace
}  // namespace ksched::framework::plugins::podtopologyspread
