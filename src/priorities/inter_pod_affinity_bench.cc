// Micro-benchmarks of InterPodAffinityPriority with preferred terms:
// Prepare (a walk over every existing pod summing weights per topology
// domain), Map (a node's domains looked up) and Reduce (float min-max).
//
// Clusters follow ../shared/perf's preferred families mid-run: N nodes in 10
// zones, M existing pods of which 90% are setup pods and 10% earlier pods of
// the family, labelled group=g0..g9 and carrying a weight-1 preferred term
// towards their own group:
//   affinity:      podAffinity, topology zone
//   anti_affinity: podAntiAffinity, topology hostname
// The incoming pod is group=g0 with the same kind of term.
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <memory>
#include <string>
#include <vector>

#include "api/decode.h"
#include "priorities/factories.h"
#include "tests/bench_fixtures.h"

namespace ksched {
namespace {

using bench::ClusterBuilder;
using bench::Incoming;

enum class Family { kAffinity, kAntiAffinity };

std::string PreferredTerm(Family family, int group) {
  const bool aff = family == Family::kAffinity;
  return fmt::format(
      R"("affinity":{{"{}":{{"preferredDuringSchedulingIgnoredDuringExecution":[{{"weight":1,)"
      R"("podAffinityTerm":{{"labelSelector":{{"matchLabels":{{"group":"g{}"}}}},)"
      R"("topologyKey":"{}"}}}}]}}}})",
      aff ? "podAffinity" : "podAntiAffinity", group,
      aff ? "failure-domain.beta.kubernetes.io/zone" : "kubernetes.io/hostname");
}

std::string GroupLabel(int group) { return fmt::format(R"("group":"g{}")", group); }

const ClusterState& Cluster(Family family, size_t nodes, size_t pods) {
  const std::string key =
      fmt::format("pref-{}-{}-{}", family == Family::kAffinity ? "aff" : "anti", nodes, pods);
  return bench::CachedCluster(key, [=] {
    const size_t family_pods = pods / 10;
    ClusterBuilder b;
    b.Nodes(nodes, 10).Pods(pods - family_pods, "setup", R"("name":"setup","app":"setup")");
    for (int g = 0; g < 10; ++g) {
      // Each group's pods continue the round-robin where the previous one
      // stopped, so the groups interleave over the nodes.
      const size_t count = family_pods / 10;
      b.Pods(count, fmt::format("g{}", g), GroupLabel(g), PreferredTerm(family, g), "",
             pods - family_pods + g * count);
    }
    return b.Build();
  });
}

Pod IncomingPod(Family family) {
  return bench::DecodePod(bench::PodJson("next", GroupLabel(0), PreferredTerm(family, 0)));
}

struct Setup {
  const ClusterState& cluster;
  std::unique_ptr<Priority> priority;
  Incoming incoming;
  std::vector<NodeId> nodes;

  Setup(benchmark::State& state, Family family)
      : cluster(Cluster(family, static_cast<size_t>(state.range(0)),
                        static_cast<size_t>(state.range(1)))),
        priority(NewInterPodAffinityPriority(/*hard_pod_affinity_weight=*/1)),
        incoming(IncomingPod(family)),
        nodes(bench::AllNodes(cluster)) {}
};

// Prepare with a warm compiled-term cache (the priority object lives across
// cycles, as in the scheduler). items/s = existing pods visited per second.
void BM_InterPodAffinityPriorityPrepare(benchmark::State& state, Family family) {
  Setup s(state, family);
  for (auto _ : state) {
    std::unique_ptr<PriorityState> ps = s.priority->Prepare(s.incoming.target(), s.cluster);
    benchmark::DoNotOptimize(ps);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * s.cluster.num_pods()));
}

// Map over every node; items/s = nodes/s.
void BM_InterPodAffinityPriorityMap(benchmark::State& state, Family family) {
  Setup s(state, family);
  const std::unique_ptr<PriorityState> ps = s.priority->Prepare(s.incoming.target(), s.cluster);
  std::vector<int64_t> scores(s.nodes.size());
  for (auto _ : state) {
    for (size_t i = 0; i < s.nodes.size(); ++i)
      scores[i] = s.priority->Map(s.incoming.target(), ps.get(), s.cluster, s.nodes[i]);
    benchmark::DoNotOptimize(scores.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * s.nodes.size()));
}

// Reduce over every node, restoring the raw scores first (Reduce is in place).
void BM_InterPodAffinityPriorityReduce(benchmark::State& state, Family family) {
  Setup s(state, family);
  const std::unique_ptr<PriorityState> ps = s.priority->Prepare(s.incoming.target(), s.cluster);
  std::vector<int64_t> raw(s.nodes.size());
  for (size_t i = 0; i < s.nodes.size(); ++i)
    raw[i] = s.priority->Map(s.incoming.target(), ps.get(), s.cluster, s.nodes[i]);
  std::vector<int64_t> scores(s.nodes.size());
  for (auto _ : state) {
    scores = raw;
    s.priority->Reduce(s.incoming.target(), ps.get(), s.cluster, s.nodes, scores);
    benchmark::DoNotOptimize(scores.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * s.nodes.size()));
}

// Prepare + Map + Reduce: what a preferred-affinity pod costs this priority
// each cycle (it is not node-local, so it is never cached).
void BM_InterPodAffinityPriorityAll(benchmark::State& state, Family family) {
  Setup s(state, family);
  std::vector<int64_t> scores(s.nodes.size());
  for (auto _ : state) {
    const std::unique_ptr<PriorityState> ps = s.priority->Prepare(s.incoming.target(), s.cluster);
    for (size_t i = 0; i < s.nodes.size(); ++i)
      scores[i] = s.priority->Map(s.incoming.target(), ps.get(), s.cluster, s.nodes[i]);
    s.priority->Reduce(s.incoming.target(), ps.get(), s.cluster, s.nodes, scores);
    benchmark::DoNotOptimize(scores.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * s.nodes.size()));
}

#define SHAPES                                     \
  ->ArgNames({"nodes", "pods"})                    \
      ->ArgsProduct({{1000, 5000}, {1000, 10000}}) \
      ->Unit(benchmark::kMicrosecond)
BENCHMARK_CAPTURE(BM_InterPodAffinityPriorityPrepare, affinity, Family::kAffinity) SHAPES;
BENCHMARK_CAPTURE(BM_InterPodAffinityPriorityPrepare, anti_affinity, Family::kAntiAffinity)
SHAPES;
BENCHMARK_CAPTURE(BM_InterPodAffinityPriorityMap, affinity, Family::kAffinity) SHAPES;
BENCHMARK_CAPTURE(BM_InterPodAffinityPriorityMap, anti_affinity, Family::kAntiAffinity) SHAPES;
BENCHMARK_CAPTURE(BM_InterPodAffinityPriorityReduce, affinity, Family::kAffinity) SHAPES;
BENCHMARK_CAPTURE(BM_InterPodAffinityPriorityAll, affinity, Family::kAffinity) SHAPES;
BENCHMARK_CAPTURE(BM_InterPodAffinityPriorityAll, anti_affinity, Family::kAntiAffinity) SHAPES;
#undef SHAPES

}  // namespace
}  // namespace ksched
