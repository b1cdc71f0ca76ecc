// Micro-benchmarks of SelectorSpreadPriority: Prepare (which Services and
// ReplicaSets select the pod), Map (count the matching pods on each node) and
// Reduce (node and zone spreading scores), over every node of the cluster.
//
// The cluster follows ../shared/perf's spreading family: N nodes in 10 zones
// with two existing pods each, half of them app=spread owned by ReplicaSet
// rs-spread, which a Service and that ReplicaSet select. Other Services and
// ReplicaSets in the namespace (50 unless stated; they select none of these
// pods) make Prepare's scan of the workload objects realistic.
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

constexpr char kOwner[] =
    R"("ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"rs-spread",)"
    R"("uid":"rs-spread-uid","controller":true}])";

std::string ServiceJson(const std::string& name, const std::string& app) {
  return R"({"kind":"Service","apiVersion":"v1","metadata":{"name":")" + name +
         R"(","namespace":"default"},"spec":{"selector":{"app":")" + app + R"("}}})";
}

std::string ReplicaSetJson(const std::string& name, const std::string& app) {
  return R"({"kind":"ReplicaSet","apiVersion":"apps/v1","metadata":{"name":")" + name +
         R"(","namespace":"default"},"spec":{"selector":{"matchLabels":{"app":")" + app +
         R"("}}}})";
}

const ClusterState& Cluster(size_t nodes, int other_workloads = 50) {
  return bench::CachedCluster(fmt::format("spread-{}-{}", nodes, other_workloads), [=] {
    ClusterBuilder b;
    b.Nodes(nodes, 10)
        .Pods(nodes, "setup", R"("name":"setup","app":"setup")")
        .Pods(nodes, "spread", R"("app":"spread")", "", kOwner)
        .Object(ServiceJson("svc-spread", "spread"))
        .Object(ReplicaSetJson("rs-spread", "spread"));
    for (int i = 0; i < other_workloads; ++i) {
      b.Object(ServiceJson(fmt::format("svc-other-{}", i), fmt::format("other-{}", i)));
      b.Object(ReplicaSetJson(fmt::format("rs-other-{}", i), fmt::format("other-{}", i)));
    }
    return b.Build();
  });
}

Pod SpreadPod() {
  return bench::DecodePod(bench::PodJson("pod-0", R"("app":"spread")", "", kOwner));
}

// Prepare: PodSelectors (Services, RCs, ReplicaSets, StatefulSets that
// select the pod), compiling their selectors. Independent of N; Arg: other
// Services and ReplicaSets in the namespace (each kind).
void BM_SelectorSpreadPrepare(benchmark::State& state) {
  const ClusterState& cluster = Cluster(1000, static_cast<int>(state.range(0)));
  const std::unique_ptr<Priority> priority = NewSelectorSpreadPriority();
  const Incoming incoming(SpreadPod());
  for (auto _ : state) {
    std::unique_ptr<PriorityState> ps = priority->Prepare(incoming.target(), cluster);
    benchmark::DoNotOptimize(ps);
  }
}
BENCHMARK(BM_SelectorSpreadPrepare)->Arg(0)->Arg(50)->Arg(500);

// Map over every node (the uncached path's per-node count); items/s = nodes/s.
void BM_SelectorSpreadMap(benchmark::State& state) {
  const ClusterState& cluster = Cluster(static_cast<size_t>(state.range(0)));
  const std::unique_ptr<Priority> priority = NewSelectorSpreadPriority();
  const Incoming incoming(SpreadPod());
  const std::unique_ptr<PriorityState> ps = priority->Prepare(incoming.target(), cluster);
  const std::vector<NodeId> nodes = bench::AllNodes(cluster);
  std::vector<int64_t> scores(nodes.size());
  for (auto _ : state) {
    for (size_t i = 0; i < nodes.size(); ++i)
      scores[i] = priority->Map(incoming.target(), ps.get(), cluster, nodes[i]);
    benchmark::DoNotOptimize(scores.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * nodes.size()));
}

// Reduce over every node. Reduce works in place, so each iteration first
// restores the raw counts (the scheduler likewise copies cached raw scores
// into the score vector before reducing).
void BM_SelectorSpreadReduce(benchmark::State& state) {
  const ClusterState& cluster = Cluster(static_cast<size_t>(state.range(0)));
  const std::unique_ptr<Priority> priority = NewSelectorSpreadPriority();
  const Incoming incoming(SpreadPod());
  const std::unique_ptr<PriorityState> ps = priority->Prepare(incoming.target(), cluster);
  const std::vector<NodeId> nodes = bench::AllNodes(cluster);
  std::vector<int64_t> raw(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i)
    raw[i] = priority->Map(incoming.target(), ps.get(), cluster, nodes[i]);
  std::vector<int64_t> scores(nodes.size());
  for (auto _ : state) {
    scores = raw;
    priority->Reduce(incoming.target(), ps.get(), cluster, nodes, scores);
    benchmark::DoNotOptimize(scores.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * nodes.size()));
}

// Prepare + Map + Reduce: one uncached scoring of the priority.
void BM_SelectorSpreadAll(benchmark::State& state) {
  const ClusterState& cluster = Cluster(static_cast<size_t>(state.range(0)));
  const std::unique_ptr<Priority> priority = NewSelectorSpreadPriority();
  const Incoming incoming(SpreadPod());
  const std::vector<NodeId> nodes = bench::AllNodes(cluster);
  std::vector<int64_t> scores(nodes.size());
  for (auto _ : state) {
    const std::unique_ptr<PriorityState> ps = priority->Prepare(incoming.target(), cluster);
    for (size_t i = 0; i < nodes.size(); ++i)
      scores[i] = priority->Map(incoming.target(), ps.get(), cluster, nodes[i]);
    priority->Reduce(incoming.target(), ps.get(), cluster, nodes, scores);
    benchmark::DoNotOptimize(scores.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * nodes.size()));
}

#define NODE_COUNTS ->Arg(1000)->Arg(5000)->Arg(15000)->Unit(benchmark::kMicrosecond)
BENCHMARK(BM_SelectorSpreadMap) NODE_COUNTS;
BENCHMARK(BM_SelectorSpreadReduce) NODE_COUNTS;
BENCHMARK(BM_SelectorSpreadAll) NODE_COUNTS;
#undef NODE_COUNTS

}  // namespace
}  // namespace ksched
