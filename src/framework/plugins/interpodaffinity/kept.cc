// InterPodAffinity's sums over the placed pods, kept between cycles (see
// plugin.h): per TermCache group of the placed pods with terms, and per kind
// of incoming pod with terms, brought up to date from ClusterState::pod_log.
#include <algorithm>

#include "framework/plugins/interpodaffinity/plugin.h"

namespace ksched::framework::interpodaffinity {
namespace {

constexpr size_t kMaxOwnSums = 16;

const Labels& NoLabels() {
  static const Labels kNone;
  return kNone;
}

}  // namespace

void InterPodAffinity::TermSums::Init(InterPodAffinity* self, const ClusterState& cluster,
                                      const std::vector<AffinityTerm>& terms) {
  index.clear();
  counts.clear();
  for (const AffinityTerm& t : terms) {
    index.push_back(self->indexes_.Get(cluster, t.topology_key));
    counts.push_back(std::make_shared<DomainCounts>(index.back()->num_domains()));
  }
}

void InterPodAffinity::SyncGroups(const ClusterState& cluster) {
  auto add = [&](PodId id, NodeId node, int64_t delta) {
    const uint32_t g = cache_.Group(cluster, id);
    if (group_sums_.size() <= g) group_sums_.resize(g + 1);
    GroupSums& gs = group_sums_[g];
    if (!gs.ready) {
      const PodTerms& terms = cache_.terms(g);
      gs.required_affinity.Init(this, cluster, terms.required_affinity);
      gs.required_anti_affinity.Init(this, cluster, terms.required_anti_affinity);
      gs.preferred_affinity.Init(this, cluster, terms.preferred_affinity);
      gs.preferred_anti_affinity.Init(this, cluster, terms.preferred_anti_affinity);
      gs.ready = true;
      placed_groups_.push_back(g);
    }
    gs.pods += delta;
    for (TermSums* sums : {&gs.required_affinity, &gs.required_anti_affinity,
                           &gs.preferred_affinity, &gs.preferred_anti_affinity})
      for (size_t j = 0; j < sums->counts.size(); ++j) sums->Add(j, node, delta);
  };
  if (cluster.id() != kept_cluster_id_ || cluster.num_nodes() != kept_num_nodes_) {
    kept_cluster_id_ = cluster.id();
    kept_num_nodes_ = cluster.num_nodes();
    group_sums_.clear();
    placed_groups_.clear();
    own_sums_.clear();
    for (PodId id : cluster.pods_with_affinity()) {
      const PodInfo& info = cluster.pod(id);
      if (!info.live || info.node == kNoNode) continue;
      add(id, info.node, 1);
    }
    groups_synced_ = cluster.generation();
    return;
  }
  const auto& nodes = cluster.change_log();
  const auto& pods = cluster.pod_log();
  for (uint64_t g = groups_synced_; g < cluster.generation(); ++g) {
    const PodInfo& info = cluster.pod(pods[g].pod);
    if (info.has_affinity) add(pods[g].pod, nodes[g], pods[g].added ? 1 : -1);
  }
  groups_synced_ = cluster.generation();
}

void InterPodAffinity::ApplyToOwn(OwnSums* own, const PodInfo& info, NodeId node, int64_t delta) {
  const PodTerms& t = own->terms;
  const size_t n_anti = t.required_anti_affinity.size();
  const size_t n_pref = t.preferred_affinity.size();
  const size_t n = 1 + n_anti + n_pref + t.preferred_anti_affinity.size();
  if (own->memo.size() <= info.label_set) own->memo.resize(info.label_set + 1);
  std::vector<uint8_t>& m = own->memo[info.label_set];
  if (m.empty()) {
    // As PreFilter and PreScore match the placed pods against the
    // incoming pod's terms.
    m.resize(n);
    m[0] = PodMatchesAllTerms(t.required_affinity, info.pod);
    for (size_t i = 0; i < n_anti; ++i)
      m[1 + i] = t.required_anti_affinity[i].Matches(info.pod, NoLabels());
    for (size_t i = 0; i < n_pref; ++i)
      m[1 + n_anti + i] = t.preferred_affinity[i].Matches(info.pod, NoLabels());
    for (size_t i = 0; i < t.preferred_anti_affinity.size(); ++i)
      m[1 + n_anti + n_pref + i] = t.preferred_anti_affinity[i].Matches(info.pod, NoLabels());
  }
  if (m[0])
    for (size_t j = 0; j < t.required_affinity.size(); ++j) own->all_affinity.Add(j, node, delta);
  for (size_t i = 0; i < n_anti; ++i)
    if (m[1 + i]) own->anti_affinity.Add(i, node, delta);
  for (size_t i = 0; i < n_pref; ++i)
    if (m[1 + n_anti + i]) own->preferred_affinity.Add(i, node, delta);
  for (size_t i = 0; i < t.preferred_anti_affinity.size(); ++i)
    if (m[1 + n_anti + n_pref + i]) own->preferred_anti_affinity.Add(i, node, delta);
}

InterPodAffinity::OwnSums& InterPodAffinity::OwnSumsFor(const ClusterState& cluster,
                                                        const Pod& pod) {
  const uint32_t group = cache_.GroupOfPod(pod);
  const uint64_t now = cluster.generation();
  for (auto& own : own_sums_) {
    if (own->group != group) continue;
    const auto& nodes = cluster.change_log();
    const auto& pods = cluster.pod_log();
    for (uint64_t g = own->synced; g < now; ++g)
      ApplyToOwn(own.get(), cluster.pod(pods[g].pod), nodes[g], pods[g].added ? 1 : -1);
    own->synced = now;
    own->last_used = ++own_tick_;
    return *own;
  }
  auto own = std::make_unique<OwnSums>();
  own->group = group;
  own->terms = cache_.terms(group);
  MergeAll(cluster, &own->terms);
  own->all_affinity.Init(this, cluster, own->terms.required_affinity);
  own->anti_affinity.Init(this, cluster, own->terms.required_anti_affinity);
  own->preferred_affinity.Init(this, cluster, own->terms.preferred_affinity);
  own->preferred_anti_affinity.Init(this, cluster, own->terms.preferred_anti_affinity);
  for (const NodeInfo& node : cluster.node_infos())
    for (PodId id : node.pods) ApplyToOwn(own.get(), cluster.pod(id), node.id, 1);
  own->synced = now;
  own->last_used = ++own_tick_;
  if (own_sums_.size() >= kMaxOwnSums) {
    auto lru =
        std::min_element(own_sums_.begin(), own_sums_.end(),
                         [](const auto& a, const auto& b) { return a->last_used < b->last_used; });
    *lru = std::move(own);
    return **lru;
  }
  own_sums_.push_back(std::move(own));
  return *own_sums_.back();
}

}  // namespace ksched::framework::interpodaffinity
