// Upstream's filterPodsWithPDBViolation: which pods preemption would take
// past what a PodDisruptionBudget allows.
#pragma once

#include <vector>

#include "api/types.h"
#include "cache/cluster_state.h"

namespace ksched {

// True when some budget in the pod's namespace, with a non-empty selector
// matching the pod's labels, allows no disruption (status.disruptionsAllowed
// <= 0). A pod without labels matches no budget; a nil, empty or invalid
// selector matches nothing.
bool PodViolatesDisruptionBudget(const Pod& pod, const std::vector<PodDisruptionBudget>& pdbs);

// Splits `pods` (keeping their order) into those whose eviction would violate
// a budget and the rest.
void FilterPodsWithPDBViolation(const ClusterState& cluster, const std::vector<PodId>& pods,
                                const std::vector<PodDisruptionBudget>& pdbs,
                                std::vector<PodId>* violating, std::vector<PodId>* non_violating);

}  // namespace ksched
