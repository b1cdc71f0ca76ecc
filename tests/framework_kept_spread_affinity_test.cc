// PodTopologySpread and InterPodAffinity keep sums between cycles
// (Handle::reuse_between_cycles: spread counts per constraint and node,
// affinity sums per term and domain, brought up to date from
// ClusterState::pod_log) and answer through batch forms (FilterCodesOf,
// FilterCodeOf, ScoresOf, ScoreNormalizeAndAdd). Whatever the release, they
// must answer exactly as the plugins that walk every pod do, and the batch
// forms as Filter / Score / NormalizeScore do.
//
// This grows and shrinks random clusters pod by pod, with one pair of
// plugin objects per release and mode reused throughout (so kept sums are
// reused, synced and evicted), and after every change compares, for a
// random incoming pod, PreFilter's code, every node's Filter status (also
// after AddPod / RemovePod of a pod), the batch codes, PreScore's code,
// every node's raw score and the normalized scores. The pods carry what
// v1.35 reads differently: two spread constraints on one key, empty and nil
// selectors with matchLabelKeys, minDomains, inclusion policies, and
// namespaceSelectors that an empty label set satisfies.
#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "config/feature_gates.h"
#include "framework/plugins/interpodaffinity/plugin.h"
#include "framework/plugins/podtopologyspread/plugin.h"
#include "tests/fixtures.h"

namespace ksched {
namespace framework_kept_spread_affinity_test {

using config::SchedulerVersion;
using framework::CycleState;
using framework::NodeScore;
using framework::NodeScoreList;
using framework::PreFilterResult;
using framework::Status;

class KeptHandle final : public framework::Handle {
 public:
  KeptHandle(const ClusterState* cluster, SchedulerVersion v, bool reuse)
      : cluster_(cluster), gates_(config::DefaultFeatureGates(v)), reuse_(reuse) {}
  const ClusterState& cluster() const override { return *cluster_; }
  const NominatedPods* nominated() const override { return nullptr; }
  const config::FeatureGates& feature_gates() const override { return gates_; }
  int parallelism() const override { return 1; }
  Status RunFilterPluginsWithNominatedPods(const CycleState&, const Pod&,
                                           const NodeInfo&) const override {
    return Status();
  }
  Status RunPreFilterExtensionAddPod(CycleState*, const Pod&, const PodInfo&,
                                     const NodeInfo&) const override {
    return Status();
  }
  Status RunPreFilterExtensionRemovePod(CycleState*, const Pod&, const PodInfo&,
                                        const NodeInfo&) const override {
    return Status();
  }
  bool reuse_between_cycles() const override { return reuse_; }
  framework::Binder* binder() const override { return nullptr; }
  framework::PreemptionActions* preemption() const override { return nullptr; }

 private:
  const ClusterState* cluster_;
  config::FeatureGates gates_;
  bool reuse_;
};

class RandomPods {
 public:
  explicit RandomPods(uint32_t seed) : rng_(seed) {}
  int Pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }

  std::string Labels() {
    static const char* kApps[] = {"a", "b", "c"};
    std::string s = std::string(R"("app":")") + kApps[Pick(3)] + "\"";
    if (Pick(3) == 0) s += R"(,"color":"green")";
    if (Pick(2) == 0) s += R"(,"hash":"h)" + std::to_string(Pick(2)) + "\"";
    return s;
  }
  std::string Namespace() {
    static const char* kNs[] = {"default", "default", "prod", "bare"};
    return kNs[Pick(4)];
  }
  std::string Key() {
    static const char* kKeys[] = {"zone", "kubernetes.io/hostname", "region"};
    return kKeys[Pick(3)];
  }

  // A labelSelector: matchLabels, In, Exists, {} (Everything).
  std::string Selector() {
    static const char* kApps[] = {"a", "b", "c"};
    switch (Pick(5)) {
      case 0:
        return std::string(R"({"matchLabels":{"app":")") + kApps[Pick(3)] + "\"}}";
      case 1:
        return std::string(R"({"matchExpressions":[{"key":"app","operator":"In","values":[")") +
               kApps[Pick(3)] + R"(",")" + kApps[Pick(3)] + "\"]}]}";
      case 2:
        return R"({"matchExpressions":[{"key":"color","operator":"Exists"}]})";
      case 3:
        return "{}";
      default:
        return R"({"matchLabels":{"color":"green","app":"a"}})";
    }
  }
  // No namespaceSelector, one matching an empty label set (NotIn,
  // DoesNotExist), one needing a label, {}; sometimes with names.
  std::string NamespaceFields() {
    std::string s;
    switch (Pick(6)) {
      case 0:
        s = R"("namespaceSelector":{"matchExpressions":[{"key":"env","operator":"NotIn","values":["prod"]}]},)";
        break;
      case 1:
        s = R"("namespaceSelector":{"matchExpressions":[{"key":"env","operator":"DoesNotExist"}]},)";
        break;
      case 2:
        s = R"("namespaceSelector":{"matchLabels":{"env":"prod"}},)";
        break;
      case 3:
        s = R"("namespaceSelector":{},)";
        break;
      default:
        break;
    }
    if (Pick(5) == 0) s += R"("namespaces":["bare"],)";
    return s;
  }
  std::string Term() {
    return R"({"labelSelector":)" + Selector() + "," + NamespaceFields() + R"("topologyKey":")" +
           Key() + "\"}";
  }
  std::string Terms(bool weighted) {
    std::string s = "[";
    const int n = 1 + Pick(2);
    for (int i = 0; i < n; ++i) {
      if (i > 0) s += ",";
      s += weighted ? R"({"weight":)" + std::to_string(1 + Pick(5)) + R"(,"podAffinityTerm":)" +
                          Term() + "}"
                    : Term();
    }
    return s + "]";
  }
  std::string Affinity() {
    std::string out;
    for (const char* kind : {"podAffinity", "podAntiAffinity"}) {
      if (Pick(2) == 0) continue;
      std::string body;
      if (Pick(2) == 0)
        body += R"("requiredDuringSchedulingIgnoredDuringExecution":)" + Terms(false);
      if (Pick(2) == 0) {
        if (!body.empty()) body += ",";
        body += R"("preferredDuringSchedulingIgnoredDuringExecution":)" + Terms(true);
      }
      if (!out.empty()) out += ",";
      out += "\"" + std::string(kind) + "\":{" + body + "}";
    }
    return out;
  }
  // 1-3 constraints, often two on one key; empty and nil selectors with
  // matchLabelKeys; minDomains; inclusion policies.
  std::string Constraints() {
    std::string s = "[";
    const int n = 1 + Pick(3);
    const std::string shared_key = Key();
    for (int i = 0; i < n; ++i) {
      if (i > 0) s += ",";
      s += R"({"maxSkew":)" + std::to_string(1 + Pick(2)) + R"(,"topologyKey":")" +
           (Pick(2) == 0 ? shared_key : Key()) + R"(","whenUnsatisfiable":")" +
           (Pick(2) == 0 ? "DoNotSchedule" : "ScheduleAnyway") + "\"";
      const int sel = Pick(6);
      if (sel != 0) s += R"(,"labelSelector":)" + Selector();
      if (sel <= 1 || Pick(3) == 0) s += R"(,"matchLabelKeys":["hash"])";
      if (Pick(4) == 0) s += R"(,"minDomains":)" + std::to_string(2 + Pick(3));
      if (Pick(4) == 0) s += R"(,"nodeAffinityPolicy":"Ignore")";
      if (Pick(4) == 0) s += R"(,"nodeTaintsPolicy":"Honor")";
      s += "}";
    }
    return s + "]";
  }

  std::string PodJson(const std::string& name, const std::string& node, bool incoming) {
    std::string s = R"({"kind":"Pod","metadata":{"name":")" + name + R"(","namespace":")" +
                    Namespace() + R"(","labels":{)" + Labels() +
                    R"(}},"spec":{"containers":[{"name":"c"}])";
    if (!node.empty()) s += R"(,"nodeName":")" + node + "\"";
    if (Pick(2) == 0) {
      std::string a = Affinity();
      if (!a.empty()) s += R"(,"affinity":{)" + a + "}";
    }
    if (incoming) {
      if (Pick(4) != 0) s += R"(,"topologySpreadConstraints":)" + Constraints();
      if (Pick(4) == 0) s += R"(,"nodeSelector":{"disk":"ssd"})";
      if (Pick(3) == 0) s += R"(,"tolerations":[{"key":"k","operator":"Exists"}])";
    }
    return s + "}}";
  }

  std::string ClusterJson(int nodes, int pods) {
    std::string s = R"({"kind":"List","items":[)";
    s += R"({"kind":"Namespace","metadata":{"name":"default","labels":{"env":"dev"}}},)";
    s += R"({"kind":"Namespace","metadata":{"name":"prod","labels":{"env":"prod"}}},)";
    s += R"({"kind":"Namespace","metadata":{"name":"bare"}},)";
    // Services select app=a pods (the system default constraints).
    s +=
        R"({"kind":"Service","metadata":{"name":"s","namespace":"default"},"spec":{"selector":{"app":"a"}}})";
    for (int i = 0; i < nodes; ++i) {
      std::string labels = R"("kubernetes.io/hostname":"n)" + std::to_string(i) + "\"";
      if (i % 5 != 4) labels += R"(,"zone":"z)" + std::to_string(i % 3) + "\"";
      if (i % 2 == 0) labels += R"(,"region":"r)" + std::to_string(i % 4 / 2) + "\"";
      if (i % 3 == 0) labels += R"(,"disk":"ssd")";
      std::string spec;
      if (i % 4 == 1) spec = R"("taints":[{"key":"k","value":"v","effect":"NoSchedule"}])";
      s += R"(,{"kind":"Node","metadata":{"name":"n)" + std::to_string(i) + R"(","labels":{)" +
           labels + R"(}},"spec":{)" + spec + "}}";
    }
    for (int i = 0; i < pods; ++i)
      s += "," + PodJson("e" + std::to_string(i), "n" + std::to_string(Pick(nodes)), false);
    return s + "]}";
  }

 private:
  std::mt19937 rng_;
};

// One release's two plugins in one mode (kept sums or walking).
struct Plugins {
  std::unique_ptr<KeptHandle> handle;
  std::unique_ptr<framework::plugins::podtopologyspread::PodTopologySpread> spread;
  std::unique_ptr<framework::interpodaffinity::InterPodAffinity> affinity;

  Plugins(const ClusterState* cluster, SchedulerVersion v, bool reuse)
      : handle(std::make_unique<KeptHandle>(cluster, v, reuse)),
        spread(std::make_unique<framework::plugins::podtopologyspread::PodTopologySpread>(
            config::PodTopologySpreadArgs{}, handle.get())),
        affinity(std::make_unique<framework::interpodaffinity::InterPodAffinity>(
            config::InterPodAffinityArgs{}, handle.get())) {}
};

std::string Verdict(const Status& s) {
  return std::to_string(static_cast<int>(s.code())) + " " + s.Message();
}

// Everything one plugin answers for `pod`, as text; checks its batch forms
// against its plain ones on the way.
template <typename P>
std::vector<std::string> Answers(P* plugin, const ClusterState& cluster, const Pod& pod,
                                 const std::vector<NodeId>& feasible, const PodInfo& extra,
                                 NodeId extra_node, const std::string& where) {
  std::vector<std::string> out;
  CycleState state;
  PreFilterResult r;
  const Status pre = plugin->PreFilter(&state, pod, &r);
  out.push_back("prefilter " + Verdict(pre));
  if (pre.IsSuccess()) {
    std::vector<NodeId> ids;
    for (NodeId id = 0; id < cluster.num_nodes(); ++id) ids.push_back(id);
    std::vector<framework::Code> codes(ids.size());
    const bool batch = plugin->FilterCodesOf(state, pod, ids.data(), ids.size(), codes.data());
    for (NodeId id : ids) {
      const Status s = plugin->Filter(state, pod, cluster.node_info(id));
      out.push_back(Verdict(s));
      if (batch) {
        EXPECT_EQ(codes[id], s.code()) << where << " node " << id << " FilterCodesOf";
      }
      if (auto c = plugin->FilterCodeOf(state, pod, id)) {
        EXPECT_EQ(*c, s.code()) << where << " node " << id << " FilterCodeOf";
      }
      EXPECT_EQ(plugin->FilterCode(state, pod, cluster.node_info(id)), s.code()) << where;
    }
    // A nominated pod added, then a placed pod removed (preemption).
    CycleState added = state.Clone();
    EXPECT_TRUE(plugin->AddPod(&added, pod, extra, cluster.node_info(extra_node)).IsSuccess());
    for (NodeId id : ids)
      out.push_back("+ " + Verdict(plugin->Filter(added, pod, cluster.node_info(id))));
    const NodeInfo& holder = cluster.node_info(extra_node);
    if (!holder.pods.empty()) {
      CycleState removed = state.Clone();
      EXPECT_TRUE(
          plugin->RemovePod(&removed, pod, cluster.pod(holder.pods[0]), holder).IsSuccess());
      for (NodeId id : ids)
        out.push_back("- " + Verdict(plugin->Filter(removed, pod, cluster.node_info(id))));
    }
  }
  const Status ps = plugin->PreScore(&state, pod, feasible);
  out.push_back("prescore " + Verdict(ps));
  if (!ps.IsSuccess()) return out;
  NodeScoreList scores;
  for (NodeId id : feasible) {
    int64_t score = 0;
    EXPECT_TRUE(plugin->Score(state, pod, cluster.node_info(id), &score).IsSuccess()) << where;
    scores.push_back(NodeScore{id, score});
    out.push_back("raw " + std::to_string(score));
  }
  NodeScoreList batch(feasible.size());
  const bool zero = plugin->ScoresZeroEverywhere(state);
  if (zero) {
    for (const NodeScore& s : scores) EXPECT_EQ(s.score, 0) << where << " ScoresZeroEverywhere";
  }
  if (plugin->ScoresOf(state, pod, feasible.data(), feasible.size(), batch.data())) {
    for (size_t k = 0; k < feasible.size(); ++k)
      EXPECT_EQ(batch[k].score, scores[k].score) << where << " ScoresOf " << k;
  }
  NodeScoreList normalized = scores;
  EXPECT_TRUE(plugin->NormalizeScore(state, pod, &normalized).IsSuccess()) << where;
  for (const NodeScore& s : normalized) out.push_back("norm " + std::to_string(s.score));
  if (zero) {
    if (auto k = plugin->NormalizedZero(state, pod)) {
      for (const NodeScore& s : normalized) EXPECT_EQ(s.score, *k) << where << " NormalizedZero";
    }
  }
  std::vector<int64_t> totals(feasible.size(), 5);
  bool out_of_range = false;
  if (plugin->ScoreNormalizeAndAdd(state, pod, feasible.data(), feasible.size(), 2, totals.data(),
                                   &out_of_range)) {
    for (size_t k = 0; k < feasible.size(); ++k)
      EXPECT_EQ(totals[k], 5 + 2 * normalized[k].score) << where << " ScoreNormalizeAndAdd " << k;
  }
  return out;
}

TEST(KeptSpreadAffinityEquivalence, KeptSumsAnswerAsWalksInBothReleases) {
  for (uint32_t seed = 1; seed <= 24; ++seed) {
    RandomPods gen(seed);
    const int num_nodes = 6 + static_cast<int>(seed % 7);
    ClusterState cluster =
        ::ksched::testing::TestCluster(gen.ClusterJson(num_nodes, 6 + static_cast<int>(seed % 9)));
    std::vector<Plugins> kept, walked;
    for (SchedulerVersion v : {SchedulerVersion::kV126, SchedulerVersion::kV135}) {
      kept.emplace_back(&cluster, v, true);
      walked.emplace_back(&cluster, v, false);
    }
    // Pending pods that come back, as pods of one controller do, so kept
    // sums are found again after other pods.
    std::vector<Pod> recurring;
    for (int i = 0; i < 4; ++i)
      recurring.push_back(
          ::ksched::testing::TestPod(gen.PodJson("r" + std::to_string(i), "", true)));
    for (int step = 0; step < 80; ++step) {
      Pod pod = gen.Pick(2) == 0
                    ? recurring[static_cast<size_t>(gen.Pick(4))]
                    : ::ksched::testing::TestPod(gen.PodJson("p" + std::to_string(step), "", true));
      std::vector<NodeId> feasible;
      for (NodeId id = 0; id < cluster.num_nodes(); ++id)
        if (gen.Pick(3) != 0) feasible.push_back(id);
      if (feasible.empty()) feasible.push_back(0);
      const PodInfo extra = MakePodInfo(
          ::ksched::testing::TestPod(gen.PodJson("x" + std::to_string(step), "", false)));
      const NodeId extra_node = static_cast<NodeId>(gen.Pick(num_nodes));
      for (size_t v = 0; v < kept.size(); ++v) {
        const std::string where = "seed " + std::to_string(seed) + " step " + std::to_string(step) +
                                  " release " + (v == 0 ? "v1.26" : "v1.35") + " pod " + pod.Key();
        EXPECT_EQ(Answers(kept[v].spread.get(), cluster, pod, feasible, extra, extra_node, where),
                  Answers(walked[v].spread.get(), cluster, pod, feasible, extra, extra_node, where))
            << where << " PodTopologySpread";
        EXPECT_EQ(
            Answers(kept[v].affinity.get(), cluster, pod, feasible, extra, extra_node, where),
            Answers(walked[v].affinity.get(), cluster, pod, feasible, extra, extra_node, where))
            << where << " InterPodAffinity";
      }
      if (::testing::Test::HasFailure()) return;
      if (gen.Pick(4) == 0) {
        std::vector<PodId> live;
        for (PodId id = 0; id < cluster.num_pods(); ++id)
          if (cluster.pod(id).live) live.push_back(id);
        if (!live.empty())
          cluster.RemovePod(live[static_cast<size_t>(gen.Pick(static_cast<int>(live.size())))]);
      } else {
        pod.meta.name = "bound-" + std::to_string(step);
        cluster.Assume(pod, static_cast<NodeId>(gen.Pick(num_nodes)));
      }
    }
  }
}

// The two releases do differ on these inputs (the comparison above is not
// between identical plugins).
TEST(KeptSpreadAffinityEquivalence, ReleasesDifferOnTheseInputs) {
  RandomPods gen(3);
  ClusterState cluster = ::ksched::testing::TestCluster(gen.ClusterJson(9, 12));
  Plugins v126(&cluster, SchedulerVersion::kV126, true);
  Plugins v135(&cluster, SchedulerVersion::kV135, true);
  int differ = 0;
  std::vector<NodeId> all;
  for (NodeId id = 0; id < cluster.num_nodes(); ++id) all.push_back(id);
  for (int i = 0; i < 40; ++i) {
    const Pod pod = ::ksched::testing::TestPod(gen.PodJson("p" + std::to_string(i), "", true));
    const PodInfo extra = MakePodInfo(::ksched::testing::TestPod(gen.PodJson("x", "", false)));
    differ += Answers(v126.spread.get(), cluster, pod, all, extra, 0, "") !=
              Answers(v135.spread.get(), cluster, pod, all, extra, 0, "");
    differ += Answers(v126.affinity.get(), cluster, pod, all, extra, 0, "") !=
              Answers(v135.affinity.get(), cluster, pod, all, extra, 0, "");
  }
  EXPECT_GT(differ, 20);
}

}  // namespace framework_kept_spread_affinity_test
}  // namespace ksched
