// DynamicResources' v1.35 events. ksched watches no resource.k8s.io object
// yet, so only the node and pod events ever fire; none of them has a hint
// (always worth a retry) until the claims are tracked.
#pragma once

#include <vector>

#include "framework/cluster_event.h"

namespace ksched::framework::plugins {

// Node/Add|UpdateNodeLabel|UpdateNodeAllocatable,
// ResourceClaim/Add|Update, Pod/UpdatePodGeneratedResourceClaim,
// DeviceClass/Add|Update, ResourceSlice/Add|Update.
std::vector<ClusterEventWithHint> DynamicResourcesEventsToRegister();

}  // namespace ksched::framework::plugins
