#include "cache/node_tree.h"

#include <unordered_map>

namespace ksched {

NodeTree::NodeTree(const ClusterState& state) {
  std::unordered_map<StrId, size_t> zone_index;
  for (NodeId id = 0; id < state.num_nodes(); ++id) {
    auto [it, inserted] = zone_index.emplace(state.zone_key(id), zones_.size());
    if (inserted) zones_.emplace_back();
    zones_[it->second].nodes.push_back(id);
  }
  num_nodes_ = state.num_nodes();
  NodeTree fresh = *this;
  for (size_t i = 0; i < num_nodes_; ++i) cycle_order_.push_back(fresh.Next());
}

bool NodeTree::AtCycleStart() const {
  bool all_fresh = zone_index_ == 0;
  bool all_done = true;
  for (const Zone& z : zones_) {
    if (z.last_index != 0) all_fresh = false;
    if (z.last_index < z.nodes.size()) all_done = false;
  }
  return all_fresh || all_done;
}

NodeId NodeTree::Next() {
  if (zones_.empty()) return kNoNode;
  size_t exhausted = 0;
  for (;;) {
    if (zone_index_ >= zones_.size()) zone_index_ = 0;
    Zone& zone = zones_[zone_index_++];
    if (zone.last_index < zone.nodes.size()) return zone.nodes[zone.last_index++];
    if (++exhausted >= zones_.size()) {
      for (Zone& z : zones_) z.last_index = 0;
      zone_index_ = 0;
    }
  }
}

void NodeTree::Peek(size_t count, std::vector<NodeId>* out) const {
  NodeTree copy = *this;
  out->clear();
  out->reserve(count);
  for (size_t i = 0; i < count; ++i) out->push_back(copy.Next());
}

void NodeTree::Advance(size_t count) {
  if (count == num_nodes_ && AtCycleStart()) return;  // a full round changes nothing
  for (size_t i = 0; i < count; ++i) Next();
}

}  // namespace ksched
