// Upstream's pickOneNodeForPreemption.
#pragma once

#include <utility>
#include <vector>

#include "preemption/select_victims_on_node.h"

namespace ksched {

// Chooses among the nodes where preemption would work (`candidates`, any
// order), by these criteria in turn: a node needing no victims wins at once;
// then the fewest PodDisruptionBudget violations; the lowest priority of the
// first victim; the smallest sum of victim priorities (each shifted by 2^31,
// so negative priorities count as small, not as discounts); the fewest
// victims; the latest start among each node's highest-priority victims
// (missing start times count as latest). Remaining ties go to the smallest
// node name (upstream's map order is random). kNoNode when empty.
NodeId PickOneNodeForPreemption(const ClusterState& cluster,
                                const std::vector<std::pair<NodeId, Victims>>& candidates);

}  // namespace ksched
