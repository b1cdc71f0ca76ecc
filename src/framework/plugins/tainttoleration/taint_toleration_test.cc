#include <gtest/gtest.h>

#include "config/feature_gates.h"
#include "framework/plugins/registry_factories.h"
#include "framework/plugins/testing/fake_handle.h"
#include "tests/fixtures.h"

namespace ksched::framework::plugins {
namespace tainttoleration_taint_toleration_test {

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

// ------------------------------------------------- decisions keyed by release

TEST_F(TaintTolerationTest, V135NamesNoTaint) {
  FakeHandle h135{&cluster, config::DefaultFeatureGates(config::SchedulerVersion::kV135)};
  auto v135 = MustNew(&NewTaintToleration, &h135);
  Pod pod =
      TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c"}]}})");
  for (const char* name : {"master", "dedicated"}) {
    // v1.26 (the fixture's plugin) names the taint; v1.35 does not.
    Status s126 = As<FilterPlugin>(plugin)->Filter(state, pod, NodeNamed(cluster, name));
    Status s135 = As<FilterPlugin>(v135)->Filter(state, pod, NodeNamed(cluster, name));
    EXPECT_NE(s126.Message(), "node(s) had untolerated taint(s)");
    EXPECT_EQ(s135.code(), Code::kUnschedulableAndUnresolvable);
    EXPECT_EQ(s135.Message(), "node(s) had untolerated taint(s)");
  }
}

TEST_F(TaintTolerationTest, V135FilterCodeIsFiltersCode) {
  FakeHandle h135{&cluster, config::DefaultFeatureGates(config::SchedulerVersion::kV135)};
  config::FeatureGates compare = config::DefaultFeatureGates(config::SchedulerVersion::kV135);
  compare.taint_toleration_comparison_operators = true;
  FakeHandle h135c{&cluster, compare};
  auto v135 = MustNew(&NewTaintToleration, &h135);
  auto v135c = MustNew(&NewTaintToleration, &h135c);
  Pod plain =
      TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c"}]}})");
  Pod tolerant =
      TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c"}],
      "tolerations":[{"key":"dedicated","operator":"Exists"},
                     {"key":"node-role.kubernetes.io/master","operator":"Exists"}]}})");
  for (const auto* p : {&v135, &v135c}) {
    auto* filter = As<FilterPlugin>(*p);
    for (const Pod* pod : {&plain, &tolerant}) {
      for (const char* name : {"clean", "master", "dedicated", "soft2"}) {
        const NodeInfo& node = NodeNamed(cluster, name);
        EXPECT_EQ(filter->FilterCode(state, *pod, node), filter->Filter(state, *pod, node).code())
            << name;
      }
    }
  }
}

// TaintTolerationComparisonOperators (v1.35, alpha, off by default): Lt and
// Gt compare decimal integers; without the gate they tolerate nothing.
TEST(TaintTolerationComparison, LtAndGtOnlyWithTheGate) {
  ClusterState cluster = TestCluster(R"({"kind":"List","items":[
      {"kind":"Node","metadata":{"name":"n5"},"spec":{"taints":[
          {"key":"tier","value":"5","effect":"NoSchedule"}]}},
      {"kind":"Node","metadata":{"name":"n50"},"spec":{"taints":[
          {"key":"tier","value":"50","effect":"NoSchedule"}]}},
      {"kind":"Node","metadata":{"name":"nx"},"spec":{"taints":[
          {"key":"tier","value":"05","effect":"NoSchedule"}]}},
      {"kind":"Node","metadata":{"name":"soft"},"spec":{"taints":[
          {"key":"tier","value":"5","effect":"PreferNoSchedule"}]}}]})");
  config::FeatureGates off = config::DefaultFeatureGates(config::SchedulerVersion::kV135);
  config::FeatureGates on = off;
  on.taint_toleration_comparison_operators = true;
  FakeHandle h_off{&cluster, off}, h_on{&cluster, on};
  auto p_off = MustNew(&NewTaintToleration, &h_off);
  auto p_on = MustNew(&NewTaintToleration, &h_on);
  Pod lt10 = TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c"}],
      "tolerations":[{"key":"tier","operator":"Lt","value":"10"}]}})");
  Pod gt10 = TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c"}],
      "tolerations":[{"key":"tier","operator":"Gt","value":"10"}]}})");
  CycleState state;
  auto passes = [&](const std::unique_ptr<Plugin>& p, const Pod& pod, const char* node) {
    return As<FilterPlugin>(p)->Filter(state, pod, NodeNamed(cluster, node)).IsSuccess();
  };
  EXPECT_FALSE(passes(p_off, lt10, "n5"));
  EXPECT_TRUE(passes(p_on, lt10, "n5"));    // 5 < 10
  EXPECT_FALSE(passes(p_on, lt10, "n50"));  // 50 is not
  EXPECT_FALSE(passes(p_on, lt10, "nx"));   // "05" is no decimal integer
  EXPECT_TRUE(passes(p_on, gt10, "n50"));
  EXPECT_FALSE(passes(p_on, gt10, "n5"));
  // Scoring counts PreferNoSchedule taints with the same rule.
  auto intolerable = [&](const std::unique_ptr<Plugin>& p) {
    CycleState s;
    EXPECT_TRUE(As<PreScorePlugin>(p)->PreScore(&s, lt10, {0}).IsSuccess());
    int64_t score = -1;
    EXPECT_TRUE(As<ScorePlugin>(p)->Score(s, lt10, NodeNamed(cluster, "soft"), &score).IsSuccess());
    return score;
  };
  EXPECT_EQ(intolerable(p_off), 1);
  EXPECT_EQ(intolerable(p_on), 0);
}

}  // namespace tainttoleration_taint_toleration_test
}  // namespace ksched::framework::plugins
