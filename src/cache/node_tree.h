// Upstream's NodeTree: the order in which the filter visits nodes.
//
// Nodes are grouped by zone key; zones are kept in the order their first node
// appeared and nodes within a zone in input order. Next() takes one node from
// each zone in turn, skipping exhausted zones, and starts over when all are
// exhausted. The position persists between scheduling cycles, which is why
// upstream's choices with percentageOfNodesToScore < 100 depend on history.
#pragma once

#include <vector>

#include "cache/cluster_state.h"

namespace ksched {

class NodeTree {
 public:
  explicit NodeTree(const ClusterState& state);

  size_t num_nodes() const { return num_nodes_; }
  NodeId Next();
  // The next `count` nodes of the walk, without moving the position.
  void Peek(size_t count, std::vector<NodeId>* out) const;
  // Moves the position forward by `count` nodes.
  void Advance(size_t count);

  // True when the next Next() starts a fresh round: every zone at its first
  // node, or every zone exhausted (the walk then resets). A walk of exactly
  // num_nodes() nodes from such a state visits CycleOrder() and ends in such
  // a state again, which lets the scheduler skip the walk entirely.
  bool AtCycleStart() const;
  const std::vector<NodeId>& CycleOrder() const { return cycle_order_; }

 private:
  struct Zone {
    std::vector<NodeId> nodes;
    size_t last_index = 0;
  };
  std::vector<Zone> zones_;
  size_t zone_index_ = 0;
  size_t num_nodes_ = 0;
  std::vector<NodeId> cycle_order_;
};

}  // namespace ksched
