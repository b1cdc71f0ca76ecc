// Pod (anti-)affinity terms as kube-scheduler v1.26 parses them into its
// PodInfo (upstream's framework.AffinityTerm, newAffinityTerm,
// getNamespacesFromPodAffinityTerm), and a cache of the parsed terms of the
// pods of a ClusterState.
//
// v1.26 differs from the v1.15 form in predicates/affinity_terms.h: a term
// carries a namespaceSelector besides its namespace list, an empty list with
// a namespaceSelector means "no listed namespace" (not the pod's own), and a
// selector that fails to parse drops the whole list it belongs to (the pod
// is then rejected if it is the incoming one; an existing pod simply has no
// terms of that kind). Hence a separate form, over the same labels::Selector.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

#include "api/types.h"
#include "cache/cluster_state.h"
#include "labels/selector.h"

namespace ksched::framework::interpodaffinity {

// framework.AffinityTerm (with WeightedAffinityTerm's weight).
struct AffinityTerm {
  std::vector<StrId> namespaces;  // sorted, unique; may be empty
  labels::Selector selector;
  // Nothing() when the term has no namespaceSelector; Everything() for {}.
  labels::Selector namespace_selector = labels::Selector::Nothing();
  StrId topology_key = kEmptyStr;
  int32_t weight = 0;  // preferred terms only

  bool HasNamespace(StrId ns) const {
    return std::binary_search(namespaces.begin(), namespaces.end(), ns);
  }
  // Upstream's AffinityTerm.Matches: the pod is in a listed namespace or its
  // namespace's labels match the namespace selector, and its labels match
  // the selector. `ns_labels` are the labels of the pod's namespace (empty
  // when unknown, as upstream's nil set).
  bool Matches(const Pod& pod, const Labels& ns_labels) const {
    if (!HasNamespace(pod.meta.ns) && !namespace_selector.Matches(ns_labels)) return false;
    return selector.Matches(pod.meta.labels);
  }
};

// The four lists of upstream's PodInfo. A list whose parsing failed is empty.
struct PodTerms {
  std::vector<AffinityTerm> required_affinity;
  std::vector<AffinityTerm> required_anti_affinity;
  std::vector<AffinityTerm> preferred_affinity;
  std::vector<AffinityTerm> preferred_anti_affinity;
  // The error NewPodInfo returns (an aggregate of the lists' errors, e.g.
  // "requiredAffinityTerms: ..."); "" when every list parsed.
  std::string error;

  bool empty() const {
    return required_affinity.empty() && required_anti_affinity.empty() &&
           preferred_affinity.empty() && preferred_anti_affinity.empty();
  }
};

// framework.NewPodInfo's term parsing.
PodTerms ParsePodTerms(const Pod& pod);

// Whether the pod's spec lists preferred pod affinity or anti-affinity terms
// (PreScore's hasPreferred{Anti,}AffinityConstraints).
bool HasPreferredTerms(const Pod& pod);

// Upstream's podMatchesAllAffinityTerms: false for no terms. Used for the
// incoming pod's own terms, whose namespace selectors were merged (so no
// namespace labels are passed).
bool PodMatchesAllTerms(const std::vector<AffinityTerm>& terms, const Pod& pod);

// The parsed terms of the pods of a ClusterState, by PodId, so that an
// existing pod's terms are parsed once rather than every cycle. Pods whose
// namespace and pod (anti-)affinity are equal (the pods of one controller)
// share one group; what depends only on the terms can be decided per group.
// An entry remembers the ClusterState::id() it was filled for (pods never
// change in place and PodIds are never reused within a ClusterState).
// Not thread-safe.
class TermCache {
 public:
  uint32_t Group(const ClusterState& cluster, PodId id);
  // The group of any pod, parsed the first time its terms are seen.
  uint32_t GroupOfPod(const Pod& pod);
  const PodTerms& terms(uint32_t group) const { return groups_[group]; }
  size_t num_groups() const { return groups_.size(); }

 private:
  struct Entry {
    uint64_t cluster_id = 0;  // 0: never filled (ClusterState ids start at 1)
    uint32_t group = 0;
  };
  std::vector<Entry> entries_;   // by PodId
  std::deque<PodTerms> groups_;  // a deque: growing it never moves them
  std::unordered_map<std::string, uint32_t> group_by_source_;
};

}  // namespace ksched::framework::interpodaffinity
