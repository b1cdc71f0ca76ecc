// NodeDeclaredFeatures (v1.35, alpha, in the default profile only with its
// gate): a pod that needs a node feature (one kubelet declares in
// status.declaredFeatures) is kept off nodes that do not declare it. v1.35
// infers one such need for scheduling, RestartAllContainersOnContainerExits
// (a container restart rule with action RestartAllContainers), which ksched's
// Pod does not carry; so for every pod ksched reads the plugin's PreFilter
// skips, as upstream's does for a pod with no inferred feature, and Filter
// never runs. Present so that AllAlpha=true or the gate alone builds the
// default profile as upstream does.
#include <string>

#include "framework/plugins/names/names.h"
#include "framework/plugins/registry_factories.h"

namespace ksched::framework::plugins {
namespace {

class NodeDeclaredFeatures final : public PreFilterPlugin,
                                   public FilterPlugin,
                                   public EnqueueExtensions {
 public:
  explicit NodeDeclaredFeatures(bool enabled) : enabled_(enabled) {}

  std::string_view Name() const override { return names::kNodeDeclaredFeatures; }

  // Its Skip depends on the pod's spec only.
  bool NodeLocalFor(const Pod&) const override { return true; }

  std::vector<ClusterEvent> EventsToRegister() const override {
    if (!enabled_) return {};
    return {{EventResource::kNode, kAdd | kUpdate, ""}, {EventResource::kPod, kUpdate, ""}};
  }

  // No inferred feature (or the gate off): nothing to check.
  Status PreFilter(CycleState*, const Pod&, PreFilterResult*) override {
    return Status(Code::kSkip);
  }

  Status Filter(const CycleState&, const Pod&, const NodeInfo&) const override {
    return Status::Success();
  }
  bool PassesEveryNodeFor(const Pod&) const override { return true; }

 private:
  bool enabled_;
};

}  // namespace

std::unique_ptr<Plugin> NewNodeDeclaredFeatures(const config::PluginArgs&, Handle* handle,
                                                Status*) {
  return std::make_unique<NodeDeclaredFeatures>(handle->feature_gates().node_declared_features);
}

}  // namespace ksched::framework::plugins
