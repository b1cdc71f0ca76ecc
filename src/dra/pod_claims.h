// A pod's ResourceClaims as upstream's resourceclaim package finds them:
// by name, or through the claim the resourceclaim controller generated
// from a template (named in status.resourceClaimStatuses).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "api/types.h"
#include "cache/dra_state.h"
#include "util/result.h"

namespace ksched::dra {

// resourceclaim.Name: the claim's name; nullopt when the controller
// decided the pod needs none (a status entry without a name); an error
// when the template's claim is not named yet (`pod "ns/name": ResourceClaim
// not created yet`) or the entry names neither a claim nor a template.
// *must_check_owner is set for a template's claim (it must be the pod's).
Result<std::optional<std::string>> ClaimName(const Pod& pod, const PodResourceClaim& claim,
                                             bool* must_check_owner = nullptr);

// resourceclaim.IsForPod's error text, or "" when `claim` is the pod's
// (same namespace, controlled by the pod's uid).
std::string NotForPod(const Pod& pod, const ResourceClaim& claim);

// IsReservedForPod.
inline bool IsReservedForPod(const Pod& pod, const ResourceClaim& claim) {
  return claim.ReservedForUid(pod.meta.uid);
}

// A claim's identity in upstream's maps (its uid; ns/name when it has none).
inline std::string ClaimUid(const ResourceClaim& claim) {
  return claim.meta.uid.empty() ? claim.Key() : claim.meta.uid;
}

// The indices in `dra` of the pod's claims that exist, in spec order
// (claims not created yet and unnamed ones left out); for reports.
std::vector<uint32_t> PodClaimIndices(const Pod& pod, const DraState& dra);

}  // namespace ksched::dra
