// Pieces the volume-limit plugins (and VolumeBinding) share: upstream's
// nodevolumelimits/utils.go and the ephemeral-volume ownership check.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "api/types.h"
#include "cache/node_info.h"
#include "framework/status.h"

namespace ksched::framework::nodevolumelimits {

inline constexpr const char* kErrReasonMaxVolumeCountExceeded = "node(s) exceed max volume count";

// The node's allocatable amount of the attachable-volumes-* resource `key`,
// or nullopt when the node does not list it.
std::optional<int64_t> AllocatableLimit(const NodeInfo& node, StrId key);

// ephemeral.VolumeIsForPod: the claim of a generic ephemeral volume must be
// controlled by the pod (an Error status naming both otherwise).
Status EphemeralVolumeIsForPod(const Pod& pod, const PersistentVolumeClaim& pvc);

}  // namespace ksched::framework::nodevolumelimits
