// What the what-if answers record for their reports (table, JSON/YAML and the
// HTML page): per-node utilisation at a moment, and what became of each pod
// the engine attempted.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "algorithm/generic_scheduler.h"
#include "cache/cluster_state.h"
#include "engine/engine.h"
#include "loop/snapshot_loop.h"

namespace ksched::planning {

// Requested against allocatable, as NodeInfo counts them (cpu in
// millicores, memory in bytes, pods as a count, GPUs as a count: every
// extended resource IsGpuResource names, summed).
struct NodeUsage {
  std::string name;
  int64_t cpu_allocatable = 0, memory_allocatable = 0, pods_allocatable = 0;
  int64_t cpu = 0, memory = 0, pods = 0;
  int64_t gpu_allocatable = 0, gpu = 0;
};

// A GPU's extended resource name, as device plugins register them:
// `<vendor>/gpu` (nvidia.com/gpu, amd.com/gpu) or a `gpu.<vendor>/` domain
// (gpu.intel.com/i915).
bool IsGpuResource(std::string_view name);

// Every node of `cluster`, in the cluster's order.
std::vector<NodeUsage> TakeUsage(const ClusterState& cluster);

// One feasible node's scores: the weighted total and each priority's score.
struct ScoreRow {
  std::string node;
  int64_t total = 0;
  std::vector<int64_t> scores;  // per priority, as SchedulerConfig lists them
};

struct PodRecord {
  std::string pod;    // namespace/name
  std::string group;  // the workload's label, "pending" or "evicted from NODE"
  std::string node;   // "" when it did not fit
  std::string error;  // the FitError (or other error) when it did not fit
  bool scored = false;
  int64_t score = 0;  // the chosen node's total
  int attempt = 1;
  std::string preempted_on;          // node Preempt nominated, if any
  std::vector<std::string> victims;  // pods Preempt deletes
  std::vector<ScoreRow> top;         // the best-scoring nodes, best first
};

// Records an attempt; `top_n` limits the score rows kept (0: none). Must be
// called before the attempt's effects are applied (victims still named).
PodRecord RecordAttempt(const Attempt& a, const ClusterState& cluster, size_t top_n);

// The priority names of a configuration, in order (report column heads).
std::vector<std::string> PriorityNames(const Engine& engine);

}  // namespace ksched::planning
