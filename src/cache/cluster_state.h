// The cluster as the scheduler sees it: nodes, the pods on them, and the
// workload and storage objects that predicates and priorities consult.
//
// Ownership: ClusterState owns every object. NodeInfos live in one flat
// vector indexed by NodeId (the order of the input), pods in a StableVector
// indexed by PodId so that adding pods never moves existing ones. Assume() is the only
// mutation during scheduling and touches exactly one NodeInfo.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "api/object_set.h"
#include "api/types.h"
#include "cache/dra_state.h"
#include "cache/node_info.h"
#include "labels/selector.h"
#include "util/result.h"
#include "util/stable_vector.h"

namespace ksched {

// Which scheduler's cache to model.
struct CacheOptions {
  // v1.26's framework.NodeInfo: a pod's requests include its init containers
  // (per resource, the larger of the containers' sum and any one init
  // container) and spec.overhead, for requested and non-zero requested
  // alike; and every node has a CSINode (an empty one, named after it, when
  // none was given), as each kubelet registers one. False: v1.15's cache,
  // exactly as before.
  bool v126 = false;
  // v1.35's NodeInfo (with v126): a pod's requests as component-helpers
  // counts them (native sidecars summed, pod-level requests, a resized pod's
  // status; PodRequestV135 with `requests`), and a native sidecar's host
  // ports held on the node (util.GetHostPorts).
  bool v135 = false;
  PodRequestOptions requests;
};

class ClusterState {
 public:
  // Builds the state from decoded objects. Pods with spec.nodeName are placed
  // on their node; pods in phase Succeeded/Failed are dropped, as upstream's
  // cache ignores them; pods without a node name are returned in `pending`
  // when it is non-null, and dropped otherwise. Errors on duplicate names.
  static Result<ClusterState> Build(ObjectSet objects, std::vector<Pod>* pending = nullptr,
                                    CacheOptions options = {});

  const CacheOptions& options() const { return options_; }

  ClusterState(ClusterState&&) = default;
  ClusterState& operator=(ClusterState&&) = default;

  // ---- nodes
  size_t num_nodes() const { return node_infos_.size(); }
  const NodeInfo& node_info(NodeId id) const { return node_infos_[id]; }
  const std::vector<NodeInfo>& node_infos() const { return node_infos_; }
  const Node& node(NodeId id) const { return nodes_[id]; }
  NodeId FindNode(std::string_view name) const;  // kNoNode when absent
  // Position of each node in the name-sorted node list (for name tie-breaks).
  const std::vector<uint32_t>& name_rank() const { return name_rank_; }
  // v1.15's zone key (the beta region and zone labels), interned; kEmptyStr
  // if none.
  StrId zone_key(NodeId id) const { return zone_keys_[id]; }
  // Dense number of the node's zone key: 0 for nodes without one, else
  // 1..num_zones(). Lets per-zone tallies be flat arrays.
  uint32_t zone_index(NodeId id) const { return zone_index_[id]; }
  uint32_t num_zones() const { return num_zones_; }
  // The same for v1.26's zone key (GetZoneKey of component-helpers: the beta
  // zone and region labels, each falling back to its topology.kubernetes.io
  // twin), numbered 1..num_zones126() in the order keys first appear. v1.26's
  // node tree and SelectorSpread group nodes by it.
  uint32_t zone126_index(NodeId id) const { return zone126_index_[id]; }
  uint32_t num_zones126() const { return num_zones126_; }
  // The nodes labelled key=value, in NodeId order (topology domains).
  const std::vector<NodeId>& NodesWithLabel(StrId key, StrId value) const;

  // ---- pods
  // Every PodId ever handed out, removed and detached pods included (ids are
  // never reused, so PodIds stay valid). Loops over all pods skip those whose
  // PodInfo::live is false.
  size_t num_pods() const { return pods_.size(); }
  // Pods that count: placed on a node (or bound to a missing one), not removed.
  size_t num_live_pods() const { return pods_.size() - removed_pods_ - detached_pods_; }
  const PodInfo& pod(PodId id) const { return pods_[id]; }
  // Pods that carry pod affinity or anti-affinity, on any node.
  const std::vector<PodId>& pods_with_affinity() const { return pods_with_affinity_; }
  // Number of distinct PodInfo::label_set ids (ids are 0..num_label_sets()-1).
  size_t num_label_sets() const { return label_set_ids_.size(); }

  // Places `pod` on `node` (writing spec.nodeName) and updates that node only.
  PodId Assume(Pod pod, NodeId node);

  // Removes a placed pod (a deleted pod, a preemption victim) from its node,
  // updating that node only (and recording it in the change log), or drops a
  // detached pod. Its PodId stays valid with PodInfo::live false. False when
  // the pod was removed already.
  bool RemovePod(PodId id);

  // Stores a pod that runs nowhere yet (a nominated pod) so that predicates
  // can look it up by PodId when the scheduler adds it to a copy of a node.
  // It counts for nothing: no node, no pod list, no change log entry.
  PodId AddDetachedPod(Pod pod);

  // Pods whose spec.nodeName names a node that does not exist.
  size_t num_pods_on_missing_nodes() const { return pods_on_missing_nodes_; }

  // Bumped by every change to a node (each pod placed on one); per-node
  // changes are in NodeInfo::generation. change_log()[g - 1] is the node that
  // generation g changed, so caches can find exactly the nodes changed since
  // the generation they were built at.
  uint64_t generation() const { return generation_; }
  const std::vector<NodeId>& change_log() const { return change_log_; }
  // The pod behind each generation: pod_log()[g - 1] is the pod that
  // generation g placed on (added) or took off (!added) change_log()[g - 1].
  // Lets caches of per-pod sums (affinity topology pairs) follow the cluster
  // pod by pod instead of walking every pod again.
  struct PodChange {
    PodId pod;
    bool added;
  };
  const std::vector<PodChange>& pod_log() const { return pod_log_; }
  // Distinguishes ClusterState objects, for caches keyed on one of them.
  uint64_t id() const { return id_; }

  // ---- images: how many nodes list an image name (upstream's imageStates)
  int ImageNumNodes(StrId image) const;

  // ---- workloads and storage
  const std::vector<Service>& services() const { return services_; }
  const std::vector<ReplicationController>& replication_controllers() const { return rcs_; }
  const std::vector<ReplicaSet>& replica_sets() const { return rss_; }
  const std::vector<StatefulSet>& stateful_sets() const { return sss_; }
  // Their label selectors, compiled once (workloads never change within a
  // ClusterState), parallel to replica_sets() / stateful_sets(); nullopt
  // where the selector does not compile.
  const std::vector<std::optional<labels::Selector>>& replica_set_selectors() const {
    return rs_selectors_;
  }
  const std::vector<std::optional<labels::Selector>>& stateful_set_selectors() const {
    return ss_selectors_;
  }
  const std::vector<PersistentVolume>& persistent_volumes() const { return pvs_; }
  // PodDisruptionBudgets (preemption prefers victims they do not protect);
  // PodDisruptionBudget::policy_v1 tells their version.
  const std::vector<PodDisruptionBudget>& pod_disruption_budgets() const { return pdbs_; }
  const std::vector<PriorityClass>& priority_classes() const { return priority_classes_; }
  const std::vector<StorageClass>& storage_classes() const { return scs_; }
  const PersistentVolumeClaim* FindPvc(StrId ns, std::string_view name) const;
  const std::vector<PersistentVolumeClaim>& persistent_volume_claims() const { return pvcs_; }

  // ---- namespaces (v1.26's namespaceSelector)
  const std::vector<Namespace>& namespaces() const { return namespaces_; }
  // The labels of namespace `ns`, or nullptr when no such Namespace object
  // exists (upstream then reads an empty label set). A framework scenario
  // lists every namespace its pods use (api/defaults.h,
  // AddPodNamespaces), each labelled kubernetes.io/metadata.name.
  const Labels* NamespaceLabels(StrId ns) const;

  // ---- CSI (v1.26's NodeVolumeLimits, VolumeBinding)
  const std::vector<CSINode>& csi_nodes() const { return csi_nodes_; }
  // The CSINode named `node`, or nullptr. With CacheOptions::v126 every node
  // has one.
  const CSINode* FindCSINode(std::string_view node) const;
  // The CSINode of a node by id (nullptr without one).
  const CSINode* CSINodeOf(NodeId id) const {
    return id < csi_node_of_.size() ? csi_node_of_[id] : nullptr;
  }
  const std::vector<CSIDriver>& csi_drivers() const { return csi_drivers_; }
  const CSIDriver* FindCSIDriver(std::string_view name) const;
  const std::vector<CSIStorageCapacity>& csi_storage_capacities() const {
    return csi_storage_capacities_;
  }
  // Replaces the CSIStorageCapacities (drivers update them often; nothing
  // else in the state depends on them, and VolumeBinding reads them live for
  // every pod with claims, so no rebuild is needed).
  void SetCSIStorageCapacities(std::vector<CSIStorageCapacity> capacities) {
    csi_storage_capacities_ = std::move(capacities);
  }
  const PersistentVolume* FindPv(std::string_view name) const;
  const StorageClass* FindStorageClass(std::string_view name) const;

  // ---- Dynamic Resource Allocation (resource.k8s.io/v1)
  const DraState& dra() const { return dra_; }
  // The claims change as the scheduler writes allocations and reservations
  // (DynamicResources' PreBind and PostFilter, the loop's release of a
  // deleted pod's claims); DraState::generation() counts the changes.
  DraState* mutable_dra() { return &dra_; }

 private:
  ClusterState() = default;
  PodId AddPodInfo(Pod pod, NodeId node);
  // The namespace, CSINode and CSIDriver tables of Build.
  void BuildNamespacesAndCsi(ObjectSet objects);
  uint32_t LabelSetId(const Pod& pod);
  // PodInfo::node of a detached pod that was never placed.
  static constexpr NodeId kDetached = kNoNode - 1;

  CacheOptions options_;
  std::vector<Node> nodes_;
  std::vector<NodeInfo> node_infos_;
  std::vector<StrId> zone_keys_;
  std::vector<uint32_t> zone_index_;
  uint32_t num_zones_ = 0;
  std::vector<uint32_t> zone126_index_;
  uint32_t num_zones126_ = 0;
  std::vector<uint32_t> name_rank_;
  static uint64_t LabelPairKey(StrId k, StrId v) { return (uint64_t{k} << 32) | v; }
  std::unordered_map<uint64_t, std::vector<NodeId>> nodes_by_label_;
  std::unordered_map<std::string, NodeId> node_by_name_;
  StableVector<PodInfo> pods_;
  std::vector<PodId> pods_with_affinity_;
  std::unordered_map<std::string, uint32_t> label_set_ids_;  // encoded (ns, labels) -> id
  std::unordered_map<StrId, int> image_num_nodes_;
  uint64_t generation_ = 0;
  std::vector<NodeId> change_log_;
  std::vector<PodChange> pod_log_;
  size_t pods_on_missing_nodes_ = 0;
  size_t removed_pods_ = 0;
  size_t detached_pods_ = 0;
  uint64_t id_ = 0;

  std::vector<Service> services_;
  std::vector<ReplicationController> rcs_;
  std::vector<ReplicaSet> rss_;
  std::vector<StatefulSet> sss_;
  std::vector<std::optional<labels::Selector>> rs_selectors_;
  std::vector<std::optional<labels::Selector>> ss_selectors_;
  std::vector<PersistentVolume> pvs_;
  std::vector<PersistentVolumeClaim> pvcs_;
  std::vector<StorageClass> scs_;
  std::vector<PodDisruptionBudget> pdbs_;
  std::vector<PriorityClass> priority_classes_;
  std::unordered_map<std::string, size_t> pvc_by_key_;  // "ns/name"
  std::unordered_map<std::string, size_t> pv_by_name_;
  std::unordered_map<std::string, size_t> sc_by_name_;
  std::vector<Namespace> namespaces_;
  std::unordered_map<StrId, size_t> namespace_by_id_;
  std::vector<CSINode> csi_nodes_;
  std::vector<const CSINode*> csi_node_of_;  // by NodeId
  std::unordered_map<std::string, size_t> csi_node_by_name_;
  std::vector<CSIDriver> csi_drivers_;
  std::unordered_map<std::string, size_t> csi_driver_by_name_;
  std::vector<CSIStorageCapacity> csi_storage_capacities_;
  DraState dra_;
};

// Upstream's utilnode.GetZoneKey: "region:\0:zone", or "" when both are empty.
std::string ZoneKey(const Labels& labels);

// Builds the cached form of a pod (requests, ports, flags) without placing it,
// counting its requests as the cache of `options` does.
PodInfo MakePodInfo(Pod pod, const CacheOptions& options = {});

}  // namespace ksched
