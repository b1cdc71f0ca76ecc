#include "framework/plugins/nodeports/node_ports_hints.h"

#include "cache/node_info.h"
#include "framework/plugins/helper/hints.h"

namespace ksched::framework::plugins {

std::vector<ClusterEventWithHint> NodePortsEventsToRegister() {
  return {
      {{EventResource::kPod, kDelete, ""}, NodePortsAfterPodDeleted},
      {{EventResource::kNode, kAdd, ""}, {}},
  };
}

QueueingHint NodePortsAfterPodDeleted(const Pod& pod, const EventObject& old_obj,
                                      const EventObject&) {
  const Pod *deleted, *unused;
  if (!helper::As(old_obj, EventObject(), &deleted, &unused) || deleted == nullptr)
    return QueueingHint::kError;
  if (deleted->spec.node_name.empty() && deleted->nominated_node_name.empty())
    return QueueingHint::kQueueSkip;
  // v1.35's util.GetHostPorts counts native sidecars' ports too.
  const std::vector<HostPort> in_use = PodHostPorts(*deleted, /*sidecars=*/true);
  if (in_use.empty()) return QueueingHint::kQueueSkip;
  for (const HostPort& want : PodHostPorts(pod, /*sidecars=*/true))
    if (HostPortConflicts(in_use, want)) return QueueingHint::kQueue;
  return QueueingHint::kQueueSkip;
}

}  // namespace ksched::framework::plugins
