#include "framework/plugins/dynamicresources/dynamic_resources_hints.h"

namespace ksched::framework::plugins {

std::vector<ClusterEventWithHint> DynamicResourcesEventsToRegister() {
  return {
      {{EventResource::kNode, kAdd | kUpdateNodeLabel | kUpdateNodeAllocatable, ""}, {}},
      {{EventResource::kResourceClaim, kAdd | kUpdate, ""}, {}},
      {{EventResource::kPod, kUpdatePodGeneratedResourceClaim, ""}, {}},
      {{EventResource::kDeviceClass, kAdd | kUpdate, ""}, {}},
      {{EventResource::kResourceSlice, kAdd | kUpdate, ""}, {}},
  };
}

}  // namespace ksched::framework::plugins
