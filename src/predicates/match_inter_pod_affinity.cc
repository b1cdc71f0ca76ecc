// MatchInterPodAffinity: upstream's InterPodAffinityMatches with the
// topology-pair metadata of predicates/metadata.go.
//
// Prepare() does all the cluster-wide work once per pod, as upstream's
// metadata producer does: it collects the (topology key, value) pairs where
//   - an existing pod's required anti-affinity term matches the incoming pod,
//   - pods matching all of the incoming pod's required affinity terms run,
//   - pods matching one of its required anti-affinity terms run,
// taking the values from the labels of the node each existing pod runs on.
// Check() is then a few binary searches over those sorted pair lists.
//
// Upstream falls back to a slower, per-node algorithm when it cannot build the
// metadata (a pod bound to a node that does not exist, or an invalid label
// selector in a term it evaluates). That fallback decides some cases
// differently (for instance, one existing pod must satisfy all anti-affinity
// terms at once), so it is reproduced here as well. Upstream errors that the
// fallback raises on every node it checks become Prepare() errors.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "predicates/affinity_terms.h"
#include "predicates/factories.h"
#include "predicates/inter_pod_affinity_metadata.h"

namespace ksched {
namespace {

ReasonId AffinityNotMatch() {
  static const ReasonId id = Intern("node(s) didn't match pod affinity/anti-affinity");
  return id;
}
ReasonId AffinityRulesNotMatch() {
  static const ReasonId id = Intern("node(s) didn't match pod affinity rules");
  return id;
}
ReasonId AntiAffinityRulesNotMatch() {
  static const ReasonId id = Intern("node(s) didn't match pod anti-affinity rules");
  return id;
}
ReasonId ExistingAntiAffinityNotMatch() {
  static const ReasonId id = Intern("node(s) didn't satisfy existing pods anti-affinity rules");
  return id;
}

void SortUnique(std::vector<uint64_t>* v) {
  std::sort(v->begin(), v->end());
  v->erase(std::unique(v->begin(), v->end()), v->end());
}

void SortUnique(std::vector<NodeId>* v) {
  std::sort(v->begin(), v->end());
  v->erase(std::unique(v->begin(), v->end()), v->end());
}

bool HasPair(const std::vector<uint64_t>& pairs, StrId key, StrId value) {
  return std::binary_search(pairs.begin(), pairs.end(), TopologyPair(key, value));
}

// Upstream rebuilds its metadata for every pod by walking every existing pod.
// Between two cycles only the pods in ClusterState::pod_log() since the last
// one changed, so the counted form keeps the metadata's pairs as counts and
// brings them up to date pod by pod. It is used when every term compiled
// and no pod is bound to a missing node (otherwise the walk below, with its
// fallback and error paths, decides), in two parts:

// Pairs where existing pods' required anti-affinity terms match the incoming
// pod. They depend on the incoming pod only through which terms of each
// compiled group (PodAffinityCache) it matches, so one object serves every
// incoming pod with the same matches: scheduler_perf's anti-affinity pods,
// each with a unique label, share one.
struct ExistingAntiCounts {
  uint64_t cluster_id = 0;
  uint64_t synced = 0;  // pod_log() entries before this one are counted
  // By group: 0 until a pod of the group is counted; then bit 63 and bit i
  // for each required anti-affinity term i that the incoming pods match.
  std::vector<uint64_t> group_bits;
  TopologyPairCounts pairs;
};

// Pairs holding pods that match all of the incoming pod's required affinity
// terms (`affinity`) or one of its required anti-affinity terms (`anti`).
// They depend only on those terms: one object per compiled group.
struct OwnTermCounts {
  uint64_t cluster_id = 0;
  uint64_t synced = 0;
  uint32_t group = 0;
  size_t num_affinity_keys = 0;  // distinct topology keys of the affinity terms
  // By PodInfo::label_set: bit 0 decided, bit 1 matches all affinity terms,
  // bit 2 + i matches anti-affinity term i.
  std::vector<uint64_t> label_set_bits;
  TopologyPairCounts affinity;
  TopologyPairCounts anti;
};

struct InterPodAffinityState : PredicateState {
  const ClusterState* cluster = nullptr;

  // Pairs where placing the pod would break an existing pod's anti-affinity.
  std::vector<uint64_t> existing_anti_pairs;
  // The distinct topology keys of those pairs: a node is checked by looking
  // up only these keys (usually one or two), not every label it has.
  std::vector<StrId> existing_anti_keys;

  // The incoming pod's own constraints.
  bool has_constraints = false;      // podAffinity or podAntiAffinity present
  std::vector<StrId> affinity_keys;  // topology key of each required affinity term
  std::vector<StrId> anti_keys;      // topology key of each required anti-affinity term
  bool self_match = false;           // the pod matches all its own affinity terms

  // Upstream's metadata path.
  std::vector<uint64_t> affinity_pairs;
  std::vector<uint64_t> anti_pairs;

  // Per-node verdicts worked out in Prepare() from the pair lists above, by
  // walking each pair's topology domain (ClusterState::NodesWithLabel)
  // rather than looking every node's labels up: bit kExistingAnti, and, on
  // the metadata path, kAffinity and kAnti. Empty: Check() decides per node.
  static constexpr uint8_t kExistingAnti = 1, kAffinity = 2, kAnti = 4;
  std::vector<uint8_t> verdict;
  bool own_verdicts = false;  // kAffinity and kAnti are filled in

  // Upstream's fallback path (metadata could not be built).
  bool fallback = false;
  std::vector<NodeId> affinity_targets;  // nodes of pods matching all affinity terms
  std::vector<NodeId> anti_targets;      // nodes of pods matching all anti-affinity terms
  bool affinity_fail_all = false;
  bool anti_fail_all = false;

  // Set only in copies (CopyState) that have heard of pods added to or
  // removed from the node being checked: the pairs then come from here, pod by
  // pod, and `verdict` and the pair lists above are not used.
  std::unique_ptr<InterPodAffinityMetadata> meta;
  std::shared_ptr<const CompiledPodAffinity> inc;  // the incoming pod's terms
  std::vector<PodId> removed;                      // fallback copies: pods taken away

  // The counted form (see ExistingAntiCounts and OwnTermCounts below): when
  // set, Check() reads the kept counts, and the pair lists and `verdict`
  // above are not filled.
  bool counted = false;
  std::shared_ptr<const ExistingAntiCounts> existing;  // null: no existing pod's term applies
  std::shared_ptr<const OwnTermCounts> own;            // null: no required terms of its own
  bool own_affinity_applies = false;  // the affinity terms can fail a node this cycle
};

// Sets `bit` on every node in the domain of each pair.
void MarkDomains(const ClusterState& cluster, const std::vector<uint64_t>& pairs, uint8_t bit,
                 std::vector<uint8_t>* verdict) {
  for (uint64_t p : pairs) {
    for (NodeId n : cluster.NodesWithLabel(static_cast<StrId>(p >> 32), static_cast<StrId>(p)))
      (*verdict)[n] |= bit;
  }
}

void BuildVerdicts(const ClusterState& cluster, bool own, InterPodAffinityState* s) {
  s->verdict.assign(cluster.num_nodes(), 0);
  MarkDomains(cluster, s->existing_anti_pairs, InterPodAffinityState::kExistingAnti, &s->verdict);
  s->own_verdicts = own;
  if (!own) return;
  MarkDomains(cluster, s->anti_pairs, InterPodAffinityState::kAnti, &s->verdict);
  if (s->affinity_keys.empty() || (s->affinity_pairs.empty() && s->self_match)) return;
  // A node satisfies the affinity terms when each distinct topology key's
  // value on it holds a matching pod: count the keys satisfied per node.
  std::vector<StrId> keys = s->affinity_keys;
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  std::vector<uint32_t> satisfied(cluster.num_nodes(), 0);
  for (uint64_t p : s->affinity_pairs) {
    for (NodeId n : cluster.NodesWithLabel(static_cast<StrId>(p >> 32), static_cast<StrId>(p)))
      ++satisfied[n];
  }
  for (NodeId n = 0; n < cluster.num_nodes(); ++n)
    if (satisfied[n] != keys.size()) s->verdict[n] |= InterPodAffinityState::kAffinity;
}

// Upstream's fallback (no metadata) decides the incoming pod's own terms
// against every pod in the cache: the nodes of pods matching all affinity
// terms, and of pods matching all anti-affinity terms. Pods in `excluded`
// (preemption victims removed from the node being checked) do not count.
Status FallbackTargets(const Pod& pod, const CompiledPodAffinity& inc, const ClusterState& cluster,
                       const std::vector<PodId>* excluded, InterPodAffinityState* s) {
  auto counts = [&](PodId id) {
    const PodInfo& existing = cluster.pod(id);
    return existing.live && (excluded == nullptr ||
                             std::find(excluded->begin(), excluded->end(), id) == excluded->end());
  };
  const std::string* affinity_error = FirstTermError(inc.required_affinity);
  const std::string* anti_error = FirstTermError(inc.required_anti_affinity);
  const bool any_pods = cluster.num_live_pods() > 0;
  s->affinity_targets.clear();
  s->anti_targets.clear();
  s->affinity_fail_all = false;
  s->anti_fail_all = false;
  if (!inc.required_affinity.empty()) {
    if (affinity_error != nullptr) {
      if (any_pods) {
        return MakeError("Cannot schedule pod " + PodDisplayName(pod) +
                         ", because of PodAffinity: " + *affinity_error);
      }
      s->affinity_fail_all = true;  // and the pod cannot match its own terms
    } else {
      const bool empty_key =
          std::any_of(inc.required_affinity.begin(), inc.required_affinity.end(),
                      [](const AffinityTerm& t) { return t.topology_key == kEmptyStr; });
      for (PodId id = 0; id < cluster.num_pods(); ++id) {
        if (!counts(id)) continue;
        const PodInfo& existing = cluster.pod(id);
        if (!PodMatchesAllTerms(existing.pod, inc.required_affinity)) continue;
        if (existing.node == kNoNode) {
          return MakeError("Cannot schedule pod " + PodDisplayName(pod) +
                           ", because of PodAffinity: node \"" + existing.pod.spec.node_name +
                           "\" not found");
        }
        if (empty_key) {
          return MakeError("Cannot schedule pod " + PodDisplayName(pod) +
                           ", because of PodAffinity: empty topologyKey is not allowed except "
                           "for PreferredDuringScheduling pod anti-affinity");
        }
        s->affinity_targets.push_back(existing.node);
      }
      SortUnique(&s->affinity_targets);
    }
  }
  if (!inc.required_anti_affinity.empty()) {
    if (anti_error != nullptr) {
      // Upstream turns the error into a plain anti-affinity failure.
      s->anti_fail_all = any_pods;
    } else {
      for (PodId id = 0; id < cluster.num_pods(); ++id) {
        if (!counts(id)) continue;
        const PodInfo& existing = cluster.pod(id);
        if (!PodMatchesAllTerms(existing.pod, inc.required_anti_affinity)) continue;
        if (existing.node == kNoNode) {
          s->anti_fail_all = true;  // the lookup error counts as a match
          break;
        }
        s->anti_targets.push_back(existing.node);
      }
      SortUnique(&s->anti_targets);
    }
  }
  return Status::Ok();
}

class MatchInterPodAffinityPredicate : public Predicate {
 public:
  explicit MatchInterPodAffinityPredicate(bool keep_counts) : keep_counts_(keep_counts) {}
  Result<std::unique_ptr<PredicateState>> Prepare(const PodToSchedule& pod,
                                                  const ClusterState& cluster) const override;
  bool Check(const PodToSchedule& pod, const PredicateState* state, const NodeInfo& node,
             ReasonList* reasons) const override;
  bool CheckAll(const PodToSchedule& pod, const PredicateState* state, const ClusterState& cluster,
                std::span<uint8_t> fits) const override;
  std::unique_ptr<PredicateState> CopyState(const PodToSchedule& pod,
                                            const PredicateState* state) const override;
  void AddPod(const PodToSchedule& pod, PredicateState* state, PodId added,
              const NodeInfo& node) const override;
  void RemovePod(const PodToSchedule& pod, PredicateState* state, PodId removed) const override;
  // Pods landing on other nodes change the answer for this one.
  bool NodeLocal() const override { return false; }
  // No existing pod's anti-affinity applies and the pod has no required
  // terms of its own (preferred terms are for the priority only).
  bool AlwaysPasses(const PredicateState* state) const override {
    const auto& s = *static_cast<const InterPodAffinityState*>(state);
    if (s.meta) return false;
    if (s.counted) return !s.existing && !s.own;
    return s.existing_anti_pairs.empty() &&
           (!s.has_constraints || (s.affinity_keys.empty() && s.anti_keys.empty() &&
                                   !s.affinity_fail_all && !s.anti_fail_all));
  }

 private:
  bool CheckFallback(const InterPodAffinityState& s, const NodeInfo& node,
                     ReasonList* reasons) const;
  // Check() for a copy that carries metadata.
  bool CheckWithMetadata(const InterPodAffinityState& s, const NodeInfo& node,
                         ReasonList* reasons) const;
  // Check() for the counted form.
  bool CheckCounted(const InterPodAffinityState& s, NodeId n, ReasonList* reasons) const;

  // The counted form of Prepare(); false when it does not apply (the walk
  // then decides). Called with cache_ locked.
  bool PrepareCounted(const Pod& pod, const ClusterState& cluster, InterPodAffinityState* s) const;
  // The kept counts for `pod`, brought up to date; null when they do not
  // apply (a group with more than 63 anti-affinity terms).
  std::shared_ptr<ExistingAntiCounts> ExistingCountsFor(const Pod& pod,
                                                        const ClusterState& cluster) const;
  std::shared_ptr<OwnTermCounts> OwnCountsFor(uint32_t group, const ClusterState& cluster) const;

  const bool keep_counts_;
  mutable PodAffinityCache cache_;
  // Kept counts, most recently used first.
  static constexpr size_t kKeptCounts = 32;
  mutable KeptList<ExistingAntiCounts> existing_counts_{kKeptCounts};
  mutable KeptList<OwnTermCounts> own_counts_{kKeptCounts};
};

// Bit 63, and bit i for each of `c`'s required anti-affinity terms (at most
// 63) that `pod` matches.
uint64_t AntiTermBits(const CompiledPodAffinity& c, const Pod& pod) {
  uint64_t bits = uint64_t{1} << 63;
  const std::vector<AffinityTerm>& terms = c.required_anti_affinity;
  for (size_t i = 0; i < terms.size(); ++i)
    if (terms[i].Matches(pod)) bits |= uint64_t{1} << i;
  return bits;
}

std::shared_ptr<ExistingAntiCounts> MatchInterPodAffinityPredicate::ExistingCountsFor(
    const Pod& pod, const ClusterState& cluster) const {
  const std::vector<ClusterState::PodChange>& log = cluster.pod_log();
  std::shared_ptr<ExistingAntiCounts> e = existing_counts_.Find([&](const ExistingAntiCounts& k) {
    if (k.cluster_id != cluster.id() || k.synced > log.size()) return false;
    for (uint32_t g = 0; g < k.group_bits.size(); ++g)
      if (k.group_bits[g] != 0 && AntiTermBits(cache_.Shared(g), pod) != k.group_bits[g])
        return false;
    return true;
  });
  if (!e) {
    e = std::make_shared<ExistingAntiCounts>();
    e->cluster_id = cluster.id();
    e->pairs.Reset(cluster.num_nodes());
    existing_counts_.Add(e);
  }
  for (; e->synced < log.size(); ++e->synced) {
    const ClusterState::PodChange change = log[e->synced];
    const PodInfo& existing = cluster.pod(change.pod);
    if (!existing.has_affinity) continue;
    const uint32_t group = cache_.Group(cluster, change.pod);
    const CompiledPodAffinity& c = cache_.Shared(group);
    const std::vector<AffinityTerm>& terms = c.required_anti_affinity;
    if (terms.empty()) continue;
    if (terms.size() > 63) {
      existing_counts_.DropFront();
      return nullptr;
    }
    if (group >= e->group_bits.size()) e->group_bits.resize(group + 1, 0);
    uint64_t& bits = e->group_bits[group];
    if (bits == 0) bits = AntiTermBits(c, pod);
    const Labels& node_labels = cluster.node(existing.node).meta.labels;
    for (size_t i = 0; i < terms.size(); ++i) {
      if (!((bits >> i) & 1)) continue;
      if (std::optional<StrId> v = node_labels.Get(terms[i].topology_key))
        e->pairs.Add(cluster, TopologyPair(terms[i].topology_key, *v), change.added ? 1 : -1);
    }
  }
  return e;
}

std::shared_ptr<OwnTermCounts> MatchInterPodAffinityPredicate::OwnCountsFor(
    uint32_t group, const ClusterState& cluster) const {
  const std::vector<ClusterState::PodChange>& log = cluster.pod_log();
  const CompiledPodAffinity& inc = cache_.Shared(group);
  std::shared_ptr<OwnTermCounts> o = own_counts_.Find([&](const OwnTermCounts& k) {
    return k.cluster_id == cluster.id() && k.group == group && k.synced <= log.size();
  });
  if (!o) {
    o = std::make_shared<OwnTermCounts>();
    o->cluster_id = cluster.id();
    o->group = group;
    std::vector<StrId> keys;
    for (const AffinityTerm& t : inc.required_affinity) keys.push_back(t.topology_key);
    std::sort(keys.begin(), keys.end());
    o->num_affinity_keys =
        static_cast<size_t>(std::unique(keys.begin(), keys.end()) - keys.begin());
    o->affinity.Reset(cluster.num_nodes());
    o->anti.Reset(cluster.num_nodes());
    own_counts_.Add(o);
  }
  const size_t num_anti = inc.required_anti_affinity.size();  // at most 61 (PrepareCounted)
  if (o->label_set_bits.size() < cluster.num_label_sets())
    o->label_set_bits.resize(cluster.num_label_sets(), 0);
  for (; o->synced < log.size(); ++o->synced) {
    const ClusterState::PodChange change = log[o->synced];
    const PodInfo& existing = cluster.pod(change.pod);
    uint64_t& bits = o->label_set_bits[existing.label_set];
    if (bits == 0) {
      bits = 1;
      if (PodMatchesAllTerms(existing.pod, inc.required_affinity)) bits |= 2;
      for (size_t i = 0; i < num_anti; ++i)
        if (inc.required_anti_affinity[i].Matches(existing.pod)) bits |= uint64_t{4} << i;
    }
    if (bits == 1) continue;
    const int32_t delta = change.added ? 1 : -1;
    const Labels& node_labels = cluster.node(existing.node).meta.labels;
    if (bits & 2) {
      for (const AffinityTerm& term : inc.required_affinity)
        if (std::optional<StrId> v = node_labels.Get(term.topology_key))
          o->affinity.Add(cluster, TopologyPair(term.topology_key, *v), delta);
    }
    for (size_t i = 0; i < num_anti; ++i) {
      if (!((bits >> (2 + i)) & 1)) continue;
      const AffinityTerm& term = inc.required_anti_affinity[i];
      if (std::optional<StrId> v = node_labels.Get(term.topology_key))
        o->anti.Add(cluster, TopologyPair(term.topology_key, *v), delta);
    }
  }
  return o;
}

bool MatchInterPodAffinityPredicate::PrepareCounted(const Pod& pod, const ClusterState& cluster,
                                                    InterPodAffinityState* s) const {
  if (!keep_counts_ || cluster.num_pods_on_missing_nodes() > 0 || cache_.any_invalid())
    return false;
  const uint32_t own_group = cache_.GroupOfPod(pod);
  const CompiledPodAffinity& inc = cache_.Shared(own_group);
  if (cache_.any_invalid() || inc.required_anti_affinity.size() > 61) return false;
  std::shared_ptr<ExistingAntiCounts> existing = ExistingCountsFor(pod, cluster);
  // Counting compiled the groups of pods not seen before.
  if (!existing || cache_.any_invalid()) return false;
  std::shared_ptr<OwnTermCounts> own;
  if (!inc.required_affinity.empty() || !inc.required_anti_affinity.empty())
    own = OwnCountsFor(own_group, cluster);

  s->counted = true;
  if (!existing->pairs.empty()) s->existing = std::move(existing);
  s->has_constraints = inc.any();
  for (const AffinityTerm& t : inc.required_affinity) s->affinity_keys.push_back(t.topology_key);
  for (const AffinityTerm& t : inc.required_anti_affinity) s->anti_keys.push_back(t.topology_key);
  s->self_match = PodMatchesAllTerms(pod, inc.required_affinity);
  // No pod matches the affinity terms at all and the pod matches them
  // itself (the first of its group): they pass every node.
  s->own_affinity_applies =
      own && !s->affinity_keys.empty() && !(own->affinity.empty() && s->self_match);
  s->own = std::move(own);
  return true;
}

Result<std::unique_ptr<PredicateState>> MatchInterPodAffinityPredicate::Prepare(
    const PodToSchedule& target, const ClusterState& cluster) const {
  const Pod& pod = target.pod();
  auto s = std::make_unique<InterPodAffinityState>();
  s->cluster = &cluster;
  auto lock = cache_.Lock();

  // Upstream keeps a NodeInfo (without a node) for every node name a pod is
  // bound to; one without a node makes its metadata producer fail.
  const size_t pods_on_nodes = cluster.num_live_pods() - cluster.num_pods_on_missing_nodes();
  const bool pods_on_missing_nodes = cluster.num_pods_on_missing_nodes() > 0;
  if (PrepareCounted(pod, cluster, s.get())) return std::unique_ptr<PredicateState>(std::move(s));

  // Existing pods' required anti-affinity terms that the incoming pod matches.
  // Pods on missing nodes are skipped (upstream's fallback skips them too).
  // Pods of one controller share their compiled terms (one group), so which
  // of a group's terms the incoming pod matches is decided once: bit 63
  // decided, bit i term i.
  std::vector<uint64_t> group_matches;
  for (PodId id : cluster.pods_with_affinity()) {
    const PodInfo& existing = cluster.pod(id);
    if (existing.node == kNoNode) continue;
    const uint32_t group = cache_.Group(cluster, id);
    const CompiledPodAffinity& c = cache_.Get(cluster, id);
    const std::vector<AffinityTerm>& terms = c.required_anti_affinity;
    if (terms.empty()) continue;
    if (group >= group_matches.size()) group_matches.resize(cache_.num_groups(), 0);
    uint64_t& bits = group_matches[group];
    if (!(bits >> 63)) {
      bits = uint64_t{1} << 63;
      for (size_t i = 0; i < terms.size(); ++i) {
        if (!terms[i].valid()) {
          // Upstream fails the metadata, then its fallback fails every node
          // with this error.
          return MakeError("Failed to get all terms that match pod " + PodDisplayName(pod) + ": " +
                           *terms[i].error);
        }
        if (i < 63 && terms[i].Matches(pod)) bits |= uint64_t{1} << i;
      }
    }
    const Labels& node_labels = cluster.node(existing.node).meta.labels;
    for (size_t i = 0; i < terms.size(); ++i) {
      const AffinityTerm& term = terms[i];
      if (!(i < 63 ? (bits >> i) & 1 : term.Matches(pod))) continue;
      if (std::optional<StrId> v = node_labels.Get(term.topology_key)) {
        s->existing_anti_pairs.push_back(TopologyPair(term.topology_key, *v));
        s->existing_anti_keys.push_back(term.topology_key);
      }
    }
  }
  SortUnique(&s->existing_anti_pairs);
  std::sort(s->existing_anti_keys.begin(), s->existing_anti_keys.end());
  s->existing_anti_keys.erase(
      std::unique(s->existing_anti_keys.begin(), s->existing_anti_keys.end()),
      s->existing_anti_keys.end());

  const CompiledPodAffinity inc = CompilePodAffinity(pod);
  s->has_constraints = inc.any();
  if (!s->has_constraints) {
    s->fallback = pods_on_missing_nodes;  // only the existing-pods check runs
    if (!s->existing_anti_pairs.empty()) BuildVerdicts(cluster, false, s.get());
    return std::unique_ptr<PredicateState>(std::move(s));
  }
  for (const AffinityTerm& t : inc.required_affinity) s->affinity_keys.push_back(t.topology_key);
  for (const AffinityTerm& t : inc.required_anti_affinity) s->anti_keys.push_back(t.topology_key);
  s->self_match = PodMatchesAllTerms(pod, inc.required_affinity);

  const std::string* affinity_error = FirstTermError(inc.required_affinity);
  const std::string* anti_error = FirstTermError(inc.required_anti_affinity);
  s->fallback = pods_on_missing_nodes || affinity_error != nullptr ||
                (anti_error != nullptr && pods_on_nodes > 0);

  if (!s->fallback) {
    if (inc.required_affinity.empty() && inc.required_anti_affinity.empty()) {
      if (!s->existing_anti_pairs.empty()) BuildVerdicts(cluster, true, s.get());
      return std::unique_ptr<PredicateState>(std::move(s));  // no pairs to collect
    }
    // Matching depends only on a pod's (namespace, labels), which most pods
    // share with many others: decide once per label set. Bit 0: known; bit 1:
    // matches all affinity terms; bit 2+i: matches anti-affinity term i.
    const size_t num_anti = inc.required_anti_affinity.size();
    const bool memo = num_anti <= 61;
    std::vector<uint64_t> decided(memo ? cluster.num_label_sets() : 0, 0);
    auto decide = [&](const PodInfo& existing) -> uint64_t {
      uint64_t bits = 1;
      if (PodMatchesAllTerms(existing.pod, inc.required_affinity)) bits |= 2;
      for (size_t i = 0; i < num_anti; ++i)
        if (inc.required_anti_affinity[i].Matches(existing.pod)) bits |= uint64_t{4} << i;
      return bits;
    };
    for (NodeId n = 0; n < cluster.num_nodes(); ++n) {
      const NodeInfo& info = cluster.node_info(n);
      const Labels& node_labels = info.labels();
      for (PodId id : info.pods) {
        const PodInfo& existing = cluster.pod(id);
        uint64_t bits;
        if (memo) {
          uint64_t& d = decided[existing.label_set];
          if (d == 0) d = decide(existing);
          bits = d;
        } else {
          bits = decide(existing);  // (over 61 terms: no memo, same answers)
        }
        if (bits & 2) {
          for (const AffinityTerm& term : inc.required_affinity) {
            if (std::optional<StrId> v = node_labels.Get(term.topology_key)) {
              s->affinity_pairs.push_back(TopologyPair(term.topology_key, *v));
            }
          }
        }
        for (size_t i = 0; i < num_anti; ++i) {
          const AffinityTerm& term = inc.required_anti_affinity[i];
          bool match = memo ? (bits >> (2 + i)) & 1 : term.Matches(existing.pod);
          if (!match) continue;
          if (std::optional<StrId> v = node_labels.Get(term.topology_key)) {
            s->anti_pairs.push_back(TopologyPair(term.topology_key, *v));
          }
        }
      }
    }
    SortUnique(&s->affinity_pairs);
    SortUnique(&s->anti_pairs);
    BuildVerdicts(cluster, true, s.get());
    return std::unique_ptr<PredicateState>(std::move(s));
  }

  // Fallback: every pod in the cache is a candidate, including pods bound to
  // nodes that do not exist.
  if (!s->existing_anti_pairs.empty()) BuildVerdicts(cluster, false, s.get());
  if (Status st = FallbackTargets(pod, inc, cluster, nullptr, s.get()); !st.ok()) {
    return st.error();
  }
  return std::unique_ptr<PredicateState>(std::move(s));
}

bool MatchInterPodAffinityPredicate::Check(const PodToSchedule& pod, const PredicateState* state,
                                           const NodeInfo& node, ReasonList* reasons) const {
  (void)pod;
  const auto& s = *static_cast<const InterPodAffinityState*>(state);
  const Labels& labels = node.labels();

  if (s.meta) return CheckWithMetadata(s, node, reasons);
  if (s.counted) return CheckCounted(s, node.id, reasons);
  if (!s.verdict.empty()) {
    const uint8_t v = s.verdict[node.id];
    // Existing pods' anti-affinity comes first.
    if (v & InterPodAffinityState::kExistingAnti) {
      reasons->Add(AffinityNotMatch());
      reasons->Add(ExistingAntiAffinityNotMatch());
      return false;
    }
    if (s.own_verdicts) {
      if (v & InterPodAffinityState::kAffinity) {
        reasons->Add(AffinityNotMatch());
        reasons->Add(AffinityRulesNotMatch());
        return false;
      }
      if (v & InterPodAffinityState::kAnti) {
        reasons->Add(AffinityNotMatch());
        reasons->Add(AntiAffinityRulesNotMatch());
        return false;
      }
      return true;
    }
    if (!s.has_constraints) return true;
    return CheckFallback(s, node, reasons);
  }

  // Existing pods' anti-affinity comes first.
  if (!s.existing_anti_pairs.empty()) {
    for (StrId key : s.existing_anti_keys) {
      std::optional<StrId> value = labels.Get(key);
      if (value && HasPair(s.existing_anti_pairs, key, *value)) {
        reasons->Add(AffinityNotMatch());
        reasons->Add(ExistingAntiAffinityNotMatch());
        return false;
      }
    }
  }
  if (!s.has_constraints) return true;
  if (s.fallback) return CheckFallback(s, node, reasons);

  // Every affinity term's topology must hold a matching pod, unless no pod
  // matches at all and the pod matches its own terms (first of its group).
  if (!s.affinity_keys.empty()) {
    bool all = true;
    for (StrId key : s.affinity_keys) {
      std::optional<StrId> v = labels.Get(key);
      if (!v || !HasPair(s.affinity_pairs, key, *v)) {
        all = false;
        break;
      }
    }
    if (!all && !(s.affinity_pairs.empty() && s.self_match)) {
      reasons->Add(AffinityNotMatch());
      reasons->Add(AffinityRulesNotMatch());
      return false;
    }
  }
  // No anti-affinity term's topology may hold a matching pod.
  for (StrId key : s.anti_keys) {
    std::optional<StrId> v = labels.Get(key);
    if (v && HasPair(s.anti_pairs, key, *v)) {
      reasons->Add(AffinityNotMatch());
      reasons->Add(AntiAffinityRulesNotMatch());
      return false;
    }
  }
  return true;
}

bool MatchInterPodAffinityPredicate::CheckCounted(const InterPodAffinityState& s, NodeId n,
                                                  ReasonList* reasons) const {
  // Existing pods' anti-affinity comes first.
  if (s.existing && s.existing->pairs.covering(n) > 0) {
    reasons->Add(AffinityNotMatch());
    reasons->Add(ExistingAntiAffinityNotMatch());
    return false;
  }
  if (!s.own) return true;
  // Every affinity term's topology must hold a matching pod: the node is
  // covered by a present pair of each distinct key.
  if (s.own_affinity_applies && s.own->affinity.covering(n) != s.own->num_affinity_keys) {
    reasons->Add(AffinityNotMatch());
    reasons->Add(AffinityRulesNotMatch());
    return false;
  }
  // No anti-affinity term's topology may hold a matching pod.
  if (s.own->anti.covering(n) > 0) {
    reasons->Add(AffinityNotMatch());
    reasons->Add(AntiAffinityRulesNotMatch());
    return false;
  }
  return true;
}

bool MatchInterPodAffinityPredicate::CheckAll(const PodToSchedule& pod, const PredicateState* state,
                                              const ClusterState& cluster,
                                              std::span<uint8_t> fits) const {
  (void)pod;
  (void)cluster;
  const auto& s = *static_cast<const InterPodAffinityState*>(state);
  if (!s.counted || s.meta) return false;
  // CheckCounted() for every node, one flat array at a time.
  const size_t n = fits.size();
  if (s.existing) {
    const uint32_t* c = s.existing->pairs.covering().data();
    for (size_t i = 0; i < n; ++i)
      if (c[i] != 0) fits[i] = 0;
  }
  if (!s.own) return true;
  if (s.own_affinity_applies) {
    const uint32_t* c = s.own->affinity.covering().data();
    const uint32_t want = static_cast<uint32_t>(s.own->num_affinity_keys);
    for (size_t i = 0; i < n; ++i)
      if (c[i] != want) fits[i] = 0;
  }
  if (!s.own->anti.empty()) {
    const uint32_t* c = s.own->anti.covering().data();
    for (size_t i = 0; i < n; ++i)
      if (c[i] != 0) fits[i] = 0;
  }
  return true;
}

// Upstream's per-node fallback. A pod satisfies (or violates) the term list
// only if it matches every term and shares every term's topology with the
// node; anti-affinity is decided before affinity.
bool MatchInterPodAffinityPredicate::CheckFallback(const InterPodAffinityState& s,
                                                   const NodeInfo& node,
                                                   ReasonList* reasons) const {
  const Labels& labels = node.labels();
  if (!s.anti_keys.empty()) {
    bool violated = s.anti_fail_all;
    for (size_t i = 0; !violated && i < s.anti_targets.size(); ++i) {
      const Labels& other = s.cluster->node(s.anti_targets[i]).meta.labels;
      bool all = true;
      for (StrId key : s.anti_keys) {
        if (key == kEmptyStr) break;  // upstream errors here, which counts as a match
        if (!NodesShareTopology(labels, other, key)) {
          all = false;
          break;
        }
      }
      violated = all;
    }
    if (violated) {
      reasons->Add(AffinityNotMatch());
      reasons->Add(AntiAffinityRulesNotMatch());
      return false;
    }
  }
  if (!s.affinity_keys.empty()) {
    bool ok = false;
    if (!s.affinity_fail_all) {
      for (size_t i = 0; !ok && i < s.affinity_targets.size(); ++i) {
        const Labels& other = s.cluster->node(s.affinity_targets[i]).meta.labels;
        ok = std::all_of(s.affinity_keys.begin(), s.affinity_keys.end(),
                         [&](StrId key) { return NodesShareTopology(labels, other, key); });
      }
      // First pod of a group: no pod matches the terms at all.
      if (!ok && s.affinity_targets.empty()) ok = s.self_match;
    }
    if (!ok) {
      reasons->Add(AffinityNotMatch());
      reasons->Add(AffinityRulesNotMatch());
      return false;
    }
  }
  return true;
}

std::unique_ptr<PredicateState> MatchInterPodAffinityPredicate::CopyState(
    const PodToSchedule& target, const PredicateState* state) const {
  const auto& s = *static_cast<const InterPodAffinityState*>(state);
  auto c = std::make_unique<InterPodAffinityState>();
  c->cluster = s.cluster;
  c->has_constraints = s.has_constraints;
  c->affinity_keys = s.affinity_keys;
  c->anti_keys = s.anti_keys;
  c->self_match = s.self_match;
  c->fallback = s.fallback;
  c->affinity_targets = s.affinity_targets;
  c->anti_targets = s.anti_targets;
  c->affinity_fail_all = s.affinity_fail_all;
  c->anti_fail_all = s.anti_fail_all;
  c->removed = s.removed;
  if (s.meta) {
    c->meta = std::make_unique<InterPodAffinityMetadata>(*s.meta);
    c->inc = s.inc;
  } else {
    // The first copy of a cycle's state: build the pod-by-pod form once.
    c->inc = std::make_shared<const CompiledPodAffinity>(CompilePodAffinity(target.pod()));
    c->meta = std::make_unique<InterPodAffinityMetadata>(
        InterPodAffinityMetadata::Build(target.pod(), *c->inc, !s.fallback, *s.cluster, &cache_));
  }
  return c;
}

void MatchInterPodAffinityPredicate::AddPod(const PodToSchedule& target, PredicateState* state,
                                            PodId added, const NodeInfo& node) const {
  auto& s = *static_cast<InterPodAffinityState*>(state);
  // Without metadata upstream's checks read the cache's own pod list, which
  // an added pod is not part of.
  if (s.fallback) return;
  const CompiledPodAffinity* added_affinity;
  {
    auto lock = cache_.Lock();
    added_affinity = &cache_.Get(*s.cluster, added);
  }
  s.meta->AddPod(target.pod(), *s.inc, added, *added_affinity, s.cluster->pod(added).pod, node);
}

void MatchInterPodAffinityPredicate::RemovePod(const PodToSchedule& target, PredicateState* state,
                                               PodId removed) const {
  auto& s = *static_cast<InterPodAffinityState*>(state);
  s.meta->RemovePod(removed);
  if (s.fallback && s.has_constraints) {
    s.removed.push_back(removed);
    // Cannot fail here: Prepare() succeeded on a superset of these pods.
    (void)FallbackTargets(target.pod(), *s.inc, *s.cluster, &s.removed, &s);
  }
}

bool MatchInterPodAffinityPredicate::CheckWithMetadata(const InterPodAffinityState& s,
                                                       const NodeInfo& node,
                                                       ReasonList* reasons) const {
  const Labels& labels = node.labels();
  // Existing pods' anti-affinity comes first: any of the node's labels.
  if (!s.meta->existing_anti.empty()) {
    for (const auto& [key, value] : labels) {
      if (s.meta->existing_anti.Has(TopologyPair(key, value))) {
        reasons->Add(AffinityNotMatch());
        reasons->Add(ExistingAntiAffinityNotMatch());
        return false;
      }
    }
  }
  if (!s.has_constraints) return true;
  if (s.fallback) return CheckFallback(s, node, reasons);
  if (!s.affinity_keys.empty()) {
    bool all = true;
    for (StrId key : s.affinity_keys) {
      std::optional<StrId> v = labels.Get(key);
      if (!v || !s.meta->potential_affinity.Has(TopologyPair(key, *v))) {
        all = false;
        break;
      }
    }
    if (!all && !(s.meta->potential_affinity.empty() && s.self_match)) {
      reasons->Add(AffinityNotMatch());
      reasons->Add(AffinityRulesNotMatch());
      return false;
    }
  }
  for (StrId key : s.anti_keys) {
    std::optional<StrId> v = labels.Get(key);
    if (v && s.meta->potential_anti.Has(TopologyPair(key, *v))) {
      reasons->Add(AffinityNotMatch());
      reasons->Add(AntiAffinityRulesNotMatch());
      return false;
    }
  }
  return true;
}

}  // namespace

std::unique_ptr<Predicate> NewMatchInterPodAffinity() {
  return std::make_unique<MatchInterPodAffinityPredicate>(/*keep_counts=*/true);
}

std::unique_ptr<Predicate> NewMatchInterPodAffinityWalkingEveryPod() {
  return std::make_unique<MatchInterPodAffinityPredicate>(/*keep_counts=*/false);
}

}  // namespace ksched
