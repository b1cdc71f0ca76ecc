#include <gtest/gtest.h>

#include "framework/plugins/registry_factories.h"
#include "framework/plugins/testing/fake_handle.h"
#include "tests/fixtures.h"

namespace ksched::framework::plugins {
namespace {

using framework::testing::As;
using framework::testing::FakeHandle;
using framework::testing::MustNew;
using framework::testing::NodeNamed;
using ksched::testing::TestCluster;
using ksched::testing::TestPod;

class TaintTolerationTest : public ::testing::Test {
 protected:
  ClusterState cluster = TestCluster(R"({"kind":"List","items":[
      {"kind":"Node","metadata":{"name":"clean"}},
      {"kind":"Node","metadata":{"name":"master"},"spec":{"taints":[
          {"key":"node-role.kubernetes.io/master","effect":"NoSchedule"}]}},
      {"kind":"Node","metadata":{"name":"dedicated"},"spec":{"taints":[
          {"key":"soft","value":"1","effect":"PreferNoSchedule"},
          {"key":"dedicated","value":"db","effect":"NoExecute"}]}},
      {"kind":"Node","metadata":{"name":"soft2"},"spec":{"taints":[
          {"key":"soft","value":"1","effect":"PreferNoSchedule"},
          {"key":"other","value":"2","effect":"PreferNoSchedule"}]}}]})");
  FakeHandle handle{&cluster};
  std::unique_ptr<Plugin> plugin = MustNew(&NewTaintToleration, &handle);
  CycleState state;
};

TEST_F(TaintTolerationTest, FilterNamesTheFirstUntoleratedTaint) {
  auto* filter = As<FilterPlugin>(plugin);
  Pod pod =
      TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c"}]}})");
  EXPECT_TRUE(filter->Filter(state, pod, NodeNamed(cluster, "clean")).IsSuccess());
  EXPECT_TRUE(filter->Filter(state, pod, NodeNamed(cluster, "soft2")).IsSuccess());
  Status s = filter->Filter(state, pod, NodeNamed(cluster, "master"));
  EXPECT_EQ(s.code(), Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(s.Message(), "node(s) had untolerated taint {node-role.kubernetes.io/master: }");
  EXPECT_EQ(filter->Filter(state, pod, NodeNamed(cluster, "dedicated")).Message(),
            "node(s) had untolerated taint {dedicated: db}");

  Pod tolerant =
      TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c"}],
      "tolerations":[{"key":"dedicated","operator":"Equal","value":"db"}]}})");
  EXPECT_TRUE(filter->Filter(state, tolerant, NodeNamed(cluster, "dedicated")).IsSuccess());
}

TEST_F(TaintTolerationTest, FilterCodeIsFiltersCode) {
  auto* filter = As<FilterPlugin>(plugin);
  Pod plain =
      TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c"}]}})");
  Pod tolerant =
      TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c"}],
      "tolerations":[{"key":"dedicated","operator":"Exists"},
                     {"key":"node-role.kubernetes.io/master","operator":"Exists"}]}})");
  for (const Pod* pod : {&plain, &tolerant}) {
    for (const char* name : {"clean", "master", "dedicated", "soft2"}) {
      const NodeInfo& node = NodeNamed(cluster, name);
      EXPECT_EQ(filter->FilterCode(state, *pod, node), filter->Filter(state, *pod, node).code())
          << name;
    }
  }
  EXPECT_EQ(filter->FilterCode(state, plain, NodeNamed(cluster, "master")),
            Code::kUnschedulableAndUnresolvable);
}

TEST_F(TaintTolerationTest, ScoreCountsIntolerablePreferNoScheduleTaints) {
  // Tolerates soft=1 but only for NoSchedule: that does not count for scoring.
  Pod pod = TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c"}],
      "tolerations":[{"key":"other","operator":"Exists","effect":"PreferNoSchedule"},
                     {"key":"soft","operator":"Equal","value":"1","effect":"NoSchedule"}]}})");
  std::vector<NodeId> nodes = {cluster.FindNode("clean"), cluster.FindNode("dedicated"),
                               cluster.FindNode("soft2")};
  ASSERT_TRUE(As<PreScorePlugin>(plugin)->PreScore(&state, pod, nodes).IsSuccess());
  auto* score = As<ScorePlugin>(plugin);
  NodeScoreList scores;
  for (NodeId n : nodes) {
    int64_t s = -1;
    ASSERT_TRUE(score->Score(state, pod, cluster.node_info(n), &s).IsSuccess());
    scores.push_back({n, s});
  }
  EXPECT_EQ(scores[0].score, 0);
  EXPECT_EQ(scores[1].score, 1);
  EXPECT_EQ(scores[2].score, 1);  // "other" is tolerated
  ASSERT_TRUE(score->ScoreExt()->NormalizeScore(state, pod, &scores).IsSuccess());
  EXPECT_EQ(scores[0].score, 100);
  EXPECT_EQ(scores[1].score, 0);
  EXPECT_EQ(scores[2].score, 0);
}

TEST_F(TaintTolerationTest, ScoreWithoutPreScoreIsAnError) {
  Pod pod =
      TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c"}]}})");
  int64_t s = 0;
  Status st = As<ScorePlugin>(plugin)->Score(state, pod, NodeNamed(cluster, "clean"), &s);
  EXPECT_TRUE(st.IsError());
}

}  // namespace
}  // namespace ksched::framework::plugins
