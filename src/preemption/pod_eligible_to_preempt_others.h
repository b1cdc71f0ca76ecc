// Upstream's podEligibleToPreemptOthers.
#pragma once

#include "api/types.h"
#include "cache/cluster_state.h"

namespace ksched {

// False when the pod already preempted and is waiting for its victims to go:
// it is nominated to a node that still runs a lower-priority pod being
// deleted (metadata.deletionTimestamp set). (v1.15 ignores
// spec.preemptionPolicy: the NonPreemptingPriority gate is off.)
bool PodEligibleToPreemptOthers(const Pod& pod, const ClusterState& cluster);

}  // namespace ksched
