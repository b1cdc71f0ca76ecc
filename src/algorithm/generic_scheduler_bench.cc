// Micro-benchmarks of one whole scheduling cycle (GenericScheduler::Schedule
// with the DefaultProvider) on a 5000-node perf cluster with 1000 existing
// pods, for the basic pod (requests only).
//
//   cached:   the engine's defaults (equivalence-class cache and score index),
//             no report; the cluster does not change between cycles, so this
//             is the floor of a cached cycle.
//   uncached: every predicate and priority on every node, as a pod of a new
//             class pays; `details` also builds the per-node report.
//   cached_500_workloads: as cached, with 500 Services and 500 ReplicaSets in
//             the pod's namespace (selecting other pods), as a real cluster
//             has: per-pod priority metadata scans them every cycle.
// The *_Bind variants bind each pod (Assume) as `ksched bench` does, so the
// cache recomputes the one changed node every cycle; they run a fixed number
// of cycles on a fresh cluster of their own.
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <cstdlib>
#include <memory>
#include <string>

#include "algorithm/generic_scheduler.h"
#include "algorithm/provider.h"
#include "api/decode.h"
#include "cache/node_tree.h"
#include "tests/bench_fixtures.h"

namespace ksched {
namespace {

constexpr size_t kNodes = 5000;
constexpr size_t kExisting = 1000;

ClusterState MakeCluster(int workloads) {
  bench::ClusterBuilder b;
  b.Nodes(kNodes, 10).Pods(kExisting, "setup", R"("name":"setup","app":"setup")");
  for (int i = 0; i < workloads; ++i) {
    b.Object(
        fmt::format(R"({{"kind":"Service","metadata":{{"name":"svc-{0}","namespace":"default"}},)"
                    R"("spec":{{"selector":{{"app":"app-{0}"}}}}}})",
                    i));
    b.Object(fmt::format(
        R"({{"kind":"ReplicaSet","apiVersion":"apps/v1","metadata":{{"name":"rs-{0}",)"
        R"("namespace":"default"}},"spec":{{"selector":{{"matchLabels":{{"app":"app-{0}"}}}}}}}})",
        i));
  }
  return b.Build();
}

std::unique_ptr<GenericScheduler> MakeScheduler(bool cached) {
  auto config = BuildFromProvider("DefaultProvider", BuildOptions{});
  if (!config.ok()) std::abort();
  auto s = std::make_unique<GenericScheduler>(std::move(config).value(), TieBreak::kName);
  s->set_equivalence_cache(cached);
  return s;
}

Pod BasicPod() { return bench::DecodePod(bench::PodJson("pod", R"("app":"web")")); }

void BM_Schedule(benchmark::State& state, bool cached, bool details, int workloads) {
  const ClusterState& cluster = bench::CachedCluster(fmt::format("sched-basic-{}", workloads),
                                                     [=] { return MakeCluster(workloads); });
  NodeTree tree(cluster);
  const std::unique_ptr<GenericScheduler> scheduler = MakeScheduler(cached);
  const Pod pod = BasicPod();
  // Two warm-up cycles: a class gets its cache entry the second time it is seen.
  for (int i = 0; i < 2; ++i) scheduler->Schedule(pod, cluster, &tree, details);
  for (auto _ : state) {
    ScheduleResult r = scheduler->Schedule(pod, cluster, &tree, details);
    benchmark::DoNotOptimize(r.chosen);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));  // pods/s
}
BENCHMARK_CAPTURE(BM_Schedule, cached, true, false, 0)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Schedule, cached_500_workloads, true, false, 500)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Schedule, uncached, false, false, 0)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Schedule, uncached_details, false, true, 0)->Unit(benchmark::kMicrosecond);

void BM_ScheduleBind(benchmark::State& state, bool cached) {
  ClusterState cluster = MakeCluster(0);
  NodeTree tree(cluster);
  const std::unique_ptr<GenericScheduler> scheduler = MakeScheduler(cached);
  const Pod pod = BasicPod();
  size_t i = 0;
  for (auto _ : state) {
    Pod p = pod;
    p.meta.name = fmt::format("pod-{}", i++);
    ScheduleResult r = scheduler->Schedule(p, cluster, &tree, /*record_details=*/false);
    if (r.chosen == kNoNode) {
      state.SkipWithError("pod did not fit");
      break;
    }
    cluster.Assume(std::move(p), r.chosen);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));  // pods/s
}
// Fixed cycle counts: every cycle grows the cluster, so the run must not
// depend on how many iterations the library would choose.
BENCHMARK_CAPTURE(BM_ScheduleBind, cached, true)->Iterations(5000)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_ScheduleBind, uncached, false)->Iterations(300)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace ksched
