#include <gtest/gtest.h>

#include "config/feature_gates.h"
#include "framework/plugins/interpodaffinity/plugin.h"
#include "framework/plugins/interpodaffinity/test_util.h"

namespace ksched::framework::interpodaffinity {
namespace interpodaffinity_scoring_test {

using namespace test;  // NOLINT

class InterPodAffinityScoreTest : public ::testing::Test {
 protected:
  void Build(const std::vector<std::string>& items, int32_t hard_weight = 1) {
    cluster_.emplace(ksched::testing::TestCluster(ListOf(items)));
    handle_ = std::make_unique<FakeHandle>(&*cluster_);
    config::InterPodAffinityArgs args;
    args.hard_pod_affinity_weight = hard_weight;
    plugin_ = std::make_unique<InterPodAffinity>(args, handle_.get());
  }
  // Raw scores of every node (before NormalizeScore), and normalized ones.
  std::vector<int64_t> Raw(const Pod& pod) { return Run(pod, false); }
  std::vector<int64_t> Normalized(const Pod& pod) { return Run(pod, true); }

  std::vector<int64_t> Run(const Pod& pod, bool normalize) {
    CycleState state;
    std::vector<NodeId> nodes;
    for (NodeId n = 0; n < cluster_->num_nodes(); ++n) nodes.push_back(n);
    Status pre = plugin_->PreScore(&state, pod, nodes);
    EXPECT_TRUE(pre.IsSuccess()) << pre.Message();
    NodeScoreList scores;
    for (NodeId n : nodes) {
      int64_t s = 0;
      Status st = plugin_->Score(state, pod, cluster_->node_info(n), &s);
      EXPECT_TRUE(st.IsSuccess()) << st.Message();
      scores.push_back(NodeScore{n, s});
    }
    if (normalize) {
      EXPECT_TRUE(plugin_->ScoreExt()->NormalizeScore(state, pod, &scores).IsSuccess());
    }
    // After PreFilter, PreScore reads the terms PreFilter parsed and
    // merged: the same raw scores.
    if (!normalize) {
      CycleState filtered;
      PreFilterResult ignored;
      Status f = plugin_->PreFilter(&filtered, pod, &ignored);
      EXPECT_TRUE(f.IsSuccess()) << f.Message();
      EXPECT_TRUE(plugin_->PreScore(&filtered, pod, nodes).IsSuccess());
      for (const NodeScore& want : scores) {
        int64_t got = -1;
        EXPECT_TRUE(
            plugin_->Score(filtered, pod, cluster_->node_info(want.node), &got).IsSuccess());
        EXPECT_EQ(got, want.score) << "after PreFilter, node " << want.node;
      }
    }
    std::vector<int64_t> out;
    for (const NodeScore& s : scores) out.push_back(s.score);
    if (normalize) {
      // The one-pass form adds the same weighted scores (nodes in reverse).
      std::vector<NodeId> reversed(nodes.rbegin(), nodes.rend());
      std::vector<int64_t> totals(nodes.size(), 10);
      bool out_of_range = false;
      EXPECT_TRUE(plugin_->ScoreNormalizeAndAdd(state, pod, reversed.data(), reversed.size(), 3,
                                                totals.data(), &out_of_range));
      EXPECT_FALSE(out_of_range);
      for (size_t k = 0; k < reversed.size(); ++k)
        EXPECT_EQ(totals[k], 10 + 3 * out[reversed[k]]) << "node " << reversed[k];
    }
    return out;
  }

  std::optional<ClusterState> cluster_;
  std::unique_ptr<FakeHandle> handle_;
  std::unique_ptr<InterPodAffinity> plugin_;
};

TEST_F(InterPodAffinityScoreTest, PreferredAffinityAndAntiAffinityOfTheIncomingPod) {
  Build({NodeJson("n1", R"("zone":"a")"), NodeJson("n2", R"("zone":"a")"),
         NodeJson("n3", R"("zone":"b")"), NodeJson("n4", ""), PodJson("db", R"("app":"db")", "n1"),
         PodJson("db2", R"("app":"db")", "n3"), PodJson("web", R"("app":"web")", "n3")});
  Pod pod =
      ksched::testing::TestPod(PodJson("p", "", "",
                                       Affinity("", Weighted(5, Term(R"("app":"db")", "zone")), "",
                                                Weighted(3, Term(R"("app":"web")", "zone")))));
  EXPECT_EQ(Raw(pod), (std::vector<int64_t>{5, 5, 2, 0}));
  EXPECT_EQ(Normalized(pod), (std::vector<int64_t>{100, 100, 40, 0}));
}

TEST_F(InterPodAffinityScoreTest, ExistingPodsRequiredAffinityCountsWithHardWeight) {
  std::vector<std::string> items = {
      NodeJson("n1", R"("zone":"a")"), NodeJson("n2", R"("zone":"b")"),
      PodJson("x", "", "n1", Affinity(Term(R"("app":"web")", "zone")))};
  Build(items, 7);
  Pod web = ksched::testing::TestPod(PodJson("p", R"("app":"web")", ""));
  EXPECT_EQ(Raw(web), (std::vector<int64_t>{7, 0}));
  EXPECT_EQ(Normalized(web), (std::vector<int64_t>{100, 0}));
  Build(items, 0);
  EXPECT_EQ(Raw(web), (std::vector<int64_t>{0, 0}));
}

TEST_F(InterPodAffinityScoreTest, ExistingPodsPreferredTerms) {
  Build(
      {NodeJson("n1", R"("zone":"a")"), NodeJson("n2", R"("zone":"b")"),
       NodeJson("n3", R"("zone":"c")"),
       PodJson("x", "", "n1", Affinity("", Weighted(4, Term(R"("app":"web")", "zone")))),
       PodJson("y", "", "n2", Affinity("", "", "", Weighted(6, Term(R"("app":"web")", "zone"))))});
  Pod web = ksched::testing::TestPod(PodJson("p", R"("app":"web")", ""));
  EXPECT_EQ(Raw(web), (std::vector<int64_t>{4, -6, 0}));
  // (s - min) * 100 / (max - min): 100, 0, 60.
  EXPECT_EQ(Normalized(web), (std::vector<int64_t>{100, 0, 60}));
}

TEST_F(InterPodAffinityScoreTest, ExistingTermsMatchTheIncomingPodsNamespaceLabels) {
  Build(
      {NamespaceJson("team", R"("tier":"front")"), NamespaceJson("default", ""),
       NodeJson("n1", R"("zone":"a")"), NodeJson("n2", R"("zone":"b")"),
       PodJson(
           "x", "", "n1",
           Affinity(
               "", Weighted(4, Term(R"("app":"web")", "zone",
                                    R"("namespaceSelector":{"matchLabels":{"tier":"front"}})"))))});
  EXPECT_EQ(Raw(ksched::testing::TestPod(PodJson("p", R"("app":"web")", "", "", "team"))),
            (std::vector<int64_t>{4, 0}));
  EXPECT_EQ(Raw(ksched::testing::TestPod(PodJson("p", R"("app":"web")", ""))),
            (std::vector<int64_t>{0, 0}));
}

TEST_F(InterPodAffinityScoreTest, IncomingPodsTermsSelectNamespacesByLabels) {
  Build({NamespaceJson("team", R"("tier":"front")"), NamespaceJson("default", ""),
         NodeJson("n1", R"("zone":"a")"), NodeJson("n2", R"("zone":"b")"),
         NodeJson("n3", R"("zone":"c")"), PodJson("w1", R"("app":"web")", "n1", "", "team"),
         PodJson("w2", R"("app":"web")", "n2")});
  // Preferred affinity to web pods in namespaces labelled tier=front, and
  // preferred anti-affinity to web pods in the pod's own namespace.
  Pod pod = ksched::testing::TestPod(
      PodJson("p", "", "",
              Affinity("",
                       Weighted(6, Term(R"("app":"web")", "zone",
                                        R"("namespaceSelector":{"matchLabels":{"tier":"front"}})")),
                       "", Weighted(2, Term(R"("app":"web")", "zone")))));
  EXPECT_EQ(Raw(pod), (std::vector<int64_t>{6, -2, 0}));
}

TEST_F(InterPodAffinityScoreTest, NodesWithoutLabelsContributeNothing) {
  Build({NodeJson("n1", ""), NodeJson("n2", R"("zone":"a")"),
         PodJson("x", "", "n1", Affinity("", Weighted(4, Term(R"("app":"web")", "zone"))))});
  Pod web = ksched::testing::TestPod(PodJson("p", R"("app":"web")", ""));
  EXPECT_EQ(Normalized(web), (std::vector<int64_t>{0, 0}));
}

TEST_F(InterPodAffinityScoreTest, NormalizeTruncatesLikeUpstream) {
  Build({NodeJson("n1", R"("h":"1")"), NodeJson("n2", R"("h":"2")"), NodeJson("n3", R"("h":"3")"),
         PodJson("a", R"("g":"x")", "n1"), PodJson("b", R"("g":"x")", "n2"),
         PodJson("c", R"("g":"x")", "n2")});
  Pod pod = ksched::testing::TestPod(
      PodJson("p", "", "", Affinity("", Weighted(1, Term(R"("g":"x")", "h")))));
  EXPECT_EQ(Raw(pod), (std::vector<int64_t>{1, 2, 0}));
  EXPECT_EQ(Normalized(pod), (std::vector<int64_t>{50, 100, 0}));
  Build({NodeJson("n1", R"("h":"1")"), NodeJson("n2", R"("h":"2")"), NodeJson("n3", R"("h":"3")"),
         PodJson("a", R"("g":"x")", "n1"), PodJson("b", R"("g":"x")", "n2"),
         PodJson("c", R"("g":"x")", "n2"), PodJson("d", R"("g":"x")", "n2")});
  // 1/3 of 100 truncates to 33.
  EXPECT_EQ(Normalized(pod), (std::vector<int64_t>{33, 100, 0}));
}

TEST_F(InterPodAffinityScoreTest, NoNodesWritesNothing) {
  Build({NodeJson("n1", R"("zone":"a")")});
  CycleState state;
  Pod pod = ksched::testing::TestPod(PodJson("p", "", ""));
  EXPECT_TRUE(plugin_->PreScore(&state, pod, {}).IsSuccess());
  int64_t s = 0;
  Status st = plugin_->Score(state, pod, cluster_->node_info(0), &s);
  EXPECT_TRUE(st.IsError());
  EXPECT_EQ(st.Message(), "failed to read \"PreScoreInterPodAffinity\" from cycleState: not found");
}

// ---- v1.26 and v1.35 on one input (every version-keyed decision)

using config::SchedulerVersion;

// Normalized scores of every node as release `v` gives them (after
// PreFilter, as a cycle runs), walking the placed pods and from the kept
// sums, which must agree, and through the batch forms; {-1} when PreScore
// skips the plugin.
std::vector<int64_t> ScoreVersion(const std::vector<std::string>& items, const Pod& pod,
                                  SchedulerVersion v, config::InterPodAffinityArgs args = {}) {
  std::vector<int64_t> results[2];
  for (bool reuse : {false, true}) {
    ClusterState cluster = ksched::testing::TestCluster(ListOf(items));
    FakeHandle handle(&cluster);
    handle.gates = config::DefaultFeatureGates(v);
    handle.reuse = reuse;
    InterPodAffinity plugin(args, &handle);
    CycleState state;
    PreFilterResult r;
    Status pre = plugin.PreFilter(&state, pod, &r);
    EXPECT_TRUE(pre.IsSuccess() || pre.IsSkip()) << pre.Message();
    std::vector<NodeId> nodes;
    for (NodeId n = 0; n < cluster.num_nodes(); ++n) nodes.push_back(n);
    Status ps = plugin.PreScore(&state, pod, nodes);
    std::vector<int64_t>& out = results[reuse];
    if (ps.IsSkip()) {
      out = {-1};
      continue;
    }
    EXPECT_TRUE(ps.IsSuccess()) << ps.Message();
    NodeScoreList scores, batch(nodes.size());
    for (NodeId n : nodes) {
      int64_t score = 0;
      EXPECT_TRUE(plugin.Score(state, pod, cluster.node_info(n), &score).IsSuccess());
      scores.push_back(NodeScore{n, score});
    }
    EXPECT_TRUE(plugin.ScoresOf(state, pod, nodes.data(), nodes.size(), batch.data()));
    for (size_t k = 0; k < nodes.size(); ++k) EXPECT_EQ(batch[k].score, scores[k].score) << k;
    EXPECT_TRUE(plugin.ScoreExt()->NormalizeScore(state, pod, &scores).IsSuccess());
    std::vector<int64_t> totals(nodes.size(), 0);
    bool out_of_range = false;
    EXPECT_TRUE(plugin.ScoreNormalizeAndAdd(state, pod, nodes.data(), nodes.size(), 2,
                                            totals.data(), &out_of_range));
    for (size_t k = 0; k < nodes.size(); ++k) {
      EXPECT_EQ(totals[k], 2 * scores[k].score) << k;
      out.push_back(scores[k].score);
    }
  }
  EXPECT_EQ(results[0], results[1]) << "kept sums differ from the walk";
  return results[0];
}

const std::vector<int64_t> kSkipped = {-1};

TEST(InterPodAffinityScoreVersions, PreScoreSkipsWhenNoPairGetsAScore) {
  // Nothing to score: no terms anywhere; a preferred term whose pods run
  // only on nodes without its key; a required anti-affinity term only.
  const std::vector<std::string> items = {
      NodeJson("n1", R"("zone":"a")"), NodeJson("n2", R"("rack":"r")"),
      PodJson("db", R"("app":"db")", "n2"),
      PodJson("guard", "", "n1", Affinity("", "", Term(R"("app":"x")", "zone")))};
  for (const Pod& pod :
       {ksched::testing::TestPod(PodJson("p", R"("app":"x")", "")),
        ksched::testing::TestPod(
            PodJson("p", "", "", Affinity("", Weighted(5, Term(R"("app":"db")", "zone")))))}) {
    EXPECT_EQ(ScoreVersion(items, pod, SchedulerVersion::kV126), (std::vector<int64_t>{0, 0}));
    EXPECT_EQ(ScoreVersion(items, pod, SchedulerVersion::kV135), kSkipped);
  }
}

TEST(InterPodAffinityScoreVersions, PairsWhoseWeightsCancelStillScore) {
  // A preferred affinity and anti-affinity of one weight on the same pod:
  // the pair is written (sum 0), so v1.35 scores, every node 0.
  const std::vector<std::string> items = {NodeJson("n1", R"("zone":"a")"),
                                          NodeJson("n2", R"("zone":"b")"),
                                          PodJson("db", R"("app":"db")", "n1")};
  const Pod pod =
      ksched::testing::TestPod(PodJson("p", "", "",
                                       Affinity("", Weighted(5, Term(R"("app":"db")", "zone")), "",
                                                Weighted(5, Term(R"("app":"db")", "zone")))));
  EXPECT_EQ(ScoreVersion(items, pod, SchedulerVersion::kV126), (std::vector<int64_t>{0, 0}));
  EXPECT_EQ(ScoreVersion(items, pod, SchedulerVersion::kV135), (std::vector<int64_t>{0, 0}));
}

TEST(InterPodAffinityScoreVersions, IgnorePreferredTermsOfExistingPods) {
  // An existing pod prefers app=web pods near it. With the v1.35 argument a
  // pod without preferred terms of its own skips scoring; one with them
  // scores them (and the existing pods' terms) as before.
  const std::vector<std::string> items = {
      NodeJson("n1", R"("zone":"a")"), NodeJson("n2", R"("zone":"b")"),
      PodJson("x", R"("app":"db")", "n1",
              Affinity("", Weighted(4, Term(R"("app":"web")", "zone"))))};
  config::InterPodAffinityArgs ignore;
  ignore.ignore_preferred_terms_of_existing_pods = true;
  const Pod web = ksched::testing::TestPod(PodJson("p", R"("app":"web")", ""));
  EXPECT_EQ(ScoreVersion(items, web, SchedulerVersion::kV135), (std::vector<int64_t>{100, 0}));
  EXPECT_EQ(ScoreVersion(items, web, SchedulerVersion::kV135, ignore), kSkipped);
  // v1.26 has no such argument: the field is not read.
  EXPECT_EQ(ScoreVersion(items, web, SchedulerVersion::kV126, ignore),
            (std::vector<int64_t>{100, 0}));
  const Pod with_terms = ksched::testing::TestPod(
      PodJson("p", R"("app":"web")", "", Affinity("", Weighted(1, Term(R"("app":"db")", "zone")))));
  EXPECT_EQ(ScoreVersion(items, with_terms, SchedulerVersion::kV135, ignore),
            (std::vector<int64_t>{100, 0}));
}

TEST(InterPodAffinityScoreVersions, IncomingNamespaceSelectorMatchingNoLabelsInV135) {
  // Preferred affinity (namespace dev) to app=web in namespaces "env NotIn
  // [prod]": v1.35 also scores the prod pod's zone.
  const std::vector<std::string> items = {NamespaceJson("dev", R"("env":"dev")"),
                                          NamespaceJson("prod", R"("env":"prod")"),
                                          NodeJson("n1", R"("zone":"a")"),
                                          NodeJson("n2", R"("zone":"b")"),
                                          NodeJson("n3", R"("zone":"c")"),
                                          PodJson("w1", R"("app":"web")", "n1", "", "prod"),
                                          PodJson("w2", R"("app":"web")", "n2", "", "dev")};
  const std::string not_prod =
      R"("namespaceSelector":{"matchExpressions":[{"key":"env","operator":"NotIn","values":["prod"]}]})";
  const Pod pod = ksched::testing::TestPod(
      PodJson("p", R"("app":"x")", "",
              Affinity("", Weighted(3, Term(R"("app":"web")", "zone", not_prod))), "dev"));
  EXPECT_EQ(ScoreVersion(items, pod, SchedulerVersion::kV126), (std::vector<int64_t>{0, 100, 0}));
  EXPECT_EQ(ScoreVersion(items, pod, SchedulerVersion::kV135), (std::vector<int64_t>{100, 100, 0}));
}

}  // namespace interpodaffinity_scoring_test
}  // namespace ksched::framework::interpodaffinity
