// Upstream's genericScheduler.Preempt: after a cycle failed with a FitError,
// find a node where removing lower-priority pods lets the pod fit.
//
// Preempt is a pure function of the cycle's snapshot: it decides which node
// and which victims, and which nominated pods lose their nomination, but
// changes nothing. The caller (the scheduler loop) applies the result as
// upstream's scheduler does: nominate the pod to the node, delete the
// victims, clear the other nominations.
//
// The steps, each in its own file:
//   pod_eligible_to_preempt_others.h     may this pod preempt at all?
//   nodes_where_preemption_might_help.h  which nodes failed for reasons that
//                                        removing pods can cure
//   select_victims_on_node.h             the fewest victims on each such node
//   process_preemption_with_extenders.h  extenders with a preempt verb
//                                        narrow the nodes and victims
//   pick_one_node_for_preemption.h       the node to preempt on
// and, at the end, the lower-priority pods nominated to that node.
#pragma once

#include <string>
#include <vector>

#include "algorithm/generic_scheduler.h"
#include "preemption/select_victims_on_node.h"

namespace ksched {

// Why a node was or was not a place to preempt (for explanations).
struct PreemptionCandidate {
  enum class Verdict {
    kUnresolvable,  // its failure reasons cannot be cured by removing pods
    kDoesNotFit,    // the pod does not fit even without every lower-priority pod
    kCandidate,     // the pod fits once `victims` are removed
  };
  NodeId node = kNoNode;
  Verdict verdict = Verdict::kUnresolvable;
  Victims victims;
};

struct PreemptionResult {
  // Set when Preempt failed rather than chose nothing (upstream returns an
  // error, e.g. with no nodes at all); everything else is empty then.
  std::string error;
  // The node to preempt on, kNoNode when none.
  NodeId node = kNoNode;
  std::vector<PodId> victims;  // in upstream's order
  int num_pdb_violations = 0;
  // Pods whose nomination must be cleared: lower-priority pods nominated to
  // `node`, or, when no node could help, the preemptor itself. By uid, with
  // "namespace/name" for output.
  struct PodRef {
    std::string uid;
    std::string key;
  };
  std::vector<PodRef> nominated_pods_to_clear;
  // Filled when Preempt() is asked for details: every node, in NodeId order,
  // with its verdict. Empty when the pod was not eligible.
  bool eligible = true;
  std::vector<PreemptionCandidate> candidates;
};

struct PreemptOptions {
  bool record_details = false;  // fill PreemptionResult::candidates
};

// `fit_error` is the ScheduleResult of the failed cycle (its failures name
// each node's reasons). `nominated` is the queue's nominated pods (may be
// null). `pdbs` are the cluster's PodDisruptionBudgets.
PreemptionResult Preempt(const Pod& pod, const ScheduleResult& fit_error,
                         const ClusterState& cluster, const SchedulerConfig& config,
                         const NominatedPods* nominated,
                         const std::vector<PodDisruptionBudget>& pdbs,
                         const PreemptOptions& options = {});

}  // namespace ksched
