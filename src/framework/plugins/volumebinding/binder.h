// The volume binder of the VolumeBinding plugin (upstream's binder.go and
// assume_cache.go), over ksched's ClusterState.
//
// The binder decides, per node, whether a pod's claims can be used there:
// bound claims by their PV's node affinity, delayed (WaitForFirstConsumer)
// claims by a matching available PV or by dynamic provisioning. Reserve
// assumes the chosen bindings: the PV gets the claim as its claimRef, a
// provisioned claim gets the selected-node annotation. Those assumed objects
// are kept here, over the ClusterState's own, so that later cycles see the
// PVs taken, until Unreserve reverts them or a different ClusterState (a new
// snapshot, which then shows the API's own state) replaces the current one.
// Like v1.26's assume cache, assuming an object needs its resourceVersion to
// parse as an integer (v1.35's passive assume cache does not parse it).
//
// v1.35 differs in the node-affinity reason's words and in matching PVs by
// volumeAttributesClassName (VolumeAttributesClass, GA and on: a PV matches
// a claim only with the same class, none equal to ""; with the gate off a
// claim naming a class is an error and PVs naming one are passed over).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "api/types.h"
#include "cache/cluster_state.h"
#include "framework/interface.h"
#include "labels/node_selector.h"

namespace ksched::framework::volumebinding {

inline constexpr const char* kErrReasonBindConflict =
    "node(s) didn't find available persistent volumes to bind";
inline constexpr const char* kErrReasonNodeConflict = "node(s) had volume node affinity conflict";
inline constexpr const char* kErrReasonNodeConflictV135 =
    "node(s) didn't match PersistentVolume's node affinity";
inline constexpr const char* kErrReasonNotEnoughSpace = "node(s) did not have enough free storage";
inline constexpr const char* kErrReasonPVNotExist =
    "node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)";

// A claim and the PV proposed for it.
struct BindingInfo {
  const PersistentVolume* pv = nullptr;
  const PersistentVolumeClaim* pvc = nullptr;
};

// What FindPodVolumes decided for one node (upstream's PodVolumes).
struct PodVolumes {
  std::vector<BindingInfo> static_bindings;
  std::vector<const PersistentVolumeClaim*> dynamic_provisions;
  // Per dynamic provision, the CSIStorageCapacity that holds it on the node
  // (nullptr when its driver does not track capacity); v1.35 scores by it
  // under StorageCapacityScoring.
  std::vector<const CSIStorageCapacity*> provision_capacities;
};

// A PV node affinity compiled once, matched with upstream's
// CheckNodeAffinity rules (node labels only; no node name).
class PvNodeAffinity {
 public:
  PvNodeAffinity() = default;
  explicit PvNodeAffinity(const std::optional<NodeSelector>& affinity);
  bool Matches(const Labels& node_labels) const;

 private:
  bool none_ = true;  // no required affinity: every node
  labels::CompiledNodeSelectorTerms terms_;
  std::vector<bool> invalid_;  // terms v1.26 rejects that v1.15's compiler accepts
};

class Binder {
 public:
  explicit Binder(Handle* handle);

  // Drops the assumed objects and indexes when the cluster is a different
  // ClusterState than last time. Serial (PreFilter, Reserve).
  void Sync();

  // The assume caches: the assumed object if any, else the cluster's.
  const PersistentVolumeClaim* GetPvc(StrId ns, std::string_view name) const;
  const PersistentVolume* GetPv(std::string_view name) const;

  // GetPodVolumes: the pod's claims, bound / unbound delayed / unbound
  // immediate (copies, so the cycle keeps them whatever happens later).
  Status GetPodVolumes(const Pod& pod, std::vector<PersistentVolumeClaim>* bound,
                       std::vector<PersistentVolumeClaim>* delayed,
                       std::vector<PersistentVolumeClaim>* immediate) const;

  // FindPodVolumes for one node: an Error status when something is wrong,
  // else the conflict reasons (empty when the node fits) and *out.
  Status FindPodVolumes(const Pod& pod, const std::vector<PersistentVolumeClaim>& bound,
                        const std::vector<PersistentVolumeClaim>& to_bind, const NodeInfo& node,
                        PodVolumes* out, std::vector<std::string>* reasons) const;

  // AssumePodVolumes; *all_bound when nothing needed assuming.
  Status AssumePodVolumes(const Pod& pod, std::string_view node_name, PodVolumes* volumes,
                          bool* all_bound);
  void RevertAssumedPodVolumes(const PodVolumes& volumes);
  // The same by names (PV names, claims' "ns/name"): safe after a Sync
  // dropped the objects a PodVolumes points to.
  void RevertAssumed(const std::vector<std::string>& pv_names,
                     const std::vector<std::string>& claim_keys);

  // Number of assumed PVs and PVCs (for tests).
  size_t num_assumed() const { return assumed_pvs_.size() + assumed_pvcs_.size(); }
  // Where assuming reads an object's resourceVersion (tests give objects one).
  using ResourceVersionFn = std::string_view (*)(const ObjectMeta&);
  void set_resource_version_for_testing(ResourceVersionFn fn) { resource_version_ = fn; }

 private:
  struct PvEntry {
    const PersistentVolume* pv = nullptr;
    PvNodeAffinity affinity;
  };
  const PersistentVolume* Latest(size_t index) const;
  // Why the assume cache refuses an object of this resourceVersion ("" when
  // it takes it).
  std::string AssumeError(std::string_view resource_version) const;
  bool IsPvcFullyBound(const PersistentVolumeClaim& pvc) const;
  bool ArePodVolumesBound(const Pod& pod) const;
  Status CheckBoundClaims(const std::vector<PersistentVolumeClaim>& claims, const NodeInfo& node,
                          bool* bound_ok, bool* pvs_found) const;
  Status FindMatchingVolumes(std::vector<const PersistentVolumeClaim*>& claims,
                             const NodeInfo& node, bool* found, std::vector<BindingInfo>* bindings,
                             std::vector<const PersistentVolumeClaim*>* unbound) const;
  Status FindMatchingVolume(const PersistentVolumeClaim& claim, const NodeInfo& node,
                            const std::vector<const PersistentVolume*>& excluded,
                            const PersistentVolume** match) const;
  Status CheckVolumeProvisions(const std::vector<const PersistentVolumeClaim*>& claims,
                               const NodeInfo& node, bool* provision_ok, bool* sufficient,
                               std::vector<const PersistentVolumeClaim*>* provisions,
                               std::vector<const CSIStorageCapacity*>* capacities) const;

  Handle* handle_;
  bool v135_;
  bool volume_attributes_class_;  // v1.35's VolumeAttributesClass gate
  ResourceVersionFn resource_version_;
  uint64_t cluster_id_ = 0;
  bool synced_ = false;
  std::vector<PvEntry> pvs_;                                       // by cluster PV index
  std::unordered_map<std::string, std::vector<size_t>> by_class_;  // PV class -> indices
  std::unordered_map<std::string, size_t> index_by_name_;
  // Assumed objects (assume_cache's latestObj where it differs from apiObj).
  std::unordered_map<std::string, PersistentVolume> assumed_pvs_;        // by name
  std::unordered_map<std::string, PersistentVolumeClaim> assumed_pvcs_;  // "ns/name"
};

// Go's strconv.ParseInt(s, 10, 64) error text, or "" when s parses.
std::string ParseIntError(std::string_view s);

}  // namespace ksched::framework::volumebinding
