// NodeVolumeLimits (v1.26's CSILimits): per CSI driver, a node fails when
// its pods' unique volumes of the driver plus the pod's new ones exceed the
// driver's limit.
//
// Limits: the node's allocatable attachable-volumes-* resources, overridden
// by the allocatable.count of each driver in the node's CSINode. Volumes:
// claims bound to CSI PVs (driver/handle), claims bound to in-tree PVs whose
// plugin migrated to CSI on the node (translated), inline in-tree volumes
// likewise, and claims without a PV counted against their class's
// provisioner (or the CSI driver it migrated to) under a private per-claim
// handle.
#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "framework/plugins/names/names.h"
#include "framework/plugins/nodevolumelimits/csi_hints.h"
#include "framework/plugins/nodevolumelimits/csi_translation.h"
#include "framework/plugins/nodevolumelimits/utils.h"
#include "framework/plugins/registry_factories.h"
#include "predicates/volume_util.h"

namespace ksched::framework::plugins {
namespace {

// One attachable volume: its unique name ("<driver>/<handle>") and limit key.
// Claims without a PV carry upstream's random prefix in the handle; a byte
// that cannot occur in API strings stands in for it here.
struct Attachable {
  std::string unique_name;
  std::string limit_key;
  bool operator<(const Attachable& o) const { return unique_name < o.unique_name; }
};

constexpr std::string_view kPrivatePrefix = "\x01";

class CSILimits final : public FilterPlugin, public EnqueueExtensions {
 public:
  explicit CSILimits(Handle* handle) : handle_(handle) {}

  std::string_view Name() const override { return names::kNodeVolumeLimits; }

  // Without volumes every Filter passes and Score is 0; with volumes, claims
  // and assumed bindings are read: run every cycle.
  bool NodeLocalFor(const Pod& pod) const override { return pod.spec.volumes.empty(); }
  bool PassesEveryNodeFor(const Pod& pod) const override { return pod.spec.volumes.empty(); }

  Status Filter(const CycleState&, const Pod& pod, const NodeInfo& node) const override {
    if (pod.spec.volumes.empty()) return Status();
    if (node.node == nullptr) return Status::Error("node not found");
    const ClusterState& cluster = handle_->cluster();
    const CSINode* csi_node = csi::CSINodeOf(cluster, node);

    std::vector<Attachable> new_volumes;
    if (Status s = FilterAttachable(cluster, pod, csi_node, true, &new_volumes); !s.IsSuccess())
      return s;
    MakeSet(&new_volumes);
    if (new_volumes.empty()) return Status();

    std::vector<std::pair<std::string, int64_t>> limits = VolumeLimits(node, csi_node);
    if (limits.empty()) return Status();

    std::vector<Attachable> attached;
    for (PodId id : node.pods) {
      if (Status s = FilterAttachable(cluster, cluster.pod(id).pod, csi_node, false, &attached);
          !s.IsSuccess())
        return s;
    }
    MakeSet(&attached);

    // Per limit key: attached count, and new volumes not attached already.
    for (const auto& [key, limit] : limits) {
      int64_t current = 0, added = 0;
      for (const Attachable& a : attached) current += a.limit_key == key;
      for (const Attachable& v : new_volumes) {
        if (v.limit_key != key) continue;
        if (!std::binary_search(attached.begin(), attached.end(), v)) ++added;
      }
      if (added > 0 && current + added > limit)
        return Status::Unschedulable(nodevolumelimits::kErrReasonMaxVolumeCountExceeded);
    }
    return Status();
  }

  std::vector<ClusterEvent> EventsToRegister() const override {
    return {{EventResource::kCSINode, kAdd, "CSINodeAdd"},
            {EventResource::kPod, kDelete, "PodDelete"}};
  }
  std::vector<ClusterEventWithHint> EventsToRegisterWithHints() const override {
    return CSILimitsEventsToRegister();
  }

 private:
  // A map in upstream: a repeated unique name keeps its last limit key,
  // which is always the same one (the key derives from the driver).
  static void MakeSet(std::vector<Attachable>* v) {
    std::stable_sort(v->begin(), v->end());
    v->erase(std::unique(v->begin(), v->end(),
                         [](const Attachable& a, const Attachable& b) {
                           return a.unique_name == b.unique_name;
                         }),
             v->end());
  }

  // getVolumeLimits: allocatable attachable-volumes-*, then CSINode counts.
  static std::vector<std::pair<std::string, int64_t>> VolumeLimits(const NodeInfo& node,
                                                                   const CSINode* csi_node) {
    std::vector<std::pair<std::string, int64_t>> out;
    for (const auto& [name, amount] : node.allocatable.scalars)
      if (IsAttachableVolumeResourceName(Str(name)))
        out.emplace_back(std::string(Str(name)), amount);
    if (csi_node != nullptr) {
      for (const CSINodeDriver& d : csi_node->drivers) {
        if (!d.allocatable_count) continue;
        std::string key = volume::CsiAttachLimitKey(d.name);
        auto it =
            std::find_if(out.begin(), out.end(), [&](const auto& e) { return e.first == key; });
        if (it != out.end()) {
          it->second = *d.allocatable_count;
        } else {
          out.emplace_back(std::move(key), *d.allocatable_count);
        }
      }
    }
    return out;
  }

  static void Add(std::string_view driver, std::string_view handle, std::vector<Attachable>* out) {
    std::string unique(driver);
    unique += '/';
    unique += handle;
    out->push_back({std::move(unique), volume::CsiAttachLimitKey(driver)});
  }

  // filterAttachableVolumes for one pod.
  Status FilterAttachable(const ClusterState& cluster, const Pod& pod, const CSINode* csi_node,
                          bool new_pod, std::vector<Attachable>* out) const {
    for (const Volume& vol : pod.spec.volumes) {
      if (vol.kind != VolumeKind::kPersistentVolumeClaim && vol.kind != VolumeKind::kEphemeral) {
        if (Status s = InlineVolume(vol, csi_node, out); !s.IsSuccess()) return s;
        continue;
      }
      if (vol.id.empty()) return Status::Error("PersistentVolumeClaim had no name");
      const PersistentVolumeClaim* pvc = cluster.FindPvc(pod.meta.ns, vol.id);
      if (pvc == nullptr) {
        if (new_pod) {
          return Status::Error("looking up PVC " + std::string(Str(pod.meta.ns)) + "/" + vol.id +
                               ": persistentvolumeclaim " + volume::GoQuote(vol.id) + " not found");
        }
        continue;
      }
      if (vol.kind == VolumeKind::kEphemeral) {
        if (Status s = nodevolumelimits::EphemeralVolumeIsForPod(pod, *pvc); !s.IsSuccess())
          return s;
      }
      std::string driver, handle;
      DriverInfo(cluster, csi_node, *pvc, &driver, &handle);
      if (driver.empty() || handle.empty()) continue;
      Add(driver, handle, out);
    }
    return Status();
  }

  // checkAttachableInlineVolume.
  static Status InlineVolume(const Volume& vol, const CSINode* csi_node,
                             std::vector<Attachable>* out) {
    std::string_view plugin = csi::InTreePluginName(vol.kind);
    if (plugin.empty()) return Status();
    if (!csi::CSIMigrationOn(csi_node, plugin)) return Status();
    csi::TranslatedVolume t;
    std::string error;
    if (!csi::TranslateInlineVolume(vol, &t, &error)) {
      // Upstream prints the whole v1.Volume with %v here; the name stands in.
      return Status::Error("converting volume(" + vol.name + ") from inline to csi: " + error);
    }
    Add(csi::CSIDriverName(plugin), t.volume_handle, out);
    return Status();
  }

  // getCSIDriverInfo.
  static void DriverInfo(const ClusterState& cluster, const CSINode* csi_node,
                         const PersistentVolumeClaim& pvc, std::string* driver,
                         std::string* handle) {
    if (pvc.volume_name.empty()) return DriverInfoFromClass(cluster, csi_node, pvc, driver, handle);
    const PersistentVolume* pv = cluster.FindPv(pvc.volume_name);
    if (pv == nullptr) return DriverInfoFromClass(cluster, csi_node, pvc, driver, handle);
    if (pv->kind == VolumeKind::kCSI) {
      *driver = pv->csi_driver;
      *handle = pv->volume_id;
      return;
    }
    std::string_view plugin = csi::InTreePluginName(pv->kind);
    if (plugin.empty() || !csi::CSIMigrationOn(csi_node, plugin)) return;
    csi::TranslatedVolume t;
    std::string error;
    if (!csi::TranslatePV(*pv, &t, &error)) return;
    *driver = std::move(t.driver);
    *handle = std::move(t.volume_handle);
  }

  // getCSIDriverInfoFromSC.
  static void DriverInfoFromClass(const ClusterState& cluster, const CSINode* csi_node,
                                  const PersistentVolumeClaim& pvc, std::string* driver,
                                  std::string* handle) {
    std::string_view class_name = volume::ClaimClass(pvc);
    if (class_name.empty()) return;
    const StorageClass* sc = cluster.FindStorageClass(class_name);
    if (sc == nullptr) return;
    std::string private_handle(kPrivatePrefix);
    private_handle += '-';
    private_handle += Str(pvc.meta.ns);
    private_handle += '/';
    private_handle += pvc.meta.name;
    if (csi::IsMigratableInTreePlugin(sc->provisioner)) {
      if (!csi::CSIMigrationOn(csi_node, sc->provisioner)) return;
      *driver = std::string(csi::CSIDriverName(sc->provisioner));
      *handle = std::move(private_handle);
      return;
    }
    *driver = sc->provisioner;
    *handle = std::move(private_handle);
  }

  Handle* handle_;
};

}  // namespace

std::unique_ptr<Plugin> NewNodeVolumeLimits(const config::PluginArgs&, Handle* handle, Status*) {
  return std::make_unique<CSILimits>(handle);
}

}  // namespace ksched::framework::plugins
