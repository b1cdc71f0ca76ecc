// InterPodAffinity's PreScore, Score and NormalizeScore (upstream's
// scoring.go).
#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>

#include "framework/plugins/helper/normalize_score.h"
#include "framework/plugins/interpodaffinity/plugin.h"

namespace ksched::framework::interpodaffinity {
namespace {

const StateKey kPreScoreStateKey = StateKey::Register();

// A term's kept sums times its weight, added at each scored node's domain
// when read instead of over every domain in PreScore: for keys with more
// domains than nodes to score (hostname at the adaptive percentage).
struct WeightedSums {
  std::shared_ptr<const TopologyIndex> index;
  std::shared_ptr<const DomainCounts> sums;
  int64_t weight = 0;

  int64_t AtDomain(uint32_t d) const {
    return d < sums->counts.size() ? sums->counts[d] * weight : 0;
  }
};

// Upstream's preScoreState: the score of each topology pair, some of it as
// weighted sums added when read. Never changed after PreScore, so clones
// share it (as upstream's Clone returns itself).
struct PreScoreState final : StateData {
  std::shared_ptr<const TopologyCounts> topology_score;
  std::shared_ptr<const std::vector<WeightedSums>> deferred;

  // The node's raw score.
  int64_t At(const NodeInfo& node) const {
    int64_t sum = 0;
    for (uint32_t slot = 0; slot < topology_score->num_slots(); ++slot)
      sum += topology_score->AtNode(slot, node);
    for (const WeightedSums& w : *deferred) sum += w.AtDomain(w.index->DomainOf(node));
    return sum;
  }
  // The nodes 0..Covered()-1 have a domain in every index read.
  size_t Covered() const {
    size_t covered = SIZE_MAX;
    for (uint32_t slot = 0; slot < topology_score->num_slots(); ++slot)
      covered = std::min(covered, topology_score->index(slot).num_nodes());
    for (const WeightedSums& w : *deferred) covered = std::min(covered, w.index->num_nodes());
    return covered;
  }

  std::unique_ptr<StateData> Clone() const override {
    return std::make_unique<PreScoreState>(*this);
  }
};

const Labels& NoLabels() {
  static const Labels kNone;
  return kNone;
}

// Accumulates scoreMap.processTerm over the pods of one cycle. A term's slot
// is looked up once per (term list, term) through `slots`, not per pod.
class ScoreBuilder {
 public:
  ScoreBuilder(const ClusterState& cluster, TopologyIndexes* indexes)
      : cluster_(cluster), indexes_(indexes) {}

  void Add(const AffinityTerm& t, const NodeInfo& node, int64_t value) {
    uint32_t slot = SlotOf(t);
    const uint32_t d = counts_.index(slot).DomainOf(node);
    any_entry_ = any_entry_ || d < counts_.index(slot).num_domains();
    counts_.Add(slot, d, value);
  }
  // `value` times each domain's sum (kept sums); nothing for zero sums. A
  // key with more domains than the `num_scored` nodes is deferred: each
  // scored node reads its domain's sum (fewer reads than adding them all).
  void AddSums(const AffinityTerm& t, const std::shared_ptr<const DomainCounts>& kept,
               int64_t value, size_t num_scored) {
    if (kept->nonzero == 0) return;
    // Pods are counted where their node has the key: a non-zero count is
    // a pod upstream's processTerm wrote a pair for.
    any_entry_ = true;
    const std::vector<int64_t>& sums = kept->counts;
    if (sums.size() > num_scored) {
      deferred_.push_back(WeightedSums{indexes_->Get(cluster_, t.topology_key), kept, value});
      return;
    }
    const uint32_t slot = SlotOf(t);
    for (size_t d = 0; d < sums.size(); ++d) {
      if (sums[d] != 0) counts_.Add(slot, static_cast<uint32_t>(d), sums[d] * value);
    }
  }

  uint32_t SlotOf(const AffinityTerm& t) {
    uint32_t slot = counts_.FindSlot(t.topology_key);
    if (slot == kNoDomain) {
      // Upstream creates a key's entry only when a node has the key; an
      // empty slot is indistinguishable from no entry for Score, and
      // NormalizeScore's early return gives the same scores either way.
      slot = counts_.Slot(indexes_->Get(cluster_, t.topology_key));
    }
    return slot;
  }

  // Whether upstream's topologyScore got a pair: a term matched a pod on a
  // node with the term's key (however the weights then add up).
  bool any_entry() const { return any_entry_; }

  std::unique_ptr<PreScoreState> Take() {
    auto s = std::make_unique<PreScoreState>();
    s->topology_score = std::make_shared<const TopologyCounts>(std::move(counts_));
    s->deferred = std::make_shared<const std::vector<WeightedSums>>(std::move(deferred_));
    return s;
  }

 private:
  const ClusterState& cluster_;
  TopologyIndexes* indexes_;
  TopologyCounts counts_;
  std::vector<WeightedSums> deferred_;
  bool any_entry_ = false;
};

void MatchEach(const std::vector<AffinityTerm>& terms, const Pod& pod, const Labels& ns_labels,
               uint8_t* out) {
  for (size_t i = 0; i < terms.size(); ++i) out[i] = terms[i].Matches(pod, ns_labels);
}

// Writes PreScore's state. v1.35 returns Skip instead (Score and
// NormalizeScore do not run, the plugin is not listed) when no pod gave any
// topology pair a score; v1.26 scores, and lists, those zeros.
Status WriteState(CycleState* cycle, ScoreBuilder* builder, bool v135) {
  if (v135 && !builder->any_entry()) return Status(Code::kSkip);
  cycle->Write(kPreScoreStateKey, builder->Take());
  return Status();
}

}  // namespace

Status InterPodAffinity::PreScore(CycleState* cycle, const Pod& pod,
                                  const std::vector<NodeId>& nodes) {
  // v1.35 skips Score for a pod without preferred terms when asked to
  // ignore the existing pods' preferred terms.
  if (v135_ && args_.ignore_preferred_terms_of_existing_pods && !HasPreferredTerms(pod))
    return Status(Code::kSkip);
  if (nodes.empty()) return Status();
  const ClusterState& cluster = handle_->cluster();
  // The terms PreFilter parsed and merged, else parsed here.
  std::shared_ptr<const PodTerms> own_terms = ParsedTerms(*cycle);
  if (own_terms == nullptr) {
    PodTerms parsed = ParsePodTerms(pod);
    if (!parsed.error.empty()) return Status::Error("failed to parse pod: " + parsed.error);
    MergeAll(cluster, &parsed, /*preferred_only=*/true);
    own_terms = std::make_shared<const PodTerms>(std::move(parsed));
  }
  const PodTerms& own = *own_terms;
  const Labels& ns_labels = NamespaceLabelsOf(cluster, pod.meta.ns);
  const int32_t hard_weight = args_.hard_pod_affinity_weight;

  ScoreBuilder builder(cluster, &indexes_);
  const size_t n_pref = own.preferred_affinity.size();
  const size_t n_pref_anti = own.preferred_anti_affinity.size();
  // Only the walk over the placed pods below reads the memos: with kept
  // sums they start empty (and grow if asked).
  const bool kept = handle_->reuse_between_cycles();
  MatchMemo own_memo(kept ? 0 : cluster.num_label_sets());  // the incoming pod's terms

  std::lock_guard<std::mutex> lock(mu_);
  MatchMemo group_memo(kept ? 0 : cache_.num_groups());  // existing pods' terms, by group

  // processExistingPod.
  auto process = [&](PodId id, const PodInfo& info, const NodeInfo& node) {
    if (node.labels().empty()) return;
    if (n_pref + n_pref_anti > 0) {
      const uint8_t* m = own_memo.Get(info.label_set, n_pref + n_pref_anti, [&](uint8_t* out) {
        MatchEach(own.preferred_affinity, info.pod, NoLabels(), out);
        MatchEach(own.preferred_anti_affinity, info.pod, NoLabels(), out + n_pref);
      });
      for (size_t i = 0; i < n_pref; ++i) {
        if (m[i]) builder.Add(own.preferred_affinity[i], node, own.preferred_affinity[i].weight);
      }
      for (size_t i = 0; i < n_pref_anti; ++i) {
        const AffinityTerm& t = own.preferred_anti_affinity[i];
        if (m[n_pref + i]) builder.Add(t, node, -int64_t{t.weight});
      }
    }
    if (!info.has_affinity) return;  // no terms of its own
    uint32_t g = cache_.Group(cluster, id);
    const PodTerms& theirs = cache_.terms(g);
    const size_t n_req = hard_weight > 0 ? theirs.required_affinity.size() : 0;
    const size_t n_p = theirs.preferred_affinity.size();
    const size_t n_pa = theirs.preferred_anti_affinity.size();
    if (n_req + n_p + n_pa == 0) return;
    const uint8_t* m = group_memo.Get(g, n_req + n_p + n_pa, [&](uint8_t* out) {
      if (n_req > 0) MatchEach(theirs.required_affinity, pod, ns_labels, out);
      MatchEach(theirs.preferred_affinity, pod, ns_labels, out + n_req);
      MatchEach(theirs.preferred_anti_affinity, pod, ns_labels, out + n_req + n_p);
    });
    for (size_t i = 0; i < n_req; ++i) {
      if (m[i]) builder.Add(theirs.required_affinity[i], node, hard_weight);
    }
    for (size_t i = 0; i < n_p; ++i) {
      const AffinityTerm& t = theirs.preferred_affinity[i];
      if (m[n_req + i]) builder.Add(t, node, t.weight);
    }
    for (size_t i = 0; i < n_pa; ++i) {
      const AffinityTerm& t = theirs.preferred_anti_affinity[i];
      if (m[n_req + n_p + i]) builder.Add(t, node, -int64_t{t.weight});
    }
  };

  if (handle_->reuse_between_cycles()) {
    // The same sums from those kept over the placed pods: the incoming
    // pod's preferred terms, then each group's terms that match it.
    SyncGroups(cluster);
    if (n_pref + n_pref_anti > 0) {
      const OwnSums& sums = OwnSumsFor(cluster, pod);
      for (size_t i = 0; i < n_pref; ++i) {
        const AffinityTerm& t = own.preferred_affinity[i];
        builder.AddSums(t, sums.preferred_affinity.counts[i], t.weight, nodes.size());
      }
      for (size_t i = 0; i < n_pref_anti; ++i) {
        const AffinityTerm& t = own.preferred_anti_affinity[i];
        builder.AddSums(t, sums.preferred_anti_affinity.counts[i], -int64_t{t.weight},
                        nodes.size());
      }
    }
    for (uint32_t g : placed_groups_) {
      const GroupSums& gs = group_sums_[g];
      if (gs.pods == 0) continue;
      const PodTerms& theirs = cache_.terms(g);
      if (hard_weight > 0) {
        for (size_t i = 0; i < theirs.required_affinity.size(); ++i) {
          const AffinityTerm& t = theirs.required_affinity[i];
          if (t.Matches(pod, ns_labels))
            builder.AddSums(t, gs.required_affinity.counts[i], hard_weight, nodes.size());
        }
      }
      for (size_t i = 0; i < theirs.preferred_affinity.size(); ++i) {
        const AffinityTerm& t = theirs.preferred_affinity[i];
        if (t.Matches(pod, ns_labels))
          builder.AddSums(t, gs.preferred_affinity.counts[i], t.weight, nodes.size());
      }
      for (size_t i = 0; i < theirs.preferred_anti_affinity.size(); ++i) {
        const AffinityTerm& t = theirs.preferred_anti_affinity[i];
        if (t.Matches(pod, ns_labels))
          builder.AddSums(t, gs.preferred_anti_affinity.counts[i], -int64_t{t.weight},
                          nodes.size());
      }
    }
    return WriteState(cycle, &builder, v135_);
  }

  // Unless the incoming pod has preferred terms (by its spec), only pods
  // with affinity can contribute.
  if (HasPreferredTerms(pod)) {
    for (PodId id = 0; id < cluster.num_pods(); ++id) {
      const PodInfo& info = cluster.pod(id);
      if (!info.live || info.node == kNoNode) continue;
      process(id, info, cluster.node_info(info.node));
    }
  } else {
    for (PodId id : cluster.pods_with_affinity()) {
      const PodInfo& info = cluster.pod(id);
      if (!info.live || info.node == kNoNode) continue;
      process(id, info, cluster.node_info(info.node));
    }
  }

  return WriteState(cycle, &builder, v135_);
}

bool InterPodAffinity::ScoresZeroEverywhere(const CycleState& cycle) const {
  const auto* s = cycle.ReadAs<PreScoreState>(kPreScoreStateKey);
  return s != nullptr && s->topology_score != nullptr && s->topology_score->num_slots() == 0 &&
         s->deferred->empty();
}

std::optional<int64_t> InterPodAffinity::ScoreOf(const CycleState& cycle, const Pod&,
                                                 NodeId id) const {
  const auto* s = cycle.ReadAs<PreScoreState>(kPreScoreStateKey);
  if (s == nullptr || id >= s->Covered()) return std::nullopt;
  const TopologyCounts& counts = *s->topology_score;
  int64_t sum = 0;
  for (uint32_t slot = 0; slot < counts.num_slots(); ++slot) sum += counts.AtNodeId(slot, id);
  for (const WeightedSums& w : *s->deferred) sum += w.AtDomain(w.index->DomainOfId(id));
  return sum;
}

Status InterPodAffinity::Score(const CycleState& cycle, const Pod&, const NodeInfo& node,
                               int64_t* score) const {
  const auto* s = cycle.ReadAs<PreScoreState>(kPreScoreStateKey);
  if (s == nullptr) {
    return Status::Error("failed to read \"PreScoreInterPodAffinity\" from cycleState: not found");
  }
  *score = s->At(node);
  return Status();
}

std::optional<int64_t> InterPodAffinity::NormalizedZero(const CycleState& cycle, const Pod&) const {
  // Equal raw scores (no spread between min and max) all become 0.
  const auto* s = cycle.ReadAs<PreScoreState>(kPreScoreStateKey);
  if (s == nullptr) return std::nullopt;
  return 0;
}

bool InterPodAffinity::ScoresOf(const CycleState& cycle, const Pod&, const NodeId* ids,
                                size_t count, NodeScore* out) const {
  const auto* s = cycle.ReadAs<PreScoreState>(kPreScoreStateKey);
  if (s == nullptr) return false;
  const TopologyCounts& counts = *s->topology_score;
  const uint32_t slots = static_cast<uint32_t>(counts.num_slots());
  const size_t covered = s->Covered();
  for (size_t k = 0; k < count; ++k)
    if (ids[k] >= covered) return false;
  for (size_t k = 0; k < count; ++k) out[k] = NodeScore{ids[k], 0};
  // Slot by slot, each as arrays: its nodes' domains and its counts.
  for (uint32_t slot = 0; slot < slots; ++slot) {
    const uint32_t* domains = counts.index(slot).domains();
    const int64_t* values = counts.counts(slot);
    const size_t n = counts.num_counts(slot);
    for (size_t k = 0; k < count; ++k) {
      const uint32_t d = domains[ids[k]];
      out[k].score += d < n ? values[d] : 0;
    }
  }
  for (const WeightedSums& w : *s->deferred) {
    const uint32_t* domains = w.index->domains();
    for (size_t k = 0; k < count; ++k) out[k].score += w.AtDomain(domains[ids[k]]);
  }
  return true;
}

namespace {

// NormalizeScore's scaling of a list of scores: (score - min) *
// MaxNodeScore / (max - min), truncated, in floating point as upstream; 0
// for every score when they are all equal.
class MinMaxScale {
 public:
  MinMaxScale(const NodeScore* scores, size_t count) {
    int64_t max_count = std::numeric_limits<int64_t>::min();
    for (size_t k = 0; k < count; ++k) {
      max_count = std::max(max_count, scores[k].score);
      min_ = std::min(min_, scores[k].score);
    }
    diff_ = count == 0 ? 0 : max_count - min_;
  }
  int64_t operator()(int64_t score) const {
    if (diff_ <= 0) return 0;
    return static_cast<int64_t>(static_cast<double>(kMaxNodeScore) *
                                (static_cast<double>(score - min_) / static_cast<double>(diff_)));
  }
  int64_t min() const { return min_; }
  int64_t diff() const { return diff_; }

 private:
  int64_t min_ = std::numeric_limits<int64_t>::max();
  int64_t diff_ = 0;
};

}  // namespace

bool InterPodAffinity::ScoreNormalizeAndAdd(const CycleState& cycle, const Pod& pod,
                                            const NodeId* ids, size_t count, int64_t weight,
                                            int64_t* totals, bool* out_of_range) const {
  const auto* s = cycle.ReadAs<PreScoreState>(kPreScoreStateKey);
  if (s == nullptr) return false;
  // Nothing counted: NormalizeScore leaves the raw scores, all 0.
  if (s->topology_score->num_slots() == 0 && s->deferred->empty()) return true;
  // ScoresOf and NormalizeScore on a scratch array instead of a list.
  thread_local std::vector<NodeScore> scores;
  if (scores.size() < count) scores.resize(count);
  if (!ScoresOf(cycle, pod, ids, count, scores.data())) return false;
  const MinMaxScale scale(scores.data(), count);
  // Few distinct raw scores (sums of term weights, the usual case): a
  // lookup per node.
  int64_t weighted[helper::kWeighTable];
  if (scale.diff() >= 0 && scale.diff() < helper::kWeighTable &&
      helper::WeighRange(scale.min(), scale.diff(), scale, weight, weighted)) {
    const int64_t min = scale.min();
    for (size_t k = 0; k < count; ++k) totals[k] += weighted[scores[k].score - min];
    return true;
  }
  bool bad = false;
  for (size_t k = 0; k < count; ++k) {
    const int64_t score = scale(scores[k].score);
    bad |= score > kMaxNodeScore || score < kMinNodeScore;
    totals[k] += score * weight;
  }
  *out_of_range = *out_of_range || bad;
  return true;
}

Status InterPodAffinity::NormalizeScore(const CycleState& cycle, const Pod&,
                                        NodeScoreList* scores) const {
  const auto* s = cycle.ReadAs<PreScoreState>(kPreScoreStateKey);
  if (s == nullptr) {
    return Status::Error("failed to read \"PreScoreInterPodAffinity\" from cycleState: not found");
  }
  if (s->topology_score->num_slots() == 0 && s->deferred->empty()) return Status();
  const MinMaxScale scale(scores->data(), scores->size());
  for (NodeScore& ns : *scores) ns.score = scale(ns.score);
  return Status();
}

}  // namespace ksched::framework::interpodaffinity
