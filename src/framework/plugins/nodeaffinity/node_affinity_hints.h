// NodeAffinity's v1.35 events and QueueingHints.
#pragma once

#include <optional>
#include <vector>

#include "framework/cluster_event.h"
#include "labels/node_selector.h"

namespace ksched::framework::plugins {

// Node/Add|UpdateNodeLabel, judged with the profile's addedAffinity.
std::vector<ClusterEventWithHint> NodeAffinityEventsToRegister(
    std::optional<labels::CompiledNodeSelectorTerms> added_node_selector);

// Queue when the node (which must match addedAffinity) now matches the
// pod's nodeSelector and required node affinity: added so, or updated from
// not matching.
QueueingHint NodeAffinityAfterNodeChange(
    const std::optional<labels::CompiledNodeSelectorTerms>& added_node_selector, const Pod& pod,
    const EventObject& old_obj, const EventObject& new_obj);

}  // namespace ksched::framework::plugins
