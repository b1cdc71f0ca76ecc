#include "framework/plugins/noderesources/least_allocated.h"

#include "framework/interface.h"
#include "util/go_arith.h"

namespace ksched::framework::noderesources {

int64_t LeastRequestedScore(int64_t requested, int64_t capacity) {
  if (capacity == 0 || requested > capacity) return 0;
  return goarith::Div(goarith::Mul(goarith::Sub(capacity, requested), kMaxNodeScore), capacity);
}

}  // namespace ksched::framework::noderesources
