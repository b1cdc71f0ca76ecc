#include "framework/plugins/helper/normalize_score.h"

#include <algorithm>

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
  // Go's int64 arithmetic: a huge raw score wraps rather than traps.
  auto normalized = [&](int64_t raw) {
    int64_t score = goarith::Div(goarith::Mul(max_priority, raw), max_count);
    if (reverse) score = goarith::Sub(max_priority, score);
    return score;
  };
  // Raw scores are mostly small counts (taints, terms): their results are
  // worked out once each instead of a division per node.
  constexpr int64_t kTable = 64;
  int64_t table[kTable];
  const int64_t top = std::min<int64_t>(max_count, kTable - 1);
  for (int64_t v = 0; v <= top; ++v) table[v] = normalized(v);
  for (NodeScore& s : *scores)
    s.score = s.score >= 0 && s.score <= top ? table[s.score] : normalized(s.score);
  return Status::Success();
}

}  // namespace ksched::framework::helper
