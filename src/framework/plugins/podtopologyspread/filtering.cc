// PreFilter, its AddPod / RemovePod extensions and Filter of
// PodTopologySpread (upstream's filtering.go).
#include "framework/plugins/podtopologyspread/filtering.h"

#include <algorithm>
#include <cstdint>

#include "framework/plugins/podtopologyspread/kept_counts.h"
#include "framework/plugins/podtopologyspread/plugin.h"

namespace ksched::framework::plugins::podtopologyspread {

const StateKey kPreFilterStateKey = StateKey::Register();

void CriticalPaths::Update(StrId value, int64_t num) {
  int i = -1;
  if (value == paths[0].value) {
    i = 0;
  } else if (value == paths[1].value) {
    i = 1;
  }
  if (i >= 0) {
    paths[i].num = num;
    if (paths[0].num > paths[1].num) std::swap(paths[0], paths[1]);
  } else if (num < paths[0].num) {
    paths[1] = paths[0];
    paths[0] = Path{value, num};
  } else if (num < paths[1].num) {
    paths[1] = Path{value, num};
  }
}

bool PreFilterState::MinMatchNum(const Constraint& c, bool min_domains_enabled,
                                 int64_t* out) const {
  *out = paths[c.key_slot].paths[0].num;
  if (!min_domains_enabled) return true;
  if (domains_num[c.key_slot] < 0) return false;
  // Fewer eligible domains than minDomains: the global minimum counts as 0.
  if (domains_num[c.key_slot] < c.min_domains) *out = 0;
  return true;
}

namespace filtering_internal {

// matchNodeInclusionPolicies, with the node's affinity and taint answers
// computed at most once per node.
struct NodeInclusion {
  const Pod& pod;
  const RequiredNodeAffinity& affinity;
  const Node& node;
  bool comparison_operators = false;
  int8_t affinity_ok = -1;
  int8_t taints_ok = -1;

  bool Includes(const Constraint& c) {
    if (c.honor_node_affinity) {
      if (affinity_ok < 0) affinity_ok = affinity.Match(node);
      if (!affinity_ok) return false;
    }
    if (c.honor_node_taints) {
      if (taints_ok < 0)
        taints_ok =
            !HasUntoleratedDoNotScheduleTaint(node, pod.spec.tolerations, comparison_operators);
      if (!taints_ok) return false;
    }
    return true;
  }
};

bool HasAllKeys(const PreFilterState& s, const NodeInfo& node) {
  for (const auto& d : s.domains)
    if (!d->HasLabel(node)) return false;
  return true;
}

Status ReadError() {
  return Status::Error("reading \"PreFilterPodTopologySpread\" from cycleState: not found");
}

}  // namespace filtering_internal

Status PodTopologySpread::PreFilter(CycleState* state, const Pod& pod, PreFilterResult*) {
  using namespace filtering_internal;
  Result<Constraints> constraints = PodConstraints(pod, kDoNotSchedule);
  if (!constraints) {
    // v1.35's calPreFilterState wraps getConstraints' error once more.
    return Status::Error(std::string(features_.v135 ? "get constraints from pod: " : "") +
                         (pod.spec.topology_spread_constraints.empty()
                              ? "setting default hard topology spread constraints: "
                              : "obtaining pod's hard topology spread constraints: ") +
                         constraints.error().message);
  }
  auto s = std::make_unique<PreFilterState>();
  if (constraints->empty()) {
    state->Write(kPreFilterStateKey, std::move(s));
    // v1.35 skips the plugin's Filter and AddPod / RemovePod for a pod
    // without hard constraints; v1.26 runs them on the empty state, which
    // passes every node.
    return features_.v135 ? Status(Code::kSkip) : Status();
  }
  const ClusterState& cluster = handle_->cluster();
  auto cons = std::make_shared<const Constraints>(std::move(*constraints));
  s->constraints = cons;
  s->affinity = std::make_shared<const RequiredNodeAffinity>(pod);
  const size_t num_slots = cons->keys.size();
  s->domains.resize(num_slots);
  s->counts.resize(num_slots);
  std::vector<std::vector<uint8_t>> present(num_slots);
  for (size_t k = 0; k < num_slots; ++k) {
    s->domains[k] = domains_.Get(cluster, cons->keys[k]);
    s->counts[k].assign(s->domains[k]->num_domains(), 0);
    present[k].assign(s->domains[k]->num_domains(), 0);
  }
  for (const Constraint& c : cons->items)
    s->self_match.push_back(c.selector.Matches(pod.meta.labels));

  if (handle_->reuse_between_cycles()) {
    // The same sums, kept from earlier cycles and brought up to date.
    std::shared_ptr<const KeptCounts> kept =
        kept_.Get(cluster, pod, KeptCountsKey::Of(pod, true), cons, s->domains, features_, true);
    s->counts = kept->filter_counts();
    present = kept->filter_present();
  } else {
    CountAllNodes(cluster, pod, s.get(), &present);
  }
  FinishPreFilterState(s.get(), present);
  state->Write(kPreFilterStateKey, std::move(s));
  return Status();
}

void PodTopologySpread::CountAllNodes(const ClusterState& cluster, const Pod& pod,
                                      PreFilterState* s,
                                      std::vector<std::vector<uint8_t>>* present_out) const {
  using namespace filtering_internal;
  const Constraints* cons = s->constraints.get();
  const size_t num_slots = cons->keys.size();
  std::vector<std::vector<uint8_t>>& present = *present_out;
  std::vector<LabelSetMatcher> matchers;
  matchers.reserve(cons->items.size());
  for (const Constraint& c : cons->items)
    matchers.emplace_back(cluster, pod.meta.ns, &c.selector, c.counts_nothing);

  // Per node, a later constraint on the same key overwrites an earlier one's
  // count (v1.26's per-node map keyed by topology pair; in v1.35 every
  // constraint has a slot of its own).
  std::vector<int64_t> node_count(num_slots);
  std::vector<uint8_t> node_set(num_slots);
  for (const NodeInfo& node : cluster.node_infos()) {
    if (!features_.node_inclusion_policy && !s->affinity->Match(*node.node)) continue;
    if (!HasAllKeys(*s, node)) continue;
    std::fill(node_set.begin(), node_set.end(), 0);
    NodeInclusion inclusion{pod, *s->affinity, *node.node, features_.taint_comparison_operators};
    for (size_t i = 0; i < cons->items.size(); ++i) {
      const Constraint& c = cons->items[i];
      if (features_.node_inclusion_policy && !inclusion.Includes(c)) continue;
      node_count[c.key_slot] = node.pods.empty() ? 0 : matchers[i].CountOn(cluster, node);
      node_set[c.key_slot] = 1;
    }
    for (size_t k = 0; k < num_slots; ++k) {
      if (!node_set[k]) continue;
      uint32_t d = s->domains[k]->DomainOf(node);
      s->counts[k][d] += node_count[k];
      present[k][d] = 1;
    }
  }
}

void PodTopologySpread::FinishPreFilterState(
    PreFilterState* s, const std::vector<std::vector<uint8_t>>& present) const {
  const size_t num_slots = s->constraints->keys.size();
  s->domains_num.assign(num_slots, -1);
  s->paths.resize(num_slots);
  for (size_t k = 0; k < num_slots; ++k) {
    int64_t n = 0;
    for (size_t d = 0; d < present[k].size(); ++d) {
      if (!present[k][d]) continue;
      ++n;
      s->paths[k].Update(s->domains[k]->domain_value[d], s->counts[k][d]);
    }
    // v1.26 has no domain number for a key without domains (minMatchNum
    // then fails and Filter skips the constraint); v1.35 counts the domains
    // of each constraint's map, so none is 0, below any minDomains.
    if (features_.min_domains && (n > 0 || features_.v135)) s->domains_num[k] = n;
  }
}

Status PodTopologySpread::AddPod(CycleState* state, const Pod& pod, const PodInfo& to_add,
                                 const NodeInfo& node) {
  return UpdateWithPod(state, pod, to_add.pod, node, 1);
}

Status PodTopologySpread::RemovePod(CycleState* state, const Pod& pod, const PodInfo& to_remove,
                                    const NodeInfo& node) {
  return UpdateWithPod(state, pod, to_remove.pod, node, -1);
}

Status PodTopologySpread::UpdateWithPod(CycleState* state, const Pod& preemptor, const Pod& updated,
                                        const NodeInfo& node, int delta) const {
  using namespace filtering_internal;
  auto* s = state->ReadAs<PreFilterState>(kPreFilterStateKey);
  if (s == nullptr) return ReadError();
  if (s->Empty() || updated.meta.ns != preemptor.meta.ns || node.node == nullptr) return Status();
  if (!HasAllKeys(*s, node)) return Status();
  if (!features_.node_inclusion_policy && !s->affinity->Match(*node.node)) return Status();
  NodeInclusion inclusion{preemptor, *s->affinity, *node.node,
                          features_.taint_comparison_operators};
  for (const Constraint& c : s->constraints->items) {
    if (!c.selector.Matches(updated.meta.labels)) continue;
    if (features_.node_inclusion_policy && !inclusion.Includes(c)) continue;
    const TopologyDomains& domains = *s->domains[c.key_slot];
    uint32_t d = domains.DomainOf(node);
    int64_t& count = s->counts[c.key_slot][d];
    count += delta;
    s->paths[c.key_slot].Update(domains.domain_value[d], count);
  }
  return Status();
}

bool PodTopologySpread::PassesEveryNode(const CycleState& state) const {
  const auto* s = state.ReadAs<PreFilterState>(kPreFilterStateKey);
  return s != nullptr && s->Empty();  // no hard constraints
}

namespace filtering_internal {

// Filter's outcome, before any reason is written.
enum class Verdict { kPass, kNoNode, kNoState, kMissingLabel, kSkew };

// The constraints against one node; `has_label(domains)` and
// `domain_of(domains)` read the node's label and domain of a key.
template <typename HasLabel, typename DomainOf>
Verdict JudgeConstraints(const PreFilterState& s, bool min_domains, HasLabel&& has_label,
                         DomainOf&& domain_of) {
  if (s.Empty()) return Verdict::kPass;
  const auto& items = s.constraints->items;
  for (size_t i = 0; i < items.size(); ++i) {
    const Constraint& c = items[i];
    const TopologyDomains& domains = *s.domains[c.key_slot];
    if (!has_label(domains)) return Verdict::kMissingLabel;
    int64_t min_match = 0;
    if (!s.MinMatchNum(c, min_domains, &min_match)) continue;
    int64_t match = s.counts[c.key_slot][domain_of(domains)];
    int64_t skew = match + s.self_match[i] - min_match;
    if (skew > c.max_skew) return Verdict::kSkew;
  }
  return Verdict::kPass;
}

Verdict Judge(const PreFilterState* s, const NodeInfo& node, bool min_domains) {
  if (node.node == nullptr) return Verdict::kNoNode;
  if (s == nullptr) return Verdict::kNoState;
  return JudgeConstraints(
      *s, min_domains, [&](const TopologyDomains& d) { return d.HasLabel(node); },
      [&](const TopologyDomains& d) { return d.DomainOf(node); });
}

Code CodeOf(Verdict v) {
  switch (v) {
    case Verdict::kPass:
      return Code::kSuccess;
    case Verdict::kNoNode:
    case Verdict::kNoState:
      return Code::kError;
    case Verdict::kMissingLabel:
      return Code::kUnschedulableAndUnresolvable;
    case Verdict::kSkew:
      break;
  }
  return Code::kUnschedulable;
}

}  // namespace filtering_internal

Status PodTopologySpread::Filter(const CycleState& state, const Pod&, const NodeInfo& node) const {
  using namespace filtering_internal;
  switch (Judge(state.ReadAs<PreFilterState>(kPreFilterStateKey), node, features_.min_domains)) {
    case Verdict::kPass:
      return Status();
    case Verdict::kNoNode:
      return Status::Error("node not found");
    case Verdict::kNoState:
      return ReadError();
    case Verdict::kMissingLabel: {
      // Copies of one status per reason: they share its strings.
      static const Status kMissingLabel =
          Status::Unresolvable(std::string(kErrReasonNodeLabelNotMatch));
      return kMissingLabel;
    }
    case Verdict::kSkew:
      break;
  }
  static const Status kSkew = Status::Unschedulable(std::string(kErrReasonConstraintsNotMatch));
  return kSkew;
}

Code PodTopologySpread::FilterCode(const CycleState& state, const Pod&,
                                   const NodeInfo& node) const {
  using namespace filtering_internal;
  return CodeOf(
      Judge(state.ReadAs<PreFilterState>(kPreFilterStateKey), node, features_.min_domains));
}

std::optional<Code> PodTopologySpread::FilterCodeOf(const CycleState& state, const Pod&,
                                                    NodeId id) const {
  using namespace filtering_internal;
  const auto* s = state.ReadAs<PreFilterState>(kPreFilterStateKey);
  if (s == nullptr) return std::nullopt;
  // The domains cover every node of the cycle's cluster (DomainCache).
  for (const auto& d : s->domains)
    if (id >= d->node_domain.size()) return std::nullopt;
  return CodeOf(JudgeConstraints(
      *s, features_.min_domains, [&](const TopologyDomains& d) { return d.has_label[id] != 0; },
      [&](const TopologyDomains& d) { return d.node_domain[id]; }));
}

bool PodTopologySpread::FilterCodesOf(const CycleState& state, const Pod&, const NodeId* ids,
                                      size_t count, Code* out) const {
  using namespace filtering_internal;
  const auto* s = state.ReadAs<PreFilterState>(kPreFilterStateKey);
  if (s == nullptr) return false;
  size_t covered = SIZE_MAX;
  for (const auto& d : s->domains) covered = std::min(covered, d->node_domain.size());
  for (size_t k = 0; k < count; ++k)
    if (ids[k] >= covered) return false;
  if (s->Empty()) {
    std::fill(out, out + count, Code::kSuccess);
    return true;
  }
  // JudgeConstraints with each constraint's per-cycle part worked out once:
  // its arrays, whether its skew is checked, and the most matching pods a
  // node's domain may hold.
  struct Check {
    const uint8_t* has_label;
    const uint32_t* node_domain;
    const int64_t* counts;
    bool skew_checked;
    int64_t max_match;  // skew > max_skew  <=>  match > max_match
  };
  constexpr size_t kMaxChecks = 8;
  const auto& items = s->constraints->items;
  if (items.size() > kMaxChecks) {
    for (size_t k = 0; k < count; ++k) {
      const NodeId id = ids[k];
      out[k] = CodeOf(JudgeConstraints(
          *s, features_.min_domains, [&](const TopologyDomains& d) { return d.has_label[id] != 0; },
          [&](const TopologyDomains& d) { return d.node_domain[id]; }));
    }
    return true;
  }
  Check checks[kMaxChecks];
  for (size_t i = 0; i < items.size(); ++i) {
    const Constraint& c = items[i];
    const TopologyDomains& domains = *s->domains[c.key_slot];
    int64_t min_match = 0;
    checks[i].has_label = domains.has_label.data();
    checks[i].node_domain = domains.node_domain.data();
    checks[i].counts = s->counts[c.key_slot].data();
    checks[i].skew_checked = s->MinMatchNum(c, features_.min_domains, &min_match);
    checks[i].max_match = c.max_skew - s->self_match[i] + min_match;
  }
  const size_t n_checks = items.size();
  for (size_t k = 0; k < count; ++k) {
    const NodeId id = ids[k];
    Code code = Code::kSuccess;
    for (size_t i = 0; i < n_checks; ++i) {
      const Check& ch = checks[i];
      if (!ch.has_label[id]) {
        code = Code::kUnschedulableAndUnresolvable;
        break;
      }
      if (ch.skew_checked && ch.counts[ch.node_domain[id]] > ch.max_match) {
        code = Code::kUnschedulable;
        break;
      }
    }
    out[k] = code;
  }
  return true;
}

}  // namespace ksched::framework::plugins::podtopologyspread
