// ScoreIndex: the feasible nodes of one equivalence class, ordered by score,
// kept up to date as pods land one node at a time.
//
// Upstream scores every feasible node with every priority on every cycle:
// O(nodes x priorities). Between two pods of one class, though, only the node
// the previous pod was bound to changed, and most priorities reduce in a way
// that depends on the other nodes only through a few totals (the largest raw
// score, per-zone sums). The index keeps, per feasible node, the weighted sum
// of the priorities whose raw score is final ("base"), and groups the nodes by
// everything the other reduces look at: their raw scores of the normalizing
// priorities (NodeAffinity, TaintToleration), their zone and count for
// SelectorSpread. Within a group those priorities give every node the same
// reduced score whatever the totals are, so each group is kept ordered by
// base, and a cycle updates the changed nodes (O(log N) each) and then scores
// only the group leaders against the current totals (largest raw score,
// per-zone sums). Groups are few: most nodes share raw scores.
//
// InterPodAffinityPriority (kDomainMinMax) sums weights over topology domains
// that change with every pod, so it cannot go into "base" either: nodes are
// also grouped by the set of weighted domains they belong to (most nodes
// belong to none), and the term is worked out per group.
//
// The index answers only upstream's decision with the name tie-break; the
// scheduler uses it when no report is wanted and falls back to the full
// computation otherwise (tests/engine_equivalence_test.cc compares the two).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "cache/cluster_state.h"
#include "priorities/priority.h"

namespace ksched {

class ScoreIndex {
 public:
  // One priority the index sums: its reduce shape (anything but kOther), its
  // weight, and its raw Map() score by NodeId, owned by the caller and kept
  // current for every node passed to Update() as feasible.
  struct Term {
    ReduceShape shape = ReduceShape::kIdentity;
    int64_t weight = 1;
    const std::vector<int64_t>* raw = nullptr;
  };

  // At most this many kNormalize / kNormalizeReverse terms (v1.15 has two
  // such priorities, NodeAffinity and TaintToleration).
  static constexpr size_t kMaxNormalized = 4;

  // True when the index can sum `terms`: at most one kZoneSpread, at most
  // one kDomainMinMax (whose `raw` is unused), kMaxNormalized normalizing
  // ones, no kOther.
  static bool Supports(const std::vector<Term>& terms);

  // Starts empty for `cluster`'s nodes. `terms` must satisfy Supports().
  void Reset(std::vector<Term> terms, const ClusterState& cluster);

  // Node `n` changed: `fits` is whether it is feasible now; when it is, the
  // terms' raw scores for it must be current. Cost O(terms + log nodes).
  void Update(NodeId n, bool fits);

  // This cycle's weights of the kDomainMinMax term (the spans are copied).
  // Regroups the feasible nodes of every domain that gained or lost weight.
  void SetDomains(DomainWeights weights);

  size_t num_feasible() const { return num_feasible_; }
  bool Contains(NodeId n) const { return member_[n] != 0; }
  // Contains() for every node, by NodeId: 1 or 0.
  const std::vector<uint8_t>& members() const { return member_; }

  // The node upstream would choose with the name tie-break (highest weighted
  // total, then the smallest name), or kNoNode with fewer than two feasible
  // nodes (upstream then skips scoring; the caller handles that case) or when
  // a feasible node has an identity score outside 0-10. Such scores come
  // only from resource sums that wrapped around int64 (as Go's do); the
  // index's grouping assumes totals that cannot wrap, so the caller's full
  // computation decides those cycles. Within 0-10, the Policy's weight limit
  // (sum of weights x 10 fits int64) keeps every total exact.
  NodeId Best();

 private:
  struct Entry {
    int64_t base;
    uint32_t rank;  // position in name order
    NodeId node;
    bool operator<(const Entry& o) const {
      if (base != o.base) return base > o.base;  // best first
      return rank < o.rank;
    }
  };
  struct GroupKey {
    std::array<int64_t, kMaxNormalized> normalized{};  // raw scores, by normalized_
    uint32_t zone = 0;                                 // zone index (spread term only)
    int64_t count = 0;                                 // spread count (spread term only)
    uint32_t domain = 0;                               // domain set id (domain term only; 0: none)
    bool operator<(const GroupKey& o) const {
      if (normalized != o.normalized) return normalized < o.normalized;
      if (zone != o.zone) return zone < o.zone;
      if (count != o.count) return count < o.count;
      return domain < o.domain;
    }
  };

  // The weighted sum of the identity terms; `in_range` tells whether every
  // one of their raw scores lies in 0-10.
  int64_t Base(NodeId n, bool* in_range) const;
  GroupKey KeyOf(NodeId n) const;
  void Insert(NodeId n);
  void Remove(NodeId n);
  // The id of the set of weighted domains node `n` is in.
  uint32_t DomainOf(NodeId n);
  // The domain term's raw score for a domain set id.
  int64_t DomainRaw(uint32_t id) const;

  const ClusterState* cluster_ = nullptr;
  std::vector<Term> terms_;
  // Terms whose reduce depends on the largest raw score, and the index of the
  // kZoneSpread term (-1 without one).
  std::vector<size_t> normalized_;
  int spread_ = -1;
  int domain_ = -1;  // index of the kDomainMinMax term, -1 without one

  // Per node.
  std::vector<uint8_t> member_;
  std::vector<int64_t> base_;
  std::vector<uint8_t> out_of_range_;  // 1: a raw identity score outside 0-10
  size_t num_out_of_range_ = 0;        // feasible nodes with out_of_range_ set
  // Raw scores as inserted, [normalized term or spread][node], so removal is
  // exact even after the caller's arrays moved on.
  std::vector<std::vector<int64_t>> inserted_;
  size_t num_feasible_ = 0;

  // Totals over the feasible nodes.
  std::vector<std::map<int64_t, uint32_t>> raw_counts_;  // per normalized term
  std::map<int64_t, uint32_t> spread_counts_;
  std::vector<int64_t> zone_sum_;     // by zone index
  std::vector<uint32_t> zone_nodes_;  // feasible nodes per zone index

  std::map<GroupKey, std::set<Entry>> groups_;

  // The domain term: this cycle's weighted domains (sorted pairs), their
  // keys, each node's domain set id as inserted, and the sets by id.
  std::vector<uint64_t> domain_pairs_;
  std::vector<int64_t> domain_weights_;
  std::vector<uint32_t> domain_keys_;
  std::vector<uint32_t> domain_of_;
  std::map<std::vector<uint64_t>, uint32_t> domain_set_ids_;
  std::vector<std::vector<uint64_t>> domain_sets_;
};

}  // namespace ksched
