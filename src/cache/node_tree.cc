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
  for (size_t i = 0; i < count; ++i) Next();
}

}  // namespace ksched
