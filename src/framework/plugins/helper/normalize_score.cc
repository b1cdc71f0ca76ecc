#include "framework/plugins/helper/normalize_score.h"

#include "util/go_arith.h"

namespace ksched::framework::helper {

Status DefaultNormalizeScore(int64_t max_priority, bool reverse, NodeScoreList* scores) {
  int64_t max_count = 0;
  for (const NodeScore& s : *scores)
    if (s.score > max_count) max_count = s.score;
  if (max_count == 0) {
    if (reverse)
      for (NodeScore& s : *scores) s.score = max_priority;
    return Status::Success();
  }
  for (NodeScore& s : *scores) {
    // Go's int64 arithmetic: a huge raw score wraps rather than traps.
    int64_t score = goarith::Div(goarith::Mul(max_priority, s.score), max_count);
    if (reverse) score = goarith::Sub(max_priority, score);
    s.score = score;
  }
  return Status::Success();
}

}  // namespace ksched::framework::helper
