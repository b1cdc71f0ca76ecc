// NodePorts' v1.35 events and QueueingHints.
#pragma once

#include <vector>

#include "framework/cluster_event.h"

namespace ksched::framework::plugins {

// Pod/Delete (a pod's ports are immutable: no update helps) and Node/Add.
std::vector<ClusterEventWithHint> NodePortsEventsToRegister();

// Queue when the deleted pod was bound or nominated and held a host port the
// pod wants.
QueueingHint NodePortsAfterPodDeleted(const Pod& pod, const EventObject& old_obj,
                                      const EventObject& new_obj);

}  // namespace ksched::framework::plugins
