#include "algorithm/score_index.h"

#include <algorithm>

#include "priorities/selector_spreading.h"

namespace ksched {
namespace {

int64_t MaxOf(const std::map<int64_t, uint32_t>& counts) {
  // Upstream's reduces start their maximum at 0.
  return counts.empty() ? 0 : std::max<int64_t>(0, counts.rbegin()->first);
}

void Decrement(std::map<int64_t, uint32_t>* counts, int64_t v) {
  auto it = counts->find(v);
  if (--it->second == 0) counts->erase(it);
}

}  // namespace

bool ScoreIndex::Supports(const std::vector<Term>& terms) {
  int spreads = 0;
  for (const Term& t : terms) {
    if (t.shape == ReduceShape::kOther) return false;
    if (t.shape == ReduceShape::kZoneSpread) ++spreads;
  }
  return spreads <= 1;
}

void ScoreIndex::Reset(std::vector<Term> terms, const ClusterState& cluster) {
  cluster_ = &cluster;
  terms_ = std::move(terms);
  normalized_.clear();
  spread_ = -1;
  for (size_t k = 0; k < terms_.size(); ++k) {
    if (terms_[k].shape == ReduceShape::kNormalize ||
        terms_[k].shape == ReduceShape::kNormalizeReverse) {
      normalized_.push_back(k);
    } else if (terms_[k].shape == ReduceShape::kZoneSpread) {
      spread_ = static_cast<int>(k);
    }
  }
  const size_t n = cluster.num_nodes();
  member_.assign(n, 0);
  base_.assign(n, 0);
  inserted_.assign(normalized_.size() + (spread_ >= 0 ? 1 : 0), std::vector<int64_t>(n, 0));
  num_feasible_ = 0;
  raw_counts_.assign(normalized_.size(), {});
  snapshot_max_.assign(normalized_.size(), 0);
  spread_counts_.clear();
  zone_sum_.assign(cluster.num_zones() + 1, 0);
  zone_nodes_.assign(cluster.num_zones() + 1, 0);
  groups_.clear();
}

int64_t ScoreIndex::Base(NodeId n) const {
  int64_t sum = 0;
  size_t norm = 0;
  for (const Term& t : terms_) {
    int64_t raw = (*t.raw)[n];
    switch (t.shape) {
      case ReduceShape::kIdentity:
        sum += t.weight * raw;
        break;
      case ReduceShape::kNormalize:
      case ReduceShape::kNormalizeReverse:
        sum += t.weight * NormalizedScore(raw, snapshot_max_[norm++],
                                          t.shape == ReduceShape::kNormalizeReverse);
        break;
      case ReduceShape::kZoneSpread:  // per group, see Best()
      case ReduceShape::kOther:       // excluded by Supports()
        break;
    }
  }
  return sum;
}

ScoreIndex::GroupKey ScoreIndex::KeyOf(NodeId n) const {
  if (spread_ < 0) return {0, 0};
  return {cluster_->zone_index(n), inserted_.back()[n]};
}

void ScoreIndex::Insert(NodeId n) {
  for (size_t j = 0; j < normalized_.size(); ++j) {
    int64_t v = (*terms_[normalized_[j]].raw)[n];
    inserted_[j][n] = v;
    ++raw_counts_[j][v];
  }
  if (spread_ >= 0) {
    int64_t c = (*terms_[spread_].raw)[n];
    inserted_.back()[n] = c;
    ++spread_counts_[c];
    uint32_t z = cluster_->zone_index(n);
    zone_sum_[z] += c;
    ++zone_nodes_[z];
  }
  base_[n] = Base(n);
  groups_[KeyOf(n)].insert(Entry{base_[n], cluster_->name_rank()[n], n});
  member_[n] = 1;
  ++num_feasible_;
}

void ScoreIndex::Remove(NodeId n) {
  auto g = groups_.find(KeyOf(n));
  g->second.erase(Entry{base_[n], cluster_->name_rank()[n], n});
  if (g->second.empty()) groups_.erase(g);
  for (size_t j = 0; j < normalized_.size(); ++j) Decrement(&raw_counts_[j], inserted_[j][n]);
  if (spread_ >= 0) {
    int64_t c = inserted_.back()[n];
    Decrement(&spread_counts_, c);
    uint32_t z = cluster_->zone_index(n);
    zone_sum_[z] -= c;
    --zone_nodes_[z];
  }
  member_[n] = 0;
  --num_feasible_;
}

void ScoreIndex::Update(NodeId n, bool fits) {
  if (member_[n]) Remove(n);
  if (fits) Insert(n);
}

void ScoreIndex::Rebuild() {
  groups_.clear();
  for (NodeId n = 0; n < member_.size(); ++n) {
    if (!member_[n]) continue;
    base_[n] = Base(n);
    groups_[KeyOf(n)].insert(Entry{base_[n], cluster_->name_rank()[n], n});
  }
}

NodeId ScoreIndex::Best() {
  if (num_feasible_ < 2) return kNoNode;
  bool moved = false;
  for (size_t j = 0; j < normalized_.size(); ++j) {
    int64_t m = MaxOf(raw_counts_[j]);
    if (m != snapshot_max_[j]) {
      snapshot_max_[j] = m;
      moved = true;
    }
  }
  if (moved) Rebuild();

  spreading::SpreadTotals totals;
  int64_t spread_weight = 0;
  if (spread_ >= 0) {
    spread_weight = terms_[spread_].weight;
    totals.max_by_node = MaxOf(spread_counts_);
    for (size_t z = 1; z < zone_nodes_.size(); ++z) {
      if (zone_nodes_[z] == 0) continue;
      totals.have_zones = true;
      totals.max_by_zone = std::max(totals.max_by_zone, zone_sum_[z]);
    }
  }
  const Entry* best = nullptr;
  int64_t best_total = 0;
  for (const auto& [key, entries] : groups_) {
    const Entry& e = *entries.begin();
    int64_t total = e.base;
    if (spread_ >= 0) {
      const auto& [zone, count] = key;
      total += spread_weight * spreading::SpreadScore(totals, count, zone != 0, zone_sum_[zone]);
    }
    if (best == nullptr || total > best_total || (total == best_total && e.rank < best->rank)) {
      best = &e;
      best_total = total;
    }
  }
  return best->node;
}

}  // namespace ksched
