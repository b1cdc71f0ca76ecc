#include "algorithm/score_index.h"

#include <algorithm>
#include <array>
#include <iterator>

#include "priorities/selector_spreading.h"
#include "util/go_arith.h"

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
  size_t spreads = 0, domains = 0, normalized = 0;
  for (const Term& t : terms) {
    if (t.shape == ReduceShape::kOther) return false;
    if (t.shape == ReduceShape::kZoneSpread) ++spreads;
    if (t.shape == ReduceShape::kDomainMinMax) ++domains;
    if (t.shape == ReduceShape::kNormalize || t.shape == ReduceShape::kNormalizeReverse)
      ++normalized;
  }
  return spreads <= 1 && domains <= 1 && normalized <= kMaxNormalized;
}

void ScoreIndex::Reset(std::vector<Term> terms, const ClusterState& cluster) {
  cluster_ = &cluster;
  terms_ = std::move(terms);
  normalized_.clear();
  spread_ = -1;
  domain_ = -1;
  for (size_t k = 0; k < terms_.size(); ++k) {
    if (terms_[k].shape == ReduceShape::kNormalize ||
        terms_[k].shape == ReduceShape::kNormalizeReverse) {
      normalized_.push_back(k);
    } else if (terms_[k].shape == ReduceShape::kZoneSpread) {
      spread_ = static_cast<int>(k);
    } else if (terms_[k].shape == ReduceShape::kDomainMinMax) {
      domain_ = static_cast<int>(k);
    }
  }
  const size_t n = cluster.num_nodes();
  member_.assign(n, 0);
  base_.assign(n, 0);
  out_of_range_.assign(n, 0);
  num_out_of_range_ = 0;
  inserted_.assign(normalized_.size() + (spread_ >= 0 ? 1 : 0), std::vector<int64_t>(n, 0));
  num_feasible_ = 0;
  raw_counts_.assign(normalized_.size(), {});
  spread_counts_.clear();
  zone_sum_.assign(cluster.num_zones() + 1, 0);
  zone_nodes_.assign(cluster.num_zones() + 1, 0);
  groups_.clear();
  domain_pairs_.clear();
  domain_weights_.clear();
  domain_keys_.clear();
  domain_of_.assign(n, 0);
  domain_set_ids_.clear();
  domain_sets_.assign(1, {});  // id 0: in no weighted domain
  domain_set_ids_.emplace(std::vector<uint64_t>{}, 0);
}

uint32_t ScoreIndex::DomainOf(NodeId n) {
  if (domain_ < 0 || domain_pairs_.empty()) return 0;
  // Reused between calls: this runs for every node an index is built over.
  static thread_local std::vector<uint64_t> in;
  in.clear();
  const Labels& labels = cluster_->node(n).meta.labels;
  for (uint32_t key : domain_keys_) {
    std::optional<StrId> v = labels.Get(key);
    if (!v) continue;
    uint64_t pair = (uint64_t{key} << 32) | *v;
    if (std::binary_search(domain_pairs_.begin(), domain_pairs_.end(), pair)) in.push_back(pair);
  }
  if (in.empty()) return 0;
  auto it = domain_set_ids_.find(in);
  if (it == domain_set_ids_.end()) {
    it = domain_set_ids_.emplace(in, static_cast<uint32_t>(domain_sets_.size())).first;
    domain_sets_.push_back(in);
  }
  return it->second;
}

int64_t ScoreIndex::DomainRaw(uint32_t id) const {
  int64_t sum = 0;
  for (uint64_t pair : domain_sets_[id]) {
    auto it = std::lower_bound(domain_pairs_.begin(), domain_pairs_.end(), pair);
    if (it != domain_pairs_.end() && *it == pair)
      sum += domain_weights_[it - domain_pairs_.begin()];
  }
  return sum;
}

void ScoreIndex::SetDomains(DomainWeights weights) {
  if (domain_ < 0) return;
  std::vector<uint64_t> pairs(weights.pairs.begin(), weights.pairs.end());
  // Domains that appeared or disappeared: their nodes change domain set.
  std::vector<uint64_t> moved;
  std::set_symmetric_difference(pairs.begin(), pairs.end(), domain_pairs_.begin(),
                                domain_pairs_.end(), std::back_inserter(moved));
  domain_pairs_ = std::move(pairs);
  domain_weights_.assign(weights.weights.begin(), weights.weights.end());
  domain_keys_.clear();
  for (uint64_t p : domain_pairs_) {
    uint32_t key = static_cast<uint32_t>(p >> 32);
    if (domain_keys_.empty() || domain_keys_.back() != key) domain_keys_.push_back(key);
  }
  for (uint64_t p : moved) {
    for (NodeId n : cluster_->NodesWithLabel(static_cast<StrId>(p >> 32), static_cast<StrId>(p))) {
      if (!member_[n]) continue;
      auto g = groups_.find(KeyOf(n));
      g->second.erase(Entry{base_[n], cluster_->name_rank()[n], n});
      if (g->second.empty()) groups_.erase(g);
      domain_of_[n] = DomainOf(n);
      groups_[KeyOf(n)].insert(Entry{base_[n], cluster_->name_rank()[n], n});
    }
  }
}

int64_t ScoreIndex::Base(NodeId n, bool* in_range) const {
  // Only identity terms: every other shape depends on totals over all
  // feasible nodes and is applied per group in Best().
  int64_t sum = 0;
  *in_range = true;
  for (const Term& t : terms_) {
    if (t.shape != ReduceShape::kIdentity) continue;
    const int64_t raw = (*t.raw)[n];
    if (raw < 0 || raw > kMaxPriority) *in_range = false;
    sum = goarith::Add(sum, goarith::Mul(t.weight, raw));
  }
  return sum;
}

ScoreIndex::GroupKey ScoreIndex::KeyOf(NodeId n) const {
  GroupKey key;
  if (spread_ >= 0) {
    key.zone = cluster_->zone_index(n);
    key.count = inserted_.back()[n];
  }
  for (size_t j = 0; j < normalized_.size(); ++j) key.normalized[j] = inserted_[j][n];
  key.domain = domain_of_[n];
  return key;
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
  bool in_range = true;
  base_[n] = Base(n, &in_range);
  out_of_range_[n] = in_range ? 0 : 1;
  num_out_of_range_ += in_range ? 0 : 1;
  domain_of_[n] = DomainOf(n);
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
  num_out_of_range_ -= out_of_range_[n];
  out_of_range_[n] = 0;
  member_[n] = 0;
  --num_feasible_;
}

void ScoreIndex::Update(NodeId n, bool fits) {
  if (member_[n]) Remove(n);
  if (fits) Insert(n);
}

NodeId ScoreIndex::Best() {
  if (num_feasible_ < 2 || num_out_of_range_ > 0) return kNoNode;
  std::array<int64_t, kMaxNormalized> max_raw{};
  for (size_t j = 0; j < normalized_.size(); ++j) max_raw[j] = MaxOf(raw_counts_[j]);

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
  // The domain term's bounds over the feasible nodes (upstream starts both
  // at 0); every feasible node is in some group.
  int64_t domain_min = 0, domain_max = 0;
  if (domain_ >= 0) {
    for (const auto& [key, entries] : groups_) {
      int64_t raw = DomainRaw(key.domain);
      domain_min = std::min(domain_min, raw);
      domain_max = std::max(domain_max, raw);
    }
  }
  const Entry* best = nullptr;
  int64_t best_total = 0;
  for (const auto& [key, entries] : groups_) {
    const Entry& e = *entries.begin();
    int64_t total = e.base;
    bool in_range = true;
    auto add = [&](int64_t weight, int64_t score) {
      if (score < 0 || score > kMaxPriority) in_range = false;
      total = goarith::Add(total, goarith::Mul(weight, score));
    };
    if (spread_ >= 0) {
      add(spread_weight,
          spreading::SpreadScore(totals, key.count, key.zone != 0, zone_sum_[key.zone]));
    }
    for (size_t j = 0; j < normalized_.size(); ++j) {
      const Term& t = terms_[normalized_[j]];
      add(t.weight, NormalizedScore(key.normalized[j], max_raw[j],
                                    t.shape == ReduceShape::kNormalizeReverse));
    }
    if (domain_ >= 0) {
      add(terms_[domain_].weight, MinMaxScore(DomainRaw(key.domain), domain_min, domain_max));
    }
    if (!in_range) return kNoNode;  // see Best()'s comment: the full computation decides
    if (best == nullptr || total > best_total || (total == best_total && e.rank < best->rank)) {
      best = &e;
      best_total = total;
    }
  }
  return best->node;
}

}  // namespace ksched
