// The scoring interface: one Priority per upstream priority name.
//
// Upstream v1.15 scores in map/reduce form: a map function gives each
// feasible node a raw score, then a reduce function normalises the whole list
// (most to 0..10). Prepare() is upstream's priority metadata.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>

#include "cache/cluster_state.h"
#include "predicates/predicate.h"

namespace ksched {

inline constexpr int64_t kMaxPriority = 10;

class PriorityState {
 public:
  virtual ~PriorityState() = default;
};

// How Reduce() turns the feasible nodes' raw scores into final ones. The
// scheduler uses the shape to keep reduced scores between pods of one
// equivalence class (algorithm/score_index.h) instead of re-reducing every
// node every cycle; Reduce() stays the definition, and
// priorities/reduce_shape_test.cc checks that every priority's declared shape
// agrees with its Reduce().
enum class ReduceShape : uint8_t {
  kIdentity,          // no reduce: the raw score is the score
  kNormalize,         // NormalizeReduce(scores, /*reverse=*/false)
  kNormalizeReverse,  // NormalizeReduce(scores, /*reverse=*/true)
  kZoneSpread,        // spreading::SpreadScore from node and zone counts
  kDomainMinMax,      // Map() sums weights of topology domains (Domains());
                      // Reduce() is MinMaxScore over the scored nodes
  kOther,             // anything else: reduced from scratch every cycle
};

// The weights behind a kDomainMinMax priority's Map(): a node scores the sum
// of `weights[i]` over the `pairs[i]` ((key << 32) | value, sorted) that its
// labels carry. Valid while the PriorityState it came from lives.
struct DomainWeights {
  std::span<const uint64_t> pairs;
  std::span<const int64_t> weights;
};

// InterPodAffinityPriority's reduce of one raw score, given the smallest and
// largest raw scores of the scored nodes (upstream starts both at 0): float64
// min-max scaling onto 0..10, truncated as Go's int() truncates.
inline int64_t MinMaxScore(int64_t raw, int64_t min_raw, int64_t max_raw) {
  const int64_t diff = max_raw - min_raw;
  if (diff <= 0) return 0;
  return static_cast<int64_t>(static_cast<double>(kMaxPriority) *
                              (static_cast<double>(raw - min_raw) / static_cast<double>(diff)));
}

class Priority {
 public:
  virtual ~Priority() = default;

  // Per-pod metadata, computed once per cycle, before the scheduler knows
  // which nodes are feasible.
  virtual std::unique_ptr<PriorityState> Prepare(const PodToSchedule& pod,
                                                 const ClusterState& cluster) const {
    (void)pod;
    (void)cluster;
    return nullptr;
  }

  // Map: the raw score of one node.
  virtual int64_t Map(const PodToSchedule& pod, const PriorityState* state,
                      const ClusterState& cluster, NodeId node) const = 0;

  // Reduce: normalises `scores` (parallel to `nodes`) in place. Default: none.
  virtual void Reduce(const PodToSchedule& pod, const PriorityState* state,
                      const ClusterState& cluster, std::span<const NodeId> nodes,
                      std::span<int64_t> scores) const {
    (void)pod;
    (void)state;
    (void)cluster;
    (void)nodes;
    (void)scores;
  }

  // True when Map()'s value for a node depends only on the pod and that
  // node's NodeInfo (so it can be reused while the node is unchanged).
  virtual bool NodeLocalMap() const { return true; }

  // The shape of Reduce(); must be kOther unless Reduce() is exactly that
  // shape for every input.
  virtual ReduceShape Shape() const { return ReduceShape::kIdentity; }

  // Set when, for the pod `state` was prepared for, every feasible node gets
  // this same reduced score (e.g. no existing pod has anything for
  // InterPodAffinityPriority to count).
  virtual std::optional<int64_t> UniformScore(const PriorityState* state) const {
    (void)state;
    return std::nullopt;
  }

  // For ReduceShape::kDomainMinMax: the domains and weights Map() sums.
  virtual DomainWeights Domains(const PriorityState* state) const {
    (void)state;
    return {};
  }
};

// Upstream's NormalizeReduce(maxPriority, reverse): scale so the largest raw
// score becomes kMaxPriority; with `reverse`, flip to kMaxPriority - score.
void NormalizeReduce(std::span<int64_t> scores, bool reverse);

// One score of NormalizeReduce, given the largest raw score of the list
// (upstream starts that maximum at 0, so it is never negative).
inline int64_t NormalizedScore(int64_t raw, int64_t max_raw, bool reverse) {
  if (max_raw <= 0) return reverse ? kMaxPriority : raw;
  // Integer division truncates toward zero, exactly as Go's int division.
  const int64_t v = kMaxPriority * raw / max_raw;
  return reverse ? kMaxPriority - v : v;
}

}  // namespace ksched
