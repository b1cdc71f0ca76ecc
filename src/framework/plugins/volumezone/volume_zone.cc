// VolumeZone (v1.26): the zone and region labels of the PVs a pod's claims
// are bound to must name the node's zone and region.
//
// Both label generations count: topology.kubernetes.io/{zone,region} and
// failure-domain.beta.kubernetes.io/{zone,region}. A PV label value may list
// several zones joined by "__". A node without any of the four labels takes
// every pod. Claims of WaitForFirstConsumer classes that are not bound yet are
// skipped (VolumeBinding places them); other unbound claims, and missing
// claims, classes or PVs, make the pod unresolvable with upstream's message.
//
// v1.26 has no PreFilter here: everything happens per node, in Filter, on
// nodes with a zone label only, and a PV label is compared with the node's
// label of the same key.
//
// v1.35: PreFilter resolves the
// claims to the PVs' (key, zones) pairs once, so its errors reject the pod
// as a whole; without any pair it returns Skip. Filter compares each pair
// with the node's label of the key, or, for a beta key the node lacks, with
// the node's GA label (failure-domain.beta.kubernetes.io/zone -> topology.
// kubernetes.io/zone, region likewise).
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

// translateToGALabel: the GA key of a beta zone or region key, else the key.
StrId ToGALabel(StrId key) {
  const auto& keys = ZoneLabelKeys();
  if (key == keys[0]) return keys[2];
  if (key == keys[1]) return keys[3];
  return key;
}

Status NotFound(std::string_view resource, std::string_view name) {
  std::string msg(resource);
  msg += ' ';
  msg += volume::GoQuote(name);
  msg += " not found";
  return Status::Unresolvable(std::move(msg));
}

// v1.35's pvTopology: one zone label of a bound PV, split into its zones.
struct PvTopology {
  StrId key;
  std::vector<std::string> values;
};

struct TopologyState final : StateData {
  std::vector<PvTopology> topologies;
  std::unique_ptr<StateData> Clone() const override {
    return std::make_unique<TopologyState>(*this);
  }
};

const StateKey& Key() {
  static const StateKey key = StateKey::Register();
  return key;
}

class VolumeZone final : public PreFilterPlugin, public FilterPlugin, public EnqueueExtensions {
 public:
  VolumeZone(Handle* handle, bool v135) : handle_(handle), v135_(v135) {}

  std::string_view Name() const override { return names::kVolumeZone; }

  // Without volumes every Filter passes and Score is 0; with volumes, claims
  // and assumed bindings are read: run every cycle.
  bool NodeLocalFor(const Pod& pod) const override { return pod.spec.volumes.empty(); }
  bool PassesEveryNodeFor(const Pod& pod) const override { return pod.spec.volumes.empty(); }

  // v1.35 only: v1.26's VolumeZone has no PreFilter.
  bool ExtendsPreFilter() const override { return v135_; }
  Status PreFilter(CycleState* state, const Pod& pod, PreFilterResult*) override {
    if (!v135_) return Status();
    auto s = std::make_unique<TopologyState>();
    if (Status st = PodTopologies(pod, &s->topologies); !st.IsSuccess()) return st;
    if (s->topologies.empty()) return Status(Code::kSkip);
    state->Write(Key(), std::move(s));
    return Status();
  }

  Status Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) const override {
    if (pod.spec.volumes.empty()) return Status();
    if (v135_) return FilterV135(state, pod, node);
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
  // getPVbyPod: the zone labels of the PVs the pod's claims are bound to, in
  // volume order and, per PV, in the order of ZoneLabelKeys.
  Status PodTopologies(const Pod& pod, std::vector<PvTopology>* out) const {
    const ClusterState& cluster = handle_->cluster();
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
      std::vector<std::string_view> zones;
      for (StrId key : ZoneLabelKeys()) {
        const std::optional<StrId> value = pv->meta.labels.Get(key);
        if (!value) continue;
        // An unparsable value is ignored, as upstream logs and skips it.
        if (!volume::LabelZonesToSet(Str(*value), &zones)) continue;
        out->push_back({key, std::vector<std::string>(zones.begin(), zones.end())});
      }
    }
    return Status();
  }

  Status FilterV135(const CycleState& state, const Pod& pod, const NodeInfo& node) const {
    std::vector<PvTopology> computed;
    const std::vector<PvTopology>* topologies = &computed;
    if (const auto* s = state.ReadAs<TopologyState>(Key())) {
      topologies = &s->topologies;
    } else if (Status st = PodTopologies(pod, &computed); !st.IsSuccess()) {
      return st;
    }
    bool constrained = false;
    for (const auto& [k, v] : node.labels()) constrained = constrained || IsZoneLabel(k);
    if (!constrained) return Status();
    for (const PvTopology& t : *topologies) {
      std::optional<StrId> value = node.labels().Get(t.key);
      if (!value) value = node.labels().Get(ToGALabel(t.key));
      bool found = false;
      if (value) {
        for (const std::string& z : t.values) found = found || z == Str(*value);
      }
      if (!found) return Status::Unresolvable(kErrReasonConflict);
    }
    return Status();
  }

  Handle* handle_;
  bool v135_;
};

}  // namespace

std::unique_ptr<Plugin> NewVolumeZone(const config::PluginArgs&, Handle* handle, Status*) {
  return std::make_unique<VolumeZone>(
      handle, handle->feature_gates().AtLeast(config::SchedulerVersion::kV135));
}

}  // namespace ksched::framework::plugins
