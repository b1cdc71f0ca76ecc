// The shared shape of the cpu/memory scoring priorities (upstream's
// ResourceAllocationPriority): LeastRequested, MostRequested,
// BalancedResourceAllocation and RequestedToCapacityRatio differ only in the
// scorer applied to (requested, allocatable).
//
// "Requested" is the non-zero request (a container without a cpu / memory
// request counts 100m / 200Mi; regular containers only) of the incoming pod
// plus that of the pods already on the node; "allocatable" is the node's
// status.allocatable. Only cpu and memory take part. v1.15's
// BalanceAttachedNodeVolumes gate is off by default, so volumes never do.
#pragma once

#include <cstdint>

#include "priorities/priority.h"

namespace ksched {

struct CpuMemory {
  int64_t milli_cpu = 0;
  int64_t memory = 0;
};

class ResourceAllocationPriority : public Priority {
 public:
  int64_t Map(const PodToSchedule& pod, const PriorityState* state, const ClusterState& cluster,
              NodeId node) const final;

  // The score of a node given the summed requests and its allocatable amounts.
  virtual int64_t Score(const CpuMemory& requested, const CpuMemory& allocatable) const = 0;
};

// The scorers, exposed for tests; each is defined in the file of its priority.
int64_t LeastRequestedScore(const CpuMemory& requested, const CpuMemory& allocatable);
int64_t MostRequestedScore(const CpuMemory& requested, const CpuMemory& allocatable);
int64_t BalancedResourceScore(const CpuMemory& requested, const CpuMemory& allocatable);

}  // namespace ksched
