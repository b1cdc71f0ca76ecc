// InterPodAffinityPriority: upstream's CalculateInterPodAffinityPriority.
//
// Every existing pod on every node of the cluster (not only the feasible
// ones) contributes weights to the topology domain of the node it runs on:
//   + the incoming pod's preferred affinity terms it matches,
//   - the incoming pod's preferred anti-affinity terms it matches,
//   + hardPodAffinityWeight for each of its own required affinity terms the
//     incoming pod matches (symmetry; 0 turns this off),
//   + / - its own preferred affinity / anti-affinity terms the incoming pod
//     matches.
// A feasible node receives the sum over the domains it belongs to. Instead of
// upstream's walk over all feasible nodes per matching term, Prepare() sums
// the weights per (topology key, value) pair once and Map() looks a node's
// domains up. Reduce() applies upstream's float64 min-max scaling.
#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "predicates/affinity_terms.h"
#include "priorities/factories.h"

namespace ksched {
namespace {

// Go's int32 multiplication wraps; so does this one.
int64_t TermWeight(int32_t weight, int32_t multiplier) {
  return static_cast<int32_t>(static_cast<uint32_t>(weight) * static_cast<uint32_t>(multiplier));
}

struct InterPodAffinityPriorityState;

// The counted form: upstream walks every existing pod for every pod it
// scores; between two cycles only the pods of ClusterState::pod_log() since
// the last one changed, so the weights per topology pair are kept and
// brought up to date pod by pod. Used when every term compiled and no pod is
// bound to a missing node; the walk decides otherwise. Two parts:

// A pair's summed weight and how many contributions make it up: a pair
// stays while any pod contributes to it, even when the weights cancel out,
// as it does in the walk's Contributions.
struct PairWeight {
  int64_t weight = 0;
  int64_t contributions = 0;
};
using PairWeights = std::map<uint64_t, PairWeight>;

// What existing pods contribute through the incoming pod's own preferred
// terms: depends only on those terms (one object per compiled group).
struct OwnTermWeights {
  uint64_t cluster_id = 0;
  uint64_t synced = 0;  // pod_log() entries before this one are counted
  uint32_t group = 0;
  // By PodInfo::label_set: bit 63 decided; bit i: own preferred term i
  // (affinity terms first, then anti-affinity) matches.
  std::vector<uint64_t> label_set_bits;
  PairWeights weights;
};

// What existing pods contribute through their own terms that the incoming
// pod matches: depends on the incoming pod only through which terms of each
// group it matches (one object per such set of matches).
struct ExistingTermWeights {
  uint64_t cluster_id = 0;
  uint64_t synced = 0;
  std::vector<uint64_t> group_bits;  // by group: 0 until counted; ExistingTermBits()
  PairWeights weights;
};

// Adds `weight` to (sign 1) or takes it from (sign -1) the pair of `term` on a
// node labelled `node_labels`, as Contributions::Add would add it.
void AddWeight(PairWeights* weights, const AffinityTerm& term, const Labels& node_labels,
               int64_t weight, int64_t sign) {
  if (term.topology_key == kEmptyStr) return;
  std::optional<StrId> v = node_labels.Get(term.topology_key);
  if (!v) return;
  auto [it, added] = weights->try_emplace(TopologyPair(term.topology_key, *v));
  (void)added;
  it->second.weight += weight * sign;
  it->second.contributions += sign;
  if (it->second.contributions == 0) weights->erase(it);
}

class InterPodAffinityPriority : public Priority {
 public:
  InterPodAffinityPriority(int hard_weight, bool keep_weights)
      : hard_weight_(hard_weight), keep_weights_(keep_weights) {}

  std::unique_ptr<PriorityState> Prepare(const PodToSchedule& pod,
                                         const ClusterState& cluster) const override;
  int64_t Map(const PodToSchedule& pod, const PriorityState* state, const ClusterState& cluster,
              NodeId node) const override;
  void Reduce(const PodToSchedule& pod, const PriorityState* state, const ClusterState& cluster,
              std::span<const NodeId> nodes, std::span<int64_t> scores) const override;
  bool NodeLocalMap() const override { return false; }
  ReduceShape Shape() const override { return ReduceShape::kDomainMinMax; }
  std::optional<int64_t> UniformScore(const PriorityState* state) const override;
  DomainWeights Domains(const PriorityState* state) const override;

 private:
  // The counted form of Prepare(); false when it does not apply. Called with
  // cache_ locked.
  bool PrepareCounted(const Pod& pod, const ClusterState& cluster,
                      InterPodAffinityPriorityState* s) const;
  std::shared_ptr<OwnTermWeights> OwnWeightsFor(uint32_t group, const ClusterState& cluster) const;
  // Null when a group has 63 or more terms to match.
  std::shared_ptr<ExistingTermWeights> ExistingWeightsFor(const Pod& pod,
                                                          const ClusterState& cluster) const;
  // Which of group `c`'s terms `pod` matches (bit 63 set): its required
  // affinity terms (when hard_weight_ counts them), preferred affinity and
  // preferred anti-affinity terms, in that order.
  uint64_t ExistingTermBits(const CompiledPodAffinity& c, const Pod& pod) const;

  int32_t hard_weight_;
  const bool keep_weights_;
  mutable PodAffinityCache cache_;
  static constexpr size_t kKept = 32;
  mutable KeptList<OwnTermWeights> own_weights_{kKept};
  mutable KeptList<ExistingTermWeights> existing_weights_{kKept};
};

// Collects (pair, weight) contributions; summed per pair at the end.
class Contributions {
 public:
  // `term` (declared by one pod) was matched by the other pod, which runs on
  // a node labelled `node_labels`.
  void Add(const AffinityTerm& term, const Labels& node_labels, int64_t weight) {
    if (term.topology_key == kEmptyStr) return;  // shares no topology with any node
    std::optional<StrId> v = node_labels.Get(term.topology_key);
    if (!v) return;
    items_.push_back({TopologyPair(term.topology_key, *v), weight});
  }

  // A weight already summed for `pair`.
  void AddPair(uint64_t pair, int64_t weight) { items_.push_back({pair, weight}); }

  bool empty() const { return items_.empty(); }

  // Sums per pair and lists the distinct keys.
  void Finish() {
    std::sort(items_.begin(), items_.end(),
              [](const Item& a, const Item& b) { return a.pair < b.pair; });
    size_t out = 0;
    for (size_t i = 0; i < items_.size(); ++i) {
      if (out > 0 && items_[out - 1].pair == items_[i].pair) {
        items_[out - 1].weight += items_[i].weight;
      } else {
        items_[out++] = items_[i];
      }
    }
    items_.resize(out);
    for (const Item& it : items_) {
      StrId key = static_cast<StrId>(it.pair >> 32);
      if (keys_.empty() || keys_.back() != key) keys_.push_back(key);
      pairs_.push_back(it.pair);
      weights_.push_back(it.weight);
    }
  }

  DomainWeights View() const { return DomainWeights{pairs_, weights_}; }

  // Total weight of the domains a node with `labels` belongs to.
  int64_t For(const Labels& labels) const {
    int64_t sum = 0;
    for (StrId key : keys_) {
      std::optional<StrId> v = labels.Get(key);
      if (!v) continue;
      uint64_t pair = TopologyPair(key, *v);
      auto it = std::lower_bound(items_.begin(), items_.end(), pair,
                                 [](const Item& a, uint64_t p) { return a.pair < p; });
      if (it != items_.end() && it->pair == pair) sum += it->weight;
    }
    return sum;
  }

 private:
  struct Item {
    uint64_t pair;
    int64_t weight;
  };
  std::vector<Item> items_;
  std::vector<StrId> keys_;  // sorted, distinct
  // items_ split in two, for DomainWeights.
  std::vector<uint64_t> pairs_;
  std::vector<int64_t> weights_;
};

struct InterPodAffinityPriorityState : PriorityState {
  bool all_zero = false;  // nothing contributed: every node scores 0
  Contributions contributions;
  // Set when upstream would fail the priority (an invalid label selector in
  // a term it evaluates). The interface has no error path, so the scores are
  // then all zero.
  std::optional<std::string> error;
};

std::unique_ptr<PriorityState> InterPodAffinityPriority::Prepare(
    const PodToSchedule& target, const ClusterState& cluster) const {
  const Pod& pod = target.pod();
  auto s = std::make_unique<InterPodAffinityPriorityState>();
  const CompiledPodAffinity inc = CompilePodAffinity(pod);
  Contributions& contributions = s->contributions;
  auto note_error = [&](const std::vector<AffinityTerm>& terms) {
    if (s->error) return;
    if (const std::string* e = FirstTermError(terms)) s->error = *e;
  };

  auto lock = cache_.Lock();
  if (PrepareCounted(pod, cluster, s.get())) return s;
  // Whether an existing pod matches the incoming pod's preferred terms
  // depends only on its (namespace, labels): decided once per label set, as
  // a bit mask (bit 63: decided; affinity terms first, then anti-affinity).
  const size_t num_own = (inc.has_affinity ? inc.preferred_affinity.size() : 0) +
                         (inc.has_anti_affinity ? inc.preferred_anti_affinity.size() : 0);
  const bool memo = num_own > 0 && num_own < 63;
  std::vector<uint64_t> own_matches(memo ? cluster.num_label_sets() : 0, 0);
  bool own_errors_noted = false;
  std::vector<uint64_t> group_matches;  // see below
  auto process = [&](PodId id, const Labels& node_labels) {
    const PodInfo& existing_info = cluster.pod(id);
    const Pod& existing = existing_info.pod;
    if (!own_errors_noted) {  // the first pod visited notes them, as upstream
      if (inc.has_affinity) note_error(inc.preferred_affinity);
      if (inc.has_anti_affinity) note_error(inc.preferred_anti_affinity);
      own_errors_noted = true;
    }
    if (num_own > 0) {
      uint64_t bits = 0;
      if (memo) bits = own_matches[existing_info.label_set];
      if (!(bits >> 63)) {
        bits = uint64_t{1} << 63;
        size_t i = 0;
        if (inc.has_affinity)
          for (const AffinityTerm& t : inc.preferred_affinity)
            bits |= uint64_t{t.Matches(existing)} << i++;
        if (inc.has_anti_affinity)
          for (const AffinityTerm& t : inc.preferred_anti_affinity)
            bits |= uint64_t{t.Matches(existing)} << i++;
        if (memo) own_matches[existing_info.label_set] = bits;
      }
      size_t i = 0;
      if (inc.has_affinity) {
        for (const AffinityTerm& t : inc.preferred_affinity)
          if ((bits >> i++) & 1) contributions.Add(t, node_labels, TermWeight(t.weight, 1));
      }
      if (inc.has_anti_affinity) {
        for (const AffinityTerm& t : inc.preferred_anti_affinity)
          if ((bits >> i++) & 1) contributions.Add(t, node_labels, TermWeight(t.weight, -1));
      }
    }
    if (!existing_info.has_affinity) return;
    const uint32_t group = cache_.Group(cluster, id);
    const CompiledPodAffinity& c = cache_.Get(cluster, id);
    const bool use_required = c.has_affinity && hard_weight_ > 0;
    if (use_required) note_error(c.required_affinity);
    if (c.has_affinity) note_error(c.preferred_affinity);
    if (c.has_anti_affinity) note_error(c.preferred_anti_affinity);
    // Which of the group's terms the incoming pod matches, decided once per
    // group (pods of one controller share compiled terms): bit 63 decided,
    // then required affinity, preferred affinity, preferred anti-affinity.
    const size_t n_req = use_required ? c.required_affinity.size() : 0;
    const size_t n_pref = c.has_affinity ? c.preferred_affinity.size() : 0;
    const size_t n_anti = c.has_anti_affinity ? c.preferred_anti_affinity.size() : 0;
    const bool memo_group = n_req + n_pref + n_anti < 63;
    uint64_t bits = 0;
    if (memo_group) {
      if (group >= group_matches.size()) group_matches.resize(cache_.num_groups(), 0);
      bits = group_matches[group];
    }
    if (!(bits >> 63)) {
      bits = uint64_t{1} << 63;
      size_t i = 0;
      for (size_t k = 0; k < n_req; ++k, ++i)
        if (i < 63 && c.required_affinity[k].Matches(pod)) bits |= uint64_t{1} << i;
      for (size_t k = 0; k < n_pref; ++k, ++i)
        if (i < 63 && c.preferred_affinity[k].Matches(pod)) bits |= uint64_t{1} << i;
      for (size_t k = 0; k < n_anti; ++k, ++i)
        if (i < 63 && c.preferred_anti_affinity[k].Matches(pod)) bits |= uint64_t{1} << i;
      if (memo_group) group_matches[group] = bits;
    }
    auto matched = [&](size_t i, const AffinityTerm& t) {
      return memo_group ? ((bits >> i) & 1) != 0 : t.Matches(pod);
    };
    size_t i = 0;
    for (size_t k = 0; k < n_req; ++k, ++i)
      if (matched(i, c.required_affinity[k]))
        contributions.Add(c.required_affinity[k], node_labels, hard_weight_);
    for (size_t k = 0; k < n_pref; ++k, ++i) {
      const AffinityTerm& t = c.preferred_affinity[k];
      if (matched(i, t)) contributions.Add(t, node_labels, TermWeight(t.weight, 1));
    }
    for (size_t k = 0; k < n_anti; ++k, ++i) {
      const AffinityTerm& t = c.preferred_anti_affinity[k];
      if (matched(i, t)) contributions.Add(t, node_labels, TermWeight(t.weight, -1));
    }
  };

  // Pods on nodes that do not exist are skipped, as upstream skips NodeInfos
  // without a node. Without preferred terms of its own, only the existing
  // pods' terms can contribute, so only pods with affinity are visited.
  const bool own_preferred = (inc.has_affinity && !inc.preferred_affinity.empty()) ||
                             (inc.has_anti_affinity && !inc.preferred_anti_affinity.empty());
  if (own_preferred) {
    for (NodeId n = 0; n < cluster.num_nodes(); ++n) {
      const NodeInfo& info = cluster.node_info(n);
      for (PodId id : info.pods) process(id, info.labels());
    }
  } else {
    for (PodId id : cluster.pods_with_affinity()) {
      NodeId n = cluster.pod(id).node;
      if (n != kNoNode) process(id, cluster.node(n).meta.labels);
    }
  }
  contributions.Finish();

  if (s->error || contributions.empty()) {
    s->all_zero = true;
    return s;
  }
  return s;
}

uint64_t InterPodAffinityPriority::ExistingTermBits(const CompiledPodAffinity& c,
                                                    const Pod& pod) const {
  uint64_t bits = uint64_t{1} << 63;
  size_t i = 0;
  if (c.has_affinity && hard_weight_ > 0)
    for (const AffinityTerm& t : c.required_affinity) bits |= uint64_t{t.Matches(pod)} << i++;
  if (c.has_affinity)
    for (const AffinityTerm& t : c.preferred_affinity) bits |= uint64_t{t.Matches(pod)} << i++;
  if (c.has_anti_affinity)
    for (const AffinityTerm& t : c.preferred_anti_affinity) bits |= uint64_t{t.Matches(pod)} << i++;
  return bits;
}

std::shared_ptr<OwnTermWeights> InterPodAffinityPriority::OwnWeightsFor(
    uint32_t group, const ClusterState& cluster) const {
  const std::vector<ClusterState::PodChange>& log = cluster.pod_log();
  const CompiledPodAffinity& inc = cache_.Shared(group);
  std::shared_ptr<OwnTermWeights> o = own_weights_.Find([&](const OwnTermWeights& k) {
    return k.cluster_id == cluster.id() && k.group == group && k.synced <= log.size();
  });
  if (!o) {
    o = std::make_shared<OwnTermWeights>();
    o->cluster_id = cluster.id();
    o->group = group;
    own_weights_.Add(o);
  }
  if (o->label_set_bits.size() < cluster.num_label_sets())
    o->label_set_bits.resize(cluster.num_label_sets(), 0);
  const std::vector<AffinityTerm> kNone;
  const std::vector<AffinityTerm>& affinity = inc.has_affinity ? inc.preferred_affinity : kNone;
  const std::vector<AffinityTerm>& anti =
      inc.has_anti_affinity ? inc.preferred_anti_affinity : kNone;
  for (; o->synced < log.size(); ++o->synced) {
    const ClusterState::PodChange change = log[o->synced];
    const PodInfo& existing = cluster.pod(change.pod);
    uint64_t& bits = o->label_set_bits[existing.label_set];
    if (bits == 0) {
      bits = uint64_t{1} << 63;
      size_t i = 0;
      for (const AffinityTerm& t : affinity) bits |= uint64_t{t.Matches(existing.pod)} << i++;
      for (const AffinityTerm& t : anti) bits |= uint64_t{t.Matches(existing.pod)} << i++;
    }
    const int64_t sign = change.added ? 1 : -1;
    const Labels& node_labels = cluster.node(existing.node).meta.labels;
    size_t i = 0;
    for (const AffinityTerm& t : affinity)
      if ((bits >> i++) & 1) AddWeight(&o->weights, t, node_labels, TermWeight(t.weight, 1), sign);
    for (const AffinityTerm& t : anti)
      if ((bits >> i++) & 1) AddWeight(&o->weights, t, node_labels, TermWeight(t.weight, -1), sign);
  }
  return o;
}

std::shared_ptr<ExistingTermWeights> InterPodAffinityPriority::ExistingWeightsFor(
    const Pod& pod, const ClusterState& cluster) const {
  const std::vector<ClusterState::PodChange>& log = cluster.pod_log();
  std::shared_ptr<ExistingTermWeights> e =
      existing_weights_.Find([&](const ExistingTermWeights& k) {
        if (k.cluster_id != cluster.id() || k.synced > log.size()) return false;
        for (uint32_t g = 0; g < k.group_bits.size(); ++g)
          if (k.group_bits[g] != 0 && ExistingTermBits(cache_.Shared(g), pod) != k.group_bits[g])
            return false;
        return true;
      });
  if (!e) {
    e = std::make_shared<ExistingTermWeights>();
    e->cluster_id = cluster.id();
    existing_weights_.Add(e);
  }
  for (; e->synced < log.size(); ++e->synced) {
    const ClusterState::PodChange change = log[e->synced];
    const PodInfo& existing = cluster.pod(change.pod);
    if (!existing.has_affinity) continue;
    const uint32_t group = cache_.Group(cluster, change.pod);
    const CompiledPodAffinity& c = cache_.Shared(group);
    const bool use_required = c.has_affinity && hard_weight_ > 0;
    const size_t n_req = use_required ? c.required_affinity.size() : 0;
    const size_t n_pref = c.has_affinity ? c.preferred_affinity.size() : 0;
    const size_t n_anti = c.has_anti_affinity ? c.preferred_anti_affinity.size() : 0;
    if (n_req + n_pref + n_anti == 0) continue;
    if (n_req + n_pref + n_anti >= 63) {
      existing_weights_.DropFront();
      return nullptr;
    }
    if (group >= e->group_bits.size()) e->group_bits.resize(group + 1, 0);
    uint64_t& bits = e->group_bits[group];
    if (bits == 0) bits = ExistingTermBits(c, pod);
    const int64_t sign = change.added ? 1 : -1;
    const Labels& node_labels = cluster.node(existing.node).meta.labels;
    size_t i = 0;
    for (size_t k = 0; k < n_req; ++k)
      if ((bits >> i++) & 1)
        AddWeight(&e->weights, c.required_affinity[k], node_labels, hard_weight_, sign);
    for (size_t k = 0; k < n_pref; ++k) {
      const AffinityTerm& t = c.preferred_affinity[k];
      if ((bits >> i++) & 1) AddWeight(&e->weights, t, node_labels, TermWeight(t.weight, 1), sign);
    }
    for (size_t k = 0; k < n_anti; ++k) {
      const AffinityTerm& t = c.preferred_anti_affinity[k];
      if ((bits >> i++) & 1) AddWeight(&e->weights, t, node_labels, TermWeight(t.weight, -1), sign);
    }
  }
  return e;
}

bool InterPodAffinityPriority::PrepareCounted(const Pod& pod, const ClusterState& cluster,
                                              InterPodAffinityPriorityState* s) const {
  if (!keep_weights_ || cluster.num_pods_on_missing_nodes() > 0 || cache_.any_invalid())
    return false;
  const uint32_t own_group = cache_.GroupOfPod(pod);
  const CompiledPodAffinity& inc = cache_.Shared(own_group);
  const size_t num_own = (inc.has_affinity ? inc.preferred_affinity.size() : 0) +
                         (inc.has_anti_affinity ? inc.preferred_anti_affinity.size() : 0);
  if (cache_.any_invalid() || num_own >= 63) return false;
  std::shared_ptr<ExistingTermWeights> existing = ExistingWeightsFor(pod, cluster);
  // Counting compiled the groups of pods not seen before.
  if (!existing || cache_.any_invalid()) return false;
  Contributions& contributions = s->contributions;
  for (const auto& [pair, w] : existing->weights) contributions.AddPair(pair, w.weight);
  if (num_own > 0) {
    std::shared_ptr<OwnTermWeights> own = OwnWeightsFor(own_group, cluster);
    for (const auto& [pair, w] : own->weights) contributions.AddPair(pair, w.weight);
  }
  contributions.Finish();
  s->all_zero = contributions.empty();
  return true;
}

int64_t InterPodAffinityPriority::Map(const PodToSchedule& pod, const PriorityState* state,
                                      const ClusterState& cluster, NodeId node) const {
  (void)pod;
  const auto& s = *static_cast<const InterPodAffinityPriorityState*>(state);
  return s.all_zero ? 0 : s.contributions.For(cluster.node(node).meta.labels);
}

std::optional<int64_t> InterPodAffinityPriority::UniformScore(const PriorityState* state) const {
  // All raw scores 0: the min-max scaling gives 0 everywhere.
  if (static_cast<const InterPodAffinityPriorityState*>(state)->all_zero) return 0;
  return std::nullopt;
}

DomainWeights InterPodAffinityPriority::Domains(const PriorityState* state) const {
  const auto& s = *static_cast<const InterPodAffinityPriorityState*>(state);
  if (s.all_zero) return {};
  return s.contributions.View();
}

void InterPodAffinityPriority::Reduce(const PodToSchedule& pod, const PriorityState* state,
                                      const ClusterState& cluster, std::span<const NodeId> nodes,
                                      std::span<int64_t> scores) const {
  (void)pod;
  (void)state;
  (void)cluster;
  (void)nodes;
  // Upstream starts both bounds at zero.
  int64_t max_count = 0;
  int64_t min_count = 0;
  for (int64_t c : scores) {
    max_count = std::max(max_count, c);
    min_count = std::min(min_count, c);
  }
  for (int64_t& c : scores) c = MinMaxScore(c, min_count, max_count);
}

}  // namespace

std::unique_ptr<Priority> NewInterPodAffinityPriority(int hard_pod_affinity_weight) {
  return std::make_unique<InterPodAffinityPriority>(hard_pod_affinity_weight,
                                                    /*keep_weights=*/true);
}

std::unique_ptr<Priority> NewInterPodAffinityPriorityWalkingEveryPod(int hard_pod_affinity_weight) {
  return std::make_unique<InterPodAffinityPriority>(hard_pod_affinity_weight,
                                                    /*keep_weights=*/false);
}

}  // namespace ksched
