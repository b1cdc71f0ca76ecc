#include "util/go_quote.h"

#include <gtest/gtest.h>

#include <string>

namespace ksched {
namespace go_quote_test {

TEST(GoQuote, EscapesAsGoDoes) {
  EXPECT_EQ(GoQuote("claim-0"), "\"claim-0\"");
  EXPECT_EQ(GoQuote("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(GoQuote("\n\t\a\b\f\r\v"), "\"\\n\\t\\a\\b\\f\\r\\v\"");
  EXPECT_EQ(GoQuote(std::string("\x01\x7f", 2)), "\"\\x01\\x7f\"");
  EXPECT_EQ(GoQuote(std::string("\0", 1)), "\"\\x00\"");
}

TEST(GoQuote, Utf8) {
  EXPECT_EQ(GoQuote("é"), "\"é\"");                   // printable runes stay
  EXPECT_EQ(GoQuote("\xc2\x85"), "\"\\u0085\"");      // C1 control
  EXPECT_EQ(GoQuote("\xef\xbb\xbf"), "\"\\ufeff\"");  // BOM is a format character
  EXPECT_EQ(GoQuote("\xff"), "\"\\xff\"");            // invalid UTF-8: one byte at a time
  EXPECT_EQ(GoQuote("\xe2\x82"), "\"\\xe2\\x82\"");   // truncated sequence
}

}  // namespace go_quote_test
}  // namespace ksched
