// NodeUnschedulable: keeps pods off nodes with spec.unschedulable, unless
// the pod tolerates the node.kubernetes.io/unschedulable:NoSchedule taint
// (which the node lifecycle controller puts on such nodes).
#include "framework/plugins/names/names.h"
#include "framework/plugins/nodeunschedulable/node_unschedulable_hints.h"
#include "framework/plugins/registry_factories.h"
#include "predicates/tolerations.h"

namespace ksched::framework::plugins {
namespace {

constexpr const char* kErrReasonUnschedulable = "node(s) were unschedulable";

class NodeUnschedulable final : public FilterPlugin, public EnqueueExtensions {
 public:
  // `comparison_operators`: TaintTolerationComparisonOperators (v1.35).
  explicit NodeUnschedulable(bool comparison_operators)
      : comparison_operators_(comparison_operators) {
    unschedulable_taint_.key = Intern("node.kubernetes.io/unschedulable");
    unschedulable_taint_.effect = TaintEffect::kNoSchedule;
    unschedulable_taint_.effect_str = "NoSchedule";
  }

  std::string_view Name() const override { return names::kNodeUnschedulable; }

  // Reads the pod's spec and this node only.
  bool NodeLocalFor(const Pod&) const override { return true; }
  uint32_t NodeLocalAspects() const override { return kAspectTolerations; }

  std::vector<ClusterEvent> EventsToRegister() const override {
    return {{EventResource::kNode, kAdd | kUpdateNodeTaint, ""}};
  }
  std::vector<ClusterEventWithHint> EventsToRegisterWithHints() const override {
    return NodeUnschedulableEventsToRegister();
  }

  Status Filter(const CycleState&, const Pod& pod, const NodeInfo& node) const override {
    if (!node.node->unschedulable) return Status::Success();
    if (TolerationsTolerateTaint(pod.spec.tolerations, unschedulable_taint_, comparison_operators_))
      return Status::Success();
    return Status::Unresolvable(kErrReasonUnschedulable);
  }

 private:
  bool comparison_operators_;
  Taint unschedulable_taint_;
};

}  // namespace

std::unique_ptr<Plugin> NewNodeUnschedulable(const config::PluginArgs&, Handle* handle, Status*) {
  return std::make_unique<NodeUnschedulable>(
      handle != nullptr && handle->feature_gates().taint_toleration_comparison_operators);
}

}  // namespace ksched::framework::plugins
