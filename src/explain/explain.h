// Causes of a node's failure, one explainer per concern (one file each):
//
//   resources.cc          Insufficient <resource>: requested vs free
//   taints.cc             the taints the pod does not tolerate
//   node_selector.cc      nodeSelector / required node affinity / spec.nodeName
//   inter_pod_affinity.cc the pods (and terms) behind (anti-)affinity failures
//   host_ports.cc         the port and the pod holding it
//   volumes.cc            the conflicting disk, the volume limit, zone, binding
//   node_state.cc         unschedulable, not ready, pressure conditions
//
// and for the v1.26 framework's plugins (plugins.cc picks by the failing
// plugin, then its reason; where a v1.15 explainer above fits, it is used):
//
//   topology_spread.cc    PodTopologySpread: the constraint, the node's domain
//                         and its count against the global minimum
//   node_affinity_plugin.cc NodeAffinity's addedAffinity, its PreFilter (terms
//                         that conflict, the nodes it narrowed the search to)
//   pod_request.cc        NodeResourcesFit: the request as v1.26 counts it
//                         (init containers, overhead)
//   csi_limits.cc         NodeVolumeLimits: the CSI driver, count vs limit
//   volume_claims.cc      VolumeRestrictions' ReadWriteOncePod claims,
//                         VolumeBinding's claims and capacity
//   device_claims.cc      DynamicResources: the request and the selector or
//                         constraint no device of the node meets
//
// ExplainNodeFailure() walks the node's upstream reasons and asks the
// explainer of each; a reason no explainer knows (an extender's, a Policy
// predicate's) gets no cause and stays as upstream wrote it.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "algorithm/generic_scheduler.h"
#include "cache/cluster_state.h"
#include "cache/nominated_pods.h"
#include "explain/cause.h"

namespace ksched::framework {
struct CycleResult;
}

namespace ksched::explain {

class PodExplainer;
struct AffinityIndex;  // inter_pod_affinity.cc

// What one explainer looks at: the pod that failed and the node, in the
// cluster as the scheduling cycle saw it.
struct NodeContext {
  const Pod& pod;
  const ClusterState& cluster;
  NodeId node;
  // Nominated pods the cycle counted (those of priority >= the pod's on this
  // node take room), or nullptr.
  const NominatedPods* nominated = nullptr;
  // The first predicate that rejected the node (NodeFailure::predicate).
  std::string_view predicate;
  // Per-pod indexes shared between the nodes of one report.
  const PodExplainer* explainer = nullptr;
  // The v1.26 cycle that rejected the node (its CycleState after PreFilter,
  // its profile), or nullptr for v1.15: then `predicate` is a predicate's
  // name, else the failing plugin's.
  const framework::CycleResult* cycle = nullptr;

  const NodeInfo& info() const { return cluster.node_info(node); }
  const Node& node_object() const { return cluster.node(node); }
  // The nominated pods this node holds room for, as the cycle counted them.
  std::vector<PodId> NominatedHere() const;
};

// Explains the failing nodes of one pod's cycle. What depends only on the
// pod (which existing pods' anti-affinity it meets, where pods matching its
// own terms run) is indexed once, on first use, so a report over thousands of
// nodes costs about as much as the cycle did. The pod, cluster and
// nominated pods must outlive it and stay unchanged.
class PodExplainer {
 public:
  // `cycle`: the v1.26 framework's cycle for the pod (nullptr for v1.15); it
  // too must outlive the explainer.
  PodExplainer(const Pod& pod, const ClusterState& cluster, const NominatedPods* nominated,
               const framework::CycleResult* cycle = nullptr);
  ~PodExplainer();

  // The causes of `failure` (a node's upstream reasons), in reason order.
  std::vector<Cause> Explain(const NodeFailure& failure) const;

  const AffinityIndex& affinity() const;  // built on first use

 private:
  const Pod& pod_;
  const ClusterState& cluster_;
  const NominatedPods* nominated_;
  const framework::CycleResult* cycle_;
  mutable std::unique_ptr<AffinityIndex> affinity_;
};

// One node alone (tests, single lookups).
std::vector<Cause> ExplainNodeFailure(const Pod& pod, const NodeFailure& failure,
                                      const ClusterState& cluster,
                                      const NominatedPods* nominated = nullptr);

// ---- the explainers; each appends the causes of one reason
void ExplainInsufficient(const NodeContext& c, std::string_view reason, std::string_view resource,
                         std::vector<Cause>* out);
// The same for a resource other than "pods", with the pod's request given.
void ExplainInsufficientRequest(const NodeContext& c, std::string_view reason,
                                std::string_view resource, const Resource& want,
                                std::vector<Cause>* out);
// A Resource's amount of `resource` (cpu in millicores).
int64_t ResourceAmount(const Resource& r, std::string_view resource);
void ExplainTaints(const NodeContext& c, std::string_view reason, std::vector<Cause>* out);
void ExplainNodeSelector(const NodeContext& c, std::string_view reason, std::vector<Cause>* out);
// Each of `terms` (ORed, so every one failed) with its first requirement the
// node fails; `what` names them in messages ("required node affinity"),
// `source`, when set, goes to details.source.
void ExplainNodeSelectorTerms(const NodeContext& c, std::string_view reason,
                              const std::vector<NodeSelectorTerm>& terms, std::string_view what,
                              std::string_view source, std::vector<Cause>* out);
void ExplainHostName(const NodeContext& c, std::string_view reason, std::vector<Cause>* out);
void ExplainHostPorts(const NodeContext& c, std::string_view reason, std::vector<Cause>* out);
void ExplainPodAffinity(const NodeContext& c, std::string_view reason, std::vector<Cause>* out);
void ExplainPodAntiAffinity(const NodeContext& c, std::string_view reason, std::vector<Cause>* out);
void ExplainExistingAntiAffinity(const NodeContext& c, std::string_view reason,
                                 std::vector<Cause>* out);
void ExplainDiskConflict(const NodeContext& c, std::string_view reason, std::vector<Cause>* out);
void ExplainVolumeCount(const NodeContext& c, std::string_view reason, std::vector<Cause>* out);
void ExplainVolumeZone(const NodeContext& c, std::string_view reason, std::vector<Cause>* out);
void ExplainVolumeBinding(const NodeContext& c, std::string_view reason, std::vector<Cause>* out);
// unschedulable, not ready, network unavailable, memory/disk/pid pressure.
void ExplainNodeState(const NodeContext& c, std::string_view reason, std::vector<Cause>* out);

// ---- v1.26 plugins
// The causes of one reason of the failing plugin (c.predicate); false when
// no v1.26 explainer knows it (the v1.15 ones by reason are then asked).
bool ExplainPluginReason(const NodeContext& c, std::string_view reason, std::vector<Cause>* out);
void ExplainTopologySpread(const NodeContext& c, std::string_view reason, std::vector<Cause>* out);
// addedAffinity of the profile's NodeAffinityArgs.
void ExplainAddedAffinity(const NodeContext& c, std::string_view reason, std::vector<Cause>* out);
// Insufficient <resource> with the pod's request as v1.26 counts it (as
// v1.35 counts it in a cluster built for v1.35, CacheOptions::v135).
void ExplainInsufficientV126(const NodeContext& c, std::string_view reason,
                             std::string_view resource, std::vector<Cause>* out);
void ExplainCsiLimits(const NodeContext& c, std::string_view reason, std::vector<Cause>* out);
// VolumeBinding's "not enough free storage" and "pvc(s) bound to
// non-existent pv(s)".
void ExplainClaimStorage(const NodeContext& c, std::string_view reason, std::vector<Cause>* out);
// DynamicResources: the request and selector no device of the node meets,
// the devices already allocated, the constraint; or where an allocated
// claim's devices are.
void ExplainDeviceClaims(const NodeContext& c, std::string_view reason, std::vector<Cause>* out);
// VolumeZone's four zone and region labels.
void ExplainVolumeZoneV126(const NodeContext& c, std::string_view reason, std::vector<Cause>* out);
// v1.35's VolumeZone: a beta label the node lacks is compared with the
// node's GA label.
void ExplainVolumeZoneV135(const NodeContext& c, std::string_view reason, std::vector<Cause>* out);
// Whether the cycle behind `c` ran a v1.35 profile.
bool CycleAtLeastV135(const NodeContext& c);

// ---- v1.26 PreFilter: verdicts on the whole pod, before any node
// The causes of a PreFilter plugin's rejection of the pod (`plugin`, its
// `reason`): the conflicting node affinity terms, the pods holding a
// ReadWriteOncePod claim, the claims that are unbound or missing.
std::vector<Cause> ExplainPreFilterRejection(const Pod& pod, const ClusterState& cluster,
                                             std::string_view plugin, std::string_view reason);
// Its parts: NodeAffinity's conflicting terms (node_affinity_plugin.cc), and
// the claims behind VolumeRestrictions', VolumeBinding's and VolumeZone's
// verdicts (volume_claims.cc; v1.35's per-node ReadWriteOncePod reason too).
void ExplainAffinityTermsConflict(const Pod& pod, std::string_view reason, std::vector<Cause>* out);
void ExplainClaimsPreFilter(const Pod& pod, const ClusterState& cluster, std::string_view reason,
                            std::vector<Cause>* out);
// A node that NodeAffinity's PreFilter left out of the search (the pod's
// required node affinity names nodes by metadata.name, and not this one):
// the term requirement it fails.
std::vector<Cause> ExplainPreFilterNarrowing(const Pod& pod, const ClusterState& cluster,
                                             NodeId node);

}  // namespace ksched::explain
