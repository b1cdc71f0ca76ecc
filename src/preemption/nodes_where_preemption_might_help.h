// Upstream's nodesWherePreemptionMightHelp.
#pragma once

#include <string_view>
#include <vector>

#include "algorithm/generic_scheduler.h"

namespace ksched {

// True for the failure reasons that removing pods cannot cure (upstream's
// unresolvablePredicateFailureErrors: node selector and affinity, required
// pod affinity, host name, taints, node labels, node conditions,
// unschedulable, volume zone, volume node affinity and volume binding).
bool IsUnresolvableReason(std::string_view reason);

// Every node of the cluster, in NodeId order, whose failure in `failures`
// (the cycle's FitError) has no unresolvable reason. Nodes that an extender
// rejected count as resolvable, as do nodes missing from `failures`.
std::vector<NodeId> NodesWherePreemptionMightHelp(const ClusterState& cluster,
                                                  const std::vector<NodeFailure>& failures);

}  // namespace ksched
