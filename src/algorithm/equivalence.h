// Equivalence classes of pods.
//
// Pods created by one controller differ only in name and uid; everything the
// predicates and priorities read is the same. EquivalenceKey() serialises
// exactly that scheduling-relevant part of a pod, so two pods with equal keys
// get equal answers from every node-local predicate and map function on an
// unchanged node. The scheduler uses it to reuse per-node results between
// consecutive pods of one class (see generic_scheduler.cc).
//
// Of the pod's labels only those a cached result can depend on need to be in
// the key. Node-local predicates never read the pod's labels; node-local map
// functions read them only through the Services, ReplicationControllers,
// ReplicaSets and StatefulSets that select the pod (spreading). So pods that
// differ only in labels no such selector mentions (a unique `group=anti-17`,
// say) share a class; everything that reads other labels (pod affinity,
// service affinity) is recomputed every cycle anyway.
#pragma once

#include <string>
#include <vector>

#include "api/types.h"
#include "cache/cluster_state.h"

namespace ksched {

// The label keys that any workload selector of `cluster` mentions, sorted.
std::vector<StrId> WorkloadSelectorKeys(const ClusterState& cluster);

// Everything but name, uid, timestamps, annotations and status; of the
// labels, whether there are any and those whose key is in `label_keys`
// (sorted), or all of them when `label_keys` is null.
std::string EquivalenceKey(const Pod& pod, const std::vector<StrId>* label_keys = nullptr);

}  // namespace ksched
