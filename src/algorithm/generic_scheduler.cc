#include "algorithm/generic_scheduler.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

namespace ksched {
namespace {

constexpr size_t kMinFeasibleNodesToFind = 100;
constexpr int kMinFeasibleNodesPercentageToFind = 5;

// Upstream's podPassesBasicChecks: every claim the pod names must exist and
// not be terminating. Fails the cycle with a plain (non-fit) error.
Status PodPassesBasicChecks(const Pod& pod, const ClusterState& cluster) {
  for (const Volume& v : pod.spec.volumes) {
    if (v.kind != VolumeKind::kPersistentVolumeClaim) continue;
    const PersistentVolumeClaim* pvc = cluster.FindPvc(pod.meta.ns, v.id);
    if (pvc == nullptr) return MakeError(fmt::format("persistentvolumeclaim \"{}\" not found", v.id));
    if (pvc->meta.has_deletion_timestamp) {
      return MakeError(fmt::format("persistentvolumeclaim \"{}\" is being deleted", v.id));
    }
  }
  return Status::Ok();
}

}  // namespace

GenericScheduler::GenericScheduler(SchedulerConfig config, TieBreak tie_break)
    : config_(std::move(config)), tie_break_(tie_break) {}

size_t GenericScheduler::NumFeasibleNodesToFind(size_t num_all_nodes, int percentage) {
  if (num_all_nodes < kMinFeasibleNodesToFind || percentage >= 100) return num_all_nodes;
  int64_t adaptive = percentage;
  if (adaptive <= 0) {
    adaptive = 50 - static_cast<int64_t>(num_all_nodes) / 125;
    if (adaptive < kMinFeasibleNodesPercentageToFind) adaptive = kMinFeasibleNodesPercentageToFind;
  }
  size_t num = num_all_nodes * static_cast<size_t>(adaptive) / 100;
  return std::max(num, kMinFeasibleNodesToFind);
}

std::string GenericScheduler::FitErrorMessage(size_t num_all_nodes,
                                              const std::vector<NodeFailure>& failures) {
  std::map<std::string, int> histogram;
  for (const NodeFailure& f : failures)
    for (const std::string& r : f.reasons) ++histogram[r];
  std::vector<std::string> parts;
  parts.reserve(histogram.size());
  for (const auto& [reason, count] : histogram) parts.push_back(fmt::format("{} {}", count, reason));
  std::sort(parts.begin(), parts.end());
  return fmt::format("0/{} nodes are available: {}.", num_all_nodes, fmt::join(parts, ", "));
}

ScheduleResult GenericScheduler::Schedule(const Pod& pod, const ClusterState& cluster,
                                          NodeTree* tree) {
  ScheduleResult result;
  if (Status s = PodPassesBasicChecks(pod, cluster); !s.ok()) {
    result.error = s.error().message;
    return result;
  }
  const size_t num_nodes = tree->num_nodes();
  if (num_nodes == 0) {
    result.error = "no nodes available to schedule pods";
    return result;
  }

  PodInfo info = MakePodInfo(pod);
  PodToSchedule target;
  target.info = &info;
  target.request = PodRequestToSchedule(pod);

  // ---- filter
  std::vector<std::unique_ptr<PredicateState>> states;
  states.reserve(config_.predicates.size());
  for (const PredicateConfig& pc : config_.predicates) {
    auto state = pc.predicate->Prepare(target, cluster);
    if (!state.ok()) {
      result.error = state.error().message;
      return result;
    }
    states.push_back(std::move(state).value());
  }

  const size_t to_find = NumFeasibleNodesToFind(num_nodes, config_.percentage_of_nodes_to_score);
  size_t examined = 0;
  for (size_t i = 0; i < num_nodes; ++i) {
    NodeId id = tree->Next();
    ++examined;
    const NodeInfo& node = cluster.node_info(id);
    reasons_.Clear();
    bool fits = true;
    size_t first_failed = 0;
    for (size_t p = 0; p < config_.predicates.size(); ++p) {
      if (!config_.predicates[p].predicate->Check(target, states[p].get(), node, &reasons_)) {
        if (fits) first_failed = p;
        fits = false;
        if (!config_.always_check_all_predicates) break;
      }
    }
    if (fits) {
      // Upstream counts the node that would exceed the quota, then discards
      // it and stops: that node is walked but not kept.
      if (result.feasible.size() + 1 > to_find) break;
      result.feasible.push_back(id);
    } else {
      NodeFailure f;
      f.node = id;
      f.predicate = config_.predicates[first_failed].name;
      f.reasons.reserve(reasons_.size());
      for (ReasonId r : reasons_.reasons()) f.reasons.emplace_back(Str(r));
      result.failures.push_back(std::move(f));
    }
  }
  (void)examined;

  // ---- extenders filter
  if (!result.feasible.empty()) {
    for (auto& ext : config_.extenders) {
      if (!ext->HasFilter() || !ext->IsInterested(pod)) continue;
      auto filtered = ext->Filter(pod, result.feasible, cluster);
      if (!filtered.ok()) {
        if (ext->IsIgnorable()) continue;
        result.feasible.clear();
        result.failures.clear();
        result.error = filtered.error().message;
        return result;
      }
      for (auto& [node, reason] : filtered->failed) {
        auto it = std::find_if(result.failures.begin(), result.failures.end(),
                               [&](const NodeFailure& f) { return f.node == node; });
        if (it == result.failures.end()) {
          result.failures.push_back(NodeFailure{node, {reason}, ext->Name()});
        } else {
          it->reasons.push_back(reason);
        }
      }
      result.feasible = std::move(filtered->nodes);
      if (result.feasible.empty()) break;
    }
  }

  if (result.feasible.empty()) {
    result.fit_error = true;
    result.error = FitErrorMessage(num_nodes, result.failures);
    return result;
  }
  if (result.feasible.size() == 1) {
    result.chosen = result.feasible[0];
    return result;
  }

  // ---- score
  const std::vector<NodeId>& nodes = result.feasible;
  result.scored = true;
  result.totals.assign(nodes.size(), 0);
  if (config_.priorities.empty() && config_.extenders.empty()) {
    // Upstream's EqualPriorityMap: every node scores 1.
    std::fill(result.totals.begin(), result.totals.end(), 1);
  }
  result.priority_scores.resize(config_.priorities.size());
  for (size_t p = 0; p < config_.priorities.size(); ++p) {
    const PriorityConfig& pc = config_.priorities[p];
    std::unique_ptr<PriorityState> state = pc.priority->Prepare(target, cluster, nodes);
    std::vector<int64_t>& scores = result.priority_scores[p];
    scores.resize(nodes.size());
    for (size_t i = 0; i < nodes.size(); ++i)
      scores[i] = pc.priority->Map(target, state.get(), cluster, nodes[i]);
    pc.priority->Reduce(target, state.get(), cluster, nodes, scores);
    for (size_t i = 0; i < nodes.size(); ++i) result.totals[i] += scores[i] * pc.weight;
  }
  for (auto& ext : config_.extenders) {
    if (!ext->HasPrioritize() || !ext->IsInterested(pod)) continue;
    auto scores = ext->Prioritize(pod, nodes, cluster);
    if (!scores.ok()) continue;  // upstream ignores prioritize errors
    for (const auto& [node, score] : *scores) {
      auto it = std::find(nodes.begin(), nodes.end(), node);
      if (it != nodes.end()) result.totals[it - nodes.begin()] += score * ext->Weight();
    }
  }

  // ---- select host
  int64_t best = *std::max_element(result.totals.begin(), result.totals.end());
  if (tie_break_ == TieBreak::kRoundRobin) {
    std::vector<size_t> max_indices;
    for (size_t i = 0; i < nodes.size(); ++i)
      if (result.totals[i] == best) max_indices.push_back(i);
    size_t ix = last_node_index_ % max_indices.size();
    ++last_node_index_;
    result.chosen = nodes[max_indices[ix]];
  } else {
    NodeId chosen = kNoNode;
    for (size_t i = 0; i < nodes.size(); ++i) {
      if (result.totals[i] != best) continue;
      if (chosen == kNoNode || cluster.node(nodes[i]).meta.name < cluster.node(chosen).meta.name)
        chosen = nodes[i];
    }
    result.chosen = chosen;
  }
  return result;
}

}  // namespace ksched
