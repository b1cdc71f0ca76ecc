// Micro-benchmarks of the node-local filter: PodFitsResources and
// GeneralPredicates over every node of a perf-shaped cluster.
//
// The loop is the scheduler's uncached filter loop: Prepare() once for the
// pod (outside the timed region, measured on its own below), then for each
// node in NodeTree order clear the reason list and Check(). items/s is
// nodes checked per second.
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

// N perf nodes (10 zones), one setup pod on each.
const ClusterState& Cluster(size_t nodes) {
  return bench::CachedCluster(fmt::format("fits-{}", nodes), [nodes] {
    return ClusterBuilder()
        .Nodes(nodes, 10)
        .Pods(nodes, "setup", R"("name":"setup","app":"setup")")
        .Build();
  });
}

// Runs `predicate` for `pod` over all nodes of an N-node cluster (Arg 0).
void RunFilter(benchmark::State& state, const Predicate& predicate, const Pod& pod) {
  const ClusterState& cluster = Cluster(static_cast<size_t>(state.range(0)));
  const std::vector<NodeId> order = NodeTree(cluster).CycleOrder();
  const Incoming incoming(pod);
  auto prepared = predicate.Prepare(incoming.target(), cluster);
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
      feasible += predicate.Check(incoming.target(), ps, cluster.node_info(n), &reasons) ? 1 : 0;
    }
    benchmark::DoNotOptimize(feasible);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * order.size()));
  state.counters["feasible%"] = 100.0 * static_cast<double>(feasible) /
                                static_cast<double>(state.iterations() * order.size());
}

Pod BasicPod() { return bench::DecodePod(bench::PodJson("pod-0", R"("app":"web")")); }

// 8 cpu: every node fails with "Insufficient cpu" (the reason path).
Pod TooBigPod() {
  return bench::DecodePod(
      R"({"kind":"Pod","metadata":{"name":"big","namespace":"default"},"spec":{"containers":[)"
      R"({"name":"c","resources":{"requests":{"cpu":"8","memory":"1Gi"}}}]}})");
}

// An extended resource no node offers: the scalar lookup, failing everywhere.
Pod ExtendedPod() {
  return bench::DecodePod(
      R"({"kind":"Pod","metadata":{"name":"gpu","namespace":"default"},"spec":{"containers":[)"
      R"({"name":"c","resources":{"requests":{"cpu":"100m","example.com/gpu":"1"},)"
      R"("limits":{"example.com/gpu":"1"}}}]}})");
}

// nodeSelector on the zone label: one node in ten passes.
Pod NodeSelectorPod() {
  return bench::DecodePod(
      bench::PodJson("pod-ns", R"("app":"web")",
                     R"("nodeSelector":{"failure-domain.beta.kubernetes.io/zone":"zone1"})"));
}

void BM_PodFitsResources(benchmark::State& state) {
  RunFilter(state, *NewPodFitsResources(), BasicPod());
}
void BM_PodFitsResources_Insufficient(benchmark::State& state) {
  RunFilter(state, *NewPodFitsResources(), TooBigPod());
}
void BM_PodFitsResources_Extended(benchmark::State& state) {
  RunFilter(state, *NewPodFitsResources(), ExtendedPod());
}
void BM_GeneralPredicates(benchmark::State& state) {
  RunFilter(state, *NewGeneralPredicates(), BasicPod());
}
void BM_GeneralPredicates_NodeSelector(benchmark::State& state) {
  RunFilter(state, *NewGeneralPredicates(), NodeSelectorPod());
}

#define NODE_COUNTS ->Arg(1000)->Arg(5000)->Arg(15000)->Unit(benchmark::kMicrosecond)
BENCHMARK(BM_PodFitsResources) NODE_COUNTS;
BENCHMARK(BM_PodFitsResources_Insufficient) NODE_COUNTS;
BENCHMARK(BM_PodFitsResources_Extended) NODE_COUNTS;
BENCHMARK(BM_GeneralPredicates) NODE_COUNTS;
BENCHMARK(BM_GeneralPredicates_NodeSelector) NODE_COUNTS;
#undef NODE_COUNTS

// The per-pod part the scheduler runs once a cycle: MakePodInfo,
// PodRequestToSchedule and GeneralPredicates' Prepare (which interns the
// reason strings and allocates the state).
void BM_GeneralPredicatesPrepare(benchmark::State& state) {
  const ClusterState& cluster = Cluster(1000);
  const std::unique_ptr<Predicate> predicate = NewGeneralPredicates();
  const Pod pod = BasicPod();
  for (auto _ : state) {
    const Incoming incoming(pod);
    auto prepared = predicate->Prepare(incoming.target(), cluster);
    benchmark::DoNotOptimize(prepared);
  }
}
BENCHMARK(BM_GeneralPredicatesPrepare);

}  // namespace
}  // namespace ksched
