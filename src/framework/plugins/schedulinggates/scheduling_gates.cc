// SchedulingGates: keeps a pod out of the active queue while it still has
// spec.schedulingGates. In v1.26 only with the PodSchedulingReadiness
// feature gate (alpha, off); otherwise every pod passes. v1.35 always holds
// gated pods (the gate is GA and the plugin comes first in the profile).
#include <string>

#include "framework/plugins/names/names.h"
#include "framework/plugins/registry_factories.h"
#include "framework/plugins/schedulinggates/scheduling_gates_hints.h"

namespace ksched::framework::plugins {
namespace {

class SchedulingGates final : public PreEnqueuePlugin, public EnqueueExtensions {
 public:
  explicit SchedulingGates(bool enabled) : enabled_(enabled) {}

  std::string_view Name() const override { return names::kSchedulingGates; }

  Status PreEnqueue(const Pod& pod) override {
    const auto& gates = pod.spec.scheduling_gates;
    if (!enabled_ || gates.empty()) return Status::Success();
    // Go's %v of a []string: "[a b c]".
    std::string list;
    for (const std::string& g : gates) {
      if (!list.empty()) list += ' ';
      list += g;
    }
    return Status::Unresolvable("waiting for scheduling gates: [" + list + "]");
  }

  std::vector<ClusterEvent> EventsToRegister() const override {
    return {{EventResource::kPod, kUpdate, ""}};
  }
  std::vector<ClusterEventWithHint> EventsToRegisterWithHints() const override {
    return SchedulingGatesEventsToRegister();
  }

 private:
  bool enabled_;
};

}  // namespace

std::unique_ptr<Plugin> NewSchedulingGates(const config::PluginArgs&, Handle* handle, Status*) {
  const config::FeatureGates& gates = handle->feature_gates();
  return std::make_unique<SchedulingGates>(gates.AtLeast(config::SchedulerVersion::kV135) ||
                                           gates.pod_scheduling_readiness);
}

}  // namespace ksched::framework::plugins
