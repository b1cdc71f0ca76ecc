#include "framework/plugins/helper/shape_score.h"

#include <gtest/gtest.h>

namespace ksched::framework::helper {
namespace shape_score_test {

TEST(BrokenLinearFunction, FlatOutsideAndLinearBetweenPoints) {
  BrokenLinearFunction f({{10, 1}, {90, 9}});
  EXPECT_EQ(f(0), 1);
  EXPECT_EQ(f(10), 1);
  EXPECT_EQ(f(50), 5);
  EXPECT_EQ(f(90), 9);
  EXPECT_EQ(f(100), 9);
}

TEST(BrokenLinearFunction, TruncatesLikeGoIntegerDivision) {
  // 0 + (70 - 0) * 33 / 100 = 23.1 -> 23; descending segments truncate toward zero.
  BrokenLinearFunction up({{0, 0}, {100, 70}});
  EXPECT_EQ(up(33), 23);
  BrokenLinearFunction down({{0, 100}, {30, 0}});
  // 100 + (0 - 100) * 10 / 30 = 100 - 33 (-33.3 truncated toward zero) = 67.
  EXPECT_EQ(down(10), 67);
}

TEST(BrokenLinearFunction, ThreeSegments) {
  // The shape of the vectors' configs: (0,0) (70,70) (100,100) scaled x10.
  BrokenLinearFunction f({{0, 0}, {70, 30}, {100, 100}});
  EXPECT_EQ(f(35), 15);
  EXPECT_EQ(f(85), 30 + 70 * 15 / 30);
  EXPECT_EQ(f(101), 100);
}

}  // namespace shape_score_test
}  // namespace ksched::framework::helper
