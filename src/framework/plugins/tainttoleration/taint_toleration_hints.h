// TaintToleration's v1.35 events and QueueingHints.
#pragma once

#include <vector>

#include "framework/cluster_event.h"

namespace ksched::framework::plugins {

// Node/Add|UpdateNodeTaint and Pod/UpdatePodToleration.
std::vector<ClusterEventWithHint> TaintTolerationEventsToRegister();

// Queue when the node had (or, added, is taken to have had) a NoSchedule or
// NoExecute taint the pod does not tolerate and now has none.
QueueingHint TaintTolerationAfterNodeChange(const Pod& pod, const EventObject& old_obj,
                                            const EventObject& new_obj);
// Queue when the updated pod is the rejected pod itself.
QueueingHint TaintTolerationAfterPodTolerationChange(const Pod& pod, const EventObject& old_obj,
                                                     const EventObject& new_obj);

}  // namespace ksched::framework::plugins
