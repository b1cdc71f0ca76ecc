#include "framework/plugins/podtopologyspread/scoring.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "config/feature_gates.h"
#include "framework/plugins/podtopologyspread/plugin.h"
#include "framework/plugins/podtopologyspread/test_util.h"

namespace ksched::framework::plugins::podtopologyspread {
namespace podtopologyspread_scoring_test {

using ::ksched::testing::TestCluster;
using ::ksched::testing::TestPod;
using spread_testing::ListJson;
using spread_testing::NodeJson;
using spread_testing::PodJson;
using spread_testing::Spread;
using spread_testing::TestHandle;

const std::string kHost = "kubernetes.io/hostname";

// The ids of the nodes named `feasible`, and PreScore over them into *state.
std::vector<NodeId> PreScoreOver(PodTopologySpread* plugin, const ClusterState& cluster,
                                 const Pod& pod, const std::vector<std::string>& feasible,
                                 CycleState* state) {
  std::vector<NodeId> ids;
  for (const auto& n : feasible) ids.push_back(cluster.FindNode(n));
  Status s = plugin->PreScore(state, pod, ids);
  EXPECT_TRUE(s.IsSuccess()) << s.Message();
  return ids;
}

// PreScore over `feasible`, Score each, NormalizeScore: name -> score.
std::map<std::string, int64_t> ScoreAll(TestHandle* handle, const Pod& pod,
                                        const std::vector<std::string>& feasible,
                                        const config::PodTopologySpreadArgs& args = {}) {
  PodTopologySpread plugin(args, handle);
  const ClusterState& cluster = handle->cluster();
  CycleState state;
  const std::vector<NodeId> ids = PreScoreOver(&plugin, cluster, pod, feasible, &state);
  Status s;
  NodeScoreList scores;
  for (NodeId id : ids) {
    int64_t score = 0;
    s = plugin.Score(state, pod, cluster.node_info(id), &score);
    EXPECT_TRUE(s.IsSuccess()) << s.Message();
    scores.push_back(NodeScore{id, score});
  }
  s = plugin.NormalizeScore(state, pod, &scores);
  EXPECT_TRUE(s.IsSuccess()) << s.Message();
  std::map<std::string, int64_t> out;
  for (const NodeScore& ns : scores) out[std::string(cluster.node(ns.node).meta.name)] = ns.score;
  return out;
}

// ScoreAll through the kept counts and ScoresOf, as the scheduler's reusing
// path asks; `handle` must have reuse set.
std::map<std::string, int64_t> ScoreAllKept(TestHandle* handle, const Pod& pod,
                                            const std::vector<std::string>& feasible) {
  PodTopologySpread plugin({}, handle);
  const ClusterState& cluster = handle->cluster();
  CycleState state;
  const std::vector<NodeId> ids = PreScoreOver(&plugin, cluster, pod, feasible, &state);
  NodeScoreList scores(ids.size());
  EXPECT_TRUE(plugin.ScoresOf(state, pod, ids.data(), ids.size(), scores.data()));
  Status s = plugin.NormalizeScore(state, pod, &scores);
  EXPECT_TRUE(s.IsSuccess()) << s.Message();
  // The one-pass form adds the same scores, weighted, onto totals.
  std::vector<int64_t> totals(ids.size(), 7);
  bool out_of_range = false;
  EXPECT_TRUE(plugin.ScoreNormalizeAndAdd(state, pod, ids.data(), ids.size(), 3, totals.data(),
                                          &out_of_range));
  EXPECT_FALSE(out_of_range);
  std::map<std::string, int64_t> out;
  for (size_t k = 0; k < scores.size(); ++k) {
    const NodeScore& ns = scores[k];
    EXPECT_EQ(totals[k], 7 + 3 * ns.score) << k;
    out[std::string(cluster.node(ns.node).meta.name)] = ns.score;
  }
  return out;
}

Pod PodWith(std::vector<TopologySpreadConstraint> constraints,
            std::vector<std::pair<std::string, std::string>> labels = {{"foo", ""}}) {
  Pod pod = TestPod(PodJson("p", "", labels));
  pod.spec.topology_spread_constraints = std::move(constraints);
  return pod;
}

std::vector<std::string> HostNodes(const std::vector<std::string>& names) {
  std::vector<std::string> out;
  for (const auto& n : names) out.push_back(NodeJson(n, {{kHost, n}}));
  return out;
}

// Pods p-<node><i> labelled foo, `counts[j]` of them on node j.
void AddFooPods(std::vector<std::string>* items, const std::vector<std::string>& nodes,
                const std::vector<int>& counts) {
  for (size_t j = 0; j < nodes.size(); ++j)
    for (int i = 0; i < counts[j]; ++i)
      items->push_back(PodJson("p-" + nodes[j] + std::to_string(i), nodes[j], {{"foo", ""}}));
}

TEST(PodTopologySpreadScore, OneConstraintOnNodeAllCandidates) {
  const std::vector<std::string> nodes = {"node-a", "node-b", "node-c", "node-d"};
  for (auto [skew, want] : std::vector<std::pair<int, std::vector<int64_t>>>{
           {1, {20, 60, 100, 0}}, {2, {33, 66, 100, 16}}}) {
    auto items = HostNodes(nodes);
    AddFooPods(&items, nodes, {2, 1, 0, 3});
    TestHandle handle(TestCluster(ListJson(items)));
    auto got = ScoreAll(&handle, PodWith({Spread(skew, kHost, "ScheduleAnyway")}), nodes);
    EXPECT_EQ(
        got,
        (std::map<std::string, int64_t>{
            {"node-a", want[0]}, {"node-b", want[1]}, {"node-c", want[2]}, {"node-d", want[3]}}))
        << "maxSkew " << skew;
  }
}

TEST(PodTopologySpreadScore, MaxSkewThree) {
  const std::vector<std::string> nodes = {"node-a", "node-b", "node-c", "node-d"};
  auto items = HostNodes(nodes);
  AddFooPods(&items, nodes, {4, 3, 2, 1});
  TestHandle handle(TestCluster(ListJson(items)));
  auto got = ScoreAll(&handle, PodWith({Spread(3, kHost, "ScheduleAnyway")}), nodes);
  EXPECT_EQ(got, (std::map<std::string, int64_t>{
                     {"node-a", 44}, {"node-b", 66}, {"node-c", 77}, {"node-d", 100}}));
}

TEST(PodTopologySpreadScore, SystemDefaultingUsesServiceSelector) {
  const std::vector<std::string> nodes = {"node-a", "node-b", "node-c", "node-d"};
  auto items = HostNodes(nodes);
  AddFooPods(&items, nodes, {4, 3, 2, 1});
  items.push_back(
      R"({"kind":"Service","apiVersion":"v1","metadata":{"name":"s","namespace":"default"},"spec":{"selector":{"foo":""}}})");
  TestHandle handle(TestCluster(ListJson(items)));
  // Nodes have no zone: with system defaults they still spread by hostname.
  auto got = ScoreAll(&handle, PodWith({}), nodes);
  EXPECT_EQ(got, (std::map<std::string, int64_t>{
                     {"node-a", 44}, {"node-b", 66}, {"node-c", 77}, {"node-d", 100}}));
}

TEST(PodTopologySpreadScore, NoSoftConstraintsScoresEveryNodeMax) {
  const std::vector<std::string> nodes = {"node-a", "node-b"};
  auto items = HostNodes(nodes);
  AddFooPods(&items, nodes, {2, 0});
  TestHandle handle(TestCluster(ListJson(items)));
  auto got = ScoreAll(&handle, PodWith({Spread(1, kHost, "DoNotSchedule")}), nodes);
  EXPECT_EQ(got, (std::map<std::string, int64_t>{{"node-a", 100}, {"node-b", 100}}));
}

TEST(PodTopologySpreadScore, ThreeOfFourCandidates) {
  const std::vector<std::string> nodes = {"node-a", "node-b", "node-x", "node-y"};
  auto items = HostNodes(nodes);
  AddFooPods(&items, nodes, {4, 2, 1, 3});
  TestHandle handle(TestCluster(ListJson(items)));
  auto got = ScoreAll(&handle, PodWith({Spread(1, kHost, "ScheduleAnyway")}),
                      {"node-a", "node-b", "node-x"});
  EXPECT_EQ(got, (std::map<std::string, int64_t>{{"node-a", 33}, {"node-b", 83}, {"node-x", 100}}));
}

TEST(PodTopologySpreadScore, NodeMissingKeyIsIgnored) {
  // node-b lacks the hostname label: it scores 0 and the others spread as
  // if it were not there.
  std::vector<std::string> items = {
      NodeJson("node-a", {{kHost, "node-a"}}), NodeJson("node-b", {{"n", "node-b"}}),
      NodeJson("node-x", {{kHost, "node-x"}}), NodeJson("node-y", {{kHost, "node-y"}})};
  AddFooPods(&items, {"node-a", "node-b", "node-x", "node-y"}, {4, 2, 1, 3});
  TestHandle handle(TestCluster(ListJson(items)));
  auto got = ScoreAll(&handle, PodWith({Spread(1, kHost, "ScheduleAnyway")}),
                      {"node-a", "node-b", "node-x"});
  EXPECT_EQ(got, (std::map<std::string, int64_t>{{"node-a", 16}, {"node-b", 0}, {"node-x", 100}}));
}

TEST(PodTopologySpreadScore, ZoneAndNodeTwoOfFourCandidates) {
  std::vector<std::string> items = {
      NodeJson("node-a", {{"zone", "zone1"}, {kHost, "node-a"}}),
      NodeJson("node-b", {{"zone", "zone1"}, {kHost, "node-b"}}),
      NodeJson("node-x", {{"zone", "zone2"}, {kHost, "node-x"}}),
      NodeJson("node-y", {{"zone", "zone2"}, {kHost, "node-y"}}),
  };
  AddFooPods(&items, {"node-a", "node-b", "node-x", "node-y"}, {2, 1, 2, 4});
  TestHandle handle(TestCluster(ListJson(items)));
  auto got = ScoreAll(
      &handle, PodWith({Spread(1, "zone", "ScheduleAnyway"), Spread(1, kHost, "ScheduleAnyway")}),
      {"node-a", "node-x"});
  EXPECT_EQ(got, (std::map<std::string, int64_t>{{"node-a", 100}, {"node-x", 63}}));
}

TEST(PodTopologySpreadScore, KeptCountsScoreAsCountingDoes) {
  // Three zones over six nodes, one node without a zone: the walk that
  // marks zones stops early only when every node has every key, and the
  // node left out scores 0 either way.
  std::vector<std::string> items;
  const std::vector<std::string> nodes = {"n1", "n2", "n3", "n4", "n5", "n6"};
  for (size_t i = 0; i < nodes.size(); ++i) {
    std::vector<std::pair<std::string, std::string>> labels = {{kHost, nodes[i]}};
    if (i != 5) labels.push_back({"zone", "z" + std::to_string(i % 3)});
    items.push_back(NodeJson(nodes[i], labels));
  }
  AddFooPods(&items, nodes, {3, 0, 5, 1, 2, 4});
  TestHandle counting(TestCluster(ListJson(items)));
  TestHandle kept(TestCluster(ListJson(items)));
  kept.reuse = true;
  const Pod pod =
      PodWith({Spread(1, "zone", "ScheduleAnyway"), Spread(2, kHost, "ScheduleAnyway")});
  for (const auto& feasible : std::vector<std::vector<std::string>>{
           nodes, {"n1", "n2", "n3", "n4", "n5"}, {"n2", "n6"}, {"n4"}}) {
    auto want = ScoreAll(&counting, pod, feasible);
    EXPECT_EQ(ScoreAllKept(&kept, pod, feasible), want);
    if (std::find(feasible.begin(), feasible.end(), "n6") != feasible.end()) {
      EXPECT_EQ(want["n6"], 0);
    }
  }
  // Every node with both keys: the same scores with and without kept counts.
  std::vector<std::string> zoned;
  for (size_t i = 0; i < 5; ++i)
    zoned.push_back(NodeJson(nodes[i], {{kHost, nodes[i]}, {"zone", "z" + std::to_string(i % 3)}}));
  AddFooPods(&zoned, {"n1", "n2", "n3", "n4", "n5"}, {3, 0, 5, 1, 2});
  TestHandle counting_all(TestCluster(ListJson(zoned)));
  TestHandle kept_all(TestCluster(ListJson(zoned)));
  kept_all.reuse = true;
  for (const auto& feasible : std::vector<std::vector<std::string>>{
           {"n1", "n2", "n3", "n4", "n5"}, {"n5", "n1"}, {"n3"}}) {
    EXPECT_EQ(ScoreAllKept(&kept_all, pod, feasible), ScoreAll(&counting_all, pod, feasible));
  }
}

// ---- v1.26 and v1.35 on one input (every version-keyed decision)

using config::SchedulerVersion;

// The normalized scores of `feasible` as release `v` gives them, counting
// every node's pods (ScoreAll) and from kept counts (ScoreAllKept), which
// must agree; {"": -1} when PreScore skips the plugin.
std::map<std::string, int64_t> ScoreVersion(const std::vector<std::string>& items, const Pod& pod,
                                            const std::vector<std::string>& feasible,
                                            SchedulerVersion v) {
  TestHandle counting(TestCluster(ListJson(items)));
  counting.gates = config::DefaultFeatureGates(v);
  bool zero = false;  // no soft constraint (v1.26): the batch forms decline
  {
    PodTopologySpread plugin({}, &counting);
    CycleState state;
    std::vector<NodeId> ids;
    for (const auto& n : feasible) ids.push_back(counting.cluster().FindNode(n));
    Status s = plugin.PreScore(&state, pod, ids);
    if (s.IsSkip()) return {{"", -1}};
    zero = plugin.ScoresZeroEverywhere(state);
  }
  TestHandle kept(TestCluster(ListJson(items)));
  kept.gates = counting.gates;
  kept.reuse = true;
  auto want = ScoreAll(&counting, pod, feasible);
  EXPECT_EQ(ScoreAll(&kept, pod, feasible), want) << "kept counts differ from counting";
  if (!zero) {
    EXPECT_EQ(ScoreAllKept(&kept, pod, feasible), want) << "batch forms differ";
  }
  return want;
}

// Zones za (a1, a2), zb (b1, b2), zc (c1); app=a pods on a1, a2, b1, c1;
// app=b on b1, b2, b2.
std::vector<std::string> ThreeZones() {
  std::vector<std::string> items;
  for (const auto& [n, z] : std::vector<std::pair<std::string, std::string>>{
           {"a1", "za"}, {"a2", "za"}, {"b1", "zb"}, {"b2", "zb"}, {"c1", "zc"}})
    items.push_back(NodeJson(n, {{kHost, n}, {"zone", z}}));
  int i = 0;
  for (const auto& [node, app] : std::vector<std::pair<std::string, std::string>>{{"a1", "a"},
                                                                                  {"a2", "a"},
                                                                                  {"b1", "a"},
                                                                                  {"c1", "a"},
                                                                                  {"b1", "b"},
                                                                                  {"b2", "b"},
                                                                                  {"b2", "b"}})
    items.push_back(PodJson("e" + std::to_string(i++), node, {{"app", app}}));
  return items;
}

TEST(PodTopologySpreadScoreVersions, PreScoreSkipsWithoutSoftConstraints) {
  const std::vector<std::string> nodes = {"node-a", "node-b"};
  auto items = HostNodes(nodes);
  AddFooPods(&items, nodes, {2, 0});
  const Pod pod = PodWith({Spread(1, kHost, "DoNotSchedule")});
  EXPECT_EQ(ScoreVersion(items, pod, nodes, SchedulerVersion::kV126),
            (std::map<std::string, int64_t>{{"node-a", 100}, {"node-b", 100}}));
  EXPECT_EQ(ScoreVersion(items, pod, nodes, SchedulerVersion::kV135),
            (std::map<std::string, int64_t>{{"", -1}}));
}

TEST(PodTopologySpreadScoreVersions, SoftConstraintsOnOneKeyKeptApart) {
  // zone app=a (maxSkew 1) and zone app=b (maxSkew 2). v1.26 sums both
  // constraints' counts into the shared pairs (za 2, zb 4, zc 1) and gives
  // the second a topology size of 0; v1.35 keeps them apart (a: za 2, zb 1,
  // zc 1; b: 0, 3, 0), both of size 3.
  const std::vector<std::string> nodes = {"a1", "a2", "b1", "b2", "c1"};
  TopologySpreadConstraint a = Spread(1, "zone", "ScheduleAnyway", "");
  a.label_selector = LabelSelector{{{"app", "a"}}, {}};
  TopologySpreadConstraint b = Spread(2, "zone", "ScheduleAnyway", "");
  b.label_selector = LabelSelector{{{"app", "b"}}, {}};
  const Pod pod = PodWith({a, b}, {{"app", "b"}});
  EXPECT_EQ(ScoreVersion(ThreeZones(), pod, nodes, SchedulerVersion::kV126),
            (std::map<std::string, int64_t>{
                {"a1", 70}, {"a2", 70}, {"b1", 30}, {"b2", 30}, {"c1", 100}}));
  EXPECT_EQ(ScoreVersion(ThreeZones(), pod, nodes, SchedulerVersion::kV135),
            (std::map<std::string, int64_t>{
                {"a1", 85}, {"a2", 85}, {"b1", 42}, {"b2", 42}, {"c1", 100}}));
}

TEST(PodTopologySpreadScoreVersions, EmptySelectorCountsNoPodInV135) {
  // labelSelector {} on hostname: v1.26 counts every pod of the namespace
  // per node (a1 1, a2 1, b1 2, b2 2, c1 1: raw 2 or 4), v1.35 none (all
  // equal: 100).
  const std::vector<std::string> nodes = {"a1", "a2", "b1", "b2", "c1"};
  TopologySpreadConstraint c = Spread(1, kHost, "ScheduleAnyway", "");
  c.label_selector = LabelSelector{};
  const Pod pod = PodWith({c}, {{"app", "a"}});
  EXPECT_EQ(ScoreVersion(ThreeZones(), pod, nodes, SchedulerVersion::kV126),
            (std::map<std::string, int64_t>{
                {"a1", 100}, {"a2", 100}, {"b1", 50}, {"b2", 50}, {"c1", 100}}));
  EXPECT_EQ(ScoreVersion(ThreeZones(), pod, nodes, SchedulerVersion::kV135),
            (std::map<std::string, int64_t>{
                {"a1", 100}, {"a2", 100}, {"b1", 100}, {"b2", 100}, {"c1", 100}}));
  // On zone, likewise (the per-domain sums).
  TopologySpreadConstraint z = Spread(1, "zone", "ScheduleAnyway", "");
  z.label_selector = LabelSelector{};
  const Pod zoned = PodWith({z}, {{"app", "a"}});
  const auto v135 = ScoreVersion(ThreeZones(), zoned, nodes, SchedulerVersion::kV135);
  for (const auto& [node, score] : v135) EXPECT_EQ(score, 100) << node;
  EXPECT_NE(ScoreVersion(ThreeZones(), zoned, nodes, SchedulerVersion::kV126), v135);
}

TEST(PodTopologySpreadScore, NormalizeDividesAsIntegersDo) {
  // NormalizeScore's quotient, whatever way it is taken, is Go's integer
  // one, for small and huge raw scores alike.
  TestHandle handle(TestCluster(ListJson(HostNodes({"node-a"}))));
  PodTopologySpread plugin({}, &handle);
  const Pod pod = PodWith({Spread(1, kHost, "ScheduleAnyway")});
  CycleState state;
  ASSERT_TRUE(plugin.PreScore(&state, pod, {0}).IsSuccess());
  uint64_t seed = 12345;
  auto next = [&seed] {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return seed >> 11;
  };
  for (int64_t limit : {int64_t{10}, int64_t{1000}, int64_t{1} << 40, int64_t{1} << 56}) {
    for (int round = 0; round < 200; ++round) {
      NodeScoreList scores;
      for (int i = 0; i < 16; ++i)
        scores.push_back(NodeScore{0, static_cast<int64_t>(next() % static_cast<uint64_t>(limit))});
      int64_t lo = scores[0].score, hi = 0;
      for (const NodeScore& ns : scores) lo = std::min(lo, ns.score), hi = std::max(hi, ns.score);
      std::vector<int64_t> want;
      for (const NodeScore& ns : scores)
        want.push_back(hi == 0 ? kMaxNodeScore : kMaxNodeScore * (hi + lo - ns.score) / hi);
      ASSERT_TRUE(plugin.NormalizeScore(state, pod, &scores).IsSuccess());
      for (size_t i = 0; i < scores.size(); ++i) ASSERT_EQ(scores[i].score, want[i]) << limit;
    }
  }
}

TEST(PodTopologySpreadScore, OtherNamespacesAndTerminatingPodsDoNotCount) {
  const std::vector<std::string> nodes = {"node-a", "node-b"};
  auto items = HostNodes(nodes);
  items.push_back(PodJson("p-a1", "node-a", {{"foo", ""}}, "ns1"));
  items.push_back(PodJson("p-a2", "node-a", {{"foo", ""}}, "default",
                          R"(,"deletionTimestamp":"2020-01-01T00:00:00Z")"));
  items.push_back(PodJson("p-b1", "node-b", {{"foo", ""}}));
  TestHandle handle(TestCluster(ListJson(items)));
  auto got = ScoreAll(&handle, PodWith({Spread(1, kHost, "ScheduleAnyway")}), nodes);
  EXPECT_EQ(got, (std::map<std::string, int64_t>{{"node-a", 100}, {"node-b", 0}}));
}

TEST(PodTopologySpreadScore, MissingStateIsAnError) {
  TestHandle handle(TestCluster(ListJson(HostNodes({"node-a"}))));
  PodTopologySpread plugin({}, &handle);
  CycleState state;
  int64_t score = 0;
  Pod pod = PodWith({});
  Status s = plugin.Score(state, pod, handle.cluster().node_info(0), &score);
  EXPECT_TRUE(s.IsError());
  EXPECT_EQ(s.Message(), "error reading \"PreScorePodTopologySpread\" from cycleState: not found");
}

TEST(PodTopologySpreadScore, GoLogMatchesKnownValues) {
  EXPECT_EQ(GoLog(2), 0.6931471805599453);
  EXPECT_EQ(GoLog(1), 0);
  for (int n = 2; n < 6000; ++n) EXPECT_NEAR(GoLog(n), std::log(n), 1e-15 * std::log(n)) << n;
  EXPECT_TRUE(std::isinf(GoLog(0)));
  EXPECT_TRUE(std::isnan(GoLog(-1)));
}

}  // namespace podtopologyspread_scoring_test
}  // namespace ksched::framework::plugins::podtopologyspread
