// Upstream's podFitsOnNode and what it runs on: the cycle's predicates with
// their per-pod state, and the nominated pods a node must leave room for.
//
// A scheduling cycle prepares its predicates once (CyclePredicates::Prepare,
// upstream's metadata producer) and checks each node. A node that has
// nominated pods of priority >= the incoming pod's is checked twice, as
// upstream does: first as if those pods ran there (a copy of the node and of
// the predicates' state with the pods added), then as it is; it fits only if
// both pass, and the reasons are those of the pass that failed. Preemption
// checks nodes the same way after taking victims away on its own copies.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "cache/cluster_state.h"
#include "cache/nominated_pods.h"
#include "predicates/predicate.h"
#include "util/result.h"

namespace ksched {

struct SchedulerConfig;

// The predicates of a SchedulerConfig prepared for one pod. Copies share the
// states that do not depend on other pods.
class CyclePredicates {
 public:
  // Upstream's metadata producer: Prepare() of every predicate, in order.
  // `config`, `target` and `cluster` must outlive the result.
  static Result<CyclePredicates> Prepare(const SchedulerConfig& config, const PodToSchedule& target,
                                         const ClusterState& cluster);

  size_t size() const { return states_.size(); }
  const PredicateState* state(size_t p) const { return states_[p].get(); }
  // False when the predicate passes every node for this pod (skipped).
  bool active(size_t p) const { return active_[p] != 0; }
  const std::vector<uint8_t>& active_flags() const { return active_; }
  // The first active predicate that is not node-local; size() when none.
  size_t prefix_end() const { return prefix_end_; }
  const PodToSchedule& target() const { return *target_; }
  const ClusterState& cluster() const { return *cluster_; }

  // Builds, once, the form Copy() starts from (some states change form the
  // first time they are copied). Call before copying from several threads.
  void PrepareCopies();
  // Upstream's ShallowCopy: states that depend on other pods are copied, so
  // AddPod/RemovePod on the copy leave this object unchanged.
  CyclePredicates Copy() const;
  // Upstream's metadata AddPod / RemovePod, for every predicate: `pod` now
  // runs on `node` / no longer runs.
  void AddPod(PodId pod, const NodeInfo& node);
  void RemovePod(PodId pod);

  // Runs the active predicates [from, to) on `node` in upstream's order,
  // appending reasons. Stops at the first failure unless `check_all`; sets
  // *first_failed to the first failing predicate's index.
  bool Run(size_t from, size_t to, const NodeInfo& node, ReasonList* reasons,
           uint16_t* first_failed, bool check_all) const;

 private:
  CyclePredicates() = default;

  const SchedulerConfig* config_ = nullptr;
  const PodToSchedule* target_ = nullptr;
  const ClusterState* cluster_ = nullptr;
  std::vector<std::shared_ptr<PredicateState>> states_;
  // For states that depend on other pods: the copyable form (built by
  // PrepareCopies) that Copy() copies.
  std::vector<std::shared_ptr<const PredicateState>> copy_roots_;
  std::vector<uint8_t> active_;
  std::vector<uint8_t> is_copy_;  // per predicate: states_[p] is this object's own copy
  size_t prefix_end_ = 0;
};

// The nominated pods one cycle must leave room for: per node, those of
// priority >= the incoming pod's, the pod itself (by uid) excluded, in
// nomination order (upstream's addNominatedPods filter).
class CycleNominations {
 public:
  CycleNominations() = default;
  CycleNominations(const NominatedPods* nominated, const Pod& pod, const ClusterState& cluster);

  bool empty() const { return nodes_.empty(); }
  // The pods to add on `node`, or nullptr when there are none.
  const std::vector<PodId>* ForNode(NodeId node) const;

 private:
  std::vector<std::pair<NodeId, std::vector<PodId>>> nodes_;  // sorted by node
};

// Upstream's podFitsOnNode: the predicates on `node`, with the two passes
// described above when `nominations` has pods for it.
bool PodFitsOnNode(const CyclePredicates& predicates, const NodeInfo& node,
                   const CycleNominations& nominations, ReasonList* reasons, uint16_t* first_failed,
                   bool check_all);

}  // namespace ksched
