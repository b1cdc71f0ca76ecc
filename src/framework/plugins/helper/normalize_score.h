// Upstream's plugins/helper.DefaultNormalizeScore, which score plugins use to
// map their raw per-node scores onto 0..max_priority.
#pragma once

#include <cstdint>

#include "framework/interface.h"

namespace ksched::framework::helper {

// Scales every score by max_priority / (the highest score), integer
// division as upstream (so scores must be non-negative for upstream's
// results). With `reverse`, each result r becomes max_priority - r. When the
// highest score is 0 (or negative), scores stay as they are, or all become
// max_priority with `reverse`. Always Success.
Status DefaultNormalizeScore(int64_t max_priority, bool reverse, NodeScoreList* scores);

// DefaultNormalizeScore one score at a time, for a list whose highest score
// is known: what it makes of each raw score. Raw scores up to 63 are worked
// out once each (they are mostly small counts), others divide.
class DefaultNormalizer {
 public:
  DefaultNormalizer(int64_t max_priority, bool reverse, int64_t max_count);
  int64_t operator()(int64_t raw) const {
    if (raw >= 0 && raw <= top_) return table_[raw];
    return Slow(raw);
  }

 private:
  int64_t Slow(int64_t raw) const;
  static constexpr int64_t kTable = 64;
  int64_t max_priority_, max_count_;
  bool reverse_;
  int64_t top_ = -1;  // table_ holds 0..top_
  int64_t table_[kTable];
};

// One-pass normalization (BatchNormalizeAdd, BatchScores::
// ScoreNormalizeAndAdd) when a list's raw scores span a small range: the
// weighted score of each raw score lo..lo+span (span < kWeighTable) into
// weighted[0..span], so that the loop over the nodes is a lookup instead of
// a normalization (a division) per node. False, with `weighted` in any
// state, when one of them lies outside kMinNodeScore..kMaxNodeScore: the
// caller's per-node loop then finds the nodes that do.
inline constexpr int64_t kWeighTable = 256;
template <typename Normalize>
bool WeighRange(int64_t lo, int64_t span, const Normalize& normalize, int64_t weight,
                int64_t* weighted) {
  for (int64_t v = 0; v <= span; ++v) {
    const int64_t score = normalize(lo + v);
    if (score < kMinNodeScore || score > kMaxNodeScore) return false;
    weighted[v] = score * weight;
  }
  return true;
}

// BatchNormalizeAdd for a plugin whose NormalizeScore is
// DefaultNormalizeScore(max_priority, reverse).
bool DefaultNormalizeAndAdd(int64_t max_priority, bool reverse, const int64_t* column,
                            const NodeId* ids, size_t count, int64_t weight, int64_t* totals,
                            bool* out_of_range);

}  // namespace ksched::framework::helper
