// PrioritySort: the default QueueSort plugin. Pods of higher priority come
// first; equal priorities keep arrival order.
#include "framework/plugins/names/names.h"
#include "framework/plugins/registry_factories.h"

namespace ksched::framework::plugins {
namespace {

// corev1helpers.PodPriority: spec.priority, 0 when unset.
int32_t PodPriority(const Pod& pod) { return pod.spec.priority.value_or(0); }

class PrioritySort final : public QueueSortPlugin {
 public:
  std::string_view Name() const override { return names::kPrioritySort; }

  bool Less(const QueuedPodInfo& a, const QueuedPodInfo& b) const override {
    int32_t pa = PodPriority(*a.pod), pb = PodPriority(*b.pod);
    return pa > pb || (pa == pb && a.timestamp < b.timestamp);
  }
};

}  // namespace

std::unique_ptr<Plugin> NewPrioritySort(const config::PluginArgs&, Handle*, Status*) {
  return std::make_unique<PrioritySort>();
}

}  // namespace ksched::framework::plugins
