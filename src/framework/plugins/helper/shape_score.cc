#include "framework/plugins/helper/shape_score.h"

#include "util/go_arith.h"

namespace ksched::framework::helper {

int64_t BrokenLinearFunction::operator()(int64_t p) const {
  for (std::size_t i = 0; i < shape_.size(); ++i) {
    if (p > shape_[i].utilization) continue;
    if (i == 0) return shape_[0].score;
    const FunctionShapePoint& lo = shape_[i - 1];
    const FunctionShapePoint& hi = shape_[i];
    // Go evaluates left to right in int64: (Δscore * Δp) / Δutilization.
    int64_t num = goarith::Mul(hi.score - lo.score, goarith::Sub(p, lo.utilization));
    return goarith::Add(lo.score, goarith::Div(num, hi.utilization - lo.utilization));
  }
  return shape_.back().score;
}

}  // namespace ksched::framework::helper
