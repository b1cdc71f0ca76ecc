#include "framework/plugins/helper/normalize_score.h"

#include <algorithm>

#include "util/go_arith.h"

namespace ksched::framework::helper {

DefaultNormalizer::DefaultNormalizer(int64_t max_priority, bool reverse, int64_t max_count)
    : max_priority_(max_priority), max_count_(max_count), reverse_(reverse) {
  top_ = std::min<int64_t>(std::max<int64_t>(max_count, 0), kTable - 1);
  for (int64_t v = 0; v <= top_; ++v) table_[v] = Slow(v);
}

int64_t DefaultNormalizer::Slow(int64_t raw) const {
  // Nothing above 0: scores stay, or all become max_priority with reverse.
  if (max_count_ <= 0) return reverse_ ? max_priority_ : raw;
  // Go's int64 arithmetic: a huge raw score wraps rather than traps.
  int64_t score = goarith::Div(goarith::Mul(max_priority_, raw), max_count_);
  if (reverse_) score = goarith::Sub(max_priority_, score);
  return score;
}

Status DefaultNormalizeScore(int64_t max_priority, bool reverse, NodeScoreList* scores) {
  int64_t max_count = 0;
  for (const NodeScore& s : *scores)
    if (s.score > max_count) max_count = s.score;
  if (max_count == 0 && !reverse) return Status::Success();
  const DefaultNormalizer normalized(max_priority, reverse, max_count);
  for (NodeScore& s : *scores) s.score = normalized(s.score);
  return Status::Success();
}

bool DefaultNormalizeAndAdd(int64_t max_priority, bool reverse, const int64_t* column,
                            const NodeId* ids, size_t count, int64_t weight, int64_t* totals,
                            bool* out_of_range) {
  int64_t max_count = 0, min_raw = 0;
  for (size_t k = 0; k < count; ++k) {
    const int64_t v = column[ids[k]];
    max_count = std::max(max_count, v);
    min_raw = std::min(min_raw, v);
  }
  const DefaultNormalizer normalized(max_priority, reverse, max_count);
  // Small non-negative scores (counts of taints or of matching terms, the
  // usual case): a lookup per node.
  int64_t weighted[kWeighTable];
  if (min_raw >= 0 && max_count < kWeighTable &&
      WeighRange(0, max_count, normalized, weight, weighted)) {
    for (size_t k = 0; k < count; ++k) totals[k] += weighted[column[ids[k]]];
    return true;
  }
  bool bad = false;
  for (size_t k = 0; k < count; ++k) {
    const int64_t score = normalized(column[ids[k]]);
    bad |= score > kMaxNodeScore || score < kMinNodeScore;
    totals[k] += score * weight;
  }
  *out_of_range = *out_of_range || bad;
  return true;
}

}  // namespace ksched::framework::helper
