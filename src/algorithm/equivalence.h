// Equivalence classes of pods.
//
// Pods created by one controller differ only in name and uid; everything the
// predicates and priorities read is the same. EquivalenceKey() serialises
// exactly that scheduling-relevant part of a pod, so two pods with equal keys
// get equal answers from every node-local predicate and map function on an
// unchanged node. The scheduler uses it to reuse per-node results between
// consecutive pods of one class (see generic_scheduler.cc).
#pragma once

#include <string>

#include "api/types.h"

namespace ksched {

// Everything but name, uid, timestamps, annotations and status.
std::string EquivalenceKey(const Pod& pod);

}  // namespace ksched
