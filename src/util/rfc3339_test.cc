#include "util/rfc3339.h"

#include <gtest/gtest.h>

namespace ksched {
namespace rfc3339_test {

TEST(Rfc3339, ParsesUtcAndOffsets) {
  EXPECT_EQ(ParseRfc3339("1970-01-01T00:00:00Z"), 0);
  EXPECT_EQ(ParseRfc3339("2020-03-01T00:08:32Z"), int64_t{1583021312} * 1000000000);
  // The same instant written with an offset.
  EXPECT_EQ(ParseRfc3339("2020-03-01T01:08:32+01:00"), ParseRfc3339("2020-03-01T00:08:32Z"));
  EXPECT_EQ(ParseRfc3339("2020-02-29T23:08:32-01:00"), ParseRfc3339("2020-03-01T00:08:32Z"));
  EXPECT_EQ(ParseRfc3339("1969-12-31T23:59:59Z"), -int64_t{1000000000});
}

TEST(Rfc3339, FractionalSecondsKeepTheirOrder) {
  auto a = ParseRfc3339("2020-03-01T00:08:32.5Z");
  auto b = ParseRfc3339("2020-03-01T00:08:32.123456789Z");
  ASSERT_TRUE(a && b);
  EXPECT_EQ(*a - *ParseRfc3339("2020-03-01T00:08:32Z"), 500000000);
  EXPECT_LT(*b, *a);
  // Digits past nanoseconds are dropped rather than rejected.
  EXPECT_EQ(ParseRfc3339("2020-03-01T00:08:32.1234567891Z"), *b);
}

TEST(Rfc3339, RejectsWhatGoRejects) {
  for (const char* bad :
       {"", "2020-03-01", "2020-03-01 00:08:32Z", "2020-03-01T00:08:32", "2020-13-01T00:00:00Z",
        "2019-02-29T00:00:00Z", "2020-03-01T24:00:00Z", "2020-03-01T00:60:00Z",
        "2020-03-01T00:00:60Z", "2020-03-01T00:00:00.Z", "2020-03-01T00:00:00+0100",
        "2020-03-01T00:00:00Zjunk", "20x0-03-01T00:00:00Z"}) {
    EXPECT_EQ(ParseRfc3339(bad), std::nullopt) << bad;
  }
  EXPECT_TRUE(ParseRfc3339("2020-02-29T00:00:00Z").has_value());  // a leap day
}

TEST(Rfc3339, FormatsWholeSecondsInUtc) {
  EXPECT_EQ(FormatRfc3339(0), "1970-01-01T00:00:00Z");
  EXPECT_EQ(FormatRfc3339(*ParseRfc3339("2020-03-01T01:08:32.7+01:00")), "2020-03-01T00:08:32Z");
  EXPECT_EQ(FormatRfc3339(-1), "1969-12-31T23:59:59Z");
}

}  // namespace rfc3339_test
}  // namespace ksched
