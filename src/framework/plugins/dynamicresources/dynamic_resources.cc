// DynamicResources (v1.35's default profile, weight 2): devices for the
// pod's ResourceClaims. This file holds what the plugin does for a pod that
// references no claim, which is every pod of a cluster without DRA: its
// PreFilter skips (so Filter never runs), every node scores 0 (the plugin
// is still listed), and PostFilter has no claim to deallocate, whose reason
// starts every FitError's PostFilter text before DefaultPreemption's.
// A pod with claims is refused until the allocator is in (Error).
#include <string>

#include "framework/plugins/dynamicresources/dynamic_resources_hints.h"
#include "framework/plugins/names/names.h"
#include "framework/plugins/registry_factories.h"

namespace ksched::framework::plugins {
namespace {

class DynamicResources final : public PreEnqueuePlugin,
                               public PreFilterPlugin,
                               public FilterPlugin,
                               public PostFilterPlugin,
                               public ScorePlugin,
                               public ScoreExtensions,
                               public EnqueueExtensions {
 public:
  std::string_view Name() const override { return names::kDynamicResources; }

  // Scores and filters nothing a node holds for a pod without claims.
  bool NodeLocalFor(const Pod& pod) const override { return pod.spec.resource_claims.empty(); }

  std::vector<ClusterEvent> EventsToRegister() const override {
    return {{EventResource::kNode, kAdd | kUpdate, ""}};
  }
  std::vector<ClusterEventWithHint> EventsToRegisterWithHints() const override {
    return DynamicResourcesEventsToRegister();
  }

  Status PreEnqueue(const Pod&) override { return Status::Success(); }

  Status PreFilter(CycleState*, const Pod& pod, PreFilterResult*) override {
    if (pod.spec.resource_claims.empty()) return Status(Code::kSkip);
    return Status::Error("ResourceClaims are not supported by this build of ksched");
  }

  Status Filter(const CycleState&, const Pod&, const NodeInfo&) const override {
    return Status::Success();
  }
  bool PassesEveryNodeFor(const Pod& pod) const override {
    return pod.spec.resource_claims.empty();
  }

  Status PostFilter(CycleState*, const Pod& pod, const NodeToStatusMap&,
                    PostFilterResult*) override {
    if (pod.spec.resource_claims.empty())
      return Status::Unschedulable("no new claims to deallocate");
    return Status::Unschedulable("still not schedulable");
  }

  Status Score(const CycleState&, const Pod&, const NodeInfo&, int64_t* score) const override {
    *score = 0;
    return Status::Success();
  }
  bool ScoresZeroEverywhere(const CycleState&) const override { return true; }
  std::optional<int64_t> ScoreOf(const CycleState&, const Pod&, NodeId) const override { return 0; }
  const ScoreExtensions* ScoreExt() const override { return this; }

  // DefaultNormalizeScore(MaxNodeScore, false): a column of zeros stays 0.
  Status NormalizeScore(const CycleState&, const Pod&, NodeScoreList* scores) const override {
    int64_t max = 0;
    for (const NodeScore& s : *scores) max = std::max(max, s.score);
    if (max == 0) return Status::Success();
    for (NodeScore& s : *scores) s.score = kMaxNodeScore * s.score / max;
    return Status::Success();
  }
  std::optional<int64_t> NormalizedZero(const CycleState&, const Pod&) const override { return 0; }
};

}  // namespace

std::unique_ptr<Plugin> NewDynamicResources(const config::PluginArgs&, Handle*, Status*) {
  return std::make_unique<DynamicResources>();
}

}  // namespace ksched::framework::plugins
