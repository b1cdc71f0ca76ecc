// Synthetic clusters for the micro-benchmarks (src/**/*_bench.cc).
//
// Objects are written as JSON and go through the real decoder and
// ClusterState::Build, so a benchmark sees exactly the interned labels,
// parsed quantities and per-node state the engine sees when it loads a
// snapshot. The shapes follow ../shared/perf (upstream's scheduler_perf):
// every node has 4 cpu, 32Gi, 110 pods, the hostname/zone/region labels and
// is Ready; every pod runs one pause container requesting 100m / 500Mi.
//
// Unlike tests/fixtures.h this does not use gtest: a decoding error is a bug
// in the benchmark, so it aborts.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "api/decode.h"
#include "api/types.h"
#include "cache/cluster_state.h"
#include "cache/node_info.h"
#include "predicates/predicate.h"

namespace ksched::bench {

// Labels of a perf node: "node-%05d" hostname, zone1..zoneK round-robin,
// region1/region2 alternating.
std::string NodeJson(size_t index, size_t zones);

// A pod in namespace "default" with the perf pause container.
//   labels_json: the body of metadata.labels, e.g. R"("app":"web")"
//   spec_extra:  extra spec members, e.g. R"("affinity":{...})" (no leading comma)
//   meta_extra:  extra metadata members, e.g. R"("ownerReferences":[...])"
//   node_name:   spec.nodeName, "" for a pending pod
std::string PodJson(std::string_view name, std::string_view labels_json,
                    std::string_view spec_extra = "", std::string_view meta_extra = "",
                    std::string_view node_name = "");

// "node-%05d", the name NodeJson gives node `index`.
std::string NodeName(size_t index);

// Accumulates objects, then decodes them into a ClusterState.
class ClusterBuilder {
 public:
  // `count` perf nodes spread over `zones` zones.
  ClusterBuilder& Nodes(size_t count, size_t zones);
  // `count` pods named prefix-0.. placed round-robin over the nodes added so
  // far (pod i on node (first_node + i) % nodes), as the perf setup pods are.
  ClusterBuilder& Pods(size_t count, std::string_view prefix, std::string_view labels_json,
                       std::string_view spec_extra = "", std::string_view meta_extra = "",
                       size_t first_node = 0);
  // Any other object (Service, ReplicaSet, ...), as JSON.
  ClusterBuilder& Object(std::string json);

  ClusterState Build() const;

 private:
  size_t num_nodes_ = 0;
  std::vector<std::string> items_;
};

// Decodes exactly one pod.
Pod DecodePod(std::string_view json);

// Builds `make()` once per `key` and keeps it for the life of the process:
// Google Benchmark calls a benchmark function several times while it sizes
// the iteration count, and a 15,000-node cluster should be decoded once.
const ClusterState& CachedCluster(const std::string& key,
                                  const std::function<ClusterState()>& make);

// The incoming pod as GenericScheduler::Schedule wraps it (MakePodInfo and
// PodRequestToSchedule), owning the PodInfo the PodToSchedule points into.
class Incoming {
 public:
  explicit Incoming(Pod pod);
  Incoming(const Incoming&) = delete;
  Incoming& operator=(const Incoming&) = delete;

  const PodToSchedule& target() const { return target_; }
  const Pod& pod() const { return info_->pod; }

 private:
  std::unique_ptr<PodInfo> info_;
  PodToSchedule target_;
};

// Every node id of `cluster`, in order (the feasible list when all fit).
std::vector<NodeId> AllNodes(const ClusterState& cluster);

}  // namespace ksched::bench
