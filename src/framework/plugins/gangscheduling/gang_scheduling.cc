// GangScheduling (v1.35, alpha, in the default profile only with its gate and
// GenericWorkload): holds the pods of a Workload's gang until enough of them
// are queued, and lets them bind only together. It acts only on pods with
// spec.workloadRef, which ksched's Pod does not carry (nor Workload
// objects), so for every pod ksched reads its PreEnqueue, Reserve and Permit
// pass, as upstream's do for a pod without a workload. Present so that
// AllAlpha=true or the gates build the default profile as upstream does.
#include <string>

#include "framework/plugins/names/names.h"
#include "framework/plugins/registry_factories.h"

namespace ksched::framework::plugins {
namespace {

class GangScheduling final : public PreEnqueuePlugin,
                             public ReservePlugin,
                             public PermitPlugin,
                             public EnqueueExtensions {
 public:
  std::string_view Name() const override { return names::kGangScheduling; }

  std::vector<ClusterEvent> EventsToRegister() const override {
    return {{EventResource::kPod, kAdd, ""}};
  }

  Status PreEnqueue(const Pod&) override { return Status::Success(); }
  Status Reserve(CycleState*, const Pod&, NodeId) override { return Status::Success(); }
  void Unreserve(CycleState*, const Pod&, NodeId) override {}
  Status Permit(CycleState*, const Pod&, NodeId, int64_t* timeout_ns) override {
    *timeout_ns = 0;
    return Status::Success();
  }
};

}  // namespace

std::unique_ptr<Plugin> NewGangScheduling(const config::PluginArgs&, Handle*, Status*) {
  return std::make_unique<GangScheduling>();
}

}  // namespace ksched::framework::plugins
