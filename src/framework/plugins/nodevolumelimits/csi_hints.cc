#include "framework/plugins/nodevolumelimits/csi_hints.h"

#include <map>

#include "framework/plugins/helper/hints.h"
#include "framework/plugins/nodevolumelimits/csi_translation.h"

namespace ksched::framework::plugins {
namespace {

// The claim a volume of `pod` names ("" for none).
std::string ClaimName(const Pod& pod, const Volume& v) {
  if (v.kind == VolumeKind::kPersistentVolumeClaim) return v.id;
  if (v.kind == VolumeKind::kEphemeral) return pod.meta.name + "-" + v.name;
  return "";
}

}  // namespace

std::vector<ClusterEventWithHint> CSILimitsEventsToRegister() {
  return {
      // Any new CSINode may help: no hint.
      {{EventResource::kCSINode, kAdd, ""}, {}},
      {{EventResource::kCSINode, kUpdate, ""}, CSILimitsAfterCSINodeUpdated},
      {{EventResource::kPod, kDelete, ""}, CSILimitsAfterPodDeleted},
      {{EventResource::kPersistentVolumeClaim, kAdd, ""}, CSILimitsAfterClaimAdded},
      {{EventResource::kVolumeAttachment, kDelete, ""}, {}},
  };
}

QueueingHint CSILimitsAfterPodDeleted(const Pod&, const EventObject& old_obj,
                                      const EventObject& new_obj) {
  const Pod *deleted, *unused;
  if (!helper::As(old_obj, new_obj, &deleted, &unused) || deleted == nullptr)
    return QueueingHint::kError;
  if (deleted->spec.volumes.empty()) return QueueingHint::kQueueSkip;
  if (deleted->spec.node_name.empty() && deleted->nominated_node_name.empty())
    return QueueingHint::kQueueSkip;
  for (const Volume& v : deleted->spec.volumes) {
    if (v.kind == VolumeKind::kPersistentVolumeClaim || v.kind == VolumeKind::kEphemeral ||
        !csi::InTreePluginName(v.kind).empty())
      return QueueingHint::kQueue;
  }
  return QueueingHint::kQueueSkip;
}

QueueingHint CSILimitsAfterClaimAdded(const Pod& pod, const EventObject& old_obj,
                                      const EventObject& new_obj) {
  const PersistentVolumeClaim *unused, *claim;
  if (!helper::As(old_obj, new_obj, &unused, &claim) || claim == nullptr)
    return QueueingHint::kError;
  if (claim->meta.ns != pod.meta.ns) return QueueingHint::kQueueSkip;
  for (const Volume& v : pod.spec.volumes) {
    const std::string name = ClaimName(pod, v);
    if (!name.empty() && name == claim->meta.name) return QueueingHint::kQueue;
  }
  return QueueingHint::kQueueSkip;
}

QueueingHint CSILimitsAfterCSINodeUpdated(const Pod&, const EventObject& old_obj,
                                          const EventObject& new_obj) {
  const CSINode *before, *after;
  if (!helper::As(old_obj, new_obj, &before, &after) || before == nullptr || after == nullptr)
    return QueueingHint::kError;
  std::map<std::string, int32_t> old_limits;
  for (const CSINodeDriver& d : before->drivers)
    old_limits[d.name] = d.allocatable_count.value_or(0);
  for (const CSINodeDriver& d : after->drivers) {
    auto it = old_limits.find(d.name);
    const int32_t old_limit = it == old_limits.end() ? 0 : it->second;
    if (d.allocatable_count.value_or(0) > old_limit) return QueueingHint::kQueue;
  }
  return QueueingHint::kQueueSkip;
}

}  // namespace ksched::framework::plugins
