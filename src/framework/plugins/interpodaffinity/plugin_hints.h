// InterPodAffinity's v1.35 events and QueueingHints.
#pragma once

#include <vector>

#include "framework/cluster_event.h"

namespace ksched::framework::interpodaffinity {

// Pod/Add|UpdatePodLabel|Delete and Node/Add|UpdateNodeLabel.
std::vector<ClusterEventWithHint> InterPodAffinityEventsToRegister();

// Only bound pods count. Added: Queue when it matches all of the pod's
// required affinity terms. Updated: Queue when it starts matching them, or
// stops matching all of its required anti-affinity terms. Deleted: Queue
// when it matched all of the anti-affinity terms.
QueueingHint InterPodAffinityAfterPodChange(const Pod& pod, const EventObject& old_obj,
                                            const EventObject& new_obj);
// Queue when the node joins a domain of an affinity term's topology key
// (added with the key, gains it, changes its value), or, for anti-affinity,
// is added, loses the key or changes its value.
QueueingHint InterPodAffinityAfterNodeChange(const Pod& pod, const EventObject& old_obj,
                                             const EventObject& new_obj);

}  // namespace ksched::framework::interpodaffinity
