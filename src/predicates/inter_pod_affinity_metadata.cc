#include "predicates/inter_pod_affinity_metadata.h"

#include <algorithm>

namespace ksched {

void TopologyPairsMap::Add(uint64_t pair, PodId pod) {
  std::vector<uint64_t>& pairs = pairs_of_[pod];
  if (std::find(pairs.begin(), pairs.end(), pair) != pairs.end()) return;
  pairs.push_back(pair);
  ++count_[pair];
}

void TopologyPairsMap::RemovePod(PodId pod) {
  auto it = pairs_of_.find(pod);
  if (it == pairs_of_.end()) return;
  for (uint64_t pair : it->second) {
    auto c = count_.find(pair);
    if (--c->second == 0) count_.erase(c);
  }
  pairs_of_.erase(it);
}

void TopologyPairCounts::Reset(size_t num_nodes) {
  count_.clear();
  covering_.assign(num_nodes, 0);
}

void TopologyPairCounts::Add(const ClusterState& cluster, uint64_t pair, int32_t delta) {
  auto [it, added] = count_.try_emplace(pair, 0);
  const bool was_present = !added;
  it->second += delta;
  const bool present = it->second > 0;
  if (!present) count_.erase(it);
  if (present == was_present) return;
  for (NodeId n : cluster.NodesWithLabel(static_cast<StrId>(pair >> 32), static_cast<StrId>(pair)))
    covering_[n] += present ? 1 : static_cast<uint32_t>(-1);
}

namespace {

// Pairs where `existing`'s required anti-affinity terms match `pod`, with the
// topology values of `node` (upstream's getMatchingAntiAffinityTopologyPairsOfPod).
// Upstream gives up on the whole pod at the first invalid selector.
void AddExistingAnti(const Pod& pod, PodId existing, const CompiledPodAffinity& c,
                     const Labels& node_labels, TopologyPairsMap* out) {
  if (!c.has_anti_affinity) return;
  if (FirstTermError(c.required_anti_affinity) != nullptr) return;
  for (const AffinityTerm& term : c.required_anti_affinity) {
    if (!term.Matches(pod)) continue;
    if (std::optional<StrId> v = node_labels.Get(term.topology_key)) {
      out->Add(TopologyPair(term.topology_key, *v), existing);
    }
  }
}

}  // namespace

InterPodAffinityMetadata InterPodAffinityMetadata::Build(const Pod& pod,
                                                         const CompiledPodAffinity& inc,
                                                         bool own_terms,
                                                         const ClusterState& cluster,
                                                         PodAffinityCache* cache) {
  InterPodAffinityMetadata m;
  auto lock = cache->Lock();
  for (PodId id : cluster.pods_with_affinity()) {
    const PodInfo& existing = cluster.pod(id);
    if (existing.node == kNoNode) continue;
    AddExistingAnti(pod, id, cache->Get(cluster, id), cluster.node(existing.node).meta.labels,
                    &m.existing_anti);
  }
  if (!own_terms || (inc.required_affinity.empty() && inc.required_anti_affinity.empty())) {
    return m;
  }
  for (NodeId n = 0; n < cluster.num_nodes(); ++n) {
    const NodeInfo& info = cluster.node_info(n);
    const Labels& labels = info.labels();
    for (PodId id : info.pods) {
      const Pod& existing = cluster.pod(id).pod;
      if (PodMatchesAllTerms(existing, inc.required_affinity)) {
        for (const AffinityTerm& term : inc.required_affinity) {
          if (std::optional<StrId> v = labels.Get(term.topology_key)) {
            m.potential_affinity.Add(TopologyPair(term.topology_key, *v), id);
          }
        }
      }
      for (const AffinityTerm& term : inc.required_anti_affinity) {
        if (!term.Matches(existing)) continue;
        if (std::optional<StrId> v = labels.Get(term.topology_key)) {
          m.potential_anti.Add(TopologyPair(term.topology_key, *v), id);
        }
      }
    }
  }
  return m;
}

void InterPodAffinityMetadata::AddPod(const Pod& pod, const CompiledPodAffinity& inc, PodId added,
                                      const CompiledPodAffinity& added_affinity,
                                      const Pod& added_pod, const NodeInfo& node) {
  const Labels& labels = node.labels();
  AddExistingAnti(pod, added, added_affinity, labels, &existing_anti);
  // The incoming pod's own terms hear only of pods bound to a node.
  if (!pod.spec.affinity || added_pod.spec.node_name.empty()) return;
  if (inc.has_affinity && PodMatchesAllTerms(added_pod, inc.required_affinity)) {
    for (const AffinityTerm& term : inc.required_affinity) {
      if (std::optional<StrId> v = labels.Get(term.topology_key)) {
        potential_affinity.Add(TopologyPair(term.topology_key, *v), added);
      }
    }
  }
  // Matching any one anti-affinity term adds the pairs of every term.
  if (inc.has_anti_affinity && FirstTermError(inc.required_anti_affinity) == nullptr &&
      std::any_of(inc.required_anti_affinity.begin(), inc.required_anti_affinity.end(),
                  [&](const AffinityTerm& t) { return t.Matches(added_pod); })) {
    for (const AffinityTerm& term : inc.required_anti_affinity) {
      if (std::optional<StrId> v = labels.Get(term.topology_key)) {
        potential_anti.Add(TopologyPair(term.topology_key, *v), added);
      }
    }
  }
}

void InterPodAffinityMetadata::RemovePod(PodId removed) {
  existing_anti.RemovePod(removed);
  potential_affinity.RemovePod(removed);
  potential_anti.RemovePod(removed);
}

}  // namespace ksched
