#include "dra/pod_claims.h"

namespace ksched::dra {

Result<std::optional<std::string>> ClaimName(const Pod& pod, const PodResourceClaim& claim,
                                             bool* must_check_owner) {
  if (must_check_owner != nullptr) *must_check_owner = false;
  const std::string key = std::string(Str(pod.meta.ns)) + "/" + pod.meta.name;
  if (!claim.resource_claim_name.empty())
    return std::optional<std::string>(claim.resource_claim_name);
  if (!claim.resource_claim_template_name.empty()) {
    for (const PodResourceClaimStatus& s : pod.resource_claim_statuses) {
      if (s.name != claim.name) continue;
      if (must_check_owner != nullptr) *must_check_owner = true;
      if (s.resource_claim_name.empty()) return std::optional<std::string>();
      return std::optional<std::string>(s.resource_claim_name);
    }
    return MakeError("pod \"" + key + "\": ResourceClaim not created yet");
  }
  return MakeError("pod \"" + key + "\", spec.resourceClaim \"" + claim.name +
                   "\": none of the supported fields are set");
}

std::string NotForPod(const Pod& pod, const ResourceClaim& claim) {
  bool controlled = false;
  for (const OwnerReference& o : claim.meta.owner_references) {
    if (o.controller) {
      controlled = o.uid == pod.meta.uid;
      break;
    }
  }
  if (claim.meta.ns == pod.meta.ns && controlled) return {};
  return "ResourceClaim " + claim.Key() + " was not created for pod " +
         std::string(Str(pod.meta.ns)) + "/" + pod.meta.name + " (pod is not owner)";
}

std::vector<uint32_t> PodClaimIndices(const Pod& pod, const DraState& dra) {
  std::vector<uint32_t> out;
  for (const PodResourceClaim& c : pod.spec.resource_claims) {
    auto name = ClaimName(pod, c);
    if (!name.ok() || !name->has_value()) continue;
    if (auto i = dra.FindClaim(pod.meta.ns, **name)) out.push_back(*i);
  }
  return out;
}

}  // namespace ksched::dra
