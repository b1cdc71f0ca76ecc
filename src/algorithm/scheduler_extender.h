// What the generic scheduler needs from a scheduler extender. The HTTP
// implementation lives in extender/; tests can provide fakes.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "cache/cluster_state.h"
#include "predicates/predicate.h"
#include "util/result.h"

namespace ksched {

// One node's victims as an extender's preempt verb sees and returns them.
// Upstream rebuilds its Victims from the reply's pod UIDs only, so a node an
// extender returns carries no PodDisruptionBudget violation count (0).
struct ExtenderNodeVictims {
  NodeId node = kNoNode;
  std::vector<PodId> pods;
  int num_pdb_violations = 0;
};

struct ExtenderFilterResult {
  std::vector<NodeId> nodes;                           // nodes that passed
  std::vector<std::pair<NodeId, std::string>> failed;  // node -> reason
  // FailedNodes entries naming nodes the cluster does not have. Upstream keeps
  // them in its failure map, so they count in the FitError message.
  std::vector<std::pair<std::string, std::string>> failed_unknown;  // name -> reason
};

class SchedulerExtender {
 public:
  virtual ~SchedulerExtender() = default;
  virtual std::string Name() const = 0;
  // Upstream IsInterested: false when managedResources are set and the pod
  // requests none of them.
  virtual bool IsInterested(const Pod& pod) const = 0;
  virtual bool IsIgnorable() const = 0;
  virtual bool HasFilter() const = 0;
  virtual bool HasPrioritize() const = 0;
  virtual int64_t Weight() const = 0;
  virtual Result<ExtenderFilterResult> Filter(const Pod& pod, const std::vector<NodeId>& nodes,
                                              const ClusterState& cluster) = 0;
  // Scores for (a subset of) nodes; the scheduler multiplies by Weight().
  virtual Result<std::vector<std::pair<NodeId, int64_t>>> Prioritize(
      const Pod& pod, const std::vector<NodeId>& nodes, const ClusterState& cluster) = 0;
  // Upstream SupportsPreemption / ProcessPreemption: an extender with a
  // preempt verb may narrow the nodes and victims preemption chose; its
  // answer replaces `candidates` for the next extender and for the pick.
  virtual bool SupportsPreemption() const { return false; }
  virtual Result<std::vector<ExtenderNodeVictims>> ProcessPreemption(
      const Pod& /*pod*/, const std::vector<ExtenderNodeVictims>& candidates,
      const ClusterState& /*cluster*/) {
    return candidates;
  }
};

}  // namespace ksched
