#include "dra/release_claims.h"

#include <algorithm>

namespace ksched::dra {

void ReleaseClaimsOfDeletedPods(DraState* dra, const std::unordered_set<std::string>& gone_uids) {
  if (gone_uids.empty()) return;
  for (uint32_t i = 0; i < dra->num_claims(); ++i) {
    if (!dra->ClaimExists(i)) continue;
    const ResourceClaim& current = dra->claim(i);
    auto gone = [&](const ResourceClaimConsumerReference& r) {
      return r.api_group.empty() && r.resource == "pods" && gone_uids.count(r.uid) != 0;
    };
    if (std::any_of(current.reserved_for.begin(), current.reserved_for.end(), gone)) {
      ResourceClaim claim = current;
      std::erase_if(claim.reserved_for, gone);
      if (claim.reserved_for.empty() && claim.HasFinalizer(kResourceClaimFinalizer)) {
        claim.allocation.reset();
        std::erase(claim.finalizers, std::string(kResourceClaimFinalizer));
      }
      dra->UpdateClaim(i, std::move(claim));
    }
    const ResourceClaim& claim = dra->claim(i);
    if (!claim.reserved_for.empty()) continue;
    for (const OwnerReference& o : claim.meta.owner_references) {
      if (!o.controller) continue;
      if (o.api_version == "v1" && o.kind == "Pod" && gone_uids.count(o.uid) != 0)
        dra->DeleteClaim(i);
      break;
    }
  }
}

}  // namespace ksched::dra
