// VolumeZone's v1.35 events and QueueingHints.
#pragma once

#include <vector>

#include "framework/cluster_event.h"

namespace ksched::framework::plugins {

// StorageClass/Add, Node/Add|UpdateNodeLabel, PVC/Add|Update and
// PV/Add|Update.
std::vector<ClusterEventWithHint> VolumeZoneEventsToRegister();

// Queue when the new class binds WaitForFirstConsumer.
QueueingHint VolumeZoneAfterStorageClassAdded(const Pod& pod, const EventObject& old_obj,
                                              const EventObject& new_obj);
// Queue when the claim is one the pod names, in its namespace.
QueueingHint VolumeZoneAfterClaimChange(const Pod& pod, const EventObject& old_obj,
                                        const EventObject& new_obj);
// Added: Queue. Updated: Queue when its zone or region labels changed.
QueueingHint VolumeZoneAfterVolumeChange(const Pod& pod, const EventObject& old_obj,
                                         const EventObject& new_obj);

}  // namespace ksched::framework::plugins
