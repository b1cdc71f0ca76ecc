// Upstream's inter-pod affinity predicate metadata, kept pod by pod.
//
// MatchInterPodAffinity's everyday state (match_inter_pod_affinity.cc) keeps
// only the topology pairs it needs and per-node verdicts: the fastest form
// for a cycle that never changes its view of the cluster. Nominated pods and
// preemption change that view: upstream adds pods to (and removes pods from)
// its metadata maps, which remember which pod put each pair there. This is
// that form, built only for such cycles; its AddPod and RemovePod follow
// upstream's predicateMetadata.AddPod/RemovePod, quirks included (an added
// pod that matches one anti-affinity term of the incoming pod contributes the
// pairs of all of them; a pod without spec.nodeName, such as a nominated one,
// never counts for the incoming pod's own terms).
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "cache/cluster_state.h"
#include "predicates/affinity_terms.h"

namespace ksched {

// Upstream's topologyPairsMaps: topology pairs and the pods behind each.
// A pair is present while at least one pod puts it there.
class TopologyPairsMap {
 public:
  void Add(uint64_t pair, PodId pod);  // idempotent for one (pair, pod)
  void RemovePod(PodId pod);
  bool Has(uint64_t pair) const { return count_.find(pair) != count_.end(); }
  bool empty() const { return count_.empty(); }

 private:
  std::unordered_map<uint64_t, uint32_t> count_;  // pair -> pods putting it there
  std::unordered_map<PodId, std::vector<uint64_t>> pairs_of_;
};

// Topology pairs counted pod by pod, with the number of present pairs whose
// domain holds each node: the form MatchInterPodAffinity keeps between
// cycles and updates from ClusterState::pod_log() (a pod placed or removed
// changes the counts of its own node's pairs only). A pair is present while
// its count is above zero; a node's count tells how many present pairs cover
// it, so "is any pair of this node present?" and "are all of this node's
// keys present?" are one read.
class TopologyPairCounts {
 public:
  void Reset(size_t num_nodes);
  // `delta` more pods (negative: fewer) put `pair` there. When the pair
  // appears or disappears, each node of its domain is counted in or out.
  void Add(const ClusterState& cluster, uint64_t pair, int32_t delta);
  // Present pairs whose domain holds node `n`.
  uint32_t covering(NodeId n) const { return covering_[n]; }
  const std::vector<uint32_t>& covering() const { return covering_; }
  bool empty() const { return count_.empty(); }
  size_t num_present() const { return count_.size(); }

 private:
  std::unordered_map<uint64_t, int64_t> count_;  // present pairs only
  std::vector<uint32_t> covering_;               // by NodeId
};

struct InterPodAffinityMetadata {
  // Pairs where an existing pod's required anti-affinity term matches the
  // incoming pod (topologyPairsAntiAffinityPodsMap).
  TopologyPairsMap existing_anti;
  // Pairs holding pods that match all of the incoming pod's required
  // affinity terms / one of its anti-affinity terms
  // (topologyPairsPotentialAffinityPods / ...AntiAffinityPods).
  TopologyPairsMap potential_affinity;
  TopologyPairsMap potential_anti;

  // Upstream's metadata producer over every live pod on a node. `inc` is the
  // incoming pod's compiled affinity; when `own_terms` is false only
  // existing_anti is filled (the incoming pod's terms are checked another
  // way). Invalid terms contribute nothing (upstream would have fallen back
  // before getting here).
  static InterPodAffinityMetadata Build(const Pod& pod, const CompiledPodAffinity& inc,
                                        bool own_terms, const ClusterState& cluster,
                                        PodAffinityCache* cache);

  // predicateMetadata.AddPod: `added` runs on `node`.
  void AddPod(const Pod& pod, const CompiledPodAffinity& inc, PodId added,
              const CompiledPodAffinity& added_affinity, const Pod& added_pod,
              const NodeInfo& node);
  // predicateMetadata.RemovePod.
  void RemovePod(PodId removed);
};

}  // namespace ksched
