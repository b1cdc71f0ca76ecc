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
#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "predicates/factories.h"
#include "predicates/volume_util.h"

namespace ksched {
namespace {

// A volume handle: a real one points into the PV; a claim counted through its
// storage class is identified by namespace and claim name.
struct Handle {
  bool from_claim = false;
  StrId ns = kEmptyStr;
  std::string_view id;
  auto operator<=>(const Handle&) const = default;
};

struct AttachedVolume {
  Handle handle;
  std::string_view driver;
};

// Makes `volumes` the map upstream builds by assignment: sorted by handle,
// one entry per handle, holding the driver of the last one appended.
// (Sorting, not a search per insert: a pod may list thousands of claims.)
void MakeMap(std::vector<AttachedVolume>* volumes) {
  std::stable_sort(
      volumes->begin(), volumes->end(),
      [](const AttachedVolume& a, const AttachedVolume& b) { return a.handle < b.handle; });
  size_t kept = 0;
  for (size_t i = 0; i < volumes->size(); ++i) {
    if (kept > 0 && (*volumes)[kept - 1].handle == (*volumes)[i].handle) {
      (*volumes)[kept - 1].driver = (*volumes)[i].driver;
    } else {
      (*volumes)[kept++] = (*volumes)[i];
    }
  }
  volumes->resize(kept);
}

// Upstream's filterAttachableVolumes for one pod. Appends in volume order;
// callers MakeMap() the result.
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
    out->push_back(a);
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
    MakeMap(&state->new_volumes);
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

    // Scratch reused across calls (and threads): no allocation once warm.
    thread_local std::vector<AttachedVolume> attached;
    thread_local std::vector<std::string_view> attached_drivers;    // sorted
    thread_local std::vector<std::pair<StrId, size_t>> unattached;  // (limit key, new volume)
    attached.clear();
    for (PodId id : node.pods) FilterAttachable(s.cluster->pod(id).pod, *s.cluster, &attached);
    MakeMap(&attached);
    attached_drivers.clear();
    for (const AttachedVolume& a : attached) attached_drivers.push_back(a.driver);
    std::sort(attached_drivers.begin(), attached_drivers.end());

    // For each limit key of the new volumes not already attached, compare
    // (those new volumes) + (attached volumes of the key's driver) with the
    // node's limit for it.
    unattached.clear();
    for (size_t i = 0; i < s.new_volumes.size(); ++i) {
      if (!IsAttached(s.new_volumes[i].handle, attached)) {
        unattached.emplace_back(s.new_limit_keys[i], i);
      }
    }
    std::sort(unattached.begin(), unattached.end());
    for (size_t begin = 0; begin < unattached.size();) {
      const StrId key = unattached[begin].first;
      size_t end = begin;
      while (end < unattached.size() && unattached[end].first == key) ++end;
      const std::string_view driver = s.new_volumes[unattached[begin].second].driver;
      std::optional<int64_t> limit = NodeLimit(node, key);
      if (limit) {
        auto [lo, hi] = std::equal_range(attached_drivers.begin(), attached_drivers.end(), driver);
        const int64_t count = static_cast<int64_t>(end - begin) + (hi - lo);
        if (count > *limit) {
          reasons->Add(reasons::MaxVolumeCount());
          return false;
        }
      }
      begin = end;
    }
    return true;
  }

 private:
  // `attached` is sorted by handle (MakeMap).
  static bool IsAttached(const Handle& h, const std::vector<AttachedVolume>& attached) {
    auto it =
        std::lower_bound(attached.begin(), attached.end(), h,
                         [](const AttachedVolume& a, const Handle& x) { return a.handle < x; });
    return it != attached.end() && it->handle == h;
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
