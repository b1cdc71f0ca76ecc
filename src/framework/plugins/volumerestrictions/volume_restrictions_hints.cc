#include "framework/plugins/volumerestrictions/volume_restrictions_hints.h"

#include "framework/plugins/helper/hints.h"

namespace ksched::framework::plugins {
namespace {

// The same disk, as isVolumeConflict compares them (read-only ignored).
bool SameDisk(const Volume& a, const Volume& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case VolumeKind::kGCEPersistentDisk:
    case VolumeKind::kAWSElasticBlockStore:
      return a.id == b.id;
    case VolumeKind::kISCSI:
      return a.iscsi_iqn == b.iscsi_iqn;
    case VolumeKind::kRBD:
      return a.rbd_pool == b.rbd_pool && a.rbd_image == b.rbd_image;
    default:
      return false;
  }
}

}  // namespace

std::vector<ClusterEventWithHint> VolumeRestrictionsEventsToRegister() {
  // Without preCheck (QueueingHints) only Node/Add.
  return {
      {{EventResource::kPod, kDelete, ""}, VolumeRestrictionsAfterPodDeleted},
      {{EventResource::kNode, kAdd, ""}, {}},
      {{EventResource::kPersistentVolumeClaim, kAdd, ""}, VolumeRestrictionsAfterClaimAdded},
  };
}

QueueingHint VolumeRestrictionsAfterPodDeleted(const Pod& pod, const EventObject& old_obj,
                                               const EventObject& new_obj) {
  const Pod *deleted, *unused;
  if (!helper::As(old_obj, new_obj, &deleted, &unused) || deleted == nullptr)
    return QueueingHint::kError;
  if (deleted->meta.ns != pod.meta.ns) return QueueingHint::kQueueSkip;
  for (const Volume& want : pod.spec.volumes) {
    for (const Volume& held : deleted->spec.volumes) {
      if (SameDisk(want, held)) return QueueingHint::kQueue;
      // A ReadWriteOncePod claim held by the deleted pod.
      if (want.kind == VolumeKind::kPersistentVolumeClaim &&
          held.kind == VolumeKind::kPersistentVolumeClaim && want.id == held.id)
        return QueueingHint::kQueue;
    }
  }
  return QueueingHint::kQueueSkip;
}

QueueingHint VolumeRestrictionsAfterClaimAdded(const Pod& pod, const EventObject& old_obj,
                                               const EventObject& new_obj) {
  const PersistentVolumeClaim *unused, *claim;
  if (!helper::As(old_obj, new_obj, &unused, &claim) || claim == nullptr)
    return QueueingHint::kError;
  if (claim->meta.ns != pod.meta.ns) return QueueingHint::kQueueSkip;
  for (const Volume& v : pod.spec.volumes)
    if (v.kind == VolumeKind::kPersistentVolumeClaim && v.id == claim->meta.name)
      return QueueingHint::kQueue;
  return QueueingHint::kQueueSkip;
}

}  // namespace ksched::framework::plugins
