// Pod (anti-)affinity terms compiled for matching, shared by the
// MatchInterPodAffinity predicate and InterPodAffinityPriority.
//
// Upstream recompiles every term of every pod with affinity for every pod it
// schedules. We compile a term once: its namespaces become interned ids (an
// empty list means the declaring pod's own namespace), its label selector a
// labels::Selector, its topology key an interned id. An invalid selector is
// kept as an error string, because upstream reports it only when (and where)
// the term is actually evaluated.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "api/types.h"
#include "cache/cluster_state.h"
#include "labels/selector.h"

namespace ksched {

// One PodAffinityTerm (or the term of a WeightedPodAffinityTerm).
struct AffinityTerm {
  std::vector<StrId> namespaces;  // never empty
  labels::Selector selector;      // Nothing() when the term has no labelSelector
  StrId topology_key = kEmptyStr;
  int32_t weight = 0;                // preferred terms only
  std::optional<std::string> error;  // the selector did not compile

  bool valid() const { return !error.has_value(); }

  // Upstream's PodMatchesTermsNamespaceAndSelector: `pod` is in one of the
  // namespaces and its labels match the selector. False for an invalid term.
  bool Matches(const Pod& pod) const {
    if (error) return false;
    bool ns_ok = false;
    for (StrId ns : namespaces) {
      if (ns == pod.meta.ns) {
        ns_ok = true;
        break;
      }
    }
    return ns_ok && selector.Matches(pod.meta.labels);
  }
};

// The pod (anti-)affinity of one pod, compiled. Only the required and
// preferred lists upstream reads are kept.
struct CompiledPodAffinity {
  bool has_affinity = false;       // spec.affinity.podAffinity present
  bool has_anti_affinity = false;  // spec.affinity.podAntiAffinity present
  std::vector<AffinityTerm> required_affinity;
  std::vector<AffinityTerm> required_anti_affinity;
  std::vector<AffinityTerm> preferred_affinity;
  std::vector<AffinityTerm> preferred_anti_affinity;

  // Upstream's hasPodAffinityConstraints.
  bool any() const { return has_affinity || has_anti_affinity; }
};

AffinityTerm CompileAffinityTerm(const PodAffinityTerm& term, StrId owner_namespace,
                                 int32_t weight);
CompiledPodAffinity CompilePodAffinity(const Pod& pod);

// The first error among `terms` (in order), or nullptr when all compiled.
const std::string* FirstTermError(const std::vector<AffinityTerm>& terms);

// Upstream's podMatchesAllAffinityTermProperties: true when `pod` matches
// every term's namespaces and selector; false for an empty list or when any
// term is invalid (upstream gives up on the whole list then).
bool PodMatchesAllTerms(const Pod& pod, const std::vector<AffinityTerm>& terms);

// Upstream's NodesHaveSameTopologyKey: both label sets carry `key` with the
// same value. An empty key never matches.
inline bool NodesShareTopology(const Labels& a, const Labels& b, StrId key) {
  if (key == kEmptyStr) return false;
  std::optional<StrId> va = a.Get(key);
  if (!va) return false;
  std::optional<StrId> vb = b.Get(key);
  return vb && *va == *vb;
}

// A (topology key, value) pair packed into one integer, so that sets of pairs
// are sorted vectors searched without allocation.
inline uint64_t TopologyPair(StrId key, StrId value) {
  return (static_cast<uint64_t>(key) << 32) | value;
}

// "namespace/name", the way upstream's error messages name a pod.
std::string PodDisplayName(const Pod& pod);

// A few objects kept between cycles (per-pod metadata that is updated rather
// than rebuilt), most recently used first.
template <typename T>
class KeptList {
 public:
  explicit KeptList(size_t max) : max_(max) {}
  // The first object `usable` accepts, moved to the front; null when none.
  template <typename F>
  std::shared_ptr<T> Find(F&& usable) {
    for (size_t i = 0; i < kept_.size(); ++i) {
      if (!usable(*kept_[i])) continue;
      std::rotate(kept_.begin(), kept_.begin() + i, kept_.begin() + i + 1);
      return kept_.front();
    }
    return nullptr;
  }
  // Adds `entry` at the front, dropping the least recently used past max.
  void Add(std::shared_ptr<T> entry) {
    if (kept_.size() == max_) kept_.pop_back();
    kept_.insert(kept_.begin(), std::move(entry));
  }
  // Drops the front object (one that turned out unusable).
  void DropFront() { kept_.erase(kept_.begin()); }

 private:
  size_t max_;
  std::vector<std::shared_ptr<T>> kept_;
};

// Compiled affinity of the pods of a ClusterState, by PodId, so that each
// existing pod's terms are compiled once rather than once per scheduling
// cycle. An entry remembers the ClusterState::id() it was compiled for, which
// keeps the cache exact when the same predicate object is later used with a
// different ClusterState.
// Not thread-safe by itself: Lock() around a batch of Get() calls.
class PodAffinityCache {
 public:
  std::unique_lock<std::mutex> Lock() const { return std::unique_lock<std::mutex>(mu_); }
  // The compiled affinity of cluster.pod(id); stays valid as long as the
  // cache. Pods whose namespace and affinity are equal (all pods of one
  // controller) share one object.
  const CompiledPodAffinity& Get(const ClusterState& cluster, PodId id) {
    return shared_[Group(cluster, id)];
  }
  // The shared object's number, 0..num_groups()-1: what depends only on the
  // terms (do they match the incoming pod?) can be decided once per group.
  uint32_t Group(const ClusterState& cluster, PodId id);
  // The group of a pod that need not be in any ClusterState (the incoming
  // pod), compiled the first time its terms are seen.
  uint32_t GroupOfPod(const Pod& pod);
  const CompiledPodAffinity& Shared(uint32_t group) const { return shared_[group]; }
  size_t num_groups() const { return shared_.size(); }
  // True once any group compiled so far has a term whose selector did not
  // compile. Callers with a fast path for valid terms only fall back then.
  bool any_invalid() const { return any_invalid_; }

 private:
  struct Entry {
    uint64_t cluster_id = 0;  // 0: never filled (ClusterState ids start at 1)
    uint32_t group = 0;
  };
  mutable std::mutex mu_;
  std::vector<Entry> entries_;              // by PodId
  std::deque<CompiledPodAffinity> shared_;  // a deque: growing it never moves them
  std::unordered_map<std::string, uint32_t> group_by_source_;
  bool any_invalid_ = false;
};

}  // namespace ksched
