// Upstream's processPreemptionWithExtenders.
#pragma once

#include <memory>
#include <utility>
#include <vector>

#include "algorithm/scheduler_extender.h"
#include "preemption/select_victims_on_node.h"
#include "util/result.h"

namespace ksched {

// Lets each extender that has a preempt verb and is interested in the pod
// narrow `candidates` (the nodes where preemption works, with their victims),
// in Policy order: an extender's answer replaces the candidates the next one
// sees, and once none are left the rest are not asked. An ignorable
// extender's error is skipped; any other error ends preemption (returned).
// Nothing is called when there are no candidates.
//
// As upstream rebuilds the victims from the extender's reply, a node it
// returns carries the pods in the extender's order and no PodDisruptionBudget
// violations, which pickOneNodeForPreemption then reads.
Status ProcessPreemptionWithExtenders(
    const Pod& pod, const ClusterState& cluster,
    const std::vector<std::unique_ptr<SchedulerExtender>>& extenders,
    std::vector<std::pair<NodeId, Victims>>* candidates);

}  // namespace ksched
