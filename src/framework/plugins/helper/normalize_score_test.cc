#include "framework/plugins/helper/normalize_score.h"

#include <gtest/gtest.h>

#include <vector>

namespace ksched::framework::helper {
namespace normalize_score_test {

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

// DefaultNormalizeAndAdd reads a kept column through node ids and adds the
// weighted normalized scores: the same numbers as the list form.
TEST(DefaultNormalizeAndAdd, AddsWhatTheListFormGives) {
  const std::vector<std::vector<int64_t>> cases = {
      {10, 30, 60, 0}, {0, 0, 0}, {1, 0, 2, 200, 63, 64}, {-5, 3}, {-5, 0}, {}};
  for (const std::vector<int64_t>& raw : cases) {
    for (bool reverse : {false, true}) {
      // The column holds the scores at other positions than the list order.
      std::vector<int64_t> column(raw.size() * 2, 77);
      std::vector<NodeId> ids;
      for (size_t i = 0; i < raw.size(); ++i) {
        ids.push_back(static_cast<NodeId>(2 * (raw.size() - 1 - i)));
        column[ids.back()] = raw[i];
      }
      std::vector<int64_t> totals(raw.size(), 1000);
      bool out_of_range = false;
      ASSERT_TRUE(DefaultNormalizeAndAdd(kMaxNodeScore, reverse, column.data(), ids.data(),
                                         ids.size(), 3, totals.data(), &out_of_range));
      const std::vector<int64_t> normalized = Normalize(raw, reverse);
      bool expect_out_of_range = false;
      for (size_t i = 0; i < raw.size(); ++i) {
        EXPECT_EQ(totals[i], 1000 + 3 * normalized[i]) << i << (reverse ? " reverse" : "");
        expect_out_of_range |= normalized[i] < kMinNodeScore || normalized[i] > kMaxNodeScore;
      }
      EXPECT_EQ(out_of_range, expect_out_of_range) << (reverse ? "reverse" : "");
    }
  }
}

// Small scores take a lookup of weighted scores; one out of range among them
// still flags the list and adds what the scores are.
TEST(DefaultNormalizeAndAdd, FlagsAScoreOutOfRangeAmongSmallScores) {
  const std::vector<int64_t> column = {0, 1, 2};
  const std::vector<NodeId> ids = {2, 0, 1};
  for (int64_t max_priority : {int64_t{100}, int64_t{200}}) {
    std::vector<int64_t> totals(3, 0);
    bool out_of_range = false;
    ASSERT_TRUE(DefaultNormalizeAndAdd(max_priority, false, column.data(), ids.data(), ids.size(),
                                       2, totals.data(), &out_of_range));
    EXPECT_EQ(totals, (std::vector<int64_t>{2 * max_priority, 0, max_priority}));
    EXPECT_EQ(out_of_range, max_priority > kMaxNodeScore);
  }
}

TEST(WeighRange, WeighsEachValueOfTheRangeOrRefusesOneOutOfRange) {
  int64_t weighted[kWeighTable];
  auto half = [](int64_t raw) { return raw / 2; };
  ASSERT_TRUE(WeighRange(10, 3, half, 3, weighted));
  EXPECT_EQ(std::vector<int64_t>(weighted, weighted + 4), (std::vector<int64_t>{15, 15, 18, 18}));
  // 202 / 2 = 101 is above kMaxNodeScore: the caller scores node by node.
  EXPECT_FALSE(WeighRange(199, 3, half, 1, weighted));
  auto shifted = [](int64_t raw) { return raw - 5; };
  EXPECT_FALSE(WeighRange(4, 2, shifted, 1, weighted));  // -1 is below kMinNodeScore
}

}  // namespace normalize_score_test
}  // namespace ksched::framework::helper
