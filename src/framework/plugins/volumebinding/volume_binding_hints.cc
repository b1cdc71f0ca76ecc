#include "framework/plugins/volumebinding/volume_binding_hints.h"

#include "framework/plugins/helper/hints.h"

namespace ksched::framework::plugins {
namespace {

bool SameTopologies(const StorageClass& a, const StorageClass& b) {
  const auto& x = a.allowed_topologies;
  const auto& y = b.allowed_topologies;
  if (x.size() != y.size()) return false;
  for (size_t i = 0; i < x.size(); ++i) {
    if (x[i].size() != y[i].size()) return false;
    for (size_t j = 0; j < x[i].size(); ++j)
      if (x[i][j].key != y[i][j].key || x[i][j].values != y[i][j].values) return false;
  }
  return true;
}

// volumeLimit: maximumVolumeSize when set, else capacity.
const std::optional<Quantity>& VolumeLimit(const CSIStorageCapacity& c) {
  return c.maximum_volume_size ? c.maximum_volume_size : c.capacity;
}

}  // namespace

std::vector<ClusterEventWithHint> VolumeBindingEventsToRegister() {
  // Without preCheck (QueueingHints) no node taint update is needed.
  return {
      {{EventResource::kStorageClass, kAdd | kUpdate, ""}, VolumeBindingAfterStorageClassChange},
      {{EventResource::kPersistentVolumeClaim, kAdd | kUpdate, ""}, VolumeBindingAfterClaimChange},
      {{EventResource::kPersistentVolume, kAdd | kUpdate, ""}, {}},
      {{EventResource::kNode, kAdd | kUpdateNodeLabel, ""}, {}},
      {{EventResource::kCSINode, kAdd | kUpdate, ""}, VolumeBindingAfterCSINodeChange},
      {{EventResource::kCSIDriver, kUpdate, ""}, VolumeBindingAfterCSIDriverChange},
      {{EventResource::kCSIStorageCapacity, kAdd | kUpdate, ""}, VolumeBindingAfterCapacityChange},
  };
}

QueueingHint VolumeBindingAfterStorageClassChange(const Pod&, const EventObject& old_obj,
                                                  const EventObject& new_obj) {
  const StorageClass *before, *after;
  if (!helper::As(old_obj, new_obj, &before, &after) || after == nullptr)
    return QueueingHint::kError;
  if (before == nullptr) return QueueingHint::kQueue;
  return helper::QueueIf(!SameTopologies(*before, *after));
}

QueueingHint VolumeBindingAfterClaimChange(const Pod& pod, const EventObject& old_obj,
                                           const EventObject& new_obj) {
  const PersistentVolumeClaim *before, *claim;
  if (!helper::As(old_obj, new_obj, &before, &claim) || claim == nullptr)
    return QueueingHint::kError;
  if (claim->meta.ns != pod.meta.ns) return QueueingHint::kQueueSkip;
  for (const Volume& v : pod.spec.volumes) {
    std::string name;
    if (v.kind == VolumeKind::kPersistentVolumeClaim) name = v.id;
    if (v.kind == VolumeKind::kEphemeral) name = pod.meta.name + "-" + v.name;
    if (!name.empty() && name == claim->meta.name) return QueueingHint::kQueue;
  }
  return QueueingHint::kQueueSkip;
}

QueueingHint VolumeBindingAfterCSINodeChange(const Pod&, const EventObject& old_obj,
                                             const EventObject& new_obj) {
  if (old_obj.empty()) return QueueingHint::kQueue;
  const CSINode *before, *after;
  if (!helper::As(old_obj, new_obj, &before, &after) || before == nullptr || after == nullptr)
    return QueueingHint::kError;
  return helper::QueueIf(before->migrated_plugins != after->migrated_plugins);
}

QueueingHint VolumeBindingAfterCSIDriverChange(const Pod& pod, const EventObject& old_obj,
                                               const EventObject& new_obj) {
  const CSIDriver *before, *after;
  if (!helper::As(old_obj, new_obj, &before, &after) || before == nullptr || after == nullptr)
    return QueueingHint::kError;
  for (const Volume& v : pod.spec.volumes) {
    if (v.kind != VolumeKind::kCSI || v.id != after->meta.name) continue;
    if (before->storage_capacity && !after->storage_capacity) return QueueingHint::kQueue;
  }
  return QueueingHint::kQueueSkip;
}

QueueingHint VolumeBindingAfterCapacityChange(const Pod&, const EventObject& old_obj,
                                              const EventObject& new_obj) {
  const CSIStorageCapacity *before, *after;
  if (!helper::As(old_obj, new_obj, &before, &after) || after == nullptr)
    return QueueingHint::kError;
  if (before == nullptr) return QueueingHint::kQueue;
  const std::optional<Quantity>& old_limit = VolumeLimit(*before);
  const std::optional<Quantity>& new_limit = VolumeLimit(*after);
  return helper::QueueIf(new_limit && (!old_limit || new_limit->Value() > old_limit->Value()));
}

}  // namespace ksched::framework::plugins
