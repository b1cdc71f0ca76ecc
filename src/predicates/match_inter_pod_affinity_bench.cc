// Micro-benchmarks of MatchInterPodAffinity: the per-pod metadata (Prepare,
// a walk over every existing pod) and the per-node Check.
//
// Clusters follow ../shared/perf mid-run: N nodes in 10 zones, M existing
// pods of which 90% are setup pods (name=setup, app=setup, no affinity) and
// 10% are earlier pods of the family, carrying its terms:
//   affinity:      foo="" with required affinity to foo="", topology zone
//   anti_affinity: color=green, group=anti-i with required anti-affinity to
//                  color=green, topology hostname (one per node)
// and the incoming pod is the family's next pod. `no_terms` is a plain pod on
// the anti-affinity cluster: what every pod pays for existing pods' terms.
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <memory>
#include <string>
#include <vector>

#include "api/decode.h"
#include "cache/node_tree.h"
#include "predicates/factories.h"
#include "tests/bench_fixtures.h"

namespace ksched {
namespace {

using bench::ClusterBuilder;
using bench::Incoming;

enum class Family { kAffinity, kAntiAffinity, kNoTerms };

constexpr char kAffinityTerms[] =
    R"("affinity":{"podAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[)"
    R"({"labelSelector":{"matchLabels":{"foo":""}},)"
    R"("topologyKey":"failure-domain.beta.kubernetes.io/zone"}]}})";
constexpr char kAntiAffinityTerms[] =
    R"("affinity":{"podAntiAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[)"
    R"({"labelSelector":{"matchLabels":{"color":"green"}},)"
    R"("topologyKey":"kubernetes.io/hostname"}]}})";

const ClusterState& Cluster(Family family, size_t nodes, size_t pods) {
  const bool affinity = family == Family::kAffinity;
  const std::string key = fmt::format("ipa-{}-{}-{}", affinity ? "aff" : "anti", nodes, pods);
  return bench::CachedCluster(key, [=] {
    const size_t family_pods = pods / 10;
    ClusterBuilder b;
    b.Nodes(nodes, 10).Pods(pods - family_pods, "setup", R"("name":"setup","app":"setup")");
    if (affinity) {
      b.Pods(family_pods, "pod", R"("foo":"")", kAffinityTerms);
    } else {
      // Unique group labels, as scheduler_perf's pods; placed from the last
      // node backwards in the round-robin so they do not pile on setup pods.
      for (size_t i = 0; i < family_pods; ++i) {
        b.Object(bench::PodJson(fmt::format("anti-{}", i),
                                fmt::format(R"("color":"green","group":"anti-{}")", i),
                                kAntiAffinityTerms, "", bench::NodeName(nodes - 1 - i % nodes)));
      }
    }
    return b.Build();
  });
}

Pod IncomingPod(Family family) {
  switch (family) {
    case Family::kAffinity:
      return bench::DecodePod(bench::PodJson("next", R"("foo":"")", kAffinityTerms));
    case Family::kAntiAffinity:
      return bench::DecodePod(
          bench::PodJson("next", R"("color":"green","group":"anti-next")", kAntiAffinityTerms));
    case Family::kNoTerms:
      break;
  }
  return bench::DecodePod(bench::PodJson("next", R"("app":"web")"));
}

// Args: nodes, existing pods. The predicate object lives across iterations,
// as in the scheduler, so existing pods' terms are compiled once (warm).
void BM_MatchInterPodAffinityPrepare(benchmark::State& state, Family family) {
  const ClusterState& cluster =
      Cluster(family, static_cast<size_t>(state.range(0)), static_cast<size_t>(state.range(1)));
  const std::unique_ptr<Predicate> predicate = NewMatchInterPodAffinity();
  const Incoming incoming(IncomingPod(family));
  for (auto _ : state) {
    auto prepared = predicate->Prepare(incoming.target(), cluster);
    benchmark::DoNotOptimize(prepared);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * cluster.num_pods()));
}

// The same with a fresh predicate each iteration: includes compiling every
// existing pod's terms (the first cycle on a new cluster).
void BM_MatchInterPodAffinityPrepareCold(benchmark::State& state, Family family) {
  const ClusterState& cluster =
      Cluster(family, static_cast<size_t>(state.range(0)), static_cast<size_t>(state.range(1)));
  const Incoming incoming(IncomingPod(family));
  for (auto _ : state) {
    const std::unique_ptr<Predicate> predicate = NewMatchInterPodAffinity();
    auto prepared = predicate->Prepare(incoming.target(), cluster);
    benchmark::DoNotOptimize(prepared);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * cluster.num_pods()));
}

// Check over every node in NodeTree order; items/s is nodes per second.
void BM_MatchInterPodAffinityCheck(benchmark::State& state, Family family) {
  const ClusterState& cluster =
      Cluster(family, static_cast<size_t>(state.range(0)), static_cast<size_t>(state.range(1)));
  const std::vector<NodeId> order = NodeTree(cluster).CycleOrder();
  const std::unique_ptr<Predicate> predicate = NewMatchInterPodAffinity();
  const Incoming incoming(IncomingPod(family));
  auto prepared = predicate->Prepare(incoming.target(), cluster);
  if (!prepared.ok()) {
    state.SkipWithError(prepared.error().message.c_str());
    return;
  }
  const PredicateState* ps = prepared->get();
  ReasonList reasons;
  size_t feasible = 0;
  for (auto _ : state) {
    for (NodeId n : order) {
      reasons.Clear();
      feasible += predicate->Check(incoming.target(), ps, cluster.node_info(n), &reasons) ? 1 : 0;
    }
    benchmark::DoNotOptimize(feasible);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * order.size()));
  state.counters["feasible%"] = 100.0 * static_cast<double>(feasible) /
                                static_cast<double>(state.iterations() * order.size());
}

#define SHAPES                                     \
  ->ArgNames({"nodes", "pods"})                    \
      ->ArgsProduct({{1000, 5000}, {1000, 10000}}) \
      ->Unit(benchmark::kMicrosecond)
BENCHMARK_CAPTURE(BM_MatchInterPodAffinityPrepare, affinity, Family::kAffinity) SHAPES;
BENCHMARK_CAPTURE(BM_MatchInterPodAffinityPrepare, anti_affinity, Family::kAntiAffinity) SHAPES;
BENCHMARK_CAPTURE(BM_MatchInterPodAffinityPrepare, no_terms, Family::kNoTerms) SHAPES;
BENCHMARK_CAPTURE(BM_MatchInterPodAffinityPrepareCold, anti_affinity, Family::kAntiAffinity)
SHAPES;
BENCHMARK_CAPTURE(BM_MatchInterPodAffinityCheck, affinity, Family::kAffinity) SHAPES;
BENCHMARK_CAPTURE(BM_MatchInterPodAffinityCheck, anti_affinity, Family::kAntiAffinity) SHAPES;
#undef SHAPES

}  // namespace
}  // namespace ksched
