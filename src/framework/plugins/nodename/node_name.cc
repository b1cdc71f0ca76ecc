// NodeName: a pod that names its node (spec.nodeName) fits only that node.
#include "framework/plugins/names/names.h"
#include "framework/plugins/nodename/node_name_hints.h"
#include "framework/plugins/registry_factories.h"

namespace ksched::framework::plugins {
namespace {

constexpr const char* kErrReason = "node(s) didn't match the requested node name";

class NodeName final : public FilterPlugin, public EnqueueExtensions {
 public:
  std::string_view Name() const override { return names::kNodeName; }

  // Reads the pod's spec and this node only.
  bool NodeLocalFor(const Pod&) const override { return true; }
  uint32_t NodeLocalAspects() const override { return 0; }
  bool PassesEveryNodeFor(const Pod& pod) const override { return pod.spec.node_name.empty(); }

  std::vector<ClusterEvent> EventsToRegister() const override {
    return {{EventResource::kNode, kAdd | kUpdate, ""}};
  }
  std::vector<ClusterEventWithHint> EventsToRegisterWithHints() const override {
    return NodeNameEventsToRegister();
  }

  Status Filter(const CycleState&, const Pod& pod, const NodeInfo& node) const override {
    const std::string& wanted = pod.spec.node_name;
    if (wanted.empty() || wanted == node.name()) return Status::Success();
    return Status::Unresolvable(kErrReason);
  }
};

}  // namespace

std::unique_ptr<Plugin> NewNodeName(const config::PluginArgs&, Handle*, Status*) {
  return std::make_unique<NodeName>();
}

}  // namespace ksched::framework::plugins
