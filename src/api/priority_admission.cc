#include "api/priority_admission.h"

#include <fmt/format.h>

namespace ksched {

Status ApplyPriorityClasses(const std::vector<PriorityClass>& classes, std::vector<Pod>* pods,
                            std::string_view source) {
  const PriorityClass* global_default = nullptr;
  for (const PriorityClass& pc : classes) {
    // With several defaults (the API server forbids it) the plugin takes the
    // lowest value; so do we.
    if (pc.global_default && (global_default == nullptr || pc.value < global_default->value)) {
      global_default = &pc;
    }
  }
  auto find = [&](std::string_view name) -> std::optional<int32_t> {
    for (const PriorityClass& pc : classes)
      if (pc.meta.name == name) return pc.value;
    if (name == kSystemClusterCritical) return kSystemClusterCriticalValue;
    if (name == kSystemNodeCritical) return kSystemNodeCriticalValue;
    return std::nullopt;
  };
  for (Pod& pod : *pods) {
    if (pod.spec.priority.has_value()) continue;
    if (pod.spec.priority_class_name.empty()) {
      if (global_default != nullptr) {
        pod.spec.priority_class_name = global_default->meta.name;
        pod.spec.priority = global_default->value;
      } else {
        pod.spec.priority = 0;
      }
      continue;
    }
    std::optional<int32_t> value = find(pod.spec.priority_class_name);
    if (!value) {
      return MakeError(fmt::format(
          "{}{}Pod {}: spec.priorityClassName: no PriorityClass with name {} was found (the API "
          "server's Priority admission rejects the pod; include the cluster's classes, e.g. "
          "kubectl get priorityclasses -o yaml, or set spec.priority)",
          source, source.empty() ? "" : ": ", pod.Key(), pod.spec.priority_class_name));
    }
    pod.spec.priority = *value;
  }
  return Status::Ok();
}

}  // namespace ksched
