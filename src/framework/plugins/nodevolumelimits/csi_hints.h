// NodeVolumeLimits' (CSI) v1.35 events and QueueingHints.
#pragma once

#include <vector>

#include "framework/cluster_event.h"

namespace ksched::framework::plugins {

// CSINode/Add, CSINode/Update, Pod/Delete, PVC/Add and
// VolumeAttachment/Delete (ksched watches no VolumeAttachment, so that one
// never fires).
std::vector<ClusterEventWithHint> CSILimitsEventsToRegister();

// Queue when a bound or nominated pod with a claim, an ephemeral volume or
// an in-tree volume CSI migration translates was deleted.
QueueingHint CSILimitsAfterPodDeleted(const Pod& pod, const EventObject& old_obj,
                                      const EventObject& new_obj);
// Queue when the new claim is one the pod names (an ephemeral volume's
// claim is "<pod>-<volume>").
QueueingHint CSILimitsAfterClaimAdded(const Pod& pod, const EventObject& old_obj,
                                      const EventObject& new_obj);
// Queue when some driver's allocatable count went up.
QueueingHint CSILimitsAfterCSINodeUpdated(const Pod& pod, const EventObject& old_obj,
                                          const EventObject& new_obj);

}  // namespace ksched::framework::plugins
