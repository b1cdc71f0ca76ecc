// SchedulingGates' v1.35 events and QueueingHints.
#pragma once

#include <vector>

#include "framework/cluster_event.h"

namespace ksched::framework::plugins {

// Pod/UpdatePodSchedulingGatesEliminated.
std::vector<ClusterEventWithHint> SchedulingGatesEventsToRegister();

// Queue when the pod whose last gate was removed is the gated pod itself.
QueueingHint SchedulingGatesAfterGatesEliminated(const Pod& pod, const EventObject& old_obj,
                                                 const EventObject& new_obj);

}  // namespace ksched::framework::plugins
