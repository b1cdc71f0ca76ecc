#include "framework/admission.h"

#include "framework/plugins/helper/node_affinity.h"
#include "framework/plugins/helper/taint.h"
#include "framework/plugins/noderesources/fit.h"

namespace ksched::framework {

bool PassesNodePreCheck(const Pod& pod, const NodeInfo& node) {
  // AdmissionCheck, first failure only: resources, node affinity, node
  // name, host ports.
  if (!noderesources::Fit::InsufficientResources(*noderesources::FitRequestIgnoringNothing(pod),
                                                 node)
           .empty())
    return false;
  if (!helper::RequiredNodeAffinity::ForPod(pod).Match(node)) return false;
  if (!pod.spec.node_name.empty() && pod.spec.node_name != node.name()) return false;
  for (const HostPort& want : PodHostPorts(pod))
    if (HostPortConflicts(node.used_ports, want)) return false;
  // Then the NoSchedule taints alone (NoExecute ones are left to the filter).
  const Taint* untolerated = helper::FindMatchingUntoleratedTaint(
      node.node->taints, pod.spec.tolerations,
      [](const Taint& t) { return t.effect == TaintEffect::kNoSchedule; });
  return untolerated == nullptr;
}

}  // namespace ksched::framework
