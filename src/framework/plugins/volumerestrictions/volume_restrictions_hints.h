// VolumeRestrictions' v1.35 events and QueueingHints.
#pragma once

#include <vector>

#include "framework/cluster_event.h"

namespace ksched::framework::plugins {

// Pod/Delete (a pod's volumes are immutable), Node/Add and PVC/Add.
std::vector<ClusterEventWithHint> VolumeRestrictionsEventsToRegister();

// Queue when the deleted pod, in the pod's namespace, held a disk the pod
// wants (the same GCE PD, EBS volume, RBD image or iSCSI IQN; unlike
// upstream's satisfyVolumeConflicts, read-only mounts are not told apart,
// which can only queue the pod more often) or a claim of the same name.
QueueingHint VolumeRestrictionsAfterPodDeleted(const Pod& pod, const EventObject& old_obj,
                                               const EventObject& new_obj);
// Queue when the new claim is one the pod names.
QueueingHint VolumeRestrictionsAfterClaimAdded(const Pod& pod, const EventObject& old_obj,
                                               const EventObject& new_obj);

}  // namespace ksched::framework::plugins
