// The RequestedToCapacityRatio scoring strategy (upstream's
// requested_to_capacity_ratio.go): each resource's utilization with the pod
// placed, mapped through a configured broken-line shape.
#pragma once

#include <cstdint>
#include <vector>

#include "config/types.h"
#include "framework/plugins/helper/shape_score.h"

namespace ksched::framework::noderesources {

class RequestedToCapacityRatio {
 public:
  // Shape scores are 0..10 (MaxCustomPriorityScore) in the config and scaled
  // to 0..100 here. `shape` must not be empty.
  explicit RequestedToCapacityRatio(const std::vector<config::UtilizationShapePoint>& shape);

  // The shape at requested * 100 / capacity (integer), or at 100 when the
  // node has no capacity or would be over-committed.
  int64_t ResourceScore(int64_t requested, int64_t capacity) const;

 private:
  helper::BrokenLinearFunction function_;
};

}  // namespace ksched::framework::noderesources
