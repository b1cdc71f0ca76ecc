// TaintToleration: Filter keeps pods off nodes with a NoSchedule or
// NoExecute taint they do not tolerate; Score prefers nodes with fewer
// PreferNoSchedule taints the pod does not tolerate (the raw score is that
// count, reversed by NormalizeScore). v1.35 rejects with one reason for
// every taint ("node(s) had untolerated taint(s)"), and with the
// TaintTolerationComparisonOperators gate tolerations may compare numbers
// (Lt, Gt).
#include <fmt/format.h>

#include "framework/batch.h"
#include "framework/plugins/helper/normalize_score.h"
#include "framework/plugins/helper/taint.h"
#include "framework/plugins/names/names.h"
#include "framework/plugins/registry_factories.h"
#include "framework/plugins/tainttoleration/taint_toleration_hints.h"
#include "predicates/tolerations.h"

namespace ksched::framework::plugins {
namespace {

// The pod's tolerations that can tolerate a PreferNoSchedule taint.
struct PreScoreState final : StateData {
  std::vector<Toleration> tolerations_prefer_no_schedule;
  std::unique_ptr<StateData> Clone() const override {
    return std::make_unique<PreScoreState>(*this);
  }
};

const StateKey kPreScoreStateKey = StateKey::Register();

class TaintToleration final : public FilterPlugin,
                              public PreScorePlugin,
                              public ScorePlugin,
                              public ScoreExtensions,
                              public BatchNormalizeAdd,
                              public EnqueueExtensions {
 public:
  TaintToleration(bool v135, bool comparison_operators)
      : v135_(v135), comparison_operators_(comparison_operators) {}

  std::string_view Name() const override { return names::kTaintToleration; }

  // Reads the pod's spec and this node only.
  bool NodeLocalFor(const Pod&) const override { return true; }
  uint32_t NodeLocalAspects() const override { return kAspectTolerations; }

  std::vector<ClusterEvent> EventsToRegister() const override {
    return {{EventResource::kNode, kAdd | kUpdate, ""}};
  }
  std::vector<ClusterEventWithHint> EventsToRegisterWithHints() const override {
    return TaintTolerationEventsToRegister();
  }

  Status Filter(const CycleState&, const Pod& pod, const NodeInfo& node) const override {
    const Taint* taint = Untolerated(pod, node);
    if (taint == nullptr) return Status::Success();
    // v1.35 no longer names the taint, so every such node counts under one
    // reason in the FitError.
    if (v135_) return Status::Unresolvable("node(s) had untolerated taint(s)");
    return Status::Unresolvable(fmt::format("node(s) had untolerated taint {{{}: {}}}",
                                            Str(taint->key), Str(taint->value)));
  }

  Code FilterCode(const CycleState&, const Pod& pod, const NodeInfo& node) const override {
    return Untolerated(pod, node) == nullptr ? Code::kSuccess : Code::kUnschedulableAndUnresolvable;
  }

  Status PreScore(CycleState* state, const Pod& pod, const std::vector<NodeId>& nodes) override {
    if (nodes.empty()) return Status::Success();
    auto s = std::make_unique<PreScoreState>();
    for (const Toleration& t : pod.spec.tolerations) {
      if (t.effect == TaintEffect::kNone || t.effect == TaintEffect::kPreferNoSchedule)
        s->tolerations_prefer_no_schedule.push_back(t);
    }
    state->Write(kPreScoreStateKey, std::move(s));
    return Status::Success();
  }

  Status Score(const CycleState& state, const Pod&, const NodeInfo& node,
               int64_t* score) const override {
    const auto* s = state.ReadAs<PreScoreState>(kPreScoreStateKey);
    if (s == nullptr) {
      return Status::Error("failed to read \"PreScoreTaintToleration\" from cycleState: not found");
    }
    int64_t intolerable = 0;
    for (const Taint& taint : node.node->taints) {
      if (taint.effect != TaintEffect::kPreferNoSchedule) continue;
      if (!TolerationsTolerateTaint(s->tolerations_prefer_no_schedule, taint,
                                    comparison_operators_))
        ++intolerable;
    }
    *score = intolerable;
    return Status::Success();
  }

  const ScoreExtensions* ScoreExt() const override { return this; }

  Status NormalizeScore(const CycleState&, const Pod&, NodeScoreList* scores) const override {
    return helper::DefaultNormalizeScore(kMaxNodeScore, true, scores);
  }
  bool NormalizeAndAdd(const CycleState&, const Pod&, const int64_t* column, const NodeId* ids,
                       size_t count, int64_t weight, int64_t* totals,
                       bool* out_of_range) const override {
    return helper::DefaultNormalizeAndAdd(kMaxNodeScore, true, column, ids, count, weight, totals,
                                          out_of_range);
  }
  // No intolerable taint anywhere: reversed, every node gets the maximum.
  std::optional<int64_t> NormalizedZero(const CycleState&, const Pod&) const override {
    return kMaxNodeScore;
  }

 private:
  // The node's first NoSchedule or NoExecute taint the pod does not
  // tolerate, or nullptr.
  const Taint* Untolerated(const Pod& pod, const NodeInfo& node) const {
    for (const Taint& taint : node.node->taints) {
      if (!helper::DoNotScheduleTaint(taint)) continue;
      if (!TolerationsTolerateTaint(pod.spec.tolerations, taint, comparison_operators_))
        return &taint;
    }
    return nullptr;
  }

  bool v135_;
  bool comparison_operators_;  // TaintTolerationComparisonOperators
};

}  // namespace

std::unique_ptr<Plugin> NewTaintToleration(const config::PluginArgs&, Handle* handle, Status*) {
  const config::FeatureGates gates =
      handle != nullptr ? handle->feature_gates() : config::FeatureGates{};
  return std::make_unique<TaintToleration>(gates.AtLeast(config::SchedulerVersion::kV135),
                                           gates.taint_toleration_comparison_operators);
}

}  // namespace ksched::framework::plugins
