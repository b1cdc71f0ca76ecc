// LeastRequestedPriority: favours nodes with more unused cpu and memory.
#include "priorities/factories.h"
#include "util/go_arith.h"
#include "priorities/resource_allocation.h"

namespace ksched {
namespace {

// Unused share of one resource on a 0..10 scale; 0 when the node has none of
// it or the requests already exceed it.
int64_t UnusedScore(int64_t requested, int64_t capacity) {
  if (capacity == 0 || requested > capacity) return 0;
  return goarith::Div(goarith::Mul(goarith::Sub(capacity, requested), kMaxPriority), capacity);
}

class LeastRequestedPriority final : public ResourceAllocationPriority {
 public:
  int64_t Score(const CpuMemory& requested, const CpuMemory& allocatable) const override {
    return LeastRequestedScore(requested, allocatable);
  }
};

}  // namespace

int64_t LeastRequestedScore(const CpuMemory& requested, const CpuMemory& allocatable) {
  // The two per-resource scores are summed, then halved with truncation.
  return goarith::Add(UnusedScore(requested.milli_cpu, allocatable.milli_cpu),
                      UnusedScore(requested.memory, allocatable.memory)) /
         2;
}

std::unique_ptr<Priority> NewLeastRequestedPriority() {
  return std::make_unique<LeastRequestedPriority>();
}

}  // namespace ksched
