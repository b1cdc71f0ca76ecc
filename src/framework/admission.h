// Upstream's AdmissionCheck and preCheckForNode (pkg/scheduler's
// eventhandlers.go): when a node is added or changes, the queue moves only
// the unschedulable pods that node could take as far as the cheap,
// node-local checks tell: room for the requests, required node affinity and
// nodeSelector, spec.nodeName, host ports, and no untolerated NoSchedule
// taint. Preemption is not considered (upstream neither): such a pod waits
// for another event or the unschedulable flush.
#pragma once

#include "api/types.h"
#include "cache/node_info.h"

namespace ksched::framework {

// preCheckForNode(node)(pod).
bool PassesNodePreCheck(const Pod& pod, const NodeInfo& node);

}  // namespace ksched::framework
