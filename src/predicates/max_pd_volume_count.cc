// MaxEBSVolumeCount, MaxGCEPDVolumeCount, MaxAzureDiskVolumeCount and
// MaxCinderVolumeCount: upstream's one MaxPDVolumeCountChecker, parameterised
// by the volume type it counts.
//
// A node fails when (unique volumes of that type already used by its pods) +
// (the pod's volumes of that type not among them) exceeds the node's limit:
// the allocatable "attachable-volumes-<type>" when the node lists it, else the
// built-in default (EBS: 25 on Nitro instance types, 39 otherwise; GCE PD 16;
// Azure Disk 16; Cinder 256). Upstream's KUBE_MAX_PD_VOLS environment override
// is not supported.
//
// Volumes count by id: the in-line source's id, or for a claim the id of the
// bound PV when that PV is of the type. A claim that cannot be resolved (PVC
// missing, not bound, or PV missing) counts against every type, under an id
// unique to namespace/claim, so two pods sharing such a claim count it once.
//
// Prepare() computes the pod's own ids once; a pod without any volume of the
// type (the common case) passes every node without further work.
#include <algorithm>
#include <vector>

#include "predicates/factories.h"
#include "predicates/volume_util.h"

namespace ksched {
namespace {

enum class Filter { kEBS, kGCEPD, kAzureDisk, kCinder };

struct FilterInfo {
  VolumeKind kind;
  std::string_view limit_key;
  int64_t default_limit;  // for EBS: the non-Nitro default
};

FilterInfo Info(Filter f) {
  switch (f) {
    case Filter::kEBS:
      return {VolumeKind::kAWSElasticBlockStore, "attachable-volumes-aws-ebs", 39};
    case Filter::kGCEPD:
      return {VolumeKind::kGCEPersistentDisk, "attachable-volumes-gce-pd", 16};
    case Filter::kAzureDisk:
      return {VolumeKind::kAzureDisk, "attachable-volumes-azure-disk", 16};
    case Filter::kCinder:
      return {VolumeKind::kCinder, "attachable-volumes-cinder", 256};
  }
  return {VolumeKind::kOther, "", 0};
}

constexpr int64_t kEbsNitroLimit = 25;

// A counted volume id. Real ids point into the pod or PV that names them;
// an unresolvable claim is identified by its namespace and claim name (upstream
// prefixes those with a random string so they never equal a real id).
struct VolumeKey {
  bool unresolved = false;
  StrId ns = kEmptyStr;  // unresolved only
  std::string_view id;   // the volume id, or the claim name when unresolved

  auto operator<=>(const VolumeKey&) const = default;
};

// Sorts `keys` and drops repeats, making it the set upstream's map is.
// (Sorting, not a linear search per insert: a pod may list thousands.)
void MakeSet(std::vector<VolumeKey>* keys) {
  std::sort(keys->begin(), keys->end());
  keys->erase(std::unique(keys->begin(), keys->end()), keys->end());
}

void Append(const VolumeKey& k, std::vector<VolumeKey>* keys) { keys->push_back(k); }

// Upstream's filterVolumes for one pod: appends the ids of its volumes of
// `kind`, resolving claims through the cluster. Repeats are left in; callers
// MakeSet() the result.
void FilterVolumes(const Pod& pod, VolumeKind kind, const ClusterState& cluster,
                   std::vector<VolumeKey>* out) {
  for (const Volume& v : pod.spec.volumes) {
    if (v.kind == kind) {
      Append(VolumeKey{false, kEmptyStr, v.id}, out);
      continue;
    }
    if (v.kind != VolumeKind::kPersistentVolumeClaim) continue;
    // An empty claim name is an error upstream; the scheduler's basic checks
    // reject such a pending pod first, and for pods already placed it is
    // treated like any other claim that does not resolve.
    const VolumeKey unresolved{true, pod.meta.ns, v.id};
    const PersistentVolumeClaim* pvc = cluster.FindPvc(pod.meta.ns, v.id);
    if (pvc == nullptr || pvc->volume_name.empty()) {
      Append(unresolved, out);
      continue;
    }
    const PersistentVolume* pv = cluster.FindPv(pvc->volume_name);
    if (pv == nullptr) {
      Append(unresolved, out);
      continue;
    }
    if (pv->kind == kind) Append(VolumeKey{false, kEmptyStr, pv->volume_id}, out);
  }
}

struct MaxPDState : PredicateState {
  const ClusterState* cluster = nullptr;
  std::vector<VolumeKey> new_volumes;  // unique; empty: the pod passes everywhere
};

class MaxPDVolumeCount : public Predicate {
 public:
  explicit MaxPDVolumeCount(Filter filter)
      : filter_(filter),
        info_(Info(filter)),
        limit_key_(Intern(info_.limit_key)),
        instance_type_key_(Intern(volume::kInstanceTypeLabel)) {}

  Result<std::unique_ptr<PredicateState>> Prepare(const PodToSchedule& pod,
                                                  const ClusterState& cluster) const override {
    auto state = std::make_unique<MaxPDState>();
    state->cluster = &cluster;
    FilterVolumes(pod.pod(), info_.kind, cluster, &state->new_volumes);
    MakeSet(&state->new_volumes);
    return std::unique_ptr<PredicateState>(std::move(state));
  }

  bool Check(const PodToSchedule& pod, const PredicateState* state, const NodeInfo& node,
             ReasonList* reasons) const override {
    (void)pod;
    const auto& s = static_cast<const MaxPDState&>(*state);
    if (s.new_volumes.empty()) return true;

    // Scratch reused across calls (and threads): no allocation once warm.
    thread_local std::vector<VolumeKey> existing;
    existing.clear();
    for (PodId id : node.pods)
      FilterVolumes(s.cluster->pod(id).pod, info_.kind, *s.cluster, &existing);
    MakeSet(&existing);

    int64_t num_new = 0;
    for (const VolumeKey& k : s.new_volumes) {
      if (!std::binary_search(existing.begin(), existing.end(), k)) ++num_new;
    }
    if (static_cast<int64_t>(existing.size()) + num_new <= Limit(node)) return true;
    reasons->Add(reasons::MaxVolumeCount());
    return false;
  }

 private:
  int64_t Limit(const NodeInfo& node) const {
    for (const auto& [name, value] : node.allocatable.scalars) {
      if (name == limit_key_) return value;
    }
    if (filter_ != Filter::kEBS) return info_.default_limit;
    std::optional<StrId> type = node.labels().Get(instance_type_key_);
    std::string_view t = type ? Str(*type) : std::string_view();
    return volume::IsEbsNitroInstanceType(t) ? kEbsNitroLimit : info_.default_limit;
  }

  Filter filter_;
  FilterInfo info_;
  StrId limit_key_;
  StrId instance_type_key_;
};

}  // namespace

std::unique_ptr<Predicate> NewMaxEBSVolumeCount() {
  return std::make_unique<MaxPDVolumeCount>(Filter::kEBS);
}
std::unique_ptr<Predicate> NewMaxGCEPDVolumeCount() {
  return std::make_unique<MaxPDVolumeCount>(Filter::kGCEPD);
}
std::unique_ptr<Predicate> NewMaxAzureDiskVolumeCount() {
  return std::make_unique<MaxPDVolumeCount>(Filter::kAzureDisk);
}
std::unique_ptr<Predicate> NewMaxCinderVolumeCount() {
  return std::make_unique<MaxPDVolumeCount>(Filter::kCinder);
}

}  // namespace ksched
