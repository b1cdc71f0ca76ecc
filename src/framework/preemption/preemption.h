// The preemption evaluator of kube-scheduler v1.26 and v1.35 (upstream's
// pkg/scheduler/framework/preemption): given a pod that fits no node, find
// the nodes where deleting lower-priority pods would let it fit, dry-run
// each, pick one, delete its victims and nominate the node. The release is
// the Handle's feature gates' version.
//
// The evaluator is generic; a preemption plugin (DefaultPreemption) supplies
// the policy through preemption::Interface: which pods may preempt, how
// many candidates to look for, and the victims on one node.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "config/version.h"
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
  // v1.35: `filtered` must give every node of the cluster its status (the
  // cycle's NodeToStatus with its absent nodes spelled out, see
  // framework::PostFilterStatuses); a node it leaves out counts as
  // UnschedulableAndUnresolvable. A victim that is already terminating is
  // neither deleted again nor listed in result->victims, and with
  // SchedulerAsyncPreemption, when no victim is left to delete, the
  // lower-priority nominations stay (upstream's goroutine never starts).
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

// The nodes (in `order`) where preemption might help, and the others.
// v1.26's nodesWherePreemptionMightHelp: every node whose status is not
// UnschedulableAndUnresolvable, a node without a status included; the
// others get the status "Preemption is not helpful for scheduling".
// v1.35's NodesForStatusCode(Unschedulable): only the nodes whose status is
// exactly Unschedulable; `unhelpful` is left alone (v1.35 counts the other
// nodes through the FitError's absent status).
void NodesWherePreemptionMightHelp(const std::vector<NodeId>& order,
                                   const NodeToStatusMap& filtered, std::vector<NodeId>* potential,
                                   NodeToStatusMap* unhelpful, config::SchedulerVersion version);

// Upstream's pickOneNodeForPreemption over the candidates: fewest PDB
// violations, then the lowest highest-victim priority, the smallest sum of
// priorities, the fewest victims, the latest earliest start; nodes visited in
// name order (the vectors' fixed tie-break).
NodeId PickOneNodeForPreemption(const ClusterState& cluster,
                                const std::vector<Candidate>& candidates,
                                config::SchedulerVersion version);

// status.startTime as preemption orders pods, in nanoseconds since the
// epoch. A pod without one starts after every pod that has one: v1.26's
// vectors place it at 9999-12-31 (beyond int64 nanoseconds: the maximum here,
// which orders the same); v1.35 compares UnixNano, where 9999 would overflow,
// and its vectors place it at 2262-01-01T00:00:00Z.
int64_t PodStartTime(const Pod& pod, config::SchedulerVersion version);

// Upstream's util.MoreImportantPod: higher priority, then the earlier start
// (PodStartTime).
bool MoreImportantPod(const Pod& a, const Pod& b, config::SchedulerVersion version);
// The same with the vectors' final "namespace/name" tie-break (their sort of
// the potential victims).
bool MoreImportantPodByName(const Pod& a, const Pod& b, config::SchedulerVersion version);

}  // namespace ksched::framework::preemption
