#include <gtest/gtest.h>

#include "priorities/resource_allocation.h"

namespace ksched {
namespace least_requested_test {

TEST(LeastRequestedPriority, Basic) {
  EXPECT_EQ(LeastRequestedScore({0, 0}, {4000, 10000}), 10);
  // cpu (4000-3000)*10/4000 = 2, memory (10000-5000)*10/10000 = 5, (2+5)/2 = 3.
  EXPECT_EQ(LeastRequestedScore({3000, 5000}, {4000, 10000}), 3);
  // Truncation inside each resource: 999/1000 used leaves 0.01 -> 0.
  EXPECT_EQ(LeastRequestedScore({999, 0}, {1000, 10000}), 5);
}

TEST(LeastRequestedPriority, FullAndOverCommitted) {
  EXPECT_EQ(LeastRequestedScore({4000, 10000}, {4000, 10000}), 0);
  EXPECT_EQ(LeastRequestedScore({5000, 0}, {4000, 10000}), 5);
  EXPECT_EQ(LeastRequestedScore({5000, 20000}, {4000, 10000}), 0);
}

TEST(LeastRequestedPriority, ZeroCapacity) {
  EXPECT_EQ(LeastRequestedScore({0, 0}, {0, 10000}), 5);
  EXPECT_EQ(LeastRequestedScore({0, 0}, {4000, 0}), 5);
  EXPECT_EQ(LeastRequestedScore({0, 0}, {0, 0}), 0);
}

TEST(LeastRequestedPriority, WrapsLikeGoOnHugeCapacity) {
  // (2^62 - 0) * 10 wraps to -2^63 in int64; / 2^62 = -2; (0 + -2) / 2 = -1.
  EXPECT_EQ(LeastRequestedScore({0, 0}, {0, int64_t{1} << 62}), -1);
}

}  // namespace least_requested_test
}  // namespace ksched
