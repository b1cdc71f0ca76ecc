#include "framework/plugins/podtopologyspread/kept_counts.h"

#include <algorithm>

namespace ksched::framework::plugins::podtopologyspread {

KeptCountsKey KeptCountsKey::Of(const Pod& pod, bool filtering) {
  KeptCountsKey key;
  key.ns = pod.meta.ns;
  key.filtering = filtering;
  const auto& own = pod.spec.topology_spread_constraints;
  key.constraints = own;
  bool label_keys = false;
  for (const TopologySpreadConstraint& c : own)
    label_keys = label_keys || !c.match_label_keys.empty();
  // The defaults select the pod's siblings (Services, controller);
  // matchLabelKeys read the pod's own labels.
  if (own.empty() || label_keys) key.labels = pod.meta.labels;
  if (own.empty()) key.owners = pod.meta.owner_references;
  key.node_selector = pod.spec.node_selector;
  const auto& affinity = pod.spec.affinity;
  if (affinity && affinity->node_affinity)
    key.required_node_affinity = affinity->node_affinity->required;
  key.tolerations = pod.spec.tolerations;
  return key;
}

namespace {

// matchNodeInclusionPolicies for one constraint.
bool Includes(const Constraint& c, const Pod& pod, const RequiredNodeAffinity& affinity,
              const Node& node, bool comparison_operators) {
  if (c.honor_node_affinity && !affinity.Match(node)) return false;
  if (c.honor_node_taints &&
      HasUntoleratedDoNotScheduleTaint(node, pod.spec.tolerations, comparison_operators))
    return false;
  return true;
}

}  // namespace

KeptCounts::KeptCounts(const ClusterState& cluster, const Pod& pod,
                       std::shared_ptr<const Constraints> cons,
                       std::vector<std::shared_ptr<const TopologyDomains>> domains,
                       const Features& features, bool filtering, bool require_all)
    : cons_(std::move(cons)),
      domains_(std::move(domains)),
      ns_(pod.meta.ns),
      filtering_(filtering) {
  const size_t n = cluster.num_nodes(), m = cons_->items.size(), num_keys = cons_->keys.size();
  const RequiredNodeAffinity affinity(pod);
  const bool nip = features.node_inclusion_policy;
  node_counts_.assign(m, std::vector<int64_t>(n, 0));
  match_memo_.assign(m, std::vector<int8_t>(cluster.num_label_sets(), -1));
  if (filtering_) {
    effective_.assign(n * num_keys, -1);
  } else {
    adds_.assign(m, std::vector<uint8_t>(n, 0));
  }
  for (NodeId x = 0; x < n; ++x) {
    const NodeInfo& info = cluster.node_info(x);
    const Node& node = *info.node;
    bool all_keys = true;
    for (const auto& d : domains_) all_keys = all_keys && d->has_label[x] != 0;
    // The node-level rules of PreFilter (filtering.cc) and PreScore
    // (scoring.cc).
    const bool node_ok =
        (nip || affinity.Match(node)) && (all_keys || (!filtering_ && !require_all));
    if (node_ok) {
      for (size_t i = 0; i < m; ++i) {
        const Constraint& c = cons_->items[i];
        if (nip && !Includes(c, pod, affinity, node, features.taint_comparison_operators)) continue;
        if (filtering_) {
          // A later constraint on the same key takes the node's pair.
          effective_[x * num_keys + c.key_slot] = static_cast<int16_t>(i);
        } else if (!c.is_hostname) {
          adds_[i][x] = 1;
        }
      }
    }
    for (PodId id : info.pods) {
      const PodInfo& p = cluster.pod(id);
      if (p.terminating) continue;
      for (size_t i = 0; i < m; ++i)
        if (Matches(i, p)) ++node_counts_[i][x];
    }
  }
  if (filtering_) {
    key_counts_.resize(num_keys);
    present_.resize(num_keys);
    for (size_t k = 0; k < num_keys; ++k) {
      key_counts_[k].assign(domains_[k]->num_domains(), 0);
      present_[k].assign(domains_[k]->num_domains(), 0);
    }
    for (NodeId x = 0; x < n; ++x) {
      for (size_t k = 0; k < num_keys; ++k) {
        const int16_t i = effective_[x * num_keys + k];
        if (i < 0) continue;
        const uint32_t d = domains_[k]->node_domain[x];
        key_counts_[k][d] += node_counts_[i][x];
        present_[k][d] = 1;
      }
    }
  } else {
    constraint_counts_.resize(m);
    for (size_t i = 0; i < m; ++i) {
      const Constraint& c = cons_->items[i];
      if (c.is_hostname) continue;
      const TopologyDomains& d = *domains_[c.key_slot];
      constraint_counts_[i].assign(d.num_domains(), 0);
      for (NodeId x = 0; x < n; ++x)
        if (adds_[i][x]) constraint_counts_[i][d.node_domain[x]] += node_counts_[i][x];
    }
  }
  synced_ = cluster.generation();
}

bool KeptCounts::Matches(size_t i, const PodInfo& p) {
  std::vector<int8_t>& memo = match_memo_[i];
  if (p.label_set >= memo.size()) memo.resize(p.label_set + 1, -1);
  int8_t& m = memo[p.label_set];
  if (m < 0) m = p.pod.meta.ns == ns_ && cons_->items[i].Counts(p.pod.meta.labels);
  return m != 0;
}

void KeptCounts::Apply(const ClusterState& cluster, NodeId x, const PodInfo& p, int64_t delta) {
  (void)cluster;
  if (p.terminating) return;  // countPodsMatchSelector skips them
  const size_t num_keys = cons_->keys.size();
  for (size_t i = 0; i < cons_->items.size(); ++i) {
    if (!Matches(i, p)) continue;
    node_counts_[i][x] += delta;
    const Constraint& c = cons_->items[i];
    if (filtering_) {
      if (effective_[x * num_keys + c.key_slot] == static_cast<int16_t>(i))
        key_counts_[c.key_slot][domains_[c.key_slot]->node_domain[x]] += delta;
    } else if (adds_[i][x]) {
      constraint_counts_[i][domains_[c.key_slot]->node_domain[x]] += delta;
    }
  }
}

void KeptCounts::Sync(const ClusterState& cluster) {
  const uint64_t now = cluster.generation();
  const auto& nodes = cluster.change_log();
  const auto& pods = cluster.pod_log();
  for (uint64_t g = synced_; g < now; ++g)
    Apply(cluster, nodes[g], cluster.pod(pods[g].pod), pods[g].added ? 1 : -1);
  synced_ = now;
}

std::shared_ptr<const KeptCounts> KeptCountsCache::Get(
    const ClusterState& cluster, const Pod& pod, KeptCountsKey key,
    std::shared_ptr<const Constraints> cons,
    std::vector<std::shared_ptr<const TopologyDomains>> domains, const Features& features,
    bool require_all) {
  std::lock_guard<std::mutex> lock(mu_);
  if (cluster.id() != cluster_id_ || cluster.num_nodes() != num_nodes_) {
    entries_.clear();
    cluster_id_ = cluster.id();
    num_nodes_ = cluster.num_nodes();
  }
  for (Entry& e : entries_) {
    if (e.key == key) {
      e.last_used = ++tick_;
      e.counts->Sync(cluster);
      return e.counts;
    }
  }
  Entry e;
  e.counts = std::make_shared<KeptCounts>(cluster, pod, std::move(cons), std::move(domains),
                                          features, key.filtering, require_all);
  e.key = std::move(key);
  e.last_used = ++tick_;
  if (entries_.size() < kMaxEntries) {
    entries_.push_back(std::move(e));
    return entries_.back().counts;
  }
  auto lru = std::min_element(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) {
    return a.last_used < b.last_used;
  });
  *lru = std::move(e);
  return lru->counts;
}

}  // namespace ksched::framework::plugins::podtopologyspread
