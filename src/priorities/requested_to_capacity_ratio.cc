// RequestedToCapacityRatioPriority: scores each of cpu and memory by a
// configurable function of its utilization, then averages the two.
#include "priorities/requested_to_capacity_ratio.h"

#include <fmt/format.h>

#include "priorities/factories.h"
#include "util/go_arith.h"
#include "priorities/resource_allocation.h"

namespace ksched {
namespace {

constexpr int64_t kMinUtilization = 0;
constexpr int64_t kMaxUtilization = 100;
constexpr int64_t kMinScore = 0;
constexpr int64_t kMaxScore = kMaxPriority;

class RequestedToCapacityRatioPriority final : public ResourceAllocationPriority {
 public:
  explicit RequestedToCapacityRatioPriority(FunctionShape shape) : shape_(std::move(shape)) {}

  int64_t Score(const CpuMemory& requested, const CpuMemory& allocatable) const override {
    return goarith::Add(ResourceScore(requested.milli_cpu, allocatable.milli_cpu),
                        ResourceScore(requested.memory, allocatable.memory)) /
           2;
  }

 private:
  // Utilization in whole percent, rounded up (100 minus the truncated free
  // percentage); a missing or over-committed resource counts as 100%.
  int64_t ResourceScore(int64_t requested, int64_t capacity) const {
    if (capacity == 0 || requested > capacity) return BrokenLinear(shape_, kMaxUtilization);
    int64_t free_percent =
        goarith::Div(goarith::Mul(goarith::Sub(capacity, requested), kMaxUtilization), capacity);
    return BrokenLinear(shape_, goarith::Sub(kMaxUtilization, free_percent));
  }

  FunctionShape shape_;
};

}  // namespace

FunctionShape DefaultFunctionShape() { return {{0, 10}, {100, 0}}; }

Status ValidateFunctionShape(const FunctionShape& shape) {
  if (shape.empty()) return MakeError("at least one point must be specified");
  for (size_t i = 1; i < shape.size(); ++i) {
    if (shape[i - 1].first >= shape[i].first) {
      return MakeError(fmt::format(
          "utilization values must be sorted. Utilization[{}]=={} >= Utilization[{}]=={}", i - 1,
          shape[i - 1].first, i, shape[i].first));
    }
  }
  for (size_t i = 0; i < shape.size(); ++i) {
    const auto& [utilization, score] = shape[i];
    if (utilization < kMinUtilization) {
      return MakeError(
          fmt::format("utilization values must not be less than {}. Utilization[{}]=={}",
                      kMinUtilization, i, utilization));
    }
    if (utilization > kMaxUtilization) {
      return MakeError(
          fmt::format("utilization values must not be greater than {}. Utilization[{}]=={}",
                      kMaxUtilization, i, utilization));
    }
    if (score < kMinScore) {
      return MakeError(
          fmt::format("score values must not be less than {}. Score[{}]=={}", kMinScore, i, score));
    }
    if (score > kMaxScore) {
      // Upstream's message has this typo; kept so the text matches.
      return MakeError(
          fmt::format("score valuses not be greater than {}. Score[{}]=={}", kMaxScore, i, score));
    }
  }
  return Status::Ok();
}

int64_t BrokenLinear(const FunctionShape& shape, int64_t p) {
  for (size_t i = 0; i < shape.size(); ++i) {
    if (p > shape[i].first) continue;
    if (i == 0) return shape[0].second;
    const auto& [u0, s0] = shape[i - 1];
    const auto& [u1, s1] = shape[i];
    // Reaching i means u0 < p <= u1, so the divisor is positive.
    return goarith::Add(s0, goarith::Div(goarith::Mul(goarith::Sub(s1, s0), goarith::Sub(p, u0)),
                                         goarith::Sub(u1, u0)));
  }
  return shape.back().second;
}

std::unique_ptr<Priority> NewRequestedToCapacityRatioPriority(
    std::vector<std::pair<int64_t, int64_t>> shape) {
  if (shape.empty()) shape = DefaultFunctionShape();
  return std::make_unique<RequestedToCapacityRatioPriority>(std::move(shape));
}

}  // namespace ksched
