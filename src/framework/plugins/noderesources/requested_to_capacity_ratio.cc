#include "framework/plugins/noderesources/requested_to_capacity_ratio.h"

#include "framework/interface.h"
#include "util/go_arith.h"

namespace ksched::framework::noderesources {
namespace {

constexpr int64_t kMaxUtilization = 100;
constexpr int64_t kMaxCustomPriorityScore = 10;  // config.MaxCustomPriorityScore

helper::FunctionShape ScaledShape(const std::vector<config::UtilizationShapePoint>& shape) {
  helper::FunctionShape out;
  out.reserve(shape.size());
  for (const config::UtilizationShapePoint& p : shape)
    out.push_back({p.utilization, int64_t{p.score} * (kMaxNodeScore / kMaxCustomPriorityScore)});
  return out;
}

}  // namespace

RequestedToCapacityRatio::RequestedToCapacityRatio(
    const std::vector<config::UtilizationShapePoint>& shape)
    : function_(ScaledShape(shape)) {}

int64_t RequestedToCapacityRatio::ResourceScore(int64_t requested, int64_t capacity) const {
  if (capacity == 0 || requested > capacity) return function_(kMaxUtilization);
  return function_(goarith::Div(goarith::Mul(requested, kMaxUtilization), capacity));
}

}  // namespace ksched::framework::noderesources
