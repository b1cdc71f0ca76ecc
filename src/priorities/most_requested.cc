// MostRequestedPriority: favours nodes whose cpu and memory are most used
// (bin packing; ClusterAutoscalerProvider's replacement for LeastRequested).
#include "priorities/factories.h"
#include "util/go_arith.h"
#include "priorities/resource_allocation.h"

namespace ksched {
namespace {

// Used share of one resource on a 0..10 scale; 0 when the node has none of it
// or the requests exceed it. Not 10 minus the unused score: rounding differs.
int64_t UsedScore(int64_t requested, int64_t capacity) {
  if (capacity == 0 || requested > capacity) return 0;
  return goarith::Div(goarith::Mul(requested, kMaxPriority), capacity);
}

class MostRequestedPriority final : public ResourceAllocationPriority {
 public:
  int64_t Score(const CpuMemory& requested, const CpuMemory& allocatable) const override {
    return MostRequestedScore(requested, allocatable);
  }
};

}  // namespace

int64_t MostRequestedScore(const CpuMemory& requested, const CpuMemory& allocatable) {
  return goarith::Add(UsedScore(requested.milli_cpu, allocatable.milli_cpu),
                      UsedScore(requested.memory, allocatable.memory)) /
         2;
}

std::unique_ptr<Priority> NewMostRequestedPriority() {
  return std::make_unique<MostRequestedPriority>();
}

}  // namespace ksched
