// VolumeRestrictions: disks that cannot be mounted twice, and
// ReadWriteOncePod claims already in use.
//
// Filter: a node fails when a pod on it mounts one of the pod's GCE PD, AWS
// EBS, iSCSI or RBD disks in a conflicting way (the v1.15 NoDiskConflict rule,
// volume::DisksConflict).
//
// v1.26, behind the ReadWriteOncePod gate (alpha, off): PreFilter makes the
// pod unresolvable when one of its claims is missing, or has the
// ReadWriteOncePod access mode and some scheduled pod already uses it.
//
// v1.35 (ReadWriteOncePod GA since v1.29, KEP-2485):
// PreFilter always looks the pod's claims up (a missing one makes the pod
// unresolvable) and counts its ReadWriteOncePod claims that scheduled pods
// use; the count travels in the cycle state, AddPod/RemovePod adjust it for
// nominated pods and preemption victims, and Filter rejects every node as
// Unschedulable while it is above zero, so that preemption may free the
// claim. PreFilter returns Skip when the pod has no disk to check and no
// claim in use.
#include <algorithm>
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
// v1.26's PreFilter rejection.
constexpr const char* kErrReasonReadWriteOncePodConflict =
    "node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode";
// v1.35's Filter rejection.
constexpr const char* kErrReasonReadWriteOncePodConflictV135 =
    "node(s) unavailable due to PersistentVolumeClaim with ReadWriteOncePod access mode already "
    "in-use by another pod";

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

// v1.35's preFilterState: the names of the pod's ReadWriteOncePod claims
// and how many of them pods (scheduled, nominated, not removed) use.
struct RwopState final : StateData {
  std::shared_ptr<const std::vector<std::string>> claims;  // sorted, unique
  int conflicting = 0;
  std::unique_ptr<StateData> Clone() const override { return std::make_unique<RwopState>(*this); }

  // Upstream matches the other pod's volumes by claim name alone, whatever
  // its namespace.
  int CountFor(const Pod& other) const {
    int n = 0;
    for (const Volume& v : other.spec.volumes) {
      if (v.kind == VolumeKind::kPersistentVolumeClaim &&
          std::binary_search(claims->begin(), claims->end(), v.id))
        ++n;
    }
    return n;
  }
};

const StateKey& Key() {
  static const StateKey key = StateKey::Register();
  return key;
}

Status ReadError() {
  return Status::Error("cannot read \"PreFilterVolumeRestrictions\" from cycleState");
}

class VolumeRestrictions final : public PreFilterPlugin,
                                 public PreFilterExtensions,
                                 public FilterPlugin,
                                 public EnqueueExtensions {
 public:
  VolumeRestrictions(Handle* handle, bool read_write_once_pod, bool v135)
      : handle_(handle), read_write_once_pod_(read_write_once_pod), v135_(v135) {}

  std::string_view Name() const override { return names::kVolumeRestrictions; }

  // Without volumes every Filter passes and Score is 0; with volumes, claims
  // and assumed bindings are read: run every cycle.
  bool NodeLocalFor(const Pod& pod) const override { return pod.spec.volumes.empty(); }
  bool PassesEveryNodeFor(const Pod& pod) const override { return pod.spec.volumes.empty(); }

  Status PreFilter(CycleState* state, const Pod& pod, PreFilterResult*) override {
    if (v135_) return PreFilterV135(state, pod);
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

  // v1.35 only; v1.26 has no extensions (Extensions() returns nullptr).
  PreFilterExtensions* Extensions() override { return v135_ ? this : nullptr; }
  Status AddPod(CycleState* state, const Pod&, const PodInfo& to_add, const NodeInfo&) override {
    return Update(state, to_add.pod, 1);
  }
  Status RemovePod(CycleState* state, const Pod&, const PodInfo& to_remove,
                   const NodeInfo&) override {
    return Update(state, to_remove.pod, -1);
  }

  Status Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) const override {
    const ClusterState& cluster = handle_->cluster();
    for (const Volume& v : pod.spec.volumes) {
      if (!ConflictChecked(v.kind)) continue;
      for (PodId id : node.pods) {
        for (const Volume& ev : cluster.pod(id).pod.spec.volumes) {
          if (volume::DisksConflict(v, ev)) return Status::Unschedulable(kErrReasonDiskConflict);
        }
      }
    }
    if (!v135_) return Status();
    const auto* s = state.ReadAs<RwopState>(Key());
    if (s == nullptr) return ReadError();
    if (s->conflicting > 0) return Status::Unschedulable(kErrReasonReadWriteOncePodConflictV135);
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
  Status PreFilterV135(CycleState* state, const Pod& pod) const {
    const ClusterState& cluster = handle_->cluster();
    bool needs_check = false;
    for (const Volume& v : pod.spec.volumes) needs_check = needs_check || ConflictChecked(v.kind);
    auto claims = std::make_shared<std::vector<std::string>>();
    for (const Volume& v : pod.spec.volumes) {
      if (v.kind != VolumeKind::kPersistentVolumeClaim) continue;
      const PersistentVolumeClaim* pvc = cluster.FindPvc(pod.meta.ns, v.id);
      if (pvc == nullptr) {
        return Status::Unresolvable("persistentvolumeclaim " + volume::GoQuote(v.id) +
                                    " not found");
      }
      if (HasAccessMode(pvc->access_modes, "ReadWriteOncePod")) claims->push_back(v.id);
    }
    std::sort(claims->begin(), claims->end());
    claims->erase(std::unique(claims->begin(), claims->end()), claims->end());
    int conflicting = 0;
    for (const std::string& name : *claims)
      conflicting += PvcUsedByPods(cluster, pod.meta.ns, name);
    if (!needs_check && conflicting == 0) return Status(Code::kSkip);
    auto s = std::make_unique<RwopState>();
    s->claims = std::move(claims);
    s->conflicting = conflicting;
    state->Write(Key(), std::move(s));
    return Status();
  }

  static Status Update(CycleState* state, const Pod& other, int sign) {
    auto* s = state->ReadAs<RwopState>(Key());
    if (s == nullptr) return ReadError();
    s->conflicting += sign * s->CountFor(other);
    return Status();
  }

  Handle* handle_;
  bool read_write_once_pod_;
  bool v135_;
};

}  // namespace

std::unique_ptr<Plugin> NewVolumeRestrictions(const config::PluginArgs&, Handle* handle, Status*) {
  const config::FeatureGates& gates = handle->feature_gates();
  return std::make_unique<VolumeRestrictions>(handle, gates.read_write_once_pod,
                                              gates.AtLeast(config::SchedulerVersion::kV135));
}

}  // namespace ksched::framework::plugins
