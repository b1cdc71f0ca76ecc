// NodeAffinity: the pod's spec.nodeSelector and required node affinity
// (Filter, with PreFilter narrowing the nodes to metadata.name In [...]
// terms), its preferred node affinity (Score), and the profile's
// addedAffinity (NodeAffinityArgs), which applies to every pod on top.
// v1.35 skips Filter for a pod with neither (and no addedAffinity), skips
// Score for a pod without preferred terms (and none added), and narrows the
// nodes to the union of the terms' metadata.name sets.
#include "framework/plugins/helper/node_affinity.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <string>

#include "framework/batch.h"
#include "framework/plugins/helper/normalize_score.h"
#include "framework/plugins/names/names.h"
#include "framework/plugins/nodeaffinity/node_affinity_hints.h"
#include "framework/plugins/registry_factories.h"

namespace ksched::framework::plugins {
namespace {

constexpr const char* kErrReasonPod = "node(s) didn't match Pod's node affinity/selector";
constexpr const char* kErrReasonEnforced = "node(s) didn't match scheduler-enforced node affinity";
constexpr const char* kErrReasonConflict = "pod affinity terms conflict";

struct PreFilterState final : StateData {
  helper::RequiredNodeAffinity required;
  std::unique_ptr<StateData> Clone() const override {
    return std::make_unique<PreFilterState>(*this);
  }
};

struct PreScoreState final : StateData {
  std::optional<helper::PreferredSchedulingTerms> preferred;  // nullopt: the pod has none
  std::unique_ptr<StateData> Clone() const override {
    return std::make_unique<PreScoreState>(*this);
  }
};

const StateKey kPreFilterStateKey = StateKey::Register();
const StateKey kPreScoreStateKey = StateKey::Register();

// getPodPreferredNodeAffinity: nullopt when the pod has no preferred terms
// list at all; an error when a term does not parse.
Result<std::optional<helper::PreferredSchedulingTerms>> PodPreferredNodeAffinity(const Pod& pod) {
  const auto& affinity = pod.spec.affinity;
  if (!affinity || !affinity->node_affinity || affinity->node_affinity->preferred.empty())
    return std::optional<helper::PreferredSchedulingTerms>();
  auto terms = helper::PreferredSchedulingTerms::Compile(affinity->node_affinity->preferred);
  if (!terms.ok()) return terms.error();
  return std::optional<helper::PreferredSchedulingTerms>(std::move(terms).value());
}

// The node names of one required term's `metadata.name In [...]` field
// requirements, intersected; nullopt when the term has none.
std::optional<std::set<std::string>> TermNodeNames(const NodeSelectorTerm& term) {
  std::optional<std::set<std::string>> names;
  for (const SelectorRequirement& r : term.match_fields) {
    if (r.key != labels::kNodeFieldName || r.op != "In") continue;
    std::set<std::string> values(r.values.begin(), r.values.end());
    if (!names) {
      names = std::move(values);
      continue;
    }
    std::set<std::string> both;
    std::set_intersection(names->begin(), names->end(), values.begin(), values.end(),
                          std::inserter(both, both.end()));
    *names = std::move(both);
  }
  return names;
}

class NodeAffinity final : public PreFilterPlugin,
                           public FilterPlugin,
                           public PreScorePlugin,
                           public ScorePlugin,
                           public ScoreExtensions,
                           public BatchNormalizeAdd,
                           public EnqueueExtensions {
 public:
  NodeAffinity(bool v135, std::optional<labels::CompiledNodeSelectorTerms> added_node_selector,
               std::optional<helper::PreferredSchedulingTerms> added_pref_sched_terms)
      : v135_(v135),
        added_node_selector_(std::move(added_node_selector)),
        added_pref_sched_terms_(std::move(added_pref_sched_terms)) {}

  std::string_view Name() const override { return names::kNodeAffinity; }

  // Reads the pod's spec, this node and the profile's addedAffinity.
  bool NodeLocalFor(const Pod&) const override { return true; }
  uint32_t NodeLocalAspects() const override { return kAspectNodeSelection; }

  std::vector<ClusterEvent> EventsToRegister() const override {
    return {{EventResource::kNode, kAdd | kUpdate, ""}};
  }
  std::vector<ClusterEventWithHint> EventsToRegisterWithHints() const override {
    return NodeAffinityEventsToRegister(added_node_selector_);
  }

  Status PreFilter(CycleState* state, const Pod& pod, PreFilterResult* result) override {
    const auto& affinity = pod.spec.affinity;
    const bool no_required =
        !affinity || !affinity->node_affinity || !affinity->node_affinity->required;
    // v1.35: nothing for Filter to check (a nodeSelector given as {} still
    // counts as one, as upstream's nil test does).
    if (v135_ && no_required && !added_node_selector_ && !pod.spec.has_node_selector &&
        pod.spec.node_selector.empty())
      return Status(Code::kSkip);

    auto s = std::make_unique<PreFilterState>();
    s->required = helper::RequiredNodeAffinity::ForPod(pod);
    state->Write(kPreFilterStateKey, std::move(s));

    if (no_required) return Status::Success();
    // Terms are ORed: the pod can only go to the union of the nodes each
    // term names. v1.26 gives up as soon as one term names none; v1.35 only
    // when the union is empty.
    std::set<std::string> node_names;
    const auto& terms = affinity->node_affinity->required->terms;
    if (terms.empty()) return Status::Success();
    for (const NodeSelectorTerm& term : terms) {
      std::optional<std::set<std::string>> names = TermNodeNames(term);
      if (!names) return Status::Success();
      if (!v135_ && names->empty()) return Status::Unresolvable(kErrReasonConflict);
      node_names.insert(names->begin(), names->end());
    }
    if (node_names.empty()) return Status::Unresolvable(kErrReasonConflict);
    result->node_names = std::vector<std::string>(node_names.begin(), node_names.end());
    return Status::Success();
  }

  Status Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) const override {
    switch (Verdict(state, pod, node)) {
      case Fails::kNone:
        return Status::Success();
      case Fails::kAdded:
        return Status::Unresolvable(kErrReasonEnforced);
      case Fails::kPod:
        return Status::Unresolvable(kErrReasonPod);
    }
    return Status::Success();
  }
  // Filter's code without its reason (a Status with a reason allocates, and
  // most first looks of a pod with a zone affinity reject the node).
  Code FilterCode(const CycleState& state, const Pod& pod, const NodeInfo& node) const override {
    return Verdict(state, pod, node) == Fails::kNone ? Code::kSuccess
                                                     : Code::kUnschedulableAndUnresolvable;
  }

  Status PreScore(CycleState* state, const Pod& pod, const std::vector<NodeId>& nodes) override {
    if (!v135_ && nodes.empty()) return Status::Success();
    auto preferred = PodPreferredNodeAffinity(pod);
    if (!preferred.ok()) return Status::Error(preferred.error().message);
    // v1.35: no preferred terms list (an empty one still scores, 0) and none
    // added, so the plugin is not scored.
    if (v135_ && !HasPreferredList(pod) && !added_pref_sched_terms_) return Status(Code::kSkip);
    auto s = std::make_unique<PreScoreState>();
    s->preferred = std::move(preferred).value();
    state->Write(kPreScoreStateKey, std::move(s));
    return Status::Success();
  }

  Status Score(const CycleState& state, const Pod& pod, const NodeInfo& node,
               int64_t* score) const override {
    int64_t count = 0;
    if (added_pref_sched_terms_) count += added_pref_sched_terms_->Score(node);
    if (const auto* s = state.ReadAs<PreScoreState>(kPreScoreStateKey)) {
      if (s->preferred) count += s->preferred->Score(node);
    } else {
      auto preferred = PodPreferredNodeAffinity(pod);
      if (!preferred.ok()) return Status::Error(preferred.error().message);
      if (preferred.value()) count += preferred.value()->Score(node);
    }
    *score = count;
    return Status::Success();
  }

  const ScoreExtensions* ScoreExt() const override { return this; }

  Status NormalizeScore(const CycleState&, const Pod&, NodeScoreList* scores) const override {
    return helper::DefaultNormalizeScore(kMaxNodeScore, false, scores);
  }
  bool NormalizeAndAdd(const CycleState&, const Pod&, const int64_t* column, const NodeId* ids,
                       size_t count, int64_t weight, int64_t* totals,
                       bool* out_of_range) const override {
    return helper::DefaultNormalizeAndAdd(kMaxNodeScore, false, column, ids, count, weight, totals,
                                          out_of_range);
  }
  std::optional<int64_t> NormalizedZero(const CycleState&, const Pod&) const override { return 0; }

 private:
  // Whether the pod's preferredDuringSchedulingIgnoredDuringExecution is
  // given (not null), empty or not.
  static bool HasPreferredList(const Pod& pod) {
    const auto& affinity = pod.spec.affinity;
    if (!affinity || !affinity->node_affinity) return false;
    return affinity->node_affinity->has_preferred || !affinity->node_affinity->preferred.empty();
  }

  // Which requirement rejects the node, in Filter's order.
  enum class Fails { kNone, kAdded, kPod };
  Fails Verdict(const CycleState& state, const Pod& pod, const NodeInfo& node) const {
    if (added_node_selector_ && !added_node_selector_->Matches(node.labels(), node.name()))
      return Fails::kAdded;
    const auto* s = state.ReadAs<PreFilterState>(kPreFilterStateKey);
    // Without PreFilter's state (a Filter called on its own), compute it.
    bool match = s != nullptr ? s->required.Match(node)
                              : helper::RequiredNodeAffinity::ForPod(pod).Match(node);
    return match ? Fails::kNone : Fails::kPod;
  }

  bool v135_;
  std::optional<labels::CompiledNodeSelectorTerms> added_node_selector_;
  std::optional<helper::PreferredSchedulingTerms> added_pref_sched_terms_;
};

}  // namespace

std::unique_ptr<Plugin> NewNodeAffinity(const config::PluginArgs& args, Handle* handle,
                                        Status* error) {
  config::NodeAffinityArgs node_args;
  if (const auto* a = std::get_if<config::NodeAffinityArgs>(&args)) {
    node_args = *a;
  } else if (!std::holds_alternative<std::monostate>(args)) {
    *error = Status::Error("args are not of type NodeAffinityArgs");
    return nullptr;
  }
  std::optional<labels::CompiledNodeSelectorTerms> added_node_selector;
  std::optional<helper::PreferredSchedulingTerms> added_pref_sched_terms;
  if (const auto& added = node_args.added_affinity) {
    if (added->required) {
      auto selector = helper::NewNodeSelector(*added->required);
      if (!selector.ok()) {
        *error = Status::Error(
            fmt::format("parsing addedAffinity.requiredDuringSchedulingIgnoredDuringExecution: {}",
                        selector.error().message));
        return nullptr;
      }
      added_node_selector = std::move(selector).value();
    }
    if (!added->preferred.empty()) {
      auto terms = helper::PreferredSchedulingTerms::Compile(added->preferred);
      if (!terms.ok()) {
        *error = Status::Error(
            fmt::format("parsing addedAffinity.preferredDuringSchedulingIgnoredDuringExecution: {}",
                        terms.error().message));
        return nullptr;
      }
      added_pref_sched_terms = std::move(terms).value();
    }
  }
  const bool v135 =
      handle != nullptr && handle->feature_gates().AtLeast(config::SchedulerVersion::kV135);
  return std::make_unique<NodeAffinity>(v135, std::move(added_node_selector),
                                        std::move(added_pref_sched_terms));
}

}  // namespace ksched::framework::plugins
