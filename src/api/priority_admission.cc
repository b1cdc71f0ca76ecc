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
  auto find = [&](std::string_view name) -> const PriorityClass* {
    static const PriorityClass kClusterCritical = [] {
      PriorityClass pc;
      pc.meta.name = std::string(kSystemClusterCritical);
      pc.value = kSystemClusterCriticalValue;
      return pc;
    }();
    static const PriorityClass kNodeCritical = [] {
      PriorityClass pc;
      pc.meta.name = std::string(kSystemNodeCritical);
      pc.value = kSystemNodeCriticalValue;
      return pc;
    }();
    for (const PriorityClass& pc : classes)
      if (pc.meta.name == name) return &pc;
    if (name == kSystemClusterCritical) return &kClusterCritical;
    if (name == kSystemNodeCritical) return &kNodeCritical;
    return nullptr;
  };
  // v1.19+: the class's preemptionPolicy goes to the pod too (v1.15 reads
  // neither).
  auto admit = [](const PriorityClass& pc, Pod* pod) {
    pod->spec.priority = pc.value;
    if (pod->spec.preemption_policy.empty()) pod->spec.preemption_policy = pc.preemption_policy;
  };
  for (Pod& pod : *pods) {
    if (pod.spec.priority.has_value()) continue;
    if (pod.spec.priority_class_name.empty()) {
      if (global_default != nullptr) {
        pod.spec.priority_class_name = global_default->meta.name;
        admit(*global_default, &pod);
      } else {
        pod.spec.priority = 0;
      }
      continue;
    }
    const PriorityClass* pc = find(pod.spec.priority_class_name);
    if (pc == nullptr) {
      return MakeError(fmt::format(
          "{}{}Pod {}: spec.priorityClassName: no PriorityClass with name {} was found (the API "
          "server's Priority admission rejects the pod; include the cluster's classes, e.g. "
          "kubectl get priorityclasses -o yaml, or set spec.priority)",
          source, source.empty() ? "" : ": ", pod.Key(), pod.spec.priority_class_name));
    }
    admit(*pc, &pod);
  }
  return Status::Ok();
}

}  // namespace ksched
