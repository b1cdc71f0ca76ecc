#include "framework/plugins/helper/normalize_score.h"

#include <gtest/gtest.h>

namespace ksched::framework::helper {
namespace {

std::vector<int64_t> Normalize(std::vector<int64_t> raw, bool reverse) {
  NodeScoreList scores;
  for (size_t i = 0; i < raw.size(); ++i) scores.push_back({static_cast<NodeId>(i), raw[i]});
  EXPECT_TRUE(DefaultNormalizeScore(kMaxNodeScore, reverse, &scores).IsSuccess());
  std::vector<int64_t> out;
  for (const NodeScore& s : scores) out.push_back(s.score);
  return out;
}

TEST(DefaultNormalizeScore, ScalesToTheHighest) {
  EXPECT_EQ(Normalize({10, 30, 60, 0}, false), (std::vector<int64_t>{16, 50, 100, 0}));
}

TEST(DefaultNormalizeScore, ReverseSubtractsFromMax) {
  EXPECT_EQ(Normalize({10, 30, 60, 0}, true), (std::vector<int64_t>{84, 50, 0, 100}));
}

TEST(DefaultNormalizeScore, AllZero) {
  EXPECT_EQ(Normalize({0, 0}, false), (std::vector<int64_t>{0, 0}));
  EXPECT_EQ(Normalize({0, 0}, true), (std::vector<int64_t>{100, 100}));
  EXPECT_EQ(Normalize({}, true), (std::vector<int64_t>{}));
}

}  // namespace
}  // namespace ksched::framework::helper
