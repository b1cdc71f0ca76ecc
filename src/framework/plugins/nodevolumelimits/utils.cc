#include "framework/plugins/nodevolumelimits/utils.h"

#include <string>

namespace ksched::framework::nodevolumelimits {

std::optional<int64_t> AllocatableLimit(const NodeInfo& node, StrId key) {
  for (const auto& [name, amount] : node.allocatable.scalars)
    if (name == key) return amount;
  return std::nullopt;
}

Status EphemeralVolumeIsForPod(const Pod& pod, const PersistentVolumeClaim& pvc) {
  bool controlled = false;
  for (const OwnerReference& ref : pvc.meta.owner_references) {
    // metav1.IsControlledBy: the controller reference's UID is the pod's.
    if (ref.controller) {
      controlled = ref.uid == pod.meta.uid;
      break;
    }
  }
  if (pvc.meta.ns == pod.meta.ns && controlled) return Status();
  const std::string ns(Str(pvc.meta.ns)), pod_ns(Str(pod.meta.ns));
  return Status::Error("PVC " + ns + "/" + pvc.meta.name + " was not created for pod " + pod_ns +
                       "/" + pod.meta.name + " (pod is not owner)");
}

}  // namespace ksched::framework::nodevolumelimits
