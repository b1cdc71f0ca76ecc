// Topology domains as dense numbers, and upstream's topology-pair maps
// (topologyToMatchedTermCount, scoreMap) as flat arrays over them.
//
// Upstream keys its counts by (topology key, node label value) strings in Go
// maps and looks them up once per node per term. Here the values of one key
// are numbered once per ClusterState (its nodes never change), so a node's
// domain is an array read and a count another.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "cache/cluster_state.h"

namespace ksched::framework::interpodaffinity {

// The node lacks the key.
inline constexpr uint32_t kNoDomain = 0xffffffffu;
// The node has the key with a value no node of the indexed cluster has (only
// a NodeInfo from elsewhere can): a domain where nothing is ever counted.
inline constexpr uint32_t kUnknownDomain = 0xfffffffeu;

// The domains of one topology key over the nodes of a ClusterState.
class TopologyIndex {
 public:
  TopologyIndex(const ClusterState& cluster, StrId key);

  StrId key() const { return key_; }
  uint32_t num_domains() const { return static_cast<uint32_t>(values_.size()); }
  StrId value(uint32_t domain) const { return values_[domain]; }

  // The node's domain, kNoDomain when it lacks the key. A NodeInfo of the
  // indexed cluster (or a copy of one) is an array read; any other is looked
  // up by its labels.
  uint32_t DomainOf(const NodeInfo& node) const {
    if (node.id < domain_of_node_.size() && node.node == nodes_base_ + node.id) {
      return domain_of_node_[node.id];
    }
    return DomainOfLabels(node.node ? node.node->meta.labels : Labels());
  }
  uint32_t DomainOfLabels(const Labels& labels) const;
  // The domain of node `id` of the indexed cluster; `id` < num_nodes().
  uint32_t DomainOfId(NodeId id) const { return domain_of_node_[id]; }
  // DomainOfId for every node, by NodeId (num_nodes() of them).
  const uint32_t* domains() const { return domain_of_node_.data(); }
  size_t num_nodes() const { return domain_of_node_.size(); }

 private:
  StrId key_;
  const Node* nodes_base_;
  std::vector<uint32_t> domain_of_node_;  // by NodeId
  std::vector<StrId> values_;             // by domain
  std::unordered_map<StrId, uint32_t> domain_of_value_;
};

// Indexes of the keys asked for so far, for one ClusterState at a time.
// Thread-safe: AddPod/RemovePod may run concurrently (preemption's dry runs).
class TopologyIndexes {
 public:
  std::shared_ptr<const TopologyIndex> Get(const ClusterState& cluster, StrId key);

 private:
  std::mutex mu_;
  uint64_t cluster_id_ = 0;
  std::unordered_map<StrId, std::shared_ptr<const TopologyIndex>> by_key_;
};

// A map from topology pair to a count (or score), one array per key.
// upstream's "pair present in the map" is "count != 0" here: upstream drops
// pairs whose count returns to zero and creates none with a zero count, so
// the two agree for filtering; for scoring the difference is never visible.
class TopologyCounts {
 public:
  // The slot of the index's key, added (all zeros) when absent.
  uint32_t Slot(std::shared_ptr<const TopologyIndex> index);
  // The slot of `key`, or kNoDomain when there is none.
  uint32_t FindSlot(StrId key) const;

  size_t num_slots() const { return slots_.size(); }
  const TopologyIndex& index(uint32_t slot) const { return *slots_[slot].index; }
  // `domain` may be kNoDomain or kUnknownDomain: 0, and nothing is added.
  int64_t Get(uint32_t slot, uint32_t domain) const {
    return domain < slots_[slot].counts.size() ? slots_[slot].counts[domain] : 0;
  }
  void Add(uint32_t slot, uint32_t domain, int64_t delta) {
    std::vector<int64_t>& counts = slots_[slot].counts;
    if (domain >= counts.size()) {
      if (domain >= slots_[slot].index->num_domains()) return;
      counts.assign(slots_[slot].index->num_domains(), 0);  // first count of the slot
    }
    int64_t& c = counts[domain];
    nonzero_ -= (c != 0);
    c += delta;
    nonzero_ += (c != 0);
  }
  // Add(slot, d, sums[d]) for every domain d, in one pass without branches;
  // into a slot without counts yet, a copy.
  void AddAll(uint32_t slot, const std::vector<int64_t>& sums) {
    std::vector<int64_t>& counts = slots_[slot].counts;
    if (counts.empty()) {
      const size_t n = slots_[slot].index->num_domains();
      const size_t m = std::min(n, sums.size());
      counts.resize(n);
      int64_t nonzero = 0;
      for (size_t d = 0; d < m; ++d) {
        counts[d] = sums[d];
        nonzero += sums[d] != 0;
      }
      std::fill(counts.begin() + static_cast<std::ptrdiff_t>(m), counts.end(), 0);
      nonzero_ += nonzero;
      return;
    }
    const size_t m = std::min(counts.size(), sums.size());
    int64_t before = 0, after = 0;
    for (size_t d = 0; d < m; ++d) {
      before += counts[d] != 0;
      counts[d] += sums[d];
      after += counts[d] != 0;
    }
    nonzero_ += after - before;
  }
  // The node's count in `slot`; 0 when the node lacks the key.
  int64_t AtNode(uint32_t slot, const NodeInfo& node) const {
    uint32_t d = slots_[slot].index->DomainOf(node);
    return d < slots_[slot].counts.size() ? slots_[slot].counts[d] : 0;
  }
  // The same for node `id` of the indexed cluster.
  int64_t AtNodeId(uint32_t slot, NodeId id) const {
    uint32_t d = slots_[slot].index->DomainOfId(id);
    return d < slots_[slot].counts.size() ? slots_[slot].counts[d] : 0;
  }
  // The slot's counts by domain, for loops that read many: Get(slot, d) is
  // d < num_counts(slot) ? counts(slot)[d] : 0.
  const int64_t* counts(uint32_t slot) const { return slots_[slot].counts.data(); }
  size_t num_counts(uint32_t slot) const { return slots_[slot].counts.size(); }
  // Number of pairs with a non-zero count (upstream's len(map)).
  int64_t num_nonzero() const { return nonzero_; }

 private:
  struct Entry {
    std::shared_ptr<const TopologyIndex> index;
    // By domain; empty (all zeros) until the first Add or AddAll, so a slot
    // filled from kept sums is written once, not zeroed first.
    std::vector<int64_t> counts;
  };
  std::vector<Entry> slots_;
  int64_t nonzero_ = 0;
};

}  // namespace ksched::framework::interpodaffinity
