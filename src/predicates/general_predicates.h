// GeneralPredicates: PodFitsResources, then HostName, PodFitsHostPorts and
// MatchNodeSelector, all run on every node with all their reasons kept.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "predicates/predicate.h"

namespace ksched {

// GeneralPredicates whose resource check skips the given extended resources
// (the same set as NewPodFitsResourcesIgnoring: upstream shares it through the
// predicate metadata, so it applies to both).
std::unique_ptr<Predicate> NewGeneralPredicatesIgnoring(std::vector<std::string> ignored);

}  // namespace ksched
