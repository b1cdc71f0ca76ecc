// What the resourceclaim controller and the garbage collector do with the
// claims of pods that are gone (the scheduler loop's preemption victims),
// done at once as refsched135 does before the next attempt.
#pragma once

#include <string>
#include <unordered_set>

#include "cache/dra_state.h"

namespace ksched::dra {

// For every claim: the gone pods are dropped from status.reservedFor; a
// claim left without consumers that carries the scheduler's finalizer is
// deallocated and loses the finalizer; a claim without consumers that a
// gone pod controlled (generated from its template) is deleted.
// `gone_uids` are the pods' metadata.uid.
void ReleaseClaimsOfDeletedPods(DraState* dra, const std::unordered_set<std::string>& gone_uids);

}  // namespace ksched::dra
