// The preemption evaluator of kube-scheduler v1.26 (upstream's
// pkg/scheduler/framework/preemption): given a pod that fits no node, find
// the nodes where deleting lower-priority pods would let it fit, dry-run
// each, pick one, delete its victims and nominate the node.
//
// The evaluator is generic; a preemption plugin (DefaultPreemption) supplies
// the policy through preemption::Interface: which pods may preempt, how
// many candidates to look for, and the victims on one node.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "framework/interface.h"

namespace ksched::framework::preemption {

// One node where preemption would help, with the pods it would delete.
struct Candidate {
  NodeId node = kNoNode;
  std::vector<PodId> victims;  // most important first
  int64_t num_pdb_violations = 0;
};

class Interface {
 public:
  virtual ~Interface() = default;
  // Where the dry run starts among the potential nodes and how many
  // candidates are enough.
  virtual std::pair<int32_t, int32_t> GetOffsetAndNumCandidates(int32_t num_nodes) const = 0;
  // Whether `pod` may preempt at all; `nominated_status` is the status its
  // nominated node got in this cycle (nullptr when none). *message says why
  // not.
  virtual bool PodEligibleToPreemptOthers(const Pod& pod, const Status* nominated_status,
                                          std::string* message) const = 0;
  // The fewest pods to delete from `node` (a copy the call may change) so
  // that `pod` fits; `state` is a copy of the cycle state to change alike.
  virtual Status SelectVictimsOnNode(CycleState* state, const Pod& pod, NodeInfo* node,
                                     const std::vector<PodDisruptionBudget>& pdbs,
                                     std::vector<PodId>* victims, int* num_violating) const = 0;
};

class Evaluator {
 public:
  // All pointers must outlive the evaluator.
  Evaluator(std::string plugin_name, Handle* handle, CycleState* state, Interface* policy)
      : plugin_name_(std::move(plugin_name)), handle_(handle), state_(state), policy_(policy) {}

  // Upstream's Evaluator.Preempt. On success result->nominated_node_name is
  // the chosen node, result->victims were deleted through
  // Handle::preemption() and result->nominated_pods_to_clear lists the
  // lower-priority pods nominated there, whose nominations the caller
  // clears. An Unschedulable status carries the message the scheduler
  // appends to the FitError.
  Status Preempt(const Pod& pod, const NodeToStatusMap& filtered, PostFilterResult* result);

  // The steps of Preempt, exposed for tests.
  // findCandidates: the candidates, and the statuses of the nodes that are
  // not candidates.
  Status FindCandidates(const Pod& pod, const NodeToStatusMap& filtered,
                        std::vector<Candidate>* candidates, NodeToStatusMap* statuses);
  // DryRunPreemption over `potential` from `offset`, stopping once
  // `num_candidates` are found including a non-violating one.
  Status DryRunPreemption(const Pod& pod, const std::vector<NodeId>& potential,
                          const std::vector<PodDisruptionBudget>& pdbs, int32_t offset,
                          int32_t num_candidates, std::vector<Candidate>* candidates,
                          NodeToStatusMap* statuses);
  // SelectCandidate (upstream's pickOneNodeForPreemption among several).
  const Candidate* SelectCandidate(const std::vector<Candidate>& candidates) const;
  // callExtenders: each extender with a preempt verb that is interested in
  // the pod narrows the candidates (nodes and victims) in turn. An error of
  // an ignorable extender, or a node it answers without victims, is
  // skipped; otherwise it is an Error status.
  Status CallExtenders(const Pod& pod, std::vector<Candidate>* candidates) const;

 private:
  std::string plugin_name_;
  Handle* handle_;
  CycleState* state_;
  Interface* policy_;
};

// Upstream's nodesWherePreemptionMightHelp: the nodes (in `order`) whose
// filter status is not UnschedulableAndUnresolvable; the others get the
// status "Preemption is not helpful for scheduling".
void NodesWherePreemptionMightHelp(const std::vector<NodeId>& order,
                                   const NodeToStatusMap& filtered, std::vector<NodeId>* potential,
                                   NodeToStatusMap* unhelpful);

// Upstream's pickOneNodeForPreemption over the candidates: fewest PDB
// violations, then the lowest highest-victim priority, the smallest sum of
// priorities, the fewest victims, the latest earliest start; nodes visited in
// name order (the vectors' fixed tie-break).
NodeId PickOneNodeForPreemption(const ClusterState& cluster,
                                const std::vector<Candidate>& candidates);

// Upstream's util.MoreImportantPod with the vectors' final namespace/name
// tie-break: higher priority, then the earlier start (a pod without
// status.startTime starts at 9999-12-31), then "namespace/name".
bool MoreImportantPod126(const Pod& a, const Pod& b);

}  // namespace ksched::framework::preemption
