// The scoring interface: one Priority per upstream priority name.
//
// Upstream v1.15 scores in map/reduce form: a map function gives each
// feasible node a raw score, then a reduce function normalises the whole list
// (most to 0..10). Score() receives the feasible nodes in filter order and
// writes one score per node; Prepare() is upstream's priority metadata.
#pragma once

#include <cstdint>
#include <memory>
#include <span>

#include "cache/cluster_state.h"
#include "predicates/predicate.h"

namespace ksched {

inline constexpr int64_t kMaxPriority = 10;

class PriorityState {
 public:
  virtual ~PriorityState() = default;
};

class Priority {
 public:
  virtual ~Priority() = default;

  // Per-pod metadata, computed once per cycle. `nodes` are the feasible
  // nodes (upstream's priorities only ever see those).
  virtual std::unique_ptr<PriorityState> Prepare(const PodToSchedule& pod,
                                                 const ClusterState& cluster,
                                                 std::span<const NodeId> nodes) const {
    (void)pod;
    (void)cluster;
    (void)nodes;
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
};

// Upstream's NormalizeReduce(maxPriority, reverse): scale so the largest raw
// score becomes kMaxPriority; with `reverse`, flip to kMaxPriority - score.
void NormalizeReduce(std::span<int64_t> scores, bool reverse);

}  // namespace ksched
