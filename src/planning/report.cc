#include "planning/report.h"

#include <algorithm>

namespace ksched::planning {

bool IsGpuResource(std::string_view name) {
  const size_t slash = name.find('/');
  if (slash == std::string_view::npos) return false;
  return name.substr(slash + 1) == "gpu" || name.substr(0, 4) == "gpu.";
}

std::vector<NodeUsage> TakeUsage(const ClusterState& cluster) {
  std::vector<NodeUsage> out;
  out.reserve(cluster.num_nodes());
  for (NodeId n = 0; n < cluster.num_nodes(); ++n) {
    const NodeInfo& info = cluster.node_info(n);
    NodeUsage u;
    u.name = std::string(info.name());
    u.cpu_allocatable = info.allocatable.milli_cpu;
    u.memory_allocatable = info.allocatable.memory;
    u.pods_allocatable = info.allocatable.allowed_pod_number;
    u.cpu = info.requested.milli_cpu;
    u.memory = info.requested.memory;
    u.pods = static_cast<int64_t>(info.pods.size());
    for (const auto& [id, amount] : info.allocatable.scalars)
      if (IsGpuResource(Str(id))) u.gpu_allocatable += amount;
    for (const auto& [id, amount] : info.requested.scalars)
      if (IsGpuResource(Str(id))) u.gpu += amount;
    out.push_back(std::move(u));
  }
  return out;
}

PodRecord RecordAttempt(const Attempt& a, const ClusterState& cluster, size_t top_n) {
  const ScheduleResult& r = a.result;
  PodRecord rec;
  rec.pod = a.pod->Key();
  rec.attempt = a.number;
  if (r.chosen != kNoNode) {
    rec.node = cluster.node(r.chosen).meta.name;
  } else {
    rec.error = r.error;
  }
  rec.scored = r.scored;
  if (r.scored) {
    std::vector<size_t> order(r.feasible.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    auto name = [&](size_t i) -> const std::string& {
      return cluster.node(r.feasible[i]).meta.name;
    };
    std::sort(order.begin(), order.end(), [&](size_t x, size_t y) {
      if (r.totals[x] != r.totals[y]) return r.totals[x] > r.totals[y];
      return name(x) < name(y);
    });
    for (size_t i = 0; i < r.feasible.size(); ++i)
      if (r.feasible[i] == r.chosen) rec.score = r.totals[i];
    for (size_t k = 0; k < order.size() && k < top_n; ++k) {
      ScoreRow row;
      row.node = name(order[k]);
      row.total = r.totals[order[k]];
      for (const auto& per_priority : r.priority_scores)
        row.scores.push_back(per_priority[order[k]]);
      rec.top.push_back(std::move(row));
    }
  }
  if (a.preemption && a.preemption->error.empty() && a.preemption->node != kNoNode) {
    rec.preempted_on = cluster.node(a.preemption->node).meta.name;
    for (PodId v : a.preemption->victims) rec.victims.push_back(cluster.pod(v).pod.Key());
  }
  return rec;
}

std::vector<std::string> PriorityNames(const Engine& engine) {
  std::vector<std::string> out;
  for (const ScoreColumn& c : engine.score_columns().columns) out.push_back(c.name);
  return out;
}

}  // namespace ksched::planning
