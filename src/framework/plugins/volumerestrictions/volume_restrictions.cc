// VolumeRestrictions (v1.26): disks that cannot be mounted twice, and
// ReadWriteOncePod claims already in use.
//
// Filter: a node fails when a pod on it mounts one of the pod's GCE PD, AWS
// EBS, iSCSI or RBD disks in a conflicting way (the v1.15 NoDiskConflict rule,
// volume::DisksConflict). PreFilter, behind the ReadWriteOncePod gate: the
// pod is unresolvable when one of its claims is missing, or has the
// ReadWriteOncePod access mode and some scheduled pod already uses it.
#include <memory>
#include <string>
#include <vector>

#include "framework/plugins/names/names.h"
#include "framework/plugins/registry_factories.h"
#include "framework/plugins/volumerestrictions/volume_restrictions_hints.h"
#include "predicates/volume_util.h"

namespace ksched::framework::plugins {
namespace {

constexpr const char* kErrReasonDiskConflict = "node(s) had no available disk";
constexpr const char* kErrReasonReadWriteOncePodConflict =
    "node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode";

bool ConflictChecked(VolumeKind k) {
  return k == VolumeKind::kGCEPersistentDisk || k == VolumeKind::kAWSElasticBlockStore ||
         k == VolumeKind::kRBD || k == VolumeKind::kISCSI;
}

bool HasAccessMode(const std::vector<std::string>& modes, std::string_view mode) {
  for (const std::string& m : modes)
    if (m == mode) return true;
  return false;
}

// Whether a scheduled pod (one placed on a node) mounts claim ns/name: the
// snapshot's usedPVCSet, which counts persistentVolumeClaim volumes only.
bool PvcUsedByPods(const ClusterState& cluster, StrId ns, std::string_view name) {
  for (const NodeInfo& ni : cluster.node_infos()) {
    for (PodId id : ni.pods) {
      const Pod& p = cluster.pod(id).pod;
      if (p.meta.ns != ns) continue;
      for (const Volume& v : p.spec.volumes)
        if (v.kind == VolumeKind::kPersistentVolumeClaim && v.id == name) return true;
    }
  }
  return false;
}

class VolumeRestrictions final : public PreFilterPlugin,
                                 public FilterPlugin,
                                 public EnqueueExtensions {
 public:
  VolumeRestrictions(Handle* handle, bool read_write_once_pod)
      : handle_(handle), read_write_once_pod_(read_write_once_pod) {}

  std::string_view Name() const override { return names::kVolumeRestrictions; }

  // Without volumes every Filter passes and Score is 0; with volumes, claims
  // and assumed bindings are read: run every cycle.
  bool NodeLocalFor(const Pod& pod) const override { return pod.spec.volumes.empty(); }
  bool PassesEveryNodeFor(const Pod& pod) const override { return pod.spec.volumes.empty(); }

  Status PreFilter(CycleState*, const Pod& pod, PreFilterResult*) override {
    if (!read_write_once_pod_) return Status();
    const ClusterState& cluster = handle_->cluster();
    for (const Volume& v : pod.spec.volumes) {
      if (v.kind != VolumeKind::kPersistentVolumeClaim) continue;
      const PersistentVolumeClaim* pvc = cluster.FindPvc(pod.meta.ns, v.id);
      if (pvc == nullptr) {
        return Status::Unresolvable("persistentvolumeclaim " + volume::GoQuote(v.id) +
                                    " not found");
      }
      if (!HasAccessMode(pvc->access_modes, "ReadWriteOncePod")) continue;
      if (PvcUsedByPods(cluster, pod.meta.ns, v.id))
        return Status::Unresolvable(kErrReasonReadWriteOncePodConflict);
    }
    return Status();
  }

  Status Filter(const CycleState&, const Pod& pod, const NodeInfo& node) const override {
    const ClusterState& cluster = handle_->cluster();
    for (const Volume& v : pod.spec.volumes) {
      if (!ConflictChecked(v.kind)) continue;
      for (PodId id : node.pods) {
        for (const Volume& ev : cluster.pod(id).pod.spec.volumes) {
          if (volume::DisksConflict(v, ev)) return Status::Unschedulable(kErrReasonDiskConflict);
        }
      }
    }
    return Status();
  }

  std::vector<ClusterEvent> EventsToRegister() const override {
    return {{EventResource::kPod, kDelete, "PodDelete"},
            {EventResource::kNode, kAdd, "NodeAdd"},
            {EventResource::kPersistentVolumeClaim, kAdd | kUpdate, "PvcAddOrUpdate"}};
  }
  std::vector<ClusterEventWithHint> EventsToRegisterWithHints() const override {
    return VolumeRestrictionsEventsToRegister();
  }

 private:
  Handle* handle_;
  bool read_write_once_pod_;
};

}  // namespace

std::unique_ptr<Plugin> NewVolumeRestrictions(const config::PluginArgs&, Handle* handle, Status*) {
  return std::make_unique<VolumeRestrictions>(handle, handle->feature_gates().read_write_once_pod);
}

}  // namespace ksched::framework::plugins
