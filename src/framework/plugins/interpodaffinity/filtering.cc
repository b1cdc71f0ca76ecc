// InterPodAffinity's PreFilter, its AddPod/RemovePod extensions and Filter
// (upstream's filtering.go).
#include <memory>

#include "framework/plugins/interpodaffinity/plugin.h"

namespace ksched::framework::interpodaffinity {
namespace {

const StateKey kPreFilterStateKey = StateKey::Register();

// Upstream's preFilterState.
struct PreFilterState final : StateData {
  // Pairs where existing pods' required anti-affinity terms match the
  // incoming pod (existingAntiAffinityCounts).
  TopologyCounts existing_anti;
  // Pairs holding pods that match all of the incoming pod's required
  // affinity terms (affinityCounts) / one of its required anti-affinity
  // terms, once per term (antiAffinityCounts).
  TopologyCounts affinity;
  TopologyCounts anti;
  // The incoming pod's terms, namespace selectors merged.
  std::shared_ptr<const PodTerms> terms;
  // The slot in `affinity` / `anti` of each required term's topology key.
  std::vector<uint32_t> affinity_slots;
  std::vector<uint32_t> anti_slots;
  // The incoming pod matches all its own required affinity terms.
  bool matches_own_affinity = false;
  Labels namespace_labels;  // of the incoming pod's namespace
  // Every index above covers the nodes 0..covered-1 (FilterCodeOf).
  size_t covered = 0;

  std::unique_ptr<StateData> Clone() const override {
    return std::make_unique<PreFilterState>(*this);
  }
};

// The byte of each term of `terms` that matches `pod`.
void MatchEach(const std::vector<AffinityTerm>& terms, const Pod& pod, const Labels& ns_labels,
               uint8_t* out) {
  for (size_t i = 0; i < terms.size(); ++i) out[i] = terms[i].Matches(pod, ns_labels);
}

const Labels& NoLabels() {
  static const Labels kNone;
  return kNone;
}

// The nodes every index of the state covers: 0..Covered()-1.
size_t Covered(const PreFilterState& s, size_t num_nodes) {
  size_t covered = num_nodes;
  for (const TopologyCounts* counts : {&s.affinity, &s.anti, &s.existing_anti})
    for (uint32_t slot = 0; slot < counts->num_slots(); ++slot)
      covered = std::min(covered, counts->index(slot).num_nodes());
  return covered;
}

// Writes PreFilter's state. v1.35 returns Skip (its Filter and AddPod /
// RemovePod do not run) when no existing pod's required anti-affinity
// matches the pod and the pod has no required terms: every node passes then
// -- unless a pod nominated to it has required anti-affinity against the
// pod, which v1.35 no longer sees (v1.26 counts it through AddPod). The
// state is written either way: PreScore reads its terms.
Status Finish(CycleState* cycle, std::unique_ptr<PreFilterState> s, size_t num_nodes, bool v135) {
  s->covered = Covered(*s, num_nodes);
  const bool skip = v135 && s->existing_anti.num_nonzero() == 0 &&
                    s->terms->required_affinity.empty() && s->terms->required_anti_affinity.empty();
  cycle->Write(kPreFilterStateKey, std::move(s));
  return skip ? Status(Code::kSkip) : Status();
}

}  // namespace

Status InterPodAffinity::PreFilter(CycleState* cycle, const Pod& pod, PreFilterResult*) {
  const ClusterState& cluster = handle_->cluster();
  PodTerms parsed = ParsePodTerms(pod);
  if (!parsed.error.empty()) {
    return Status(Code::kUnschedulableAndUnresolvable, "parsing pod: " + parsed.error);
  }
  // All four lists: PreScore reads the preferred ones (ParsedTerms).
  MergeAll(cluster, &parsed);

  auto s = std::make_unique<PreFilterState>();
  s->namespace_labels = NamespaceLabelsOf(cluster, pod.meta.ns);
  s->terms = std::make_shared<const PodTerms>(std::move(parsed));
  const PodTerms& own = *s->terms;
  for (const AffinityTerm& t : own.required_affinity) {
    s->affinity_slots.push_back(s->affinity.Slot(indexes_.Get(cluster, t.topology_key)));
  }
  for (const AffinityTerm& t : own.required_anti_affinity) {
    s->anti_slots.push_back(s->anti.Slot(indexes_.Get(cluster, t.topology_key)));
  }
  s->matches_own_affinity = PodMatchesAllTerms(own.required_affinity, pod);

  std::lock_guard<std::mutex> lock(mu_);
  if (handle_->reuse_between_cycles()) {
    // The same counts from the sums kept over the placed pods.
    SyncGroups(cluster);
    auto add_all = [&](TopologyCounts* counts, uint32_t slot,
                       const std::shared_ptr<DomainCounts>& sums) { counts->AddAll(slot, sums); };
    // existingAntiAffinityCounts: each group's matching terms.
    for (uint32_t g : placed_groups_) {
      const GroupSums& gs = group_sums_[g];
      const std::vector<AffinityTerm>& terms = cache_.terms(g).required_anti_affinity;
      if (gs.pods == 0 || terms.empty()) continue;
      for (size_t j = 0; j < terms.size(); ++j) {
        if (!terms[j].Matches(pod, s->namespace_labels)) continue;
        uint32_t slot = s->existing_anti.FindSlot(terms[j].topology_key);
        if (slot == kNoDomain) slot = s->existing_anti.Slot(gs.required_anti_affinity.index[j]);
        add_all(&s->existing_anti, slot, gs.required_anti_affinity.counts[j]);
      }
    }
    // affinityCounts and antiAffinityCounts.
    if (!own.required_affinity.empty() || !own.required_anti_affinity.empty()) {
      const OwnSums& sums = OwnSumsFor(cluster, pod);
      for (size_t i = 0; i < s->affinity_slots.size(); ++i)
        add_all(&s->affinity, s->affinity_slots[i], sums.all_affinity.counts[i]);
      for (size_t i = 0; i < s->anti_slots.size(); ++i)
        add_all(&s->anti, s->anti_slots[i], sums.anti_affinity.counts[i]);
    }
    return Finish(cycle, std::move(s), cluster.num_nodes(), v135_);
  }
  // existingAntiAffinityCounts: pods with required anti-affinity, on nodes.
  {
    MatchMemo memo(cache_.num_groups());
    std::vector<uint32_t> slot_of_term;
    for (PodId id : cluster.pods_with_affinity()) {
      const PodInfo& info = cluster.pod(id);
      if (!info.live || info.node == kNoNode || !info.has_required_anti_affinity) continue;
      uint32_t g = cache_.Group(cluster, id);
      const std::vector<AffinityTerm>& terms = cache_.terms(g).required_anti_affinity;
      if (terms.empty()) continue;
      const uint8_t* match = memo.Get(
          g, terms.size(), [&](uint8_t* out) { MatchEach(terms, pod, s->namespace_labels, out); });
      const NodeInfo& node = cluster.node_info(info.node);
      for (size_t i = 0; i < terms.size(); ++i) {
        if (!match[i]) continue;
        uint32_t slot = s->existing_anti.FindSlot(terms[i].topology_key);
        if (slot == kNoDomain) {
          slot = s->existing_anti.Slot(indexes_.Get(cluster, terms[i].topology_key));
        }
        s->existing_anti.Add(slot, s->existing_anti.index(slot).DomainOf(node), 1);
      }
    }
  }

  // affinityCounts and antiAffinityCounts: every pod on a node, against the
  // incoming pod's terms. Those match by namespace and labels alone, so one
  // answer per label set serves all pods sharing it.
  if (!own.required_affinity.empty() || !own.required_anti_affinity.empty()) {
    const size_t n_anti = own.required_anti_affinity.size();
    MatchMemo memo(cluster.num_label_sets());
    for (const NodeInfo& node : cluster.node_infos()) {
      if (node.pods.empty()) continue;
      for (PodId id : node.pods) {
        const Pod& existing = cluster.pod(id).pod;
        const uint8_t* match = memo.Get(cluster.pod(id).label_set, 1 + n_anti, [&](uint8_t* out) {
          out[0] = PodMatchesAllTerms(own.required_affinity, existing);
          MatchEach(own.required_anti_affinity, existing, NoLabels(), out + 1);
        });
        if (match[0]) {
          for (uint32_t slot : s->affinity_slots) {
            s->affinity.Add(slot, s->affinity.index(slot).DomainOf(node), 1);
          }
        }
        for (size_t i = 0; i < n_anti; ++i) {
          if (!match[1 + i]) continue;
          uint32_t slot = s->anti_slots[i];
          s->anti.Add(slot, s->anti.index(slot).DomainOf(node), 1);
        }
      }
    }
  }
  return Finish(cycle, std::move(s), cluster.num_nodes(), v135_);
}

std::shared_ptr<const PodTerms> InterPodAffinity::ParsedTerms(const CycleState& cycle) {
  const auto* s = cycle.ReadAs<PreFilterState>(kPreFilterStateKey);
  return s != nullptr ? s->terms : nullptr;
}

// preFilterState.updateWithPod.
Status InterPodAffinity::UpdateWithPod(CycleState* cycle, const Pod& pod, const PodInfo& info,
                                       const NodeInfo& node, int64_t multiplier) {
  auto* s = cycle->ReadAs<PreFilterState>(kPreFilterStateKey);
  if (s == nullptr) {
    return Status::Error("error reading \"PreFilterInterPodAffinity\" from cycleState: not found");
  }
  if (node.node == nullptr) return Status();
  const ClusterState& cluster = handle_->cluster();
  // The pod's own required anti-affinity terms, against the incoming pod.
  // Parsed here rather than through the cache: these calls may run
  // concurrently (preemption's dry runs), and they are rare.
  if (info.has_required_anti_affinity) {
    PodTerms terms = ParsePodTerms(info.pod);
    for (const AffinityTerm& t : terms.required_anti_affinity) {
      if (!t.Matches(pod, s->namespace_labels)) continue;
      uint32_t slot = s->existing_anti.FindSlot(t.topology_key);
      if (slot == kNoDomain) slot = s->existing_anti.Slot(indexes_.Get(cluster, t.topology_key));
      s->existing_anti.Add(slot, s->existing_anti.index(slot).DomainOf(node), multiplier);
    }
  }
  s->covered = Covered(*s, cluster.num_nodes());
  const PodTerms& own = *s->terms;
  if (PodMatchesAllTerms(own.required_affinity, info.pod)) {
    for (uint32_t slot : s->affinity_slots) {
      s->affinity.Add(slot, s->affinity.index(slot).DomainOf(node), multiplier);
    }
  }
  for (size_t i = 0; i < own.required_anti_affinity.size(); ++i) {
    if (!own.required_anti_affinity[i].Matches(info.pod, NoLabels())) continue;
    uint32_t slot = s->anti_slots[i];
    s->anti.Add(slot, s->anti.index(slot).DomainOf(node), multiplier);
  }
  return Status();
}

Status InterPodAffinity::AddPod(CycleState* state, const Pod& pod, const PodInfo& to_add,
                                const NodeInfo& node) {
  return UpdateWithPod(state, pod, to_add, node, 1);
}

Status InterPodAffinity::RemovePod(CycleState* state, const Pod& pod, const PodInfo& to_remove,
                                   const NodeInfo& node) {
  return UpdateWithPod(state, pod, to_remove, node, -1);
}

namespace {

// How a node is seen: its domain of a TopologyIndex and its count in a
// slot, from its NodeInfo or, for a node of the indexed cluster, its id.
struct ByNodeInfo {
  const NodeInfo& node;
  uint32_t DomainOf(const TopologyIndex& index) const { return index.DomainOf(node); }
  int64_t At(const TopologyCounts& counts, uint32_t slot) const {
    return counts.AtNode(slot, node);
  }
};
struct ByNodeId {
  NodeId id;
  uint32_t DomainOf(const TopologyIndex& index) const { return index.DomainOfId(id); }
  int64_t At(const TopologyCounts& counts, uint32_t slot) const {
    return counts.AtNodeId(slot, id);
  }
};

// satisfyPodAffinity: every term's key on the node, and pods matching all
// terms in each of the node's domains -- or no such pod anywhere and the
// incoming pod matching its own terms (the first of a group of pods with
// affinity to each other).
template <typename Node>
bool SatisfyPodAffinity(const PreFilterState& s, const Node& node) {
  bool pods_exist = true;
  for (uint32_t slot : s.affinity_slots) {
    uint32_t d = node.DomainOf(s.affinity.index(slot));
    if (d == kNoDomain) return false;
    if (s.affinity.Get(slot, d) <= 0) pods_exist = false;
  }
  if (pods_exist) return true;
  return s.affinity.num_nonzero() == 0 && s.matches_own_affinity;
}

// satisfyPodAntiAffinity.
template <typename Node>
bool SatisfyPodAntiAffinity(const PreFilterState& s, const Node& node) {
  if (s.anti.num_nonzero() == 0) return true;
  for (uint32_t slot : s.anti_slots) {
    if (node.At(s.anti, slot) > 0) return false;
  }
  return true;
}

// satisfyExistingPodsAntiAffinity: no pair of the node's labels counted.
// Upstream walks the node's labels; walking the counted keys instead finds
// the same pairs.
template <typename Node>
bool SatisfyExistingPodsAntiAffinity(const PreFilterState& s, const Node& node) {
  if (s.existing_anti.num_nonzero() == 0) return true;
  for (uint32_t slot = 0; slot < s.existing_anti.num_slots(); ++slot) {
    if (node.At(s.existing_anti, slot) > 0) return false;
  }
  return true;
}

template <typename Node>
Code CodeOn(const PreFilterState& s, const Node& node) {
  if (!SatisfyPodAffinity(s, node)) return Code::kUnschedulableAndUnresolvable;
  if (!SatisfyPodAntiAffinity(s, node) || !SatisfyExistingPodsAntiAffinity(s, node))
    return Code::kUnschedulable;
  return Code::kSuccess;
}

}  // namespace

bool InterPodAffinity::PassesEveryNode(const CycleState& cycle) const {
  // No required affinity terms, and no pair counted for anti-affinity either
  // way: each of the three checks passes on every node.
  const auto* s = cycle.ReadAs<PreFilterState>(kPreFilterStateKey);
  return s != nullptr && s->affinity_slots.empty() && s->anti.num_nonzero() == 0 &&
         s->existing_anti.num_nonzero() == 0;
}

Status InterPodAffinity::Filter(const CycleState& cycle, const Pod&, const NodeInfo& node) const {
  if (node.node == nullptr) return Status::Error("node not found");
  const auto* s = cycle.ReadAs<PreFilterState>(kPreFilterStateKey);
  if (s == nullptr) {
    return Status::Error("error reading \"PreFilterInterPodAffinity\" from cycleState: not found");
  }
  // Copies of one status per reason: they share its strings.
  static const Status kAffinity(Code::kUnschedulableAndUnresolvable,
                                kErrReasonAffinityRulesNotMatch);
  static const Status kAnti(Code::kUnschedulable, kErrReasonAntiAffinityRulesNotMatch);
  static const Status kExistingAnti(Code::kUnschedulable,
                                    kErrReasonExistingAntiAffinityRulesNotMatch);
  const ByNodeInfo on{node};
  if (!SatisfyPodAffinity(*s, on)) return kAffinity;
  if (!SatisfyPodAntiAffinity(*s, on)) return kAnti;
  if (!SatisfyExistingPodsAntiAffinity(*s, on)) return kExistingAnti;
  return Status();
}

Code InterPodAffinity::FilterCode(const CycleState& cycle, const Pod&, const NodeInfo& node) const {
  if (node.node == nullptr) return Code::kError;
  const auto* s = cycle.ReadAs<PreFilterState>(kPreFilterStateKey);
  if (s == nullptr) return Code::kError;
  return CodeOn(*s, ByNodeInfo{node});
}

std::optional<Code> InterPodAffinity::FilterCodeOf(const CycleState& cycle, const Pod&,
                                                   NodeId id) const {
  const auto* s = cycle.ReadAs<PreFilterState>(kPreFilterStateKey);
  if (s == nullptr || id >= s->covered) return std::nullopt;
  return CodeOn(*s, ByNodeId{id});
}

bool InterPodAffinity::CandidateNodes(const CycleState& cycle, std::vector<NodeId>* out) const {
  // With required affinity terms, a node passes only where its domain of the
  // first term's key holds matching pods -- unless no pod matches anywhere
  // and the pod matches its own terms, when every node with the keys may.
  const auto* s = cycle.ReadAs<PreFilterState>(kPreFilterStateKey);
  if (s == nullptr || s->affinity_slots.empty() || s->covered != handle_->cluster().num_nodes())
    return false;
  if (s->affinity.num_nonzero() == 0 && s->matches_own_affinity) return false;
  const uint32_t slot = s->affinity_slots[0];
  const TopologyIndex& index = s->affinity.index(slot);
  const int64_t* counts = s->affinity.counts(slot);
  const size_t num_counts = std::min<size_t>(s->affinity.num_counts(slot), index.num_domains());
  for (uint32_t d = 0; d < num_counts; ++d) {
    if (counts[d] <= 0) continue;
    const std::span<const NodeId> nodes = index.NodesIn(d);
    out->insert(out->end(), nodes.begin(), nodes.end());
  }
  return true;
}

bool InterPodAffinity::FilterCodesOf(const CycleState& cycle, const Pod&, const NodeId* ids,
                                     size_t count, Code* out) const {
  const auto* s = cycle.ReadAs<PreFilterState>(kPreFilterStateKey);
  if (s == nullptr) return false;
  const size_t covered = s->covered;
  for (size_t k = 0; k < count; ++k)
    if (ids[k] >= covered) return false;
  // CodeOn with its per-cycle checks made once and each slot's index found
  // once; the same reads per node, in the same order.
  // One slot's counts and its key's domains, as arrays.
  struct View {
    const int64_t* counts;
    size_t num_counts;
    const uint32_t* domains;
    View() = default;
    View(const TopologyCounts& c, uint32_t slot)
        : counts(c.counts(slot)),
          num_counts(c.num_counts(slot)),
          domains(c.index(slot).domains()) {}
    // TopologyCounts::Get of the node's domain (kNoDomain counts 0).
    int64_t At(NodeId id) const {
      const uint32_t d = domains[id];
      return d < num_counts ? counts[d] : 0;
    }
  };
  constexpr size_t kMaxViews = 8;
  const bool check_anti = s->anti.num_nonzero() != 0;
  const bool check_existing = s->existing_anti.num_nonzero() != 0;
  const size_t n_aff = s->affinity_slots.size();
  const size_t n_anti = check_anti ? s->anti_slots.size() : 0;
  const size_t n_existing = check_existing ? s->existing_anti.num_slots() : 0;
  if (n_aff > kMaxViews || n_anti > kMaxViews || n_existing > kMaxViews) {
    for (size_t k = 0; k < count; ++k) out[k] = CodeOn(*s, ByNodeId{ids[k]});
    return true;
  }
  View aff[kMaxViews], anti[kMaxViews], existing[kMaxViews];
  for (size_t i = 0; i < n_aff; ++i) aff[i] = View(s->affinity, s->affinity_slots[i]);
  for (size_t i = 0; i < n_anti; ++i) anti[i] = View(s->anti, s->anti_slots[i]);
  for (uint32_t slot = 0; slot < n_existing; ++slot) existing[slot] = View(s->existing_anti, slot);
  // With pods matching nowhere, the affinity check falls back to the pod
  // matching its own terms.
  const bool own_fallback = s->affinity.num_nonzero() == 0 && s->matches_own_affinity;
  if (n_aff == 1 && n_anti == 0 && n_existing == 0) {
    // One affinity term and nothing else to check (the common required
    // affinity): the loop below without its inner loops and early exits.
    const View& v = aff[0];
    for (size_t k = 0; k < count; ++k) {
      const uint32_t d = v.domains[ids[k]];
      const bool pods_exist = d < v.num_counts && v.counts[d] > 0;
      out[k] = d != kNoDomain && (pods_exist || own_fallback) ? Code::kSuccess
                                                              : Code::kUnschedulableAndUnresolvable;
    }
    return true;
  }
  if (n_aff == 0 && n_anti + n_existing == 1) {
    // One anti-affinity term, the pod's own or an existing pod's: a node
    // fails where its domain has a matching pod.
    const View& v = n_anti == 1 ? anti[0] : existing[0];
    for (size_t k = 0; k < count; ++k)
      out[k] = v.At(ids[k]) > 0 ? Code::kUnschedulable : Code::kSuccess;
    return true;
  }
  for (size_t k = 0; k < count; ++k) {
    const NodeId id = ids[k];
    Code code = Code::kSuccess;
    if (n_aff > 0) {
      bool pods_exist = true, has_keys = true;
      for (size_t i = 0; i < n_aff; ++i) {
        const uint32_t d = aff[i].domains[id];
        if (d == kNoDomain) {
          has_keys = false;
          break;
        }
        if ((d < aff[i].num_counts ? aff[i].counts[d] : 0) <= 0) pods_exist = false;
      }
      if (!has_keys || (!pods_exist && !own_fallback)) code = Code::kUnschedulableAndUnresolvable;
    }
    for (size_t i = 0; code == Code::kSuccess && i < n_anti; ++i)
      if (anti[i].At(id) > 0) code = Code::kUnschedulable;
    for (size_t i = 0; code == Code::kSuccess && i < n_existing; ++i)
      if (existing[i].At(id) > 0) code = Code::kUnschedulable;
    out[k] = code;
  }
  return true;
}

}  // namespace ksched::framework::interpodaffinity
