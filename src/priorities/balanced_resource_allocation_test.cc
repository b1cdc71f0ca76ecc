#include <gtest/gtest.h>

#include "priorities/resource_allocation.h"

namespace ksched {
namespace balanced_resource_allocation_test {

TEST(BalancedResourceAllocation, EqualFractionsScoreTen) {
  EXPECT_EQ(BalancedResourceScore({0, 0}, {4000, 10000}), 10);
  EXPECT_EQ(BalancedResourceScore({2000, 5000}, {4000, 10000}), 10);
}

TEST(BalancedResourceAllocation, Difference) {
  // |0.25 - 0.75| = 0.5 -> 5.
  EXPECT_EQ(BalancedResourceScore({1000, 7500}, {4000, 10000}), 5);
}

TEST(BalancedResourceAllocation, FullOrOverCommittedScoresZero) {
  EXPECT_EQ(BalancedResourceScore({4000, 0}, {4000, 10000}), 0);
  EXPECT_EQ(BalancedResourceScore({0, 20000}, {4000, 10000}), 0);
  // A resource the node does not have counts as full.
  EXPECT_EQ(BalancedResourceScore({0, 0}, {0, 10000}), 0);
}

TEST(BalancedResourceAllocation, FollowsFloat64Rounding) {
  // Exactly, 1 - |0.0 - 0.8| = 0.2 and 0.2 * 10 = 2; in float64 it is
  // 1.9999999999999996, which truncates to 1 -- as upstream computes.
  EXPECT_EQ(BalancedResourceScore({0, 8}, {10, 10}), 1);
  // 1 - |0.6 - 0.8| -> 7.999999999999999 -> 7.
  EXPECT_EQ(BalancedResourceScore({6, 8}, {10, 10}), 7);
  EXPECT_EQ(BalancedResourceScore({1, 9}, {10, 10}), 1);
}

}  // namespace balanced_resource_allocation_test
}  // namespace ksched
