#include "framework/plugins/selectorspread/selector_spread.h"

#include <gtest/gtest.h>

#include <map>

#include "framework/plugins/podtopologyspread/test_util.h"

namespace ksched::framework::plugins::selectorspread {
namespace selector_spread_test {

using ::ksched::testing::TestCluster;
using ::ksched::testing::TestPod;
using spread_testing::ListJson;
using spread_testing::NodeJson;
using spread_testing::PodJson;
using spread_testing::TestHandle;

std::map<std::string, int64_t> ScoreAll(TestHandle* handle, const Pod& pod) {
  SelectorSpread plugin(handle);
  const ClusterState& cluster = handle->cluster();
  std::vector<NodeId> ids;
  for (NodeId id = 0; id < cluster.num_nodes(); ++id) ids.push_back(id);
  CycleState state;
  EXPECT_TRUE(plugin.PreScore(&state, pod, ids).IsSuccess());
  NodeScoreList scores;
  for (NodeId id : ids) {
    int64_t score = -1;
    EXPECT_TRUE(plugin.Score(state, pod, cluster.node_info(id), &score).IsSuccess());
    scores.push_back(NodeScore{id, score});
  }
  EXPECT_TRUE(plugin.NormalizeScore(state, pod, &scores).IsSuccess());
  std::map<std::string, int64_t> out;
  for (const NodeScore& ns : scores) out[std::string(cluster.node(ns.node).meta.name)] = ns.score;
  return out;
}

std::vector<std::string> Cluster() {
  return {
      // Zones by the beta label on n1 and the GA label on n2 (same zone key),
      // n3 in another zone.
      NodeJson("n1", {{"failure-domain.beta.kubernetes.io/zone", "z1"}}),
      NodeJson("n2", {{"topology.kubernetes.io/zone", "z1"}}),
      NodeJson("n3", {{"topology.kubernetes.io/zone", "z2"}}),
      PodJson("a1", "n1", {{"app", "a"}}),
      PodJson("a2", "n1", {{"app", "a"}}),
      PodJson("a3", "n3", {{"app", "a"}}),
      PodJson("b1", "n2", {{"app", "b"}}),
      PodJson("o1", "n2", {{"app", "a"}}, "other"),
      R"({"kind":"Service","apiVersion":"v1","metadata":{"name":"s","namespace":"default"},"spec":{"selector":{"app":"a"}}})",
  };
}

TEST(SelectorSpread, SpreadsOverNodesAndZones) {
  TestHandle handle(TestCluster(ListJson(Cluster())));
  auto got = ScoreAll(&handle, TestPod(PodJson("p", "", {{"app", "a"}})));
  // Counts 2/0/1, zones z1 = 2, z2 = 1.
  EXPECT_EQ(got, (std::map<std::string, int64_t>{{"n1", 0}, {"n2", 33}, {"n3", 50}}));
}

TEST(SelectorSpread, NoSelectorScoresEveryNodeMax) {
  TestHandle handle(TestCluster(ListJson(Cluster())));
  auto got = ScoreAll(&handle, TestPod(PodJson("p", "", {{"app", "c"}})));
  EXPECT_EQ(got, (std::map<std::string, int64_t>{{"n1", 100}, {"n2", 100}, {"n3", 100}}));
}

TEST(SelectorSpread, PodsWithConstraintsAreSkipped) {
  TestHandle handle(TestCluster(ListJson(Cluster())));
  Pod pod = TestPod(PodJson("p", "", {{"app", "a"}}));
  pod.spec.topology_spread_constraints.emplace_back();
  auto got = ScoreAll(&handle, pod);
  EXPECT_EQ(got, (std::map<std::string, int64_t>{{"n1", 0}, {"n2", 0}, {"n3", 0}}));
}

}  // namespace selector_spread_test
}  // namespace ksched::framework::plugins::selectorspread
