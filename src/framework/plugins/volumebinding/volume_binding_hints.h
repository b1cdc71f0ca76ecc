// VolumeBinding's v1.35 events and QueueingHints.
#pragma once

#include <vector>

#include "framework/cluster_event.h"

namespace ksched::framework::plugins {

// StorageClass/Add|Update, PVC/Add|Update, PV/Add|Update,
// Node/Add|UpdateNodeLabel, CSINode/Add|Update, CSIDriver/Update,
// CSIStorageCapacity/Add|Update.
std::vector<ClusterEventWithHint> VolumeBindingEventsToRegister();

// Added: Queue. Updated: Queue when allowedTopologies changed.
QueueingHint VolumeBindingAfterStorageClassChange(const Pod& pod, const EventObject& old_obj,
                                                  const EventObject& new_obj);
// Queue when the claim is one the pod names, in its namespace.
QueueingHint VolumeBindingAfterClaimChange(const Pod& pod, const EventObject& old_obj,
                                           const EventObject& new_obj);
// Added: Queue. Updated: Queue when its migrated-plugins annotation changed.
QueueingHint VolumeBindingAfterCSINodeChange(const Pod& pod, const EventObject& old_obj,
                                             const EventObject& new_obj);
// Queue when the pod has an inline CSI volume of the driver and the driver
// stopped tracking storage capacity.
QueueingHint VolumeBindingAfterCSIDriverChange(const Pod& pod, const EventObject& old_obj,
                                               const EventObject& new_obj);
// Added: Queue. Updated: Queue when the volume limit (maximumVolumeSize,
// else capacity) appeared or grew.
QueueingHint VolumeBindingAfterCapacityChange(const Pod& pod, const EventObject& old_obj,
                                              const EventObject& new_obj);

}  // namespace ksched::framework::plugins
