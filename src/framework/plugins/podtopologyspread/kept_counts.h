// PodTopologySpread's pod counts kept from one cycle to the next.
//
// Every cycle, upstream's PreFilter and PreScore walk every node of the
// cluster and count the pods on it that a constraint's selector matches; only
// the nodes the last cycles placed pods on changed since. KeptCounts holds,
// for the constraints of one kind of pod (same namespace, constraints or
// defaulting inputs, node affinity and tolerations: KeptCountsKey), each
// constraint's matching pods per node and the sums PreFilter and PreScore
// read per topology domain, and brings them up to date from the
// ClusterState's pod log (ClusterState::pod_log). The sums are exactly those
// of the full walk: same nodes, same pods, same per-node rules (filtering.cc
// and scoring.cc say which).
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "framework/plugins/podtopologyspread/common.h"

namespace ksched::framework::plugins::podtopologyspread {

// Everything of the incoming pod the counts depend on.
struct KeptCountsKey {
  StrId ns = kEmptyStr;
  bool filtering = true;  // DoNotSchedule (PreFilter) or ScheduleAnyway (PreScore)
  std::vector<TopologySpreadConstraint> constraints;  // the pod's own
  // The selector inputs of the defaults (Services, controllers) and of
  // matchLabelKeys.
  Labels labels;
  std::vector<OwnerReference> owners;
  Labels node_selector;
  std::optional<NodeSelector> required_node_affinity;
  std::vector<Toleration> tolerations;

  static KeptCountsKey Of(const Pod& pod, bool filtering);
  bool operator==(const KeptCountsKey&) const = default;
};

class KeptCounts {
 public:
  // Counts for `cons` (the pod's constraints with the action of `filtering`,
  // defaults applied) over every node of `cluster`. `require_all`: PreScore
  // leaves out nodes lacking a key (not with the system defaults).
  KeptCounts(const ClusterState& cluster, const Pod& pod, std::shared_ptr<const Constraints> cons,
             std::vector<std::shared_ptr<const TopologyDomains>> domains, const Features& features,
             bool filtering, bool require_all);

  // Applies the pods placed and removed since the last call.
  void Sync(const ClusterState& cluster);

  // Matching pods on node `id` for constraint `i` (countPodsMatchSelector).
  int64_t NodeCount(size_t i, NodeId id) const { return node_counts_[i][id]; }
  // NodeCount of constraint `i` for every node, by NodeId.
  const int64_t* NodeCounts(size_t i) const { return node_counts_[i].data(); }

  // PreFilter's sums, by key slot and domain: each node adds the count of
  // the last constraint on the key that includes it; `present` marks the
  // domains of the nodes that add.
  const std::vector<std::vector<int64_t>>& filter_counts() const { return key_counts_; }
  const std::vector<std::vector<uint8_t>>& filter_present() const { return present_; }
  // PreScore's sums for constraint `i` (not hostname), by domain, over the
  // nodes PreScore counts (all domains; PreScore keeps those of feasible
  // nodes).
  const std::vector<int64_t>& score_counts(size_t i) const { return constraint_counts_[i]; }

 private:
  bool Matches(size_t i, const PodInfo& p);
  void Apply(const ClusterState& cluster, NodeId node, const PodInfo& p, int64_t delta);

  std::shared_ptr<const Constraints> cons_;
  std::vector<std::shared_ptr<const TopologyDomains>> domains_;
  StrId ns_ = kEmptyStr;
  bool filtering_ = true;
  uint64_t synced_ = 0;
  // By constraint: matching pods per node; per label set of the cluster,
  // whether the selector and namespace match (-1: not known yet).
  std::vector<std::vector<int64_t>> node_counts_;
  std::vector<std::vector<int8_t>> match_memo_;
  // Filtering: by node and key slot, the constraint whose count the node
  // adds (-1: none). Scoring: by constraint, whether each node adds.
  std::vector<int16_t> effective_;  // [node * keys + slot]
  std::vector<std::vector<uint8_t>> adds_;
  std::vector<std::vector<int64_t>> key_counts_;
  std::vector<std::vector<uint8_t>> present_;
  std::vector<std::vector<int64_t>> constraint_counts_;
};

// KeptCounts per kind of pod, for one ClusterState; the last few kinds kept.
class KeptCountsCache {
 public:
  // The entry for `key`, built on first use (with `cons`) and synced with
  // `cluster`. The shared pointer keeps it alive for the cycle's state.
  std::shared_ptr<const KeptCounts> Get(const ClusterState& cluster, const Pod& pod,
                                        KeptCountsKey key, std::shared_ptr<const Constraints> cons,
                                        std::vector<std::shared_ptr<const TopologyDomains>> domains,
                                        const Features& features, bool require_all);

 private:
  static constexpr size_t kMaxEntries = 16;
  struct Entry {
    KeptCountsKey key;
    std::shared_ptr<KeptCounts> counts;
    uint64_t last_used = 0;
  };
  std::mutex mu_;
  uint64_t cluster_id_ = ~uint64_t{0};
  size_t num_nodes_ = 0;
  uint64_t tick_ = 0;
  std::vector<Entry> entries_;
};

}  // namespace ksched::framework::plugins::podtopologyspread
