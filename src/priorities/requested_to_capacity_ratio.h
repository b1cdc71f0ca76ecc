// RequestedToCapacityRatioPriority's scoring-function shape.
//
// A shape is a list of (utilization 0..100, score 0..10) points; the score of
// a utilization is interpolated linearly (in integers) between the points and
// held flat outside them. The Policy layer validates shapes with
// ValidateFunctionShape() before calling NewRequestedToCapacityRatioPriority
// (upstream refuses to start on an invalid shape).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "util/result.h"

namespace ksched {

// (utilization, score) points, utilization strictly increasing.
using FunctionShape = std::vector<std::pair<int64_t, int64_t>>;

// Upstream's default shape: 0% used -> 10, 100% used -> 0.
FunctionShape DefaultFunctionShape();

// Upstream's NewFunctionShape checks, with its messages: at least one point,
// utilization strictly increasing and within 0..100, score within 0..10.
Status ValidateFunctionShape(const FunctionShape& shape);

// The piecewise-linear function through `shape` (upstream's
// buildBrokenLinearFunction), evaluated at `p`. `shape` must not be empty.
int64_t BrokenLinear(const FunctionShape& shape, int64_t p);

}  // namespace ksched
