// PreScore, Score and NormalizeScore of PodTopologySpread (upstream's
// scoring.go).
#include "framework/plugins/podtopologyspread/scoring.h"

#include <cmath>
#include <limits>

#include "framework/plugins/helper/normalize_score.h"
#include "framework/plugins/podtopologyspread/plugin.h"

namespace ksched::framework::plugins::podtopologyspread {

const StateKey kPreScoreStateKey = StateKey::Register();

namespace scoring_internal {

bool HasAllKeys(const PreScoreState& s, const NodeInfo& node) {
  for (const auto& d : s.domains)
    if (!d->HasLabel(node)) return false;
  return true;
}

// matchNodeInclusionPolicies for one constraint.
bool Includes(const Constraint& c, const Pod& pod, const RequiredNodeAffinity& affinity,
              const Node& node, bool comparison_operators) {
  if (c.honor_node_affinity && !affinity.Match(node)) return false;
  if (c.honor_node_taints &&
      HasUntoleratedDoNotScheduleTaint(node, pod.spec.tolerations, comparison_operators))
    return false;
  return true;
}

// math.Round (halves away from zero) without a libm call per node: scores
// are far below 2^52, where the integer part and the rest are exact. The
// halves are compared without branches: the rest of a score is as likely
// to be above a half as below it, so a branch would be a coin toss.
int64_t RoundSpreadScore(double x) {
  constexpr double kExact = 4503599627370496.0;  // 2^52
  if (!(x > -kExact && x < kExact)) [[unlikely]]
    return static_cast<int64_t>(std::round(x));
  const int64_t whole = static_cast<int64_t>(x);  // toward zero
  const double rest = x - static_cast<double>(whole);
  return whole + static_cast<int64_t>(rest >= 0.5) - static_cast<int64_t>(rest <= -0.5);
}

// initPreScoreState's walk over the feasible nodes: marks the domains they
// bring per key slot (`exists`), counts each constraint's new ones
// (`topo_size`) and marks the nodes left out for a missing key in
// s.ignored (allocated on the first one). Flat per-key arrays read by node
// id, no lookups per node. Once every domain is marked and no key needs a
// per-node check, the rest of the walk could change nothing, so it stops.
void MarkFeasibleDomains(PreScoreState& s, const std::vector<NodeId>& nodes, bool require_all,
                         size_t num_nodes, std::vector<std::vector<uint8_t>>* exists,
                         std::vector<int64_t>* topo_size, size_t* num_ignored) {
  const auto& items = s.constraints->items;
  std::vector<const uint8_t*> has_label;  // the keys some node lacks
  if (require_all)
    for (const auto& d : s.domains)
      if (!d->AllLabeled()) has_label.push_back(d->has_label.data());
  struct Zonal {
    const uint32_t* node_domain;
    uint8_t* exists;
    int64_t* size;
  };
  std::vector<Zonal> zonal;  // the constraints that are not hostname ones
  std::vector<uint8_t> slot_seen(s.domains.size(), 0);
  size_t unmarked = 0;  // domains of the zonal keys not marked yet
  for (size_t i = 0; i < items.size(); ++i) {
    if (items[i].is_hostname) continue;  // counted per node in Score
    const size_t slot = items[i].key_slot;
    zonal.push_back(
        {s.domains[slot]->node_domain.data(), (*exists)[slot].data(), &(*topo_size)[i]});
    if (!slot_seen[slot]) {
      slot_seen[slot] = 1;
      unmarked += s.domains[slot]->num_domains();
    }
  }
  for (NodeId id : nodes) {
    if (!has_label.empty()) {
      bool all_keys = true;
      for (const uint8_t* h : has_label) all_keys = all_keys && h[id] != 0;
      if (!all_keys) {
        if (s.ignored.empty()) s.ignored.assign(num_nodes, 0);
        *num_ignored += !s.ignored[id];
        s.ignored[id] = 1;
        continue;
      }
    } else if (unmarked == 0) {
      break;
    }
    for (const Zonal& z : zonal) {
      const uint32_t d = z.node_domain[id];
      if (!z.exists[d]) {
        z.exists[d] = 1;
        ++*z.size;
        --unmarked;
      }
    }
  }
}

}  // namespace scoring_internal

Status PodTopologySpread::PreScore(CycleState* state, const Pod& pod,
                                   const std::vector<NodeId>& nodes) {
  using namespace scoring_internal;
  const ClusterState& cluster = handle_->cluster();
  // v1.35 skips Score for an empty cluster and for a pod without soft
  // constraints; v1.26 writes an empty state, and NormalizeScore then gives
  // every node the maximum.
  if (features_.v135 && cluster.num_nodes() == 0) return Status(Code::kSkip);
  if (nodes.empty() || cluster.num_nodes() == 0) return Status();  // nothing to score

  Result<Constraints> constraints = PodConstraints(pod, kScheduleAnyway);
  if (!constraints) {
    return Status::Error(std::string("calculating preScoreState: ") +
                         (pod.spec.topology_spread_constraints.empty()
                              ? "setting default soft topology spread constraints: "
                              : "obtaining pod's soft topology spread constraints: ") +
                         constraints.error().message);
  }
  auto s = std::make_unique<PreScoreState>();
  if (constraints->empty()) {
    if (features_.v135) return Status(Code::kSkip);
    state->Write(kPreScoreStateKey, std::move(s));
    return Status();
  }
  // Only non-default constraints need every key on a node: with the system
  // defaults a node without a zone still spreads by hostname.
  const bool require_all = !pod.spec.topology_spread_constraints.empty() || !system_defaulted_;
  auto cons = std::make_shared<const Constraints>(std::move(*constraints));
  s->constraints = cons;
  s->ns = pod.meta.ns;
  const size_t num_slots = cons->keys.size();
  s->domains.resize(num_slots);
  s->counts.resize(num_slots);
  std::vector<std::vector<uint8_t>> exists(num_slots);
  for (size_t k = 0; k < num_slots; ++k) s->domains[k] = domains_.Get(cluster, cons->keys[k]);
  // Per-domain arrays only for the keys of non-hostname constraints: a
  // hostname constraint counts per node in Score, and its key has as many
  // domains as nodes (zeroing them was most of a cycle's PreScore).
  for (const Constraint& c : cons->items) {
    const size_t k = c.key_slot;
    if (c.is_hostname || !s->counts[k].empty()) continue;
    s->counts[k].assign(s->domains[k]->num_domains(), 0);
    exists[k].assign(s->domains[k]->num_domains(), 0);
  }

  // initPreScoreState: the pairs of the feasible nodes, and how many new
  // pairs each constraint brought (its topology size). The nodes are those
  // of the cycle's cluster: their labels and domains are read by id.
  size_t num_ignored = 0;
  std::vector<int64_t> topo_size(cons->items.size(), 0);
  MarkFeasibleDomains(*s, nodes, require_all, cluster.num_nodes(), &exists, &topo_size,
                      &num_ignored);
  for (size_t i = 0; i < cons->items.size(); ++i) {
    const Constraint& c = cons->items[i];
    int64_t size = c.is_hostname ? static_cast<int64_t>(nodes.size() - num_ignored) : topo_size[i];
    s->weights.push_back(GoLog(static_cast<double>(size + 2)));
  }

  if (handle_->reuse_between_cycles()) {
    // The sums over every node, kept from earlier cycles and brought up to
    // date; the pairs the feasible nodes brought take theirs.
    s->kept = kept_.Get(cluster, pod, KeptCountsKey::Of(pod, false), cons, s->domains, features_,
                        require_all);
    for (size_t i = 0; i < cons->items.size(); ++i) {
      const Constraint& c = cons->items[i];
      if (c.is_hostname) continue;
      const std::vector<int64_t>& sums = s->kept->score_counts(i);
      std::vector<int64_t>& counts = s->counts[c.key_slot];
      for (size_t d = 0; d < counts.size(); ++d)
        if (exists[c.key_slot][d]) counts[d] += sums[d];
    }
    s->domain_scores.resize(cons->items.size());
    for (size_t i = 0; i < cons->items.size(); ++i) {
      const Constraint& c = cons->items[i];
      if (c.is_hostname) continue;
      const std::vector<int64_t>& counts = s->counts[c.key_slot];
      std::vector<double>& scores = s->domain_scores[i];
      scores.resize(counts.size());
      for (size_t d = 0; d < counts.size(); ++d)
        scores[d] = ScoreForCount(counts[d], c.max_skew, s->weights[i]);
    }
    state->Write(kPreScoreStateKey, std::move(s));
    return Status();
  }
  for (const Constraint& c : cons->items)
    s->matchers.emplace_back(cluster, pod.meta.ns, &c.selector, c.counts_nothing);

  // Every node of the cluster adds its matching pods to the pairs the
  // feasible nodes brought.
  const RequiredNodeAffinity affinity(pod);
  for (const NodeInfo& node : cluster.node_infos()) {
    if (node.pods.empty()) continue;  // adds nothing
    if (!features_.node_inclusion_policy && !affinity.Match(*node.node)) continue;
    if (require_all && !HasAllKeys(*s, node)) continue;
    for (size_t i = 0; i < cons->items.size(); ++i) {
      const Constraint& c = cons->items[i];
      if (c.is_hostname) continue;
      if (features_.node_inclusion_policy &&
          !Includes(c, pod, affinity, *node.node, features_.taint_comparison_operators))
        continue;
      uint32_t d = s->domains[c.key_slot]->DomainOf(node);
      if (!exists[c.key_slot][d]) continue;
      s->counts[c.key_slot][d] += s->matchers[i].CountOn(cluster, node);
    }
  }
  state->Write(kPreScoreStateKey, std::move(s));
  return Status();
}

bool PodTopologySpread::ScoresZeroEverywhere(const CycleState& state) const {
  const auto* s = state.ReadAs<PreScoreState>(kPreScoreStateKey);
  return s != nullptr && !s->constraints;  // no soft constraints
}

template <typename HasLabel, typename DomainOf, typename HostCount>
int64_t PodTopologySpread::ScoreWith(const PreScoreState& s, HasLabel&& has_label,
                                     DomainOf&& domain_of, HostCount&& host_count) const {
  double total = 0;
  const auto& items = s.constraints->items;
  for (size_t i = 0; i < items.size(); ++i) {
    const Constraint& c = items[i];
    const TopologyDomains& domains = *s.domains[c.key_slot];
    if (!has_label(domains)) continue;
    int64_t count = c.is_hostname ? host_count(i) : s.counts[c.key_slot][domain_of(domains)];
    total += ScoreForCount(count, c.max_skew, s.weights[i]);
  }
  return scoring_internal::RoundSpreadScore(total);
}

Status PodTopologySpread::Score(const CycleState& state, const Pod&, const NodeInfo& node,
                                int64_t* score) const {
  *score = 0;
  const auto* s = state.ReadAs<PreScoreState>(kPreScoreStateKey);
  if (s == nullptr)
    return Status::Error("error reading \"PreScorePodTopologySpread\" from cycleState: not found");
  if (!s->constraints || s->Ignored(node)) return Status();
  const ClusterState& cluster = handle_->cluster();
  const bool own = node.id < cluster.num_nodes() && &cluster.node_info(node.id) == &node;
  *score = ScoreWith(
      *s, [&](const TopologyDomains& d) { return d.HasLabel(node); },
      [&](const TopologyDomains& d) { return d.DomainOf(node); },
      [&](size_t i) -> int64_t {
        if (s->kept != nullptr && own) return s->kept->NodeCount(i, node.id);
        if (i < s->matchers.size()) return s->matchers[i].CountOn(cluster, node);
        // A copy of a node with kept counts: count its pods.
        const Constraint& c = s->constraints->items[i];
        int64_t n = 0;
        for (PodId id : node.pods) {
          const PodInfo& p = cluster.pod(id);
          if (!p.terminating && p.pod.meta.ns == s->ns && c.Counts(p.pod.meta.labels)) ++n;
        }
        return n;
      });
  return Status();
}

std::optional<int64_t> PodTopologySpread::ScoreOf(const CycleState& state, const Pod&,
                                                  NodeId id) const {
  const auto* s = state.ReadAs<PreScoreState>(kPreScoreStateKey);
  if (s == nullptr || !s->constraints || s->kept == nullptr) return std::nullopt;
  if (id < s->ignored.size() && s->ignored[id]) return 0;
  // ScoreWith with the domains' terms from the table: the same doubles,
  // added in the same order.
  double total = 0;
  const auto& items = s->constraints->items;
  for (size_t i = 0; i < items.size(); ++i) {
    const Constraint& c = items[i];
    const TopologyDomains& domains = *s->domains[c.key_slot];
    if (!domains.has_label[id]) continue;
    total += c.is_hostname ? ScoreForCount(s->kept->NodeCount(i, id), c.max_skew, s->weights[i])
                           : s->domain_scores[i][domains.node_domain[id]];
  }
  return scoring_internal::RoundSpreadScore(total);
}

std::optional<int64_t> PodTopologySpread::NormalizedZero(const CycleState& state,
                                                         const Pod&) const {
  // Without soft constraints no node is ignored, and a zero maximum gives
  // every node the maximum.
  const auto* s = state.ReadAs<PreScoreState>(kPreScoreStateKey);
  if (s == nullptr || s->constraints) return std::nullopt;
  return kMaxNodeScore;
}

namespace {

// ScoreOf for ids[k], k < count, handed to emit(k, id, score, ignored) (an
// ignored node's score is 0), each constraint's arrays found once. False,
// with nothing emitted, without kept counts or with too many constraints.
template <typename Emit>
bool WalkKeptScores(const PreScoreState* s, const NodeId* ids, size_t count, Emit&& emit) {
  if (s == nullptr || !s->constraints || s->kept == nullptr) return false;
  struct Term {
    const uint8_t* has_label;  // null when every node has the key
    const uint32_t* node_domain;
    const double* domain_scores;  // null for a hostname constraint
    const int64_t* node_counts;   // a hostname constraint's, by node
    int32_t max_skew;
    double weight;
  };
  constexpr size_t kMaxTerms = 8;
  const auto& items = s->constraints->items;
  const size_t num_terms = items.size();
  if (num_terms > kMaxTerms) return false;
  Term terms[kMaxTerms];
  bool all_labeled = true;
  for (size_t i = 0; i < num_terms; ++i) {
    const Constraint& c = items[i];
    const TopologyDomains& domains = *s->domains[c.key_slot];
    all_labeled = all_labeled && domains.AllLabeled();
    terms[i] = Term{domains.AllLabeled() ? nullptr : domains.has_label.data(),
                    domains.node_domain.data(),
                    c.is_hostname ? nullptr : s->domain_scores[i].data(),
                    c.is_hostname ? s->kept->NodeCounts(i) : nullptr,
                    c.max_skew,
                    s->weights[i]};
  }
  const uint8_t* ignored = s->ignored.data();
  const size_t ignored_size = s->ignored.size();
  // Two copies of the walk: without any node left out or lacking a key
  // (the usual cluster), the per-node checks go.
  auto walk = [&](auto checks) {
    for (size_t k = 0; k < count; ++k) {
      const NodeId id = ids[k];
      if constexpr (checks) {
        if (id < ignored_size && ignored[id]) {
          emit(k, id, int64_t{0}, true);
          continue;
        }
      }
      double total = 0;
      for (size_t i = 0; i < num_terms; ++i) {
        const Term& t = terms[i];
        if constexpr (checks) {
          if (t.has_label != nullptr && !t.has_label[id]) continue;
        }
        total += t.domain_scores != nullptr
                     ? t.domain_scores[t.node_domain[id]]
                     : ScoreForCount(t.node_counts[id], t.max_skew, t.weight);
      }
      emit(k, id, scoring_internal::RoundSpreadScore(total), false);
    }
  };
  if (ignored_size == 0 && all_labeled)
    walk(std::false_type{});
  else
    walk(std::true_type{});
  return true;
}

// NormalizeScore's arithmetic for a node not ignored, once the extremes of
// the scores of those nodes are known: every one of them scores the maximum
// when the highest is 0.
class SpreadNormalizer {
 public:
  SpreadNormalizer(int64_t min_score, int64_t max_score)
      : min_(min_score),
        max_(max_score),
        // Both sides of the quotient far below 2^51: a double quotient then
        // floors to the integer one, and a hardware integer division per
        // node was most of NormalizeScore's time.
        exact_in_double_(max_score > 0 && max_score < kExactLimit / (2 * kMaxNodeScore + 1) &&
                         min_score >= 0),
        max_double_(static_cast<double>(max_score)) {}

  // Fewer matching pods score higher.
  int64_t operator()(int64_t score) const {
    if (max_ == 0) return kMaxNodeScore;
    const int64_t numerator = kMaxNodeScore * (max_ + min_ - score);
    if (exact_in_double_) return static_cast<int64_t>(static_cast<double>(numerator) / max_double_);
    return numerator / max_;
  }

 private:
  static constexpr int64_t kExactLimit = int64_t{1} << 51;
  int64_t min_, max_;
  bool exact_in_double_;
  double max_double_;
};

}  // namespace

bool PodTopologySpread::ScoresOf(const CycleState& state, const Pod&, const NodeId* ids,
                                 size_t count, NodeScore* out) const {
  return WalkKeptScores(state.ReadAs<PreScoreState>(kPreScoreStateKey), ids, count,
                        [out](size_t k, NodeId id, int64_t score, bool) {
                          out[k] = NodeScore{id, score};
                        });
}

bool PodTopologySpread::ScoreNormalizeAndAdd(const CycleState& state, const Pod&, const NodeId* ids,
                                             size_t count, int64_t weight, int64_t* totals,
                                             bool* out_of_range) const {
  // The raw scores, kInvalid for ignored nodes (scores are never negative),
  // and their extremes over the others, in one pass; then NormalizeScore's
  // arithmetic straight onto the totals.
  constexpr int64_t kInvalid = -1;
  thread_local std::vector<int64_t> raw;
  raw.resize(count);
  int64_t* r = raw.data();
  int64_t min_score = std::numeric_limits<int64_t>::max();
  int64_t max_score = 0;
  bool negative = false;
  const bool walked = WalkKeptScores(state.ReadAs<PreScoreState>(kPreScoreStateKey), ids, count,
                                     [&](size_t k, NodeId, int64_t score, bool ignored) {
                                       if (ignored) {
                                         r[k] = kInvalid;
                                         return;
                                       }
                                       r[k] = score;
                                       negative = negative || score < 0;
                                       min_score = std::min(min_score, score);
                                       max_score = std::max(max_score, score);
                                     });
  // A negative score would need NormalizeScore's own reading of -1.
  if (!walked || negative) return false;
  const SpreadNormalizer normalize(min_score, max_score);
  // Few distinct raw scores (the usual case): a lookup per node, the entry
  // after the range an ignored node's 0.
  int64_t weighted[framework::helper::kWeighTable + 1];
  const int64_t span = max_score - min_score;
  if (min_score <= max_score && span < framework::helper::kWeighTable &&
      framework::helper::WeighRange(min_score, span, normalize, weight, weighted)) {
    weighted[span + 1] = 0;
    for (size_t k = 0; k < count; ++k)
      totals[k] += weighted[r[k] == kInvalid ? span + 1 : r[k] - min_score];
    return true;
  }
  bool outside = false;
  for (size_t k = 0; k < count; ++k) {
    const int64_t score = r[k] == kInvalid ? 0 : normalize(r[k]);
    outside |= score < kMinNodeScore || score > kMaxNodeScore;
    totals[k] += score * weight;
  }
  *out_of_range = *out_of_range || outside;
  return true;
}

Status PodTopologySpread::NormalizeScore(const CycleState& state, const Pod&,
                                         NodeScoreList* scores) const {
  constexpr int64_t kInvalidScore = -1;
  const auto* s = state.ReadAs<PreScoreState>(kPreScoreStateKey);
  if (s == nullptr)
    return Status::Error("error reading \"PreScorePodTopologySpread\" from cycleState: not found");
  int64_t min_score = std::numeric_limits<int64_t>::max();
  int64_t max_score = 0;
  for (NodeScore& ns : *scores) {
    if (ns.node < s->ignored.size() && s->ignored[ns.node]) {
      ns.score = kInvalidScore;
      continue;
    }
    min_score = std::min(min_score, ns.score);
    max_score = std::max(max_score, ns.score);
  }
  const SpreadNormalizer normalize(min_score, max_score);
  for (NodeScore& ns : *scores) ns.score = ns.score == kInvalidScore ? 0 : normalize(ns.score);
  return Status();
}

}  // namespace ksched::framework::plugins::podtopologyspread
