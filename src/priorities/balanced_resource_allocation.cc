// BalancedResourceAllocation: favours nodes whose cpu and memory would be used
// in similar proportions. Computed in float64 exactly as upstream (double is
// IEEE binary64 too); the operations below keep upstream's order.
#include <cmath>

#include "priorities/factories.h"
#include "util/go_arith.h"
#include "priorities/resource_allocation.h"

namespace ksched {
namespace {

// requested / capacity; a node without the resource counts as full.
double FractionOfCapacity(int64_t requested, int64_t capacity) {
  if (capacity == 0) return 1;
  return static_cast<double>(requested) / static_cast<double>(capacity);
}

class BalancedResourceAllocation final : public ResourceAllocationPriority {
 public:
  int64_t Score(const CpuMemory& requested, const CpuMemory& allocatable) const override {
    return BalancedResourceScore(requested, allocatable);
  }
};

}  // namespace

int64_t BalancedResourceScore(const CpuMemory& requested, const CpuMemory& allocatable) {
  const double cpu = FractionOfCapacity(requested.milli_cpu, allocatable.milli_cpu);
  const double memory = FractionOfCapacity(requested.memory, allocatable.memory);
  // A node that would be full (or over-committed) on either resource gets 0.
  if (cpu >= 1 || memory >= 1) return 0;
  const double diff = std::fabs(cpu - memory);
  return goarith::FloatToInt64((1 - diff) * static_cast<double>(kMaxPriority));
}

std::unique_ptr<Priority> NewBalancedResourceAllocation() {
  return std::make_unique<BalancedResourceAllocation>();
}

}  // namespace ksched
