// A pod's container requests and limits summed as the API server sums them
// for pod-level resources (component-helpers' AggregateContainerRequests /
// AggregateContainerLimits with no options: the spec only, no status, no
// overhead), for the v1.35 API server's defaulting and validation of
// spec.resources (api/defaults.h, api/validation.h).
//
// Init containers follow KEP-753: a restartable one (restartPolicy: Always,
// a native sidecar) keeps running, so it adds to the regular containers and
// to every init container after it; an ordinary one needs, while it runs,
// its own amount plus the sidecars started before it; the pod needs the
// larger of the two, per resource.
//
// The scheduler's own request math lives in cache/resource.h; this one is
// the API layer's (the layer below), on ResourceLists.
#pragma once

#include <string_view>

#include "api/types.h"

namespace ksched {

ResourceList AggregateContainerRequests(const PodSpec& spec);
ResourceList AggregateContainerLimits(const PodSpec& spec);

// cpu, memory and hugepages-<size> (IsSupportedPodLevelResource).
bool IsSupportedPodLevelResource(std::string_view name);
bool IsHugePageResourceName(std::string_view name);

// The entry named `name` in `list`, or nullptr.
const ResourceQuantity* FindResource(const ResourceList& list, StrId name);

}  // namespace ksched
