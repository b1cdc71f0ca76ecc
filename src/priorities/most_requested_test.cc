#include <gtest/gtest.h>

#include "priorities/resource_allocation.h"

namespace ksched {
namespace most_requested_test {

TEST(MostRequestedPriority, Basic) {
  EXPECT_EQ(MostRequestedScore({0, 0}, {4000, 10000}), 0);
  // cpu 3000*10/4000 = 7, memory 5000*10/10000 = 5, (7+5)/2 = 6.
  EXPECT_EQ(MostRequestedScore({3000, 5000}, {4000, 10000}), 6);
  EXPECT_EQ(MostRequestedScore({4000, 10000}, {4000, 10000}), 10);
}

TEST(MostRequestedPriority, RoundsDifferentlyFromLeastRequested) {
  // 999/1000 used: MostRequested gives 9, not 10 - LeastRequested's 0.
  EXPECT_EQ(MostRequestedScore({999, 999}, {1000, 1000}), 9);
}

TEST(MostRequestedPriority, ZeroCapacityAndOverCommitted) {
  EXPECT_EQ(MostRequestedScore({4000, 10000}, {0, 10000}), 5);
  EXPECT_EQ(MostRequestedScore({5000, 10000}, {4000, 10000}), 5);
  EXPECT_EQ(MostRequestedScore({5000, 20000}, {4000, 10000}), 0);
}

}  // namespace most_requested_test
}  // namespace ksched
