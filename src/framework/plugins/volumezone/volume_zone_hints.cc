#include "framework/plugins/volumezone/volume_zone_hints.h"

#include <set>
#include <string>
#include <utility>

#include "framework/plugins/helper/hints.h"

namespace ksched::framework::plugins {
namespace {

// getPVTopologies: the zone and region labels a PV carries, each value
// split on "__" (volumehelpers.LabelZonesToSet), in upstream's key order.
std::vector<std::pair<std::string, std::set<std::string>>> Topologies(const PersistentVolume& pv) {
  static const char* const kKeys[] = {
      "failure-domain.beta.kubernetes.io/zone", "failure-domain.beta.kubernetes.io/region",
      "topology.kubernetes.io/zone", "topology.kubernetes.io/region"};
  std::vector<std::pair<std::string, std::set<std::string>>> out;
  for (const char* key : kKeys) {
    std::optional<StrId> value = pv.meta.labels.Get(Intern(key));
    if (!value) continue;
    std::set<std::string> zones;
    std::string_view s = Str(*value);
    for (size_t pos = 0;;) {
      const size_t next = s.find("__", pos);
      std::string_view part = s.substr(pos, next == std::string_view::npos ? s.npos : next - pos);
      if (!part.empty()) zones.insert(std::string(part));
      if (next == std::string_view::npos) break;
      pos = next + 2;
    }
    if (zones.empty()) continue;  // does not parse: upstream skips the label
    out.emplace_back(key, std::move(zones));
  }
  return out;
}

}  // namespace

std::vector<ClusterEventWithHint> VolumeZoneEventsToRegister() {
  // Without preCheck (QueueingHints) no node taint update is needed.
  return {
      {{EventResource::kStorageClass, kAdd, ""}, VolumeZoneAfterStorageClassAdded},
      {{EventResource::kNode, kAdd | kUpdateNodeLabel, ""}, {}},
      {{EventResource::kPersistentVolumeClaim, kAdd | kUpdate, ""}, VolumeZoneAfterClaimChange},
      {{EventResource::kPersistentVolume, kAdd | kUpdate, ""}, VolumeZoneAfterVolumeChange},
  };
}

QueueingHint VolumeZoneAfterStorageClassAdded(const Pod&, const EventObject& old_obj,
                                              const EventObject& new_obj) {
  const StorageClass *unused, *added;
  if (!helper::As(old_obj, new_obj, &unused, &added) || added == nullptr)
    return QueueingHint::kError;
  return helper::QueueIf(added->volume_binding_mode == "WaitForFirstConsumer");
}

QueueingHint VolumeZoneAfterClaimChange(const Pod& pod, const EventObject& old_obj,
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

QueueingHint VolumeZoneAfterVolumeChange(const Pod&, const EventObject& old_obj,
                                         const EventObject& new_obj) {
  const PersistentVolume *before, *after;
  if (!helper::As(old_obj, new_obj, &before, &after) || after == nullptr)
    return QueueingHint::kError;
  if (before == nullptr) return QueueingHint::kQueue;
  return helper::QueueIf(Topologies(*before) != Topologies(*after));
}

}  // namespace ksched::framework::plugins
