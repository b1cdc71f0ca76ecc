// ResourceLimitsPriority: a tie-breaker worth 1 on nodes whose allocatable cpu
// or memory can hold the pod's limit for that resource.
#include "priorities/factories.h"

namespace ksched {
namespace {

struct LimitsState final : PriorityState {
  Resource limits;
};

// 1 when a limit is set and fits a non-zero allocatable amount.
int64_t FitsLimit(int64_t limit, int64_t allocatable) {
  return limit != 0 && allocatable != 0 && limit <= allocatable ? 1 : 0;
}

class ResourceLimitsPriority final : public Priority {
 public:
  std::unique_ptr<PriorityState> Prepare(const PodToSchedule& pod,
                                         const ClusterState& cluster) const override {
    (void)cluster;
    // Like requests: the sum over regular containers, raised to any single
    // init container's limit.
    auto state = std::make_unique<LimitsState>();
    for (const Container& c : pod.pod().spec.containers) state->limits.Add(c.limits);
    for (const Container& c : pod.pod().spec.init_containers) state->limits.SetMax(c.limits);
    return state;
  }

  int64_t Map(const PodToSchedule& pod, const PriorityState* state, const ClusterState& cluster,
              NodeId node) const override {
    (void)pod;
    const Resource& limits = static_cast<const LimitsState*>(state)->limits;
    const Resource& allocatable = cluster.node_info(node).allocatable;
    if (FitsLimit(limits.milli_cpu, allocatable.milli_cpu) == 1 ||
        FitsLimit(limits.memory, allocatable.memory) == 1) {
      return 1;
    }
    return 0;
  }
};

}  // namespace

std::unique_ptr<Priority> NewResourceLimitsPriority() {
  return std::make_unique<ResourceLimitsPriority>();
}

}  // namespace ksched
