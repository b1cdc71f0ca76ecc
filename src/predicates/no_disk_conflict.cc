// NoDiskConflict: a node fails when a pod already on it mounts the same disk
// in a way that cannot be shared (upstream's isVolumeConflict):
//  - GCE PD: same pdName, unless both mounts are read-only;
//  - AWS EBS: same volumeID, always (read-only does not help);
//  - RBD: overlapping monitors and same pool and image, unless both read-only;
//  - iSCSI: same IQN, unless both read-only (portal and LUN are not compared).
// Prepare() keeps only the pod's volumes of those four kinds, so a pod
// without any passes every node without looking at it.
#include <algorithm>
#include <functional>
#include <string_view>
#include <utility>
#include <vector>

#include "predicates/factories.h"
#include "predicates/volume_util.h"

namespace ksched {
namespace {

ReasonId DiskConflictReason() {
  static const ReasonId id = Intern("node(s) had no available disk");
  return id;
}

bool Checked(VolumeKind k) {
  return k == VolumeKind::kGCEPersistentDisk || k == VolumeKind::kAWSElasticBlockStore ||
         k == VolumeKind::kRBD || k == VolumeKind::kISCSI;
}

bool HaveOverlap(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  for (const std::string& x : a) {
    if (std::find(b.begin(), b.end(), x) != b.end()) return true;
  }
  return false;
}

}  // namespace

bool volume::DisksConflict(const Volume& v, const Volume& ev) {
  if (v.kind != ev.kind) return false;
  const bool both_read_only = v.read_only && ev.read_only;
  switch (v.kind) {
    case VolumeKind::kGCEPersistentDisk:
      return v.id == ev.id && !both_read_only;
    case VolumeKind::kAWSElasticBlockStore:
      return v.id == ev.id;
    case VolumeKind::kISCSI:
      return v.iscsi_iqn == ev.iscsi_iqn && !both_read_only;
    case VolumeKind::kRBD:
      return v.rbd_pool == ev.rbd_pool && v.rbd_image == ev.rbd_image && !both_read_only &&
             HaveOverlap(v.rbd_monitors, ev.rbd_monitors);
    default:
      return false;
  }
}

namespace {

// What two volumes must share to conflict at all: the kind and the disk's
// identity (GCE pdName / AWS volumeID, iSCSI IQN, RBD pool and image). Equal
// volumes give equal hashes; Conflicts() then decides.
size_t IdentityHash(const Volume& v) {
  std::hash<std::string_view> h;
  size_t seed = static_cast<size_t>(v.kind) * 0x9e3779b97f4a7c15ULL;
  auto mix = [&seed](size_t x) { seed ^= x + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2); };
  switch (v.kind) {
    case VolumeKind::kISCSI:
      mix(h(v.iscsi_iqn));
      break;
    case VolumeKind::kRBD:
      mix(h(v.rbd_pool));
      mix(h(v.rbd_image));
      break;
    default:
      mix(h(v.id));
  }
  return seed;
}

// Pods with this many checked volumes get them indexed by IdentityHash, so
// that a node's existing volumes are each looked up, not compared with every
// one of the pod's (which would cost the product of the two counts).
constexpr size_t kIndexFrom = 16;

struct NoDiskConflictState : PredicateState {
  const ClusterState* cluster = nullptr;
  std::vector<const Volume*> volumes;  // the pod's volumes of a checked kind
  // (IdentityHash, volume), sorted; filled from kIndexFrom volumes on.
  std::vector<std::pair<size_t, const Volume*>> by_identity;

  bool ConflictsWith(const Volume& existing) const {
    if (by_identity.empty()) {
      for (const Volume* v : volumes) {
        if (volume::DisksConflict(*v, existing)) return true;
      }
      return false;
    }
    const size_t hash = IdentityHash(existing);
    auto it = std::lower_bound(by_identity.begin(), by_identity.end(), hash,
                               [](const auto& entry, size_t x) { return entry.first < x; });
    for (; it != by_identity.end() && it->first == hash; ++it) {
      if (volume::DisksConflict(*it->second, existing)) return true;
    }
    return false;
  }
};

class NoDiskConflict : public Predicate {
 public:
  Result<std::unique_ptr<PredicateState>> Prepare(const PodToSchedule& pod,
                                                  const ClusterState& cluster) const override {
    auto state = std::make_unique<NoDiskConflictState>();
    state->cluster = &cluster;
    for (const Volume& v : pod.pod().spec.volumes) {
      if (Checked(v.kind)) state->volumes.push_back(&v);
    }
    if (state->volumes.size() >= kIndexFrom) {
      for (const Volume* v : state->volumes) state->by_identity.emplace_back(IdentityHash(*v), v);
      std::sort(state->by_identity.begin(), state->by_identity.end());
    }
    return std::unique_ptr<PredicateState>(std::move(state));
  }

  bool Check(const PodToSchedule& pod, const PredicateState* state, const NodeInfo& node,
             ReasonList* reasons) const override {
    (void)pod;
    const auto& s = static_cast<const NoDiskConflictState&>(*state);
    if (s.volumes.empty()) return true;
    for (PodId id : node.pods) {
      for (const Volume& ev : s.cluster->pod(id).pod.spec.volumes) {
        if (Checked(ev.kind) && s.ConflictsWith(ev)) {
          reasons->Add(DiskConflictReason());
          return false;
        }
      }
    }
    return true;
  }
};

}  // namespace

std::unique_ptr<Predicate> NewNoDiskConflict() { return std::make_unique<NoDiskConflict>(); }

}  // namespace ksched
