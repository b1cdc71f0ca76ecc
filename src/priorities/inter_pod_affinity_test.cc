#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "priorities/factories.h"
#include "tests/fixtures.h"

namespace ksched {
namespace priorities_inter_pod_affinity_test {

using ::ksched::testing::TestCluster;
using ::ksched::testing::TestPod;

std::string NodeJson(const std::string& name, const std::string& labels) {
  return R"({"kind":"Node","metadata":{"name":")" + name + R"(","labels":{)" + labels + "}}}";
}

std::string PodJson(const std::string& name, const std::string& ns, const std::string& labels,
                    const std::string& node, const std::string& affinity) {
  std::string s = R"({"kind":"Pod","metadata":{"name":")" + name + R"(","namespace":")" + ns +
                  R"(","labels":{)" + labels + R"(}},"spec":{)";
  s += R"("containers":[{"name":"c","image":"busybox"}])";
  if (!node.empty()) s += R"(,"nodeName":")" + node + "\"";
  if (!affinity.empty()) s += R"(,"affinity":{)" + affinity + "}";
  s += "}}";
  return s;
}

std::string List(const std::vector<std::string>& items) {
  std::string s = R"({"kind":"List","items":[)";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) s += ",";
    s += items[i];
  }
  return s + "]}";
}

std::string AppIs(const std::string& app) { return R"({"matchLabels":{"app":")" + app + R"("}})"; }

std::string Term(const std::string& selector, const std::string& key) {
  return R"({"labelSelector":)" + selector + R"(,"topologyKey":")" + key + "\"}";
}

// One podAffinity / podAntiAffinity block with required and weighted terms.
std::string Block(const std::string& kind, const std::vector<std::string>& required,
                  const std::vector<std::pair<int, std::string>>& preferred) {
  std::string s = "\"" + kind + R"(":{"requiredDuringSchedulingIgnoredDuringExecution":[)";
  for (size_t i = 0; i < required.size(); ++i) s += (i ? "," : "") + required[i];
  s += R"(],"preferredDuringSchedulingIgnoredDuringExecution":[)";
  for (size_t i = 0; i < preferred.size(); ++i) {
    s += (i ? "," : "") + std::string(R"({"weight":)") + std::to_string(preferred[i].first) +
         R"(,"podAffinityTerm":)" + preferred[i].second + "}";
  }
  return s + "]}";
}

constexpr char kZone[] = "zone";
constexpr char kHost[] = "kubernetes.io/hostname";

// n1, n2 in zone z1; n3 in z2; n4 without zone.
std::vector<std::string> BaseNodes() {
  return {NodeJson("n1", R"("zone":"z1","kubernetes.io/hostname":"n1")"),
          NodeJson("n2", R"("zone":"z1","kubernetes.io/hostname":"n2")"),
          NodeJson("n3", R"("zone":"z2","kubernetes.io/hostname":"n3")"),
          NodeJson("n4", R"("kubernetes.io/hostname":"n4")")};
}

struct Scores {
  std::map<std::string, int64_t> raw;
  std::map<std::string, int64_t> final;
};

// Runs the priority over `feasible` (all nodes when empty).
Scores Eval(const ClusterState& cluster, const Pod& pod, int hard_weight = 1,
            std::vector<NodeId> feasible = {}) {
  if (feasible.empty()) {
    for (NodeId n = 0; n < cluster.num_nodes(); ++n) feasible.push_back(n);
  }
  auto prio = NewInterPodAffinityPriority(hard_weight);
  PodInfo info = MakePodInfo(pod);
  PodToSchedule target;
  target.info = &info;
  auto state = prio->Prepare(target, cluster);
  std::vector<int64_t> scores;
  for (NodeId n : feasible) scores.push_back(prio->Map(target, state.get(), cluster, n));
  Scores out;
  for (size_t i = 0; i < feasible.size(); ++i)
    out.raw[std::string(cluster.node_info(feasible[i]).name())] = scores[i];
  prio->Reduce(target, state.get(), cluster, feasible, scores);
  for (size_t i = 0; i < feasible.size(); ++i)
    out.final[std::string(cluster.node_info(feasible[i]).name())] = scores[i];
  return out;
}

using M = std::map<std::string, int64_t>;

TEST(InterPodAffinityPriorityTest, IsNotNodeLocal) {
  EXPECT_FALSE(NewInterPodAffinityPriority(1)->NodeLocalMap());
}

TEST(InterPodAffinityPriorityTest, NoAffinityScoresZero) {
  std::vector<std::string> items = BaseNodes();
  items.push_back(PodJson("db", "default", R"("app":"db")", "n1", ""));
  Scores s = Eval(TestCluster(List(items)), TestPod(PodJson("web", "default", "", "", "")));
  EXPECT_EQ(s.final, (M{{"n1", 0}, {"n2", 0}, {"n3", 0}, {"n4", 0}}));
}

TEST(InterPodAffinityPriorityTest, PreferredAffinity) {
  std::vector<std::string> items = BaseNodes();
  items.push_back(PodJson("db", "default", R"("app":"db")", "n1", ""));
  items.push_back(PodJson("cache", "default", R"("app":"cache")", "n3", ""));
  Pod pod = TestPod(PodJson(
      "web", "default", R"("app":"web")", "",
      Block("podAffinity", {}, {{5, Term(AppIs("db"), kZone)}, {2, Term(AppIs("cache"), kHost)}})));
  Scores s = Eval(TestCluster(List(items)), pod);
  EXPECT_EQ(s.raw, (M{{"n1", 5}, {"n2", 5}, {"n3", 2}, {"n4", 0}}));
  EXPECT_EQ(s.final, (M{{"n1", 10}, {"n2", 10}, {"n3", 4}, {"n4", 0}}));
}

TEST(InterPodAffinityPriorityTest, PreferredAntiAffinityGivesNegativeSums) {
  std::vector<std::string> items = BaseNodes();
  items.push_back(PodJson("db", "default", R"("app":"db")", "n1", ""));
  Pod pod = TestPod(PodJson("web", "default", R"("app":"web")", "",
                            Block("podAntiAffinity", {}, {{5, Term(AppIs("db"), kZone)}})));
  Scores s = Eval(TestCluster(List(items)), pod);
  EXPECT_EQ(s.raw, (M{{"n1", -5}, {"n2", -5}, {"n3", 0}, {"n4", 0}}));
  EXPECT_EQ(s.final, (M{{"n1", 0}, {"n2", 0}, {"n3", 10}, {"n4", 10}}));
}

TEST(InterPodAffinityPriorityTest, MixedSumsNormaliseBetweenMinAndMax) {
  std::vector<std::string> items = BaseNodes();
  items.push_back(PodJson("db", "default", R"("app":"db")", "n1", ""));
  items.push_back(PodJson("cache", "default", R"("app":"cache")", "n3", ""));
  Pod pod = TestPod(PodJson("web", "default", R"("app":"web")", "",
                            Block("podAffinity", {}, {{7, Term(AppIs("cache"), kZone)}}) + "," +
                                Block("podAntiAffinity", {}, {{3, Term(AppIs("db"), kZone)}})));
  Scores s = Eval(TestCluster(List(items)), pod);
  EXPECT_EQ(s.raw, (M{{"n1", -3}, {"n2", -3}, {"n3", 7}, {"n4", 0}}));
  // 10 * (0 - -3) / 10 = 3.
  EXPECT_EQ(s.final, (M{{"n1", 0}, {"n2", 0}, {"n3", 10}, {"n4", 3}}));
}

TEST(InterPodAffinityPriorityTest, TruncatesTowardZero) {
  std::vector<std::string> items = BaseNodes();
  items.push_back(PodJson("a", "default", R"("app":"a")", "n1", ""));
  items.push_back(PodJson("b", "default", R"("app":"b")", "n2", ""));
  Pod pod = TestPod(PodJson("web", "default", R"("app":"web")", "",
                            Block("podAffinity", {},
                                  {{1, Term(AppIs("a"), kHost)},
                                   {3, Term(AppIs("b"), kHost)},
                                   {2, Term(AppIs("b"), kZone)}})));
  Scores s = Eval(TestCluster(List(items)), pod);
  EXPECT_EQ(s.raw, (M{{"n1", 3}, {"n2", 5}, {"n3", 0}, {"n4", 0}}));
  EXPECT_EQ(s.final, (M{{"n1", 6}, {"n2", 10}, {"n3", 0}, {"n4", 0}}));
}

TEST(InterPodAffinityPriorityTest, EqualPositiveCountsScoreTen) {
  // Upstream's min starts at zero, so equal non-zero counts are not "all
  // equal": they all score 10.
  std::vector<std::string> items = {NodeJson("n1", R"("zone":"z1")"),
                                    NodeJson("n2", R"("zone":"z1")")};
  items.push_back(PodJson("db", "default", R"("app":"db")", "n1", ""));
  Pod pod = TestPod(
      PodJson("web", "default", "", "", Block("podAffinity", {}, {{4, Term(AppIs("db"), kZone)}})));
  EXPECT_EQ(Eval(TestCluster(List(items)), pod).final, (M{{"n1", 10}, {"n2", 10}}));
  Pod anti = TestPod(PodJson("web", "default", "", "",
                             Block("podAntiAffinity", {}, {{4, Term(AppIs("db"), kZone)}})));
  EXPECT_EQ(Eval(TestCluster(List(items)), anti).final, (M{{"n1", 0}, {"n2", 0}}));
}

TEST(InterPodAffinityPriorityTest, HardAffinityOfExistingPodsIsSymmetric) {
  std::vector<std::string> items = BaseNodes();
  items.push_back(PodJson("db", "default", R"("app":"db")", "n3",
                          Block("podAffinity", {Term(AppIs("web"), kZone)}, {})));
  ClusterState c = TestCluster(List(items));
  Pod web = TestPod(PodJson("web", "default", R"("app":"web")", "", ""));
  EXPECT_EQ(Eval(c, web, 5).raw, (M{{"n1", 0}, {"n2", 0}, {"n3", 5}, {"n4", 0}}));
  EXPECT_EQ(Eval(c, web, 5).final, (M{{"n1", 0}, {"n2", 0}, {"n3", 10}, {"n4", 0}}));
  // Weight 0 turns the symmetry off.
  EXPECT_EQ(Eval(c, web, 0).raw, (M{{"n1", 0}, {"n2", 0}, {"n3", 0}, {"n4", 0}}));
  // A Policy may set any weight (upstream checks no range there): a negative
  // one also turns it off, one above 100 is used as it is.
  EXPECT_EQ(Eval(c, web, -3).raw, (M{{"n1", 0}, {"n2", 0}, {"n3", 0}, {"n4", 0}}));
  EXPECT_EQ(Eval(c, web, 250).raw, (M{{"n1", 0}, {"n2", 0}, {"n3", 250}, {"n4", 0}}));
  // A pod the term does not select gets nothing.
  Pod other = TestPod(PodJson("x", "default", R"("app":"x")", "", ""));
  EXPECT_EQ(Eval(c, other, 5).raw, (M{{"n1", 0}, {"n2", 0}, {"n3", 0}, {"n4", 0}}));
}

TEST(InterPodAffinityPriorityTest, PreferredTermsOfExistingPods) {
  std::vector<std::string> items = BaseNodes();
  items.push_back(PodJson("a", "default", R"("app":"a")", "n1",
                          Block("podAffinity", {}, {{8, Term(AppIs("web"), kZone)}})));
  items.push_back(PodJson("b", "default", R"("app":"b")", "n3",
                          Block("podAntiAffinity", {}, {{2, Term(AppIs("web"), kHost)}})));
  // Another namespace: its term defaults to its own namespace.
  items.push_back(PodJson("c", "other", R"("app":"c")", "n4",
                          Block("podAffinity", {}, {{9, Term(AppIs("web"), kHost)}})));
  Pod web = TestPod(PodJson("web", "default", R"("app":"web")", "", ""));
  Scores s = Eval(TestCluster(List(items)), web);
  EXPECT_EQ(s.raw, (M{{"n1", 8}, {"n2", 8}, {"n3", -2}, {"n4", 0}}));
  // 10 * 2 / 10 = 2.
  EXPECT_EQ(s.final, (M{{"n1", 10}, {"n2", 10}, {"n3", 0}, {"n4", 2}}));
}

TEST(InterPodAffinityPriorityTest, OnlyFeasibleNodesAreScoredButAllPodsCount) {
  std::vector<std::string> items = BaseNodes();
  items.push_back(PodJson("db", "default", R"("app":"db")", "n1", ""));
  items.push_back(PodJson("db2", "default", R"("app":"db")", "n3", ""));
  Pod pod = TestPod(PodJson("web", "default", R"("app":"web")", "",
                            Block("podAffinity", {}, {{3, Term(AppIs("db"), kZone)}})));
  // n1 is not feasible, but its pod still draws n2 (same zone).
  Scores s = Eval(TestCluster(List(items)), pod, 1, {1, 2, 3});
  EXPECT_EQ(s.raw, (M{{"n2", 3}, {"n3", 3}, {"n4", 0}}));
  EXPECT_EQ(s.final, (M{{"n2", 10}, {"n3", 10}, {"n4", 0}}));
}

TEST(InterPodAffinityPriorityTest, MissingTopologyKeyContributesNothing) {
  std::vector<std::string> items = BaseNodes();
  items.push_back(PodJson("db", "default", R"("app":"db")", "n4", ""));
  items.push_back(PodJson("ghost", "default", R"("app":"db")", "gone", ""));
  Pod pod = TestPod(PodJson(
      "web", "default", R"("app":"web")", "",
      Block("podAffinity", {}, {{3, Term(AppIs("db"), kZone)}, {1, Term(AppIs("db"), "rack")}})));
  Scores s = Eval(TestCluster(List(items)), pod);
  EXPECT_EQ(s.raw, (M{{"n1", 0}, {"n2", 0}, {"n3", 0}, {"n4", 0}}));
}

TEST(InterPodAffinityPriorityTest, EmptySelectorMatchesAllInNamespace) {
  std::vector<std::string> items = BaseNodes();
  items.push_back(PodJson("a", "default", R"("x":"1")", "n3", ""));
  items.push_back(PodJson("b", "other", R"("x":"2")", "n1", ""));
  Pod pod = TestPod(PodJson("web", "default", R"("app":"web")", "",
                            Block("podAffinity", {}, {{2, Term("{}", kZone)}})));
  EXPECT_EQ(Eval(TestCluster(List(items)), pod).raw,
            (M{{"n1", 0}, {"n2", 0}, {"n3", 2}, {"n4", 0}}));
}

TEST(InterPodAffinityPriorityTest, AssumedPodsCount) {
  ClusterState c = TestCluster(List(BaseNodes()));
  Pod web0 = TestPod(PodJson("web-0", "default", R"("app":"web")", "",
                             Block("podAntiAffinity", {}, {{10, Term(AppIs("web"), kZone)}})));
  EXPECT_EQ(Eval(c, web0).raw, (M{{"n1", 0}, {"n2", 0}, {"n3", 0}, {"n4", 0}}));
  c.Assume(web0, 0);
  Pod web1 = TestPod(PodJson("web-1", "default", R"("app":"web")", "",
                             Block("podAntiAffinity", {}, {{10, Term(AppIs("web"), kZone)}})));
  // Both the new pod's term and the bound pod's term (symmetry) apply.
  EXPECT_EQ(Eval(c, web1).raw, (M{{"n1", -20}, {"n2", -20}, {"n3", 0}, {"n4", 0}}));
}

TEST(InterPodAffinityPriorityTest, InvalidSelectorScoresZero) {
  // Upstream fails the priority (and the cycle) when it evaluates a term with
  // an invalid selector; without an error path every node scores 0.
  std::vector<std::string> items = BaseNodes();
  items.push_back(PodJson("db", "default", R"("app":"db")", "n1", ""));
  std::string bad = R"({"matchExpressions":[{"key":"app","operator":"In","values":[]}]})";
  Pod pod = TestPod(
      PodJson("web", "default", R"("app":"web")", "",
              Block("podAffinity", {}, {{5, Term(AppIs("db"), kZone)}, {1, Term(bad, kZone)}})));
  EXPECT_EQ(Eval(TestCluster(List(items)), pod).final,
            (M{{"n1", 0}, {"n2", 0}, {"n3", 0}, {"n4", 0}}));
}

}  // namespace priorities_inter_pod_affinity_test
}  // namespace ksched
