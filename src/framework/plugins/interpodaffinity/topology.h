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
#include <span>
#include <unordered_map>
#include <vector>

#include "cache/cluster_state.h"
#include "framework/plugins/helper/value_numbering.h"

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
  uint32_t num_domains() const { return static_cast<uint32_t>(domain_of_value_.values().size()); }
  StrId value(uint32_t domain) const { return domain_of_value_.values()[domain]; }

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
  // The nodes of `domain` < num_domains(), ascending ids.
  std::span<const NodeId> NodesIn(uint32_t domain) const {
    return {domain_nodes_.data() + domain_start_[domain],
            domain_start_[domain + 1] - domain_start_[domain]};
  }

 private:
  StrId key_;
  const Node* nodes_base_;
  std::vector<uint32_t> domain_of_node_;  // by NodeId
  // NodesIn(d) is domain_nodes_[domain_start_[d] .. domain_start_[d + 1]).
  std::vector<uint32_t> domain_start_;
  std::vector<NodeId> domain_nodes_;
  helper::ValueNumbering domain_of_value_;  // the domains' values, numbered
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

// Counts by domain and how many of them are non-zero: one term's sums over
// the placed pods, kept between cycles (InterPodAffinity's kept.cc). A cycle's
// TopologyCounts shares them instead of copying (5,000 hostname domains are
// 40 KB per term and cycle); the keeper copies before it writes to sums a
// cycle still holds.
struct DomainCounts {
  std::vector<int64_t> counts;
  int64_t nonzero = 0;

  DomainCounts() = default;
  explicit DomainCounts(size_t num_domains) : counts(num_domains, 0) {}
  void Add(uint32_t domain, int64_t delta) {
    if (domain >= counts.size()) return;
    int64_t& c = counts[domain];
    nonzero -= (c != 0);
    c += delta;
    nonzero += (c != 0);
  }
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
    const std::vector<int64_t>& counts = Values(slot);
    return domain < counts.size() ? counts[domain] : 0;
  }
  void Add(uint32_t slot, uint32_t domain, int64_t delta) {
    Entry& e = slots_[slot];
    if (domain >= e.index->num_domains()) return;
    Own(&e);
    if (e.counts.size() < e.index->num_domains()) e.counts.resize(e.index->num_domains(), 0);
    int64_t& c = e.counts[domain];
    nonzero_ -= (c != 0);
    c += delta;
    nonzero_ += (c != 0);
  }
  // Add(slot, d, sums[d]) for every domain d. Into a slot without counts
  // yet the sums are shared, not copied, until the next write to the slot.
  void AddAll(uint32_t slot, std::shared_ptr<const DomainCounts> sums) {
    Entry& e = slots_[slot];
    if (e.counts.empty() && e.shared == nullptr) {
      nonzero_ += sums->nonzero;
      e.shared = std::move(sums);
      return;
    }
    Own(&e);
    std::vector<int64_t>& counts = e.counts;
    const std::vector<int64_t>& add = sums->counts;
    if (counts.size() < add.size()) counts.resize(add.size(), 0);
    int64_t before = 0, after = 0;
    for (size_t d = 0; d < add.size(); ++d) {
      before += counts[d] != 0;
      counts[d] += add[d];
      after += counts[d] != 0;
    }
    nonzero_ += after - before;
  }
  // The node's count in `slot`; 0 when the node lacks the key.
  int64_t AtNode(uint32_t slot, const NodeInfo& node) const {
    return Get(slot, slots_[slot].index->DomainOf(node));
  }
  // The same for node `id` of the indexed cluster.
  int64_t AtNodeId(uint32_t slot, NodeId id) const {
    return Get(slot, slots_[slot].index->DomainOfId(id));
  }
  // The slot's counts by domain, for loops that read many: Get(slot, d) is
  // d < num_counts(slot) ? counts(slot)[d] : 0.
  const int64_t* counts(uint32_t slot) const { return Values(slot).data(); }
  size_t num_counts(uint32_t slot) const { return Values(slot).size(); }
  // Number of pairs with a non-zero count (upstream's len(map)).
  int64_t num_nonzero() const { return nonzero_; }

 private:
  struct Entry {
    std::shared_ptr<const TopologyIndex> index;
    // Sums shared by AddAll, read until the slot is first written; then
    // `counts` holds the slot's own copy.
    std::shared_ptr<const DomainCounts> shared;
    // By domain; empty (all zeros) until the first write.
    std::vector<int64_t> counts;
  };
  const std::vector<int64_t>& Values(uint32_t slot) const {
    const Entry& e = slots_[slot];
    return e.shared != nullptr ? e.shared->counts : e.counts;
  }
  // Makes the slot's counts its own before a write.
  static void Own(Entry* e) {
    if (e->shared == nullptr) return;
    e->counts = e->shared->counts;
    e->shared.reset();
  }
  std::vector<Entry> slots_;
  int64_t nonzero_ = 0;
};

}  // namespace ksched::framework::interpodaffinity
