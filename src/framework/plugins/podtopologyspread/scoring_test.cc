#include "framework/plugins/podtopologyspread/scoring.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
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

// PreScore over `feasible`, Score each, NormalizeScore: name -> score.
std::map<std::string, int64_t> ScoreAll(TestHandle* handle, const Pod& pod,
                                        const std::vector<std::string>& feasible,
                                        const config::PodTopologySpreadArgs& args = {}) {
  PodTopologySpread plugin(args, handle);
  const ClusterState& cluster = handle->cluster();
  std::vector<NodeId> ids;
  for (const auto& n : feasible) ids.push_back(cluster.FindNode(n));
  CycleState state;
  Status s = plugin.PreScore(&state, pod, ids);
  EXPECT_TRUE(s.IsSuccess()) << s.Message();
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

}  // namespace
}  // namespace ksched::framework::plugins::podtopologyspread
