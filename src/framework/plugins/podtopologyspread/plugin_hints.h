// PodTopologySpread's v1.35 events and QueueingHints.
#pragma once

#include <optional>

#include "framework/cluster_event.h"
#include "framework/plugins/podtopologyspread/common.h"

namespace ksched::framework::plugins::podtopologyspread {

// The pod's DoNotSchedule constraints as the hints read them
// (getConstraints); nullopt when they cannot be known here: a selector
// that does not parse, or default constraints whose selector comes from the
// pod's Services and controller (the hint then queues the pod).
using HintConstraints = std::optional<Constraints>;

// Only bound pods of the pod's namespace, or the pod itself, count. The pod
// itself with new tolerations and a NodeTaintsPolicy Honor constraint:
// Queue. Updated labels: Queue when some constraint's selector matches one
// version and not the other. Added or deleted: Queue when it matches some
// constraint's selector.
QueueingHint SpreadAfterPodChange(const HintConstraints& constraints, const Pod& pod,
                                  const EventObject& old_obj, const EventObject& new_obj);
// Whether the node has every constraint's topology key, before and after:
// Queue when that changed, or, still so, a key's value or the taints
// changed; added or deleted: Queue when it has them.
QueueingHint SpreadAfterNodeChange(const HintConstraints& constraints, const Pod& pod,
                                   const EventObject& old_obj, const EventObject& new_obj);

}  // namespace ksched::framework::plugins::podtopologyspread
