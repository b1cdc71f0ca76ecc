#include "priorities/resource_allocation.h"

#include "util/go_arith.h"

namespace ksched {

int64_t ResourceAllocationPriority::Map(const PodToSchedule& pod, const PriorityState* state,
                                        const ClusterState& cluster, NodeId node) const {
  (void)state;
  const NodeInfo& info = cluster.node_info(node);
  CpuMemory requested{goarith::Add(pod.info->nonzero.milli_cpu, info.nonzero_requested.milli_cpu),
                      goarith::Add(pod.info->nonzero.memory, info.nonzero_requested.memory)};
  CpuMemory allocatable{info.allocatable.milli_cpu, info.allocatable.memory};
  return Score(requested, allocatable);
}

}  // namespace ksched
