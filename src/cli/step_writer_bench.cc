// Micro-benchmarks of the detailed output: one step of a 5,000-node cycle
// (DefaultProvider, 1000 existing pods) written as `ksched replay` writes it
// (compact JSON), as `schedule -o json` (indented) and as `-o yaml`.
//
//   fits:  a pod that fits every node: 5,000 feasible names, totals and the
//          eight priorities' scores (~0.8 MB of JSON).
//   fails: a pod asking 8 cpu, which no node has: 5,000 failures, each with
//          its reason (the engine turns reason ids into strings for them).
// The step goes to an OutputBuffer over a string that is emptied every
// iteration, so the figures are the writer's alone; bytes/s is output bytes.
// BM_ScheduleDetails times the cycle that builds such a result
// (record_details, equivalence cache on, as replay runs it).
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <memory>
#include <string>

#include "algorithm/generic_scheduler.h"
#include "algorithm/provider.h"
#include "api/decode.h"
#include "cache/node_tree.h"
#include "cli/step_writer.h"
#include "tests/bench_fixtures.h"

namespace ksched {
namespace {

const ClusterState& Cluster() {
  return bench::CachedCluster("step-writer-5000", [] {
    bench::ClusterBuilder b;
    b.Nodes(5000, 10).Pods(1000, "setup", R"("name":"setup")");
    return b.Build();
  });
}

Pod TestPod(bool fits) {
  return bench::DecodePod(
      fits ? bench::PodJson("pod", R"("app":"web")")
           : R"({"kind":"Pod","metadata":{"name":"big","namespace":"default"},"spec":{)"
             R"("containers":[{"name":"c","resources":{"requests":{"cpu":"8"}}}]}})");
}

SchedulerConfig DefaultConfig() {
  auto config = BuildFromProvider("DefaultProvider", BuildOptions{});
  if (!config.ok()) std::abort();
  return std::move(config).value();
}

enum class Format { kJsonLine, kJsonIndented, kYaml };

void BM_WriteStep(benchmark::State& state, bool fits, Format format) {
  const ClusterState& cluster = Cluster();
  NodeTree tree(cluster);
  GenericScheduler scheduler(DefaultConfig(), TieBreak::kName);
  const Pod pod = TestPod(fits);
  const ScheduleResult result = scheduler.Schedule(pod, cluster, &tree, /*record_details=*/true);
  const ScoreColumns columns = ScoreColumnsOf(scheduler.config());
  std::string sink;
  OutputBuffer out(&sink);
  std::unique_ptr<DocumentWriter> w =
      format == Format::kYaml
          ? MakeYamlWriter(&out)
          : MakeJsonWriter(
                &out, format == Format::kJsonLine ? JsonStyle::kCompact : JsonStyle::kIndented);
  size_t bytes = 0;
  for (auto _ : state) {
    WriteStep(w.get(), pod, result, cluster, columns);
    w->EndDocument();
    out.Flush();
    bytes += sink.size();
    sink.clear();
  }
  state.SetBytesProcessed(static_cast<int64_t>(bytes));
}
BENCHMARK_CAPTURE(BM_WriteStep, fits_json_line, true, Format::kJsonLine)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_WriteStep, fits_json_indented, true, Format::kJsonIndented)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_WriteStep, fits_yaml, true, Format::kYaml)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_WriteStep, fails_json_line, false, Format::kJsonLine)
    ->Unit(benchmark::kMicrosecond);

void BM_ScheduleDetails(benchmark::State& state, bool fits) {
  const ClusterState& cluster = Cluster();
  NodeTree tree(cluster);
  GenericScheduler scheduler(DefaultConfig(), TieBreak::kName);
  const Pod pod = TestPod(fits);
  // A class gets its cache entry the second time it is seen.
  for (int i = 0; i < 2; ++i) scheduler.Schedule(pod, cluster, &tree, true);
  for (auto _ : state) {
    ScheduleResult r = scheduler.Schedule(pod, cluster, &tree, /*record_details=*/true);
    benchmark::DoNotOptimize(r.chosen);
  }
}
BENCHMARK_CAPTURE(BM_ScheduleDetails, fits, true)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_ScheduleDetails, fails, false)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace ksched
