#include "explain/explain.h"

#include "algorithm/pod_fits_on_node.h"

namespace ksched::explain {

std::vector<PodId> NodeContext::NominatedHere() const {
  if (nominated == nullptr || nominated->empty()) return {};
  CycleNominations n(nominated, pod, cluster);
  const std::vector<PodId>* here = n.ForNode(node);
  return here != nullptr ? *here : std::vector<PodId>();
}

std::vector<Cause> ExplainNodeFailure(const Pod& pod, const NodeFailure& failure,
                                      const ClusterState& cluster, const NominatedPods* nominated) {
  return PodExplainer(pod, cluster, nominated).Explain(failure);
}

std::vector<Cause> PodExplainer::Explain(const NodeFailure& failure) const {
  std::vector<Cause> out;
  if (failure.node == kNoNode || failure.node >= cluster_.num_nodes()) return out;
  NodeContext c{pod_, cluster_, failure.node, nominated_, failure.predicate, this, cycle_};
  constexpr std::string_view kInsufficient = "Insufficient ";
  for (const std::string& r : failure.reasons) {
    std::string_view reason = r;
    if (cycle_ != nullptr && ExplainPluginReason(c, reason, &out)) {
      continue;
    } else if (reason.substr(0, kInsufficient.size()) == kInsufficient) {
      ExplainInsufficient(c, reason, reason.substr(kInsufficient.size()), &out);
    } else if (reason == "node(s) had taints that the pod didn't tolerate") {
      ExplainTaints(c, reason, &out);
    } else if (reason == "node(s) didn't match node selector") {
      ExplainNodeSelector(c, reason, &out);
    } else if (reason == "node(s) didn't match the requested hostname") {
      ExplainHostName(c, reason, &out);
    } else if (reason == "node(s) didn't have free ports for the requested pod ports") {
      ExplainHostPorts(c, reason, &out);
    } else if (reason == "node(s) didn't match pod affinity rules") {
      ExplainPodAffinity(c, reason, &out);
    } else if (reason == "node(s) didn't match pod anti-affinity rules") {
      ExplainPodAntiAffinity(c, reason, &out);
    } else if (reason == "node(s) didn't satisfy existing pods anti-affinity rules") {
      ExplainExistingAntiAffinity(c, reason, &out);
    } else if (reason == "node(s) had no available disk") {
      ExplainDiskConflict(c, reason, &out);
    } else if (reason == "node(s) exceed max volume count") {
      ExplainVolumeCount(c, reason, &out);
    } else if (reason == "node(s) had no available volume zone") {
      ExplainVolumeZone(c, reason, &out);
    } else if (reason == "node(s) had volume node affinity conflict" ||
               reason == "node(s) didn't find available persistent volumes to bind") {
      ExplainVolumeBinding(c, reason, &out);
    } else {
      ExplainNodeState(c, reason, &out);
    }
  }
  return out;
}

}  // namespace ksched::explain
