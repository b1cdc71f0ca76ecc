// NodePorts: a pod's container host ports must be free on the node (same
// protocol and port, and either side on 0.0.0.0 or both on the same IP).
// v1.35 counts the host ports of native sidecars (restartable init
// containers) too, before the regular containers', and skips the plugin for
// a pod without host ports.
#include "framework/plugins/names/names.h"
#include "framework/plugins/nodeports/node_ports_hints.h"
#include "framework/plugins/registry_factories.h"

namespace ksched::framework::plugins {
namespace {

constexpr const char* kErrReason = "node(s) didn't have free ports for the requested pod ports";

// The pod's host ports (ports without one never conflict, so they are left
// out), computed once per cycle.
struct PreFilterState final : StateData {
  std::vector<HostPort> ports;
  std::unique_ptr<StateData> Clone() const override {
    return std::make_unique<PreFilterState>(*this);
  }
};

const StateKey kPreFilterStateKey = StateKey::Register();

class NodePorts final : public PreFilterPlugin, public FilterPlugin, public EnqueueExtensions {
 public:
  explicit NodePorts(bool v135) : v135_(v135) {}

  std::string_view Name() const override { return names::kNodePorts; }

  // Reads the pod's spec and this node only.
  bool NodeLocalFor(const Pod&) const override { return true; }
  uint32_t NodeLocalAspects() const override { return 0; }
  // No host port to conflict with.
  bool PassesEveryNodeFor(const Pod& pod) const override { return HostPorts(pod).empty(); }

  std::vector<ClusterEvent> EventsToRegister() const override {
    return {{EventResource::kPod, kDelete, ""}, {EventResource::kNode, kAdd | kUpdate, ""}};
  }
  std::vector<ClusterEventWithHint> EventsToRegisterWithHints() const override {
    return NodePortsEventsToRegister();
  }

  Status PreFilter(CycleState* state, const Pod& pod, PreFilterResult*) override {
    auto s = std::make_unique<PreFilterState>();
    s->ports = HostPorts(pod);
    // v1.35: nothing to check, so Filter is not run this cycle.
    if (v135_ && s->ports.empty()) return Status(Code::kSkip);
    state->Write(kPreFilterStateKey, std::move(s));
    return Status::Success();
  }

  Status Filter(const CycleState& state, const Pod&, const NodeInfo& node) const override {
    const auto* s = state.ReadAs<PreFilterState>(kPreFilterStateKey);
    if (s == nullptr)
      return Status::Error("reading \"PreFilterNodePorts\" from cycleState: not found");
    for (const HostPort& want : s->ports)
      if (HostPortConflicts(node.used_ports, want)) return Status::Unschedulable(kErrReason);
    return Status::Success();
  }

 private:
  // util.GetHostPorts: v1.35 adds the sidecars' ports (as the cache does
  // for placed pods, CacheOptions::v135).
  std::vector<HostPort> HostPorts(const Pod& pod) const {
    return PodHostPorts(pod, /*sidecars=*/v135_);
  }

  bool v135_;
};

}  // namespace

std::unique_ptr<Plugin> NewNodePorts(const config::PluginArgs&, Handle* handle, Status*) {
  return std::make_unique<NodePorts>(
      handle != nullptr && handle->feature_gates().AtLeast(config::SchedulerVersion::kV135));
}

}  // namespace ksched::framework::plugins
