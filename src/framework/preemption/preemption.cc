#include "framework/preemption/preemption.h"

#include <algorithm>
#include <limits>
#include <map>

#include "api/priority_admission.h"
#include "cache/node_tree.h"
#include "cache/nominated_pods.h"
#include "framework/schedule_one.h"
#include "util/go_quote.h"

namespace ksched::framework::preemption {
namespace {

using config::SchedulerVersion;

// 2262-01-01T00:00:00Z in nanoseconds since the epoch.
constexpr int64_t kV135NoStartTime = int64_t{106651} * 86400 * 1000000000;

std::string PodKey(const Pod& pod) { return std::string(Str(pod.meta.ns)) + "/" + pod.meta.name; }

const Status* StatusOf(const NodeToStatusMap& m, NodeId node) {
  for (const NodeStatus& ns : m)
    if (ns.node == node) return &ns.status;
  return nullptr;
}

// Upstream's util.GetEarliestPodStartTime: among the victims of the highest
// priority, the earliest start.
int64_t EarliestStartOfMostImportant(const ClusterState& cluster, const Candidate& c,
                                     SchedulerVersion version) {
  const Pod& first = cluster.pod(c.victims.front()).pod;
  int64_t earliest = PodStartTime(first, version);
  int32_t max_priority = PodPriority(first);
  for (PodId id : c.victims) {
    const Pod& p = cluster.pod(id).pod;
    const int32_t prio = PodPriority(p);
    if (prio == max_priority) {
      earliest = std::min(earliest, PodStartTime(p, version));
    } else if (prio > max_priority) {
      max_priority = prio;
      earliest = PodStartTime(p, version);
    }
  }
  return earliest;
}

// Keeps the entries of `nodes` for which `key` is minimal.
template <typename Key>
void KeepMinimal(std::vector<const Candidate*>* nodes, Key key) {
  auto best = key(*nodes->front());
  for (const Candidate* c : *nodes) best = std::min(best, key(*c));
  std::erase_if(*nodes, [&](const Candidate* c) { return key(*c) != best; });
}

// utilerrors.NewAggregate(errs).Error(): one message as it is, several
// (duplicates dropped) as "[a, b]". Upstream collects them from parallel
// workers; here they come in dry-run order.
std::string AggregateMessage(const std::vector<std::string>& messages) {
  std::vector<std::string> seen;
  for (const std::string& m : messages)
    if (std::find(seen.begin(), seen.end(), m) == seen.end()) seen.push_back(m);
  if (seen.size() == 1) return seen.front();
  std::string out = "[";
  for (size_t i = 0; i < seen.size(); ++i) out += (i ? ", " : "") + seen[i];
  return out + "]";
}

}  // namespace

int64_t PodStartTime(const Pod& pod, SchedulerVersion version) {
  if (pod.start_time) return *pod.start_time;
  return version >= SchedulerVersion::kV135 ? kV135NoStartTime
                                            : std::numeric_limits<int64_t>::max();
}

bool MoreImportantPod(const Pod& a, const Pod& b, SchedulerVersion version) {
  const int32_t pa = PodPriority(a), pb = PodPriority(b);
  if (pa != pb) return pa > pb;
  return PodStartTime(a, version) < PodStartTime(b, version);
}

bool MoreImportantPodByName(const Pod& a, const Pod& b, SchedulerVersion version) {
  if (MoreImportantPod(a, b, version)) return true;
  if (MoreImportantPod(b, a, version)) return false;
  return PodKey(a) < PodKey(b);
}

void NodesWherePreemptionMightHelp(const std::vector<NodeId>& order,
                                   const NodeToStatusMap& filtered, std::vector<NodeId>* potential,
                                   NodeToStatusMap* unhelpful, SchedulerVersion version) {
  if (version >= SchedulerVersion::kV135) {
    // A node without a status is absent: UnschedulableAndUnresolvable.
    std::vector<Code> code(order.empty() ? 0 : *std::max_element(order.begin(), order.end()) + 1,
                           Code::kUnschedulableAndUnresolvable);
    for (const NodeStatus& ns : filtered)
      if (ns.node < code.size()) code[ns.node] = ns.status.code();
    for (NodeId n : order)
      if (code[n] == Code::kUnschedulable) potential->push_back(n);
    return;
  }
  for (NodeId n : order) {
    const Status* s = StatusOf(filtered, n);
    if (s && s->code() == Code::kUnschedulableAndUnresolvable) {
      unhelpful->push_back({n, Status(Code::kUnschedulableAndUnresolvable,
                                      "Preemption is not helpful for scheduling")});
      continue;
    }
    potential->push_back(n);
  }
}

NodeId PickOneNodeForPreemption(const ClusterState& cluster,
                                const std::vector<Candidate>& candidates,
                                SchedulerVersion version) {
  if (candidates.empty()) return kNoNode;
  std::vector<const Candidate*> nodes;
  for (const Candidate& c : candidates) nodes.push_back(&c);
  // The vectors fix upstream's map order to name order.
  std::sort(nodes.begin(), nodes.end(), [&](const Candidate* a, const Candidate* b) {
    return cluster.node_info(a->node).name() < cluster.node_info(b->node).name();
  });
  KeepMinimal(&nodes, [](const Candidate& c) { return c.num_pdb_violations; });
  if (nodes.size() == 1) return nodes[0]->node;
  KeepMinimal(&nodes,
              [&](const Candidate& c) { return PodPriority(cluster.pod(c.victims[0]).pod); });
  if (nodes.size() == 1) return nodes[0]->node;
  KeepMinimal(&nodes, [&](const Candidate& c) {
    int64_t sum = 0;
    for (PodId id : c.victims)
      sum += int64_t{PodPriority(cluster.pod(id).pod)} + int64_t{1} +
             std::numeric_limits<int32_t>::max();
    return sum;
  });
  if (nodes.size() == 1) return nodes[0]->node;
  KeepMinimal(&nodes, [](const Candidate& c) { return c.victims.size(); });
  if (nodes.size() == 1) return nodes[0]->node;
  // The latest "earliest start of the most important victims" wins; the
  // first node keeps ties.
  const Candidate* chosen = nodes[0];
  int64_t latest = EarliestStartOfMostImportant(cluster, *chosen, version);
  for (size_t i = 1; i < nodes.size(); ++i) {
    const int64_t t = EarliestStartOfMostImportant(cluster, *nodes[i], version);
    if (t > latest) {
      latest = t;
      chosen = nodes[i];
    }
  }
  return chosen->node;
}

Status Evaluator::CallExtenders(const Pod& pod, std::vector<Candidate>* candidates) const {
  const auto& extenders = handle_->extenders();
  if (extenders.empty() || candidates->empty()) return Status::Success();
  const ClusterState& cluster = handle_->cluster();
  std::vector<ExtenderNodeVictims> victims;
  victims.reserve(candidates->size());
  for (const Candidate& c : *candidates)
    victims.push_back({c.node, c.victims, static_cast<int>(c.num_pdb_violations)});
  for (const auto& extender : extenders) {
    if (!extender->SupportsPreemption() || !extender->IsInterested(pod)) continue;
    auto answer = extender->ProcessPreemption(pod, victims, cluster);
    if (!answer.ok()) {
      if (extender->IsIgnorable()) continue;
      return Status::Error(answer.error().message);
    }
    std::vector<ExtenderNodeVictims> kept;
    for (ExtenderNodeVictims& v : *answer) {
      if (!v.pods.empty()) {
        kept.push_back(std::move(v));
        continue;
      }
      if (extender->IsIgnorable()) continue;
      return Status::Error("expected at least one victim pod on node " +
                           GoQuote(cluster.node_info(v.node).name()));
    }
    victims = std::move(kept);
    if (victims.empty()) break;
  }
  // Upstream rebuilds the list from a map (in Go's random order); the
  // extenders' order is kept here, which SelectCandidate's tie-breaks make
  // deterministic.
  candidates->clear();
  for (ExtenderNodeVictims& v : victims)
    candidates->push_back({v.node, std::move(v.pods), v.num_pdb_violations});
  return Status::Success();
}

Status Evaluator::Preempt(const Pod& pod, const NodeToStatusMap& filtered,
                          PostFilterResult* result) {
  const ClusterState& cluster = handle_->cluster();
  const config::FeatureGates& gates = handle_->feature_gates();
  const bool v135 = gates.AtLeast(SchedulerVersion::kV135);
  const Status* nominated_status = nullptr;
  if (!pod.nominated_node_name.empty()) {
    NodeId nominated = cluster.FindNode(pod.nominated_node_name);
    if (nominated != kNoNode) nominated_status = StatusOf(filtered, nominated);
  }
  std::string message;
  if (!policy_->PodEligibleToPreemptOthers(pod, nominated_status, &message))
    return Status(Code::kUnschedulable, message);

  std::vector<Candidate> candidates;
  NodeToStatusMap statuses;
  Status found = FindCandidates(pod, filtered, &candidates, &statuses);
  if (!found.IsSuccess() && candidates.empty()) return found;
  if (candidates.empty()) {
    // Nothing to nominate: the message is a FitError over the dry run's
    // statuses, and the nomination is cleared. v1.26 gives every node a
    // status and counts those; v1.35 counts every node, the ones the dry
    // run did not see through the absent status.
    result->nominating = true;
    result->nominated_node_name.clear();
    if (!v135)
      return Status(Code::kUnschedulable, FitErrorMessage(statuses.size(), "", statuses, {}));
    const Status absent(Code::kUnschedulableAndUnresolvable,
                        "Preemption is not helpful for scheduling");
    return Status(Code::kUnschedulable, FitErrorMessage(cluster.num_nodes(), "", statuses, {}, "",
                                                        gates.version, &absent));
  }
  if (Status s = CallExtenders(pod, &candidates); !s.IsSuccess()) return s;
  const Candidate* best = SelectCandidate(candidates);
  if (best == nullptr || best->node == kNoNode)
    return Status(Code::kUnschedulable, "no candidate node for preemption");

  // prepareCandidate: delete the victims, then clear the nominations of
  // lower-priority pods nominated to the node. v1.35 sends no second
  // deletion for a victim whose graceful deletion has started.
  std::vector<PodId> to_delete;
  for (PodId victim : best->victims)
    if (!v135 || !cluster.pod(victim).terminating) to_delete.push_back(victim);
  if (PreemptionActions* actions = handle_->preemption()) {
    for (PodId victim : to_delete) {
      Status s = actions->DeleteVictim(pod, victim);
      if (!s.IsSuccess()) return s;
    }
  }
  result->nominating = true;
  result->nominated_node_name = std::string(cluster.node_info(best->node).name());
  result->victims = std::move(to_delete);
  result->nominated_pods_to_clear.clear();
  // v1.35's asynchronous preemption (prepareCandidateAsync) returns before
  // its goroutine, which clears the nominations, when no victim is left to
  // delete; the synchronous path always clears them.
  if (v135 && gates.scheduler_async_preemption && result->victims.empty()) return Status::Success();
  if (const NominatedPods* nominated = handle_->nominated()) {
    const int32_t priority = PodPriority(pod);
    for (const auto& entry : nominated->ForNode(result->nominated_node_name))
      if (entry.priority < priority) result->nominated_pods_to_clear.push_back(entry.pod);
  }
  return Status::Success();
}

Status Evaluator::FindCandidates(const Pod& pod, const NodeToStatusMap& filtered,
                                 std::vector<Candidate>* candidates, NodeToStatusMap* statuses) {
  const ClusterState& cluster = handle_->cluster();
  if (cluster.num_nodes() == 0) return Status::Error("no nodes available");
  // The snapshot lists nodes in the node tree's order (zones interleaved).
  NodeTree tree(cluster);
  std::vector<NodeId> potential;
  NodeToStatusMap unhelpful;
  NodesWherePreemptionMightHelp(tree.CycleOrder(), filtered, &potential, &unhelpful,
                                handle_->feature_gates().version);
  if (potential.empty()) {
    *statuses = std::move(unhelpful);
    return Status::Success();
  }
  auto [offset, num_candidates] = policy_->GetOffsetAndNumCandidates(int32_t(potential.size()));
  Status s = DryRunPreemption(pod, potential, cluster.pod_disruption_budgets(), offset,
                              num_candidates, candidates, statuses);
  for (NodeStatus& ns : unhelpful) statuses->push_back(std::move(ns));
  return s;
}

Status Evaluator::DryRunPreemption(const Pod& pod, const std::vector<NodeId>& potential,
                                   const std::vector<PodDisruptionBudget>& pdbs, int32_t offset,
                                   int32_t num_candidates, std::vector<Candidate>* candidates,
                                   NodeToStatusMap* statuses) {
  const ClusterState& cluster = handle_->cluster();
  std::vector<Candidate> non_violating, violating;
  Status first_error;
  std::vector<std::string> errors;
  for (size_t i = 0; i < potential.size(); ++i) {
    const NodeId n = potential[(size_t(offset) + i) % potential.size()];
    NodeInfo copy = cluster.node_info(n);
    CycleState state = state_->Clone();
    Candidate c;
    c.node = n;
    int num_violating = 0;
    Status s = policy_->SelectVictimsOnNode(&state, pod, &copy, pdbs, &c.victims, &num_violating);
    if (s.IsSuccess() && !c.victims.empty()) {
      c.num_pdb_violations = num_violating;
      (num_violating == 0 ? non_violating : violating).push_back(std::move(c));
      const size_t found = non_violating.size() + violating.size();
      if (!non_violating.empty() && found >= size_t(num_candidates)) break;
      continue;
    }
    if (s.IsSuccess()) {
      s = Status::Error("expected at least one victim pod on node \"" +
                        std::string(cluster.node_info(n).name()) + "\"");
    }
    if (s.IsError()) {
      if (first_error.IsSuccess()) first_error = s;
      errors.push_back(s.Message());
    }
    statuses->push_back({n, std::move(s)});
  }
  // Upstream's candidate lists hold at most num_candidates each.
  if (non_violating.size() > size_t(num_candidates)) non_violating.resize(num_candidates);
  if (violating.size() > size_t(num_candidates)) violating.resize(num_candidates);
  for (Candidate& c : non_violating) candidates->push_back(std::move(c));
  for (Candidate& c : violating) candidates->push_back(std::move(c));
  // Every node's error, aggregated as upstream's utilerrors does.
  if (errors.size() > 1) return Status::Error(AggregateMessage(errors));
  return first_error;
}

const Candidate* Evaluator::SelectCandidate(const std::vector<Candidate>& candidates) const {
  if (candidates.empty()) return nullptr;
  if (candidates.size() == 1) return &candidates[0];
  NodeId node =
      PickOneNodeForPreemption(handle_->cluster(), candidates, handle_->feature_gates().version);
  for (const Candidate& c : candidates)
    if (c.node == node) return &c;
  return &candidates[0];
}

}  // namespace ksched::framework::preemption
