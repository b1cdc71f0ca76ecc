#include "framework/plugins/noderesources/most_allocated.h"

#include "framework/interface.h"
#include "util/go_arith.h"

namespace ksched::framework::noderesources {

int64_t MostRequestedScore(int64_t requested, int64_t capacity) {
  if (capacity == 0) return 0;
  if (requested > capacity) requested = capacity;
  return goarith::Div(goarith::Mul(requested, kMaxNodeScore), capacity);
}

}  // namespace ksched::framework::noderesources
