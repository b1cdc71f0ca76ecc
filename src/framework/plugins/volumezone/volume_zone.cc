// VolumeZone (v1.26): the zone and region labels of the PVs a pod's claims
// are bound to must name the node's zone and region.
//
// Both label generations count: topology.kubernetes.io/{zone,region} and
// failure-domain.beta.kubernetes.io/{zone,region}. A PV label value may list
// several zones joined by "__". A node without any of the four labels takes
// every pod. Claims of WaitForFirstConsumer classes that are not bound yet are
// skipped (VolumeBinding places them); other unbound claims, and missing
// claims, classes or PVs, make the node unresolvable with upstream's message.
// v1.26 has no PreFilter here: everything happens per node, in Filter.
#include <array>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "framework/plugins/names/names.h"
#include "framework/plugins/registry_factories.h"
#include "framework/plugins/volumezone/volume_zone_hints.h"
#include "predicates/volume_util.h"

namespace ksched::framework::plugins {
namespace {

constexpr const char* kErrReasonConflict = "node(s) had no available volume zone";

// The four label keys, interned once.
const std::array<StrId, 4>& ZoneLabelKeys() {
  static const std::array<StrId, 4> keys = {
      Intern("failure-domain.beta.kubernetes.io/zone"),
      Intern("failure-domain.beta.kubernetes.io/region"),
      Intern("topology.kubernetes.io/zone"),
      Intern("topology.kubernetes.io/region"),
  };
  return keys;
}

bool IsZoneLabel(StrId key) {
  for (StrId k : ZoneLabelKeys())
    if (k == key) return true;
  return false;
}

Status NotFound(std::string_view resource, std::string_view name) {
  std::string msg(resource);
  msg += ' ';
  msg += volume::GoQuote(name);
  msg += " not found";
  return Status::Unresolvable(std::move(msg));
}

class VolumeZone final : public FilterPlugin, public EnqueueExtensions {
 public:
  explicit VolumeZone(Handle* handle) : handle_(handle) {}

  std::string_view Name() const override { return names::kVolumeZone; }

  // Without volumes every Filter passes and Score is 0; with volumes, claims
  // and assumed bindings are read: run every cycle.
  bool NodeLocalFor(const Pod& pod) const override { return pod.spec.volumes.empty(); }
  bool PassesEveryNodeFor(const Pod& pod) const override { return pod.spec.volumes.empty(); }

  Status Filter(const CycleState&, const Pod& pod, const NodeInfo& node) const override {
    if (pod.spec.volumes.empty()) return Status();
    if (node.node == nullptr) return Status::Error("node not found");
    bool constrained = false;
    for (const auto& [k, v] : node.labels()) constrained = constrained || IsZoneLabel(k);
    // A node without zone labels takes every volume.
    if (!constrained) return Status();

    const ClusterState& cluster = handle_->cluster();
    std::vector<std::string_view> zones;
    for (const Volume& vol : pod.spec.volumes) {
      if (vol.kind != VolumeKind::kPersistentVolumeClaim) continue;
      if (vol.id.empty()) return Status::Unresolvable("PersistentVolumeClaim had no name");
      const PersistentVolumeClaim* pvc = cluster.FindPvc(pod.meta.ns, vol.id);
      if (pvc == nullptr) return NotFound("persistentvolumeclaim", vol.id);

      if (pvc->volume_name.empty()) {
        std::string_view class_name = volume::ClaimClass(*pvc);
        if (class_name.empty()) {
          return Status::Unresolvable("PersistentVolumeClaim had no pv name and storageClass name");
        }
        const StorageClass* sc = cluster.FindStorageClass(class_name);
        if (sc == nullptr) return NotFound("storageclass.storage.k8s.io", class_name);
        if (sc->volume_binding_mode == volume::kWaitForFirstConsumer) continue;
        return Status::Unresolvable("PersistentVolume had no name");
      }

      const PersistentVolume* pv = cluster.FindPv(pvc->volume_name);
      if (pv == nullptr) return NotFound("persistentvolume", pvc->volume_name);

      for (const auto& [key, value] : pv->meta.labels) {
        if (!IsZoneLabel(key)) continue;
        // An unparsable value is ignored, as upstream logs and skips it.
        if (!volume::LabelZonesToSet(Str(value), &zones)) continue;
        const std::optional<StrId> node_value = node.labels().Get(key);
        const std::string_view want = node_value ? Str(*node_value) : std::string_view();
        bool found = false;
        for (std::string_view z : zones) found = found || z == want;
        if (!found) return Status::Unresolvable(kErrReasonConflict);
      }
    }
    return Status();
  }

  std::vector<ClusterEvent> EventsToRegister() const override {
    return {{EventResource::kStorageClass, kAdd, "StorageClassAdd"},
            {EventResource::kNode, kAdd | kUpdateNodeLabel, "NodeAddOrUpdateLabel"},
            {EventResource::kPersistentVolumeClaim, kAdd, "PvcAdd"},
            {EventResource::kPersistentVolume, kAdd | kUpdate, "PvAddOrUpdate"}};
  }
  std::vector<ClusterEventWithHint> EventsToRegisterWithHints() const override {
    return VolumeZoneEventsToRegister();
  }

 private:
  Handle* handle_;
};

}  // namespace

std::unique_ptr<Plugin> NewVolumeZone(const config::PluginArgs&, Handle* handle, Status*) {
  return std::make_unique<VolumeZone>(handle);
}

}  // namespace ksched::framework::plugins
