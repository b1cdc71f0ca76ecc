// NoDiskConflict: a node fails when a pod already on it mounts the same disk
// in a way that cannot be shared (upstream's isVolumeConflict):
//  - GCE PD: same pdName, unless both mounts are read-only;
//  - AWS EBS: same volumeID, always (read-only does not help);
//  - RBD: overlapping monitors and same pool and image, unless both read-only;
//  - iSCSI: same IQN, unless both read-only (portal and LUN are not compared).
// Prepare() keeps only the pod's volumes of those four kinds, so a pod
// without any passes every node without looking at it.
#include <algorithm>
#include <vector>

#include "predicates/factories.h"

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

bool Conflicts(const Volume& v, const Volume& ev) {
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

struct NoDiskConflictState : PredicateState {
  const ClusterState* cluster = nullptr;
  std::vector<const Volume*> volumes;  // the pod's volumes of a checked kind
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
    return std::unique_ptr<PredicateState>(std::move(state));
  }

  bool Check(const PodToSchedule& pod, const PredicateState* state, const NodeInfo& node,
             ReasonList* reasons) const override {
    (void)pod;
    const auto& s = static_cast<const NoDiskConflictState&>(*state);
    if (s.volumes.empty()) return true;
    for (PodId id : node.pods) {
      for (const Volume& ev : s.cluster->pod(id).pod.spec.volumes) {
        if (!Checked(ev.kind)) continue;
        for (const Volume* v : s.volumes) {
          if (Conflicts(*v, ev)) {
            reasons->Add(DiskConflictReason());
            return false;
          }
        }
      }
    }
    return true;
  }
};

}  // namespace

std::unique_ptr<Predicate> NewNoDiskConflict() { return std::make_unique<NoDiskConflict>(); }

}  // namespace ksched
