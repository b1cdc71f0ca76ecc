// NodeResourcesFit's v1.35 events and QueueingHints: a pod that lacks room
// moves when a bound pod is deleted or shrinks, or a node is added or grows
// enough for it; not on a label change or a pending pod's deletion.
#pragma once

#include <vector>

#include "config/types.h"
#include "framework/cluster_event.h"

namespace ksched::framework::noderesources {

// The gates the hints read (upstream's Fit fields).
struct FitHintOptions {
  bool in_place_pod_vertical_scaling = true;  // GA in v1.35: UpdatePodScaleDown registered
  bool pod_level_resources = true;
  static FitHintOptions From(const config::FeatureGates& gates) {
    return {gates.in_place_pod_vertical_scaling, gates.pod_level_resources};
  }
};

// Pod/Delete (|UpdatePodScaleDown) and Node/Add|UpdateNodeAllocatable.
std::vector<ClusterEventWithHint> FitEventsToRegister(const FitHintOptions& options);

// A deleted pod: Queue when it was bound or nominated. A pod scaled down:
// Queue when it is the pod itself, or a bound pod whose request of some
// resource the pod asks for got smaller.
QueueingHint FitAfterPodEvent(const FitHintOptions& options, const Pod& pod,
                              const EventObject& old_obj, const EventObject& new_obj);
// Queue when the pod's requests fit the node as it is now (empty) and it was
// added, or an update raised the pod count or a resource the pod requests.
QueueingHint FitAfterNodeChange(const FitHintOptions& options, const Pod& pod,
                                const EventObject& old_obj, const EventObject& new_obj);

}  // namespace ksched::framework::noderesources
