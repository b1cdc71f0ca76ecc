// MatchInterPodAffinity and InterPodAffinityPriority keep per-pod metadata
// between cycles (topology-pair counts and weights, brought up to date from
// ClusterState::pod_log()) instead of walking every pod each cycle. They must
// answer exactly as the walk does: this grows and shrinks random clusters pod
// by pod, with one predicate and one priority object reused throughout (so
// kept objects are reused, synced and evicted), and after every change
// compares every node's verdict and reasons, the all-nodes verdicts, and every
// node's raw score against objects that walk every pod.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "predicates/factories.h"
#include "priorities/factories.h"
#include "tests/fixtures.h"

namespace ksched {
namespace kept_affinity_equivalence_test {

using ::ksched::testing::TestCluster;
using ::ksched::testing::TestPod;

class RandomAffinity {
 public:
  explicit RandomAffinity(uint32_t seed, bool with_invalid)
      : rng_(seed), with_invalid_(with_invalid) {}

  int Pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }

  std::string Selector() {
    static const char* kApps[] = {"a", "b", "c"};
    switch (Pick(with_invalid_ ? 5 : 4)) {
      case 0:
        return std::string(R"({"matchLabels":{"app":")") + kApps[Pick(3)] + "\"}}";
      case 1:
        return std::string(R"({"matchExpressions":[{"key":"app","operator":"In","values":[")") +
               kApps[Pick(3)] + R"(",")" + kApps[Pick(3)] + "\"]}]}";
      case 2:
        return R"({"matchExpressions":[{"key":"color","operator":"Exists"}]})";
      case 3:
        return R"({"matchLabels":{"color":"green","app":"a"}})";
      default:
        return R"({"matchExpressions":[{"key":"app","operator":"Bogus"}]})";
    }
  }

  std::string Term() {
    static const char* kKeys[] = {"zone", "kubernetes.io/hostname", "region"};
    std::string s = R"({"labelSelector":)" + Selector() + ",";
    if (Pick(5) == 0) s += R"("namespaces":["other"],)";
    return s + R"("topologyKey":")" + kKeys[Pick(3)] + "\"}";
  }

  std::string Terms(bool weighted) {
    std::string s = "[";
    const int n = 1 + Pick(2);
    for (int i = 0; i < n; ++i) {
      if (i > 0) s += ",";
      if (weighted) {
        s +=
            R"({"weight":)" + std::to_string(1 + Pick(5)) + R"(,"podAffinityTerm":)" + Term() + "}";
      } else {
        s += Term();
      }
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

  std::string PodJson(const std::string& name, const std::string& node) {
    static const char* kApps[] = {"a", "b", "c"};
    std::string labels = std::string(R"("app":")") + kApps[Pick(3)] + "\"";
    if (Pick(3) == 0) labels += R"(,"color":"green")";
    const char* ns = Pick(4) == 0 ? "other" : "default";
    std::string s = R"({"kind":"Pod","metadata":{"name":")" + name + R"(","namespace":")" + ns +
                    R"(","labels":{)" + labels + R"(}},"spec":{"containers":[{"name":"c"}])";
    if (!node.empty()) s += R"(,"nodeName":")" + node + "\"";
    // Half the pods carry no pod affinity at all, as in real clusters.
    if (Pick(2) == 0) {
      std::string a = Affinity();
      if (!a.empty()) s += R"(,"affinity":{)" + a + "}";
    }
    return s + "}}";
  }

  std::string ClusterJson(int nodes, int pods) {
    std::string s = R"({"kind":"List","items":[)";
    for (int i = 0; i < nodes; ++i) {
      std::string labels = R"("kubernetes.io/hostname":"n)" + std::to_string(i) + "\"";
      if (i % 5 != 4) labels += R"(,"zone":"z)" + std::to_string(i % 3) + "\"";
      if (i % 2 == 0) labels += R"(,"region":"r)" + std::to_string(i % 4 / 2) + "\"";
      if (i > 0) s += ",";
      s += R"({"kind":"Node","metadata":{"name":"n)" + std::to_string(i) + R"(","labels":{)" +
           labels + "}}}";
    }
    for (int i = 0; i < pods; ++i)
      s += "," + PodJson("e" + std::to_string(i), "n" + std::to_string(Pick(nodes)));
    return s + "]}";
  }

 private:
  std::mt19937 rng_;
  bool with_invalid_;
};

std::string Reasons(const ReasonList& r) {
  std::string s;
  for (ReasonId id : r.reasons()) s += std::string(Str(id)) + "; ";
  return s;
}

void CompareOnePod(const ClusterState& cluster, const Pod& pod, const Predicate& kept,
                   const Priority& kept_priority, int hard_weight, const std::string& where) {
  PodInfo info = MakePodInfo(pod);
  PodToSchedule target;
  target.info = &info;
  auto walk = NewMatchInterPodAffinityWalkingEveryPod();
  auto a = kept.Prepare(target, cluster);
  auto b = walk->Prepare(target, cluster);
  ASSERT_EQ(a.ok(), b.ok()) << where;
  if (!a.ok()) {
    EXPECT_EQ(a.error().message, b.error().message) << where;
  } else {
    EXPECT_EQ(kept.AlwaysPasses(a->get()), walk->AlwaysPasses(b->get())) << where;
    std::vector<uint8_t> all(cluster.num_nodes(), 1);
    const bool at_once = kept.CheckAll(target, a->get(), cluster, all);
    ReasonList ra, rb;
    for (NodeId n = 0; n < cluster.num_nodes(); ++n) {
      ra.Clear();
      rb.Clear();
      const bool fa = kept.Check(target, a->get(), cluster.node_info(n), &ra);
      const bool fb = walk->Check(target, b->get(), cluster.node_info(n), &rb);
      EXPECT_EQ(fa, fb) << where << " node " << n;
      EXPECT_EQ(Reasons(ra), Reasons(rb)) << where << " node " << n;
      if (at_once) {
        EXPECT_EQ(all[n] != 0, fa) << where << " node " << n << " (CheckAll)";
      }
    }
  }
  auto walk_priority = NewInterPodAffinityPriorityWalkingEveryPod(hard_weight);
  auto pa = kept_priority.Prepare(target, cluster);
  auto pb = walk_priority->Prepare(target, cluster);
  EXPECT_EQ(kept_priority.UniformScore(pa.get()), walk_priority->UniformScore(pb.get())) << where;
  for (NodeId n = 0; n < cluster.num_nodes(); ++n) {
    EXPECT_EQ(kept_priority.Map(target, pa.get(), cluster, n),
              walk_priority->Map(target, pb.get(), cluster, n))
        << where << " node " << n;
  }
}

TEST(KeptAffinityEquivalence, CountsFollowPodsAddedAndRemoved) {
  for (uint32_t seed = 1; seed <= 12; ++seed) {
    const bool with_invalid = seed == 12;  // one cluster where the walk must decide
    const int hard_weight = seed % 3 == 0 ? 0 : static_cast<int>(seed % 4);
    RandomAffinity gen(seed, with_invalid);
    const int num_nodes = 6 + static_cast<int>(seed % 7);
    ClusterState cluster = TestCluster(gen.ClusterJson(num_nodes, 4 + static_cast<int>(seed % 9)));
    auto kept = NewMatchInterPodAffinity();
    auto kept_priority = NewInterPodAffinityPriority(hard_weight);
    // A few pending pods come back again and again, as pods of one
    // controller do, so kept objects are found again after other pods.
    std::vector<Pod> recurring;
    for (int i = 0; i < 4; ++i)
      recurring.push_back(TestPod(gen.PodJson("r" + std::to_string(i), "")));
    for (int step = 0; step < 120; ++step) {
      const std::string where = "seed " + std::to_string(seed) + " step " + std::to_string(step);
      Pod pod = gen.Pick(2) == 0 ? recurring[static_cast<size_t>(gen.Pick(4))]
                                 : TestPod(gen.PodJson("p" + std::to_string(step), ""));
      CompareOnePod(cluster, pod, *kept, *kept_priority, hard_weight, where);
      if (::testing::Test::HasFailure()) return;
      if (gen.Pick(4) == 0) {
        // Remove a random live pod (an eviction, a preemption victim).
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

}  // namespace kept_affinity_equivalence_test
}  // namespace ksched
