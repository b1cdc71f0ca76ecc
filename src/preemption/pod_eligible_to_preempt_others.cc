#include "preemption/pod_eligible_to_preempt_others.h"

#include "api/priority_admission.h"

namespace ksched {

bool PodEligibleToPreemptOthers(const Pod& pod, const ClusterState& cluster) {
  if (pod.nominated_node_name.empty()) return true;
  NodeId node = cluster.FindNode(pod.nominated_node_name);
  if (node == kNoNode) return true;
  const int32_t priority = PodPriority(pod);
  for (PodId id : cluster.node_info(node).pods) {
    const PodInfo& p = cluster.pod(id);
    if (p.terminating && PodPriority(p.pod) < priority) return false;
  }
  return true;
}

}  // namespace ksched
