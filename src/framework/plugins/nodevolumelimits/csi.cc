// NodeVolumeLimits (the CSILimits plugin): per CSI driver, a node fails when
// its pods' unique volumes of the driver plus the pod's new ones exceed the
// driver's limit.
//
// Volumes: claims bound to CSI PVs (driver/handle), claims bound to in-tree
// PVs whose plugin migrated to CSI on the node (translated), inline in-tree
// volumes likewise, and claims without a PV counted against their class's
// provisioner (or the CSI driver it migrated to) under a private per-claim
// handle.
//
// v1.26: limits are the node's allocatable attachable-volumes-* resources,
// overridden by the allocatable.count of each driver in the node's CSINode;
// a missing claim of the pod is an Error.
//
// v1.35: limits come from the CSINode alone, by driver name; a missing claim
// of the pod makes the node unresolvable; PreFilter returns Skip when the
// pod has no claim, no ephemeral volume and no inline volume the migration
// library knows; the GA in-tree plugins count as migrated on every node with
// a CSINode (csi::NodeVolumeLimitsMigrationOn). Upstream also counts the
// node's VolumeAttachments; ksched has no VolumeAttachment object, so it
// counts the volumes of the node's pods only. With VolumeLimitScaling
// (alpha) a volume whose driver has a CSIDriver object but is not on the
// node's CSINode fails the node.
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

class CSILimits final : public PreFilterPlugin, public FilterPlugin, public EnqueueExtensions {
 public:
  CSILimits(Handle* handle, bool v135, bool volume_limit_scaling)
      : handle_(handle), v135_(v135), volume_limit_scaling_(volume_limit_scaling) {}

  std::string_view Name() const override { return names::kNodeVolumeLimits; }

  // Without volumes every Filter passes and Score is 0; with volumes, claims
  // and assumed bindings are read: run every cycle.
  bool NodeLocalFor(const Pod& pod) const override { return pod.spec.volumes.empty(); }
  bool PassesEveryNodeFor(const Pod& pod) const override { return pod.spec.volumes.empty(); }

  // v1.35 only: v1.26's CSILimits has no PreFilter.
  bool ExtendsPreFilter() const override { return v135_; }
  Status PreFilter(CycleState*, const Pod& pod, PreFilterResult*) override {
    if (!v135_) return Status();
    for (const Volume& v : pod.spec.volumes) {
      if (v.kind == VolumeKind::kPersistentVolumeClaim || v.kind == VolumeKind::kEphemeral ||
          csi::IsInlineMigratable(v.kind, true))
        return Status();
    }
    return Status(Code::kSkip);
  }

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

    if (volume_limit_scaling_) {
      if (Status s = DriversInstalled(cluster, csi_node, new_volumes); !s.IsSuccess()) return s;
    }

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

  // getVolumeLimits. v1.26: allocatable attachable-volumes-*, then CSINode
  // counts, by limit key. v1.35: CSINode counts alone, by driver name
  // (LimitKey).
  std::vector<std::pair<std::string, int64_t>> VolumeLimits(const NodeInfo& node,
                                                            const CSINode* csi_node) const {
    std::vector<std::pair<std::string, int64_t>> out;
    if (!v135_) {
      for (const auto& [name, amount] : node.allocatable.scalars)
        if (IsAttachableVolumeResourceName(Str(name)))
          out.emplace_back(std::string(Str(name)), amount);
    }
    if (csi_node != nullptr) {
      for (const CSINodeDriver& d : csi_node->drivers) {
        if (!d.allocatable_count) continue;
        std::string key = LimitKey(d.name);
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

  // What a driver's volumes count against: v1.26's attachable-volumes-csi-
  // resource name, v1.35's driver name.
  std::string LimitKey(std::string_view driver) const {
    return v135_ ? std::string(driver) : volume::CsiAttachLimitKey(driver);
  }

  void Add(std::string_view driver, std::string_view handle, std::vector<Attachable>* out) const {
    std::string unique(driver);
    unique += '/';
    unique += handle;
    out->push_back({std::move(unique), LimitKey(driver)});
  }

  // VolumeLimitScaling's checkCSIDriverOnNode for each new volume (v1.35's
  // limit keys are driver names): a driver with a CSIDriver object must be
  // on the node's CSINode. Upstream ranges over a map; the first missing
  // driver by name stands in for its pick.
  static Status DriversInstalled(const ClusterState& cluster, const CSINode* csi_node,
                                 const std::vector<Attachable>& volumes) {
    std::vector<std::string_view> missing;
    for (const Attachable& v : volumes) {
      if (cluster.FindCSIDriver(v.limit_key) == nullptr) continue;
      bool installed = false;
      if (csi_node != nullptr) {
        for (const CSINodeDriver& d : csi_node->drivers)
          installed = installed || d.name == v.limit_key;
      }
      if (!installed) missing.push_back(v.limit_key);
    }
    if (missing.empty()) return Status();
    std::sort(missing.begin(), missing.end());
    return Status::Unschedulable(std::string(missing.front()) +
                                 " CSI driver is not installed on the node");
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
          std::string msg = "looking up PVC " + std::string(Str(pod.meta.ns)) + "/" + vol.id +
                            ": persistentvolumeclaim " + volume::GoQuote(vol.id) + " not found";
          // v1.35 tells a missing claim (IsNotFound) from other errors.
          return v135_ ? Status::Unresolvable(std::move(msg)) : Status::Error(std::move(msg));
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
  Status InlineVolume(const Volume& vol, const CSINode* csi_node,
                      std::vector<Attachable>* out) const {
    if (!csi::IsInlineMigratable(vol.kind, v135_)) return Status();
    std::string_view plugin = csi::InTreePluginName(vol.kind);
    if (!csi::NodeVolumeLimitsMigrationOn(csi_node, plugin, v135_)) return Status();
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
  void DriverInfo(const ClusterState& cluster, const CSINode* csi_node,
                  const PersistentVolumeClaim& pvc, std::string* driver,
                  std::string* handle) const {
    if (pvc.volume_name.empty()) return DriverInfoFromClass(cluster, csi_node, pvc, driver, handle);
    const PersistentVolume* pv = cluster.FindPv(pvc.volume_name);
    if (pv == nullptr) return DriverInfoFromClass(cluster, csi_node, pvc, driver, handle);
    if (pv->kind == VolumeKind::kCSI) {
      *driver = pv->csi_driver;
      *handle = pv->volume_id;
      return;
    }
    std::string_view plugin = csi::InTreePluginName(pv->kind);
    if (plugin.empty() || !csi::NodeVolumeLimitsMigrationOn(csi_node, plugin, v135_)) return;
    csi::TranslatedVolume t;
    std::string error;
    if (!csi::TranslatePV(*pv, &t, &error)) return;
    *driver = std::move(t.driver);
    *handle = std::move(t.volume_handle);
  }

  // getCSIDriverInfoFromSC.
  void DriverInfoFromClass(const ClusterState& cluster, const CSINode* csi_node,
                           const PersistentVolumeClaim& pvc, std::string* driver,
                           std::string* handle) const {
    std::string_view class_name = volume::ClaimClass(pvc);
    if (class_name.empty()) return;
    const StorageClass* sc = cluster.FindStorageClass(class_name);
    if (sc == nullptr) return;
    std::string private_handle(kPrivatePrefix);
    private_handle += '-';
    private_handle += Str(pvc.meta.ns);
    private_handle += '/';
    private_handle += pvc.meta.name;
    if (csi::IsMigratableInTreePlugin(sc->provisioner, v135_)) {
      if (!csi::NodeVolumeLimitsMigrationOn(csi_node, sc->provisioner, v135_)) return;
      *driver = std::string(csi::CSIDriverName(sc->provisioner));
      *handle = std::move(private_handle);
      return;
    }
    *driver = sc->provisioner;
    *handle = std::move(private_handle);
  }

  Handle* handle_;
  bool v135_;
  bool volume_limit_scaling_;  // v1.35's VolumeLimitScaling (alpha)
};

}  // namespace

std::unique_ptr<Plugin> NewNodeVolumeLimits(const config::PluginArgs&, Handle* handle, Status*) {
  const config::FeatureGates& gates = handle->feature_gates();
  const bool v135 = gates.AtLeast(config::SchedulerVersion::kV135);
  return std::make_unique<CSILimits>(handle, v135, v135 && gates.volume_limit_scaling);
}

}  // namespace ksched::framework::plugins
