// What-if answers on a perf-shaped cluster (4-core nodes, 10 zones, pods of
// 100m / 500Mi as ../shared/perf):
//
//   BM_AddNodeSearch/N: N nodes, 4 pods on each, and 100 pending pods that
//     ask for 3 cores on nodes labelled pool=new, which only the template
//     has; the answer is 100 nodes (one such pod per 4-core node), found in
//     15 full runs of the engine.
//   BM_Drain/N: drain 1% of N nodes (4 ReplicaSet pods on each): their pods
//     are rescheduled on the rest.
// The acceptance bar is seconds at 5,000 nodes, where a person waits for an
// answer (docs/planning.md has the figures).
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <cstdlib>

#include "algorithm/provider.h"
#include "api/decode.h"
#include "planning/add_node.h"
#include "planning/drain.h"
#include "tests/bench_fixtures.h"

namespace ksched::planning {
namespace {

constexpr size_t kPodsPerNode = 4;

ObjectSet Cluster(size_t nodes, size_t pending) {
  std::string json = R"({"kind":"List","items":[)";
  bool first = true;
  auto add = [&](const std::string& item) {
    if (!first) json += ",";
    first = false;
    json += item;
  };
  for (size_t i = 0; i < nodes; ++i) add(bench::NodeJson(i, 10));
  const std::string owner =
      R"("ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web","uid":"u-web","controller":true}])";
  for (size_t i = 0; i < nodes * kPodsPerNode; ++i) {
    add(bench::PodJson(fmt::format("web-{}", i), R"("app":"web")", "", owner,
                       bench::NodeName(i % nodes)));
  }
  for (size_t i = 0; i < pending; ++i) {
    std::string pod = bench::PodJson(fmt::format("batch-{}", i), R"("app":"batch")",
                                     R"("nodeSelector":{"pool":"new"})");
    // 3 cores instead of 100m.
    size_t at = pod.find(R"("cpu":"100m")");
    pod.replace(at, 12, R"("cpu":"3")");
    at = pod.find(R"("cpu":"100m")");
    pod.replace(at, 12, R"("cpu":"3")");
    add(pod);
  }
  json += "]}";
  ObjectSet set;
  if (!DecodeObjects(json, "bench", &set).ok()) std::abort();
  return set;
}

SchedulerFactory Factory() {
  return []() -> Result<std::unique_ptr<Engine>> {
    auto config = BuildFromProvider("DefaultProvider", BuildOptions{});
    if (!config.ok()) return config.error();
    return MakeV115Engine(std::move(config).value(), TieBreak::kName);
  };
}

void BM_AddNodeSearch(benchmark::State& state) {
  const size_t nodes = static_cast<size_t>(state.range(0));
  auto snap = SplitSnapshot(Cluster(nodes, 100), "default-scheduler");
  if (!snap.ok()) std::abort();
  NodeTemplate t;
  ObjectSet tmpl;
  if (!DecodeObjects(R"({"kind":"Node","metadata":{"name":"new","labels":{"pool":"new"}},)"
                     R"("status":{"allocatable":{"cpu":"4","memory":"32Gi","pods":"110"}}})",
                     "template", &tmpl)
           .ok())
    std::abort();
  t.node = tmpl.nodes.at(0);
  size_t runs = 0;
  for (auto _ : state) {
    auto a = FindNodesToAdd(*snap, {}, t, Factory(), {}, SearchMode::kBisect);
    if (!a.ok() || !a->nodes || *a->nodes != 100) std::abort();
    runs = a->trials.size();
  }
  state.counters["runs"] = static_cast<double>(runs);
}
BENCHMARK(BM_AddNodeSearch)->Arg(200)->Arg(5000)->Unit(benchmark::kMillisecond)->Iterations(1);

void BM_Drain(benchmark::State& state) {
  const size_t nodes = static_cast<size_t>(state.range(0));
  ObjectSet objects = Cluster(nodes, 0);
  std::vector<std::string> drained;
  for (size_t i = 0; i < nodes / 100; ++i) drained.push_back(bench::NodeName(i * 100));
  size_t evicted = 0;
  for (auto _ : state) {
    auto r = PlanDrain(objects, drained, Factory(), {});
    if (!r.ok() || !r->safe) std::abort();
    evicted = r->evicted.size();
  }
  state.counters["evicted"] = static_cast<double>(evicted);
}
BENCHMARK(BM_Drain)->Arg(200)->Arg(5000)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace
}  // namespace ksched::planning
