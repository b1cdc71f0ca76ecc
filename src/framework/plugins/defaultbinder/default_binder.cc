// DefaultBinder: binds the pod to the chosen node through the Handle's
// Binder (the snapshot front ends assume it into the cluster, `ksched run`
// posts a Binding to the API server).
#include "framework/plugins/names/names.h"
#include "framework/plugins/registry_factories.h"

namespace ksched::framework::plugins {
namespace {

class DefaultBinder final : public BindPlugin {
 public:
  explicit DefaultBinder(Handle* handle) : handle_(handle) {}

  std::string_view Name() const override { return names::kDefaultBinder; }

  Status Bind(CycleState*, const Pod& pod, NodeId node) override {
    Binder* binder = handle_->binder();
    if (binder == nullptr) return Status::Success();  // an engine that binds nothing
    Status s = binder->Bind(pod, handle_->cluster().node(node).meta.name);
    // Upstream turns a failed API call into an Error status.
    if (!s.IsSuccess() && !s.IsError()) return Status::Error(s.Message());
    return s;
  }

 private:
  Handle* handle_;
};

}  // namespace

std::unique_ptr<Plugin> NewDefaultBinder(const config::PluginArgs&, Handle* handle, Status*) {
  return std::make_unique<DefaultBinder>(handle);
}

}  // namespace ksched::framework::plugins
