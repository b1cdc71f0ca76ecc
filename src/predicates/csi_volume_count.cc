// MaxCSIVolumeCountPred (upstream's CSIMaxVolumeLimitChecker): per CSI
// driver, the volumes already attached to the node plus the pod's new ones
// must not exceed the node's allocatable "attachable-volumes-csi-<driver>".
// There are no defaults: a driver the node does not list is unlimited, and a
// node without any attachable-volumes-* entry passes.
//
// Only claims count (in-line CSI volumes are an alpha feature in v1.15). A
// claim resolves to its PV's CSI driver and volumeHandle; a claim whose PV is
// not CSI, or whose PVC is missing, is ignored. A claim that is unbound, or
// whose PV is missing, falls back to its storage class: the class's
// provisioner is taken as the driver and the claim itself as the volume (so
// it counts once per namespace/claim); no class name, an unknown class or an
// empty provisioner means the claim is ignored.
//
// Like upstream, volumes are keyed by handle alone: when two volumes share a
// handle, the later one's driver wins.
#include <string>
#include <vector>

#include "predicates/factories.h"
#include "predicates/volume_util.h"

namespace ksched {
namespace {

ReasonId MaxVolumeCountReason() {
  static const ReasonId id = Intern("node(s) exceed max volume count");
  return id;
}

// A volume handle: a real one points into the PV; a claim counted through its
// storage class is identified by namespace and claim name.
struct Handle {
  bool from_claim = false;
  StrId ns = kEmptyStr;
  std::string_view id;
  bool operator==(const Handle& o) const {
    return from_claim == o.from_claim && ns == o.ns && id == o.id;
  }
};

struct AttachedVolume {
  Handle handle;
  std::string_view driver;
};

// Inserts or, for a known handle, overwrites the driver (a Go map assignment).
void Put(const AttachedVolume& v, std::vector<AttachedVolume>* out) {
  for (AttachedVolume& e : *out) {
    if (e.handle == v.handle) {
      e.driver = v.driver;
      return;
    }
  }
  out->push_back(v);
}

// Upstream's filterAttachableVolumes for one pod.
void FilterAttachable(const Pod& pod, const ClusterState& cluster,
                      std::vector<AttachedVolume>* out) {
  for (const Volume& v : pod.spec.volumes) {
    if (v.kind != VolumeKind::kPersistentVolumeClaim) continue;
    const PersistentVolumeClaim* pvc = cluster.FindPvc(pod.meta.ns, v.id);
    if (pvc == nullptr) continue;
    const PersistentVolume* pv =
        pvc->volume_name.empty() ? nullptr : cluster.FindPv(pvc->volume_name);
    AttachedVolume a;
    if (pv != nullptr) {
      if (pv->kind != VolumeKind::kCSI) continue;
      a.driver = pv->csi_driver;
      a.handle = Handle{false, kEmptyStr, pv->volume_id};
    } else {
      // Unbound, or bound to a PV that does not exist: use the class.
      if (!pvc->storage_class_name) continue;
      const StorageClass* sc = cluster.FindStorageClass(*pvc->storage_class_name);
      if (sc == nullptr) continue;
      a.driver = sc->provisioner;
      a.handle = Handle{true, pod.meta.ns, v.id};
    }
    if (a.driver.empty() || a.handle.id.empty()) continue;
    Put(a, out);
  }
}

struct CsiState : PredicateState {
  const ClusterState* cluster = nullptr;
  std::vector<AttachedVolume> new_volumes;  // empty: the pod passes everywhere
  std::vector<StrId> new_limit_keys;        // parallel to new_volumes
};

class MaxCSIVolumeCount : public Predicate {
 public:
  Result<std::unique_ptr<PredicateState>> Prepare(const PodToSchedule& pod,
                                                  const ClusterState& cluster) const override {
    auto state = std::make_unique<CsiState>();
    state->cluster = &cluster;
    FilterAttachable(pod.pod(), cluster, &state->new_volumes);
    for (const AttachedVolume& v : state->new_volumes) {
      state->new_limit_keys.push_back(Intern(volume::CsiAttachLimitKey(v.driver)));
    }
    return std::unique_ptr<PredicateState>(std::move(state));
  }

  bool Check(const PodToSchedule& pod, const PredicateState* state, const NodeInfo& node,
             ReasonList* reasons) const override {
    (void)pod;
    const auto& s = static_cast<const CsiState&>(*state);
    if (s.new_volumes.empty() || !HasVolumeLimits(node)) return true;

    thread_local std::vector<AttachedVolume> attached;
    attached.clear();
    for (PodId id : node.pods) FilterAttachable(s.cluster->pod(id).pod, *s.cluster, &attached);

    // For each driver of a new volume that is not already attached, compare
    // (attached volumes of that driver) + (new ones) with the node's limit.
    const size_t n = s.new_volumes.size();
    for (size_t i = 0; i < n; ++i) {
      if (IsAttached(s.new_volumes[i].handle, attached)) continue;
      // Evaluate each driver once, at its first new volume.
      bool seen = false;
      for (size_t j = 0; j < i && !seen; ++j) {
        seen = s.new_limit_keys[j] == s.new_limit_keys[i] &&
               !IsAttached(s.new_volumes[j].handle, attached);
      }
      if (seen) continue;
      std::optional<int64_t> limit = NodeLimit(node, s.new_limit_keys[i]);
      if (!limit) continue;
      int64_t count = 0;
      for (size_t j = i; j < n; ++j) {
        if (s.new_limit_keys[j] == s.new_limit_keys[i] &&
            !IsAttached(s.new_volumes[j].handle, attached)) {
          ++count;
        }
      }
      const std::string_view driver = s.new_volumes[i].driver;
      for (const AttachedVolume& a : attached) {
        if (a.driver == driver) ++count;
      }
      if (count > *limit) {
        reasons->Add(MaxVolumeCountReason());
        return false;
      }
    }
    return true;
  }

 private:
  static bool IsAttached(const Handle& h, const std::vector<AttachedVolume>& attached) {
    for (const AttachedVolume& a : attached) {
      if (a.handle == h) return true;
    }
    return false;
  }

  // Upstream's NodeInfo.VolumeLimits() is non-empty.
  static bool HasVolumeLimits(const NodeInfo& node) {
    for (const auto& [name, value] : node.allocatable.scalars) {
      (void)value;
      if (IsAttachableVolumeResourceName(Str(name))) return true;
    }
    return false;
  }

  static std::optional<int64_t> NodeLimit(const NodeInfo& node, StrId key) {
    for (const auto& [name, value] : node.allocatable.scalars) {
      if (name == key) return value;
    }
    return std::nullopt;
  }
};

}  // namespace

std::unique_ptr<Predicate> NewMaxCSIVolumeCount() { return std::make_unique<MaxCSIVolumeCount>(); }

}  // namespace ksched
