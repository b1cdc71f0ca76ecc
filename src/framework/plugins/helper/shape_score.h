// A piecewise linear function over utilization (upstream's
// plugins/helper.BuildBrokenLinearFunction), used by NodeResourcesFit's
// RequestedToCapacityRatio strategy and VolumeBinding's capacity scoring.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace ksched::framework::helper {

struct FunctionShapePoint {
  int64_t utilization = 0;
  int64_t score = 0;
};
using FunctionShape = std::vector<FunctionShapePoint>;

// f(p): shape[0].score up to the first point, the last point's score after
// the last one, linear in between (integer arithmetic, truncating as Go's).
// Points are sorted by utilization, strictly increasing (validation checks).
class BrokenLinearFunction {
 public:
  // `shape` must not be empty.
  explicit BrokenLinearFunction(FunctionShape shape) : shape_(std::move(shape)) {}
  int64_t operator()(int64_t p) const;

 private:
  FunctionShape shape_;
};

}  // namespace ksched::framework::helper
