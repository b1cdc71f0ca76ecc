// NodeUnschedulable's v1.35 events and QueueingHints.
#pragma once

#include <vector>

#include "framework/cluster_event.h"

namespace ksched::framework::plugins {

// Node/Add|UpdateNodeTaint and Pod/UpdatePodToleration.
std::vector<ClusterEventWithHint> NodeUnschedulableEventsToRegister();

// Queue when the node was added schedulable or stopped being unschedulable.
QueueingHint NodeUnschedulableAfterNodeChange(const Pod& pod, const EventObject& old_obj,
                                              const EventObject& new_obj);
// Queue when the pod itself now tolerates node.kubernetes.io/unschedulable.
QueueingHint NodeUnschedulableAfterPodTolerationChange(const Pod& pod, const EventObject& old_obj,
                                                       const EventObject& new_obj);

}  // namespace ksched::framework::plugins
