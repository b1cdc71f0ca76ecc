#include "framework/plugins/interpodaffinity/topology.h"

namespace ksched::framework::interpodaffinity {

TopologyIndex::TopologyIndex(const ClusterState& cluster, StrId key)
    : key_(key), nodes_base_(cluster.num_nodes() ? &cluster.node(0) : nullptr) {
  domain_of_node_.assign(cluster.num_nodes(), kNoDomain);
  for (NodeId n = 0; n < cluster.num_nodes(); ++n) {
    std::optional<StrId> v = cluster.node(n).meta.labels.Get(key);
    if (v) domain_of_node_[n] = domain_of_value_.Number(*v);
  }
  const size_t num_domains = domain_of_value_.values().size();
  // Counting sort of the nodes by domain.
  domain_start_.assign(num_domains + 1, 0);
  for (uint32_t d : domain_of_node_)
    if (d != kNoDomain) ++domain_start_[d + 1];
  for (size_t d = 0; d < num_domains; ++d) domain_start_[d + 1] += domain_start_[d];
  domain_nodes_.resize(domain_start_.back());
  std::vector<uint32_t> next(domain_start_.begin(), domain_start_.end() - 1);
  for (NodeId n = 0; n < cluster.num_nodes(); ++n)
    if (domain_of_node_[n] != kNoDomain) domain_nodes_[next[domain_of_node_[n]]++] = n;
}

uint32_t TopologyIndex::DomainOfLabels(const Labels& labels) const {
  std::optional<StrId> v = labels.Get(key_);
  if (!v) return kNoDomain;
  const uint32_t d = domain_of_value_.Find(*v);
  // A value no node of the cluster has: no count can be there, but the node
  // still has the key. Callers treat it as a domain of their own.
  return d == helper::ValueNumbering::kNone ? kUnknownDomain : d;
}

std::shared_ptr<const TopologyIndex> TopologyIndexes::Get(const ClusterState& cluster, StrId key) {
  std::lock_guard<std::mutex> lock(mu_);
  if (cluster_id_ != cluster.id()) {
    by_key_.clear();
    cluster_id_ = cluster.id();
  }
  std::shared_ptr<const TopologyIndex>& slot = by_key_[key];
  if (!slot) slot = std::make_shared<const TopologyIndex>(cluster, key);
  return slot;
}

uint32_t TopologyCounts::Slot(std::shared_ptr<const TopologyIndex> index) {
  uint32_t found = FindSlot(index->key());
  if (found != kNoDomain) return found;
  Entry e;
  e.index = std::move(index);
  slots_.push_back(std::move(e));
  return static_cast<uint32_t>(slots_.size() - 1);
}

uint32_t TopologyCounts::FindSlot(StrId key) const {
  for (uint32_t i = 0; i < slots_.size(); ++i) {
    if (slots_[i].index->key() == key) return i;
  }
  return kNoDomain;
}

}  // namespace ksched::framework::interpodaffinity
