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
  PodExplainer(const Pod& pod, const ClusterState& cluster, const NominatedPods* nominated);
  ~PodExplainer();

  // The causes of `failure` (a node's upstream reasons), in reason order.
  std::vector<Cause> Explain(const NodeFailure& failure) const;

  const AffinityIndex& affinity() const;  // built on first use

 private:
  const Pod& pod_;
  const ClusterState& cluster_;
  const NominatedPods* nominated_;
  mutable std::unique_ptr<AffinityIndex> affinity_;
};

// One node alone (tests, single lookups).
std::vector<Cause> ExplainNodeFailure(const Pod& pod, const NodeFailure& failure,
                                      const ClusterState& cluster,
                                      const NominatedPods* nominated = nullptr);

// ---- the explainers; each appends the causes of one reason
void ExplainInsufficient(const NodeContext& c, std::string_view reason, std::string_view resource,
                         std::vector<Cause>* out);
void ExplainTaints(const NodeContext& c, std::string_view reason, std::vector<Cause>* out);
void ExplainNodeSelector(const NodeContext& c, std::string_view reason, std::vector<Cause>* out);
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

}  // namespace ksched::explain
