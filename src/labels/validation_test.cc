#include "labels/validation.h"

#include <gtest/gtest.h>

#include <limits>
#include <string>

namespace ksched::labels {
namespace labels_validation_test {

TEST(LabelValidationTest, QualifiedNames) {
  for (const char* ok : {"a", "A", "1", "a-b_c.d", "example.com/MyName", "k8s.io/a", "a.b-c/x",
                         "abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghij123"}) {
    EXPECT_TRUE(IsQualifiedName(ok).empty()) << ok;
  }
  for (const char* bad : {"", "-a", "a-", ".a", "a b", "a/b/c", "/a", "a/", "Example.com/a",
                          "a_b.com/x", "a..b/x", "a\n"}) {
    EXPECT_FALSE(IsQualifiedName(bad).empty()) << bad;
  }
  EXPECT_FALSE(IsQualifiedName(std::string(64, 'a')).empty());
  // Built with append: GCC 12 at -O1 misreads string(n, c) + "literal" as an
  // out-of-bounds copy (-Warray-bounds, GCC bug 105329).
  EXPECT_TRUE(IsQualifiedName(std::string(253, 'a').append("/").append(63, 'b')).empty());
  EXPECT_FALSE(IsQualifiedName(std::string(254, 'a').append("/b")).empty());
}

TEST(LabelValidationTest, QualifiedNameMessagesMatchUpstream) {
  const std::string regex_err =
      "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
      "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for "
      "validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
  EXPECT_EQ(IsQualifiedName("a/b/c"),
            std::vector<std::string>{"a qualified name " + regex_err +
                                     " with an optional DNS subdomain prefix and '/' (e.g. "
                                     "'example.com/MyName')"});
  EXPECT_EQ(IsQualifiedName(""),
            (std::vector<std::string>{"name part must be non-empty", "name part " + regex_err}));
  EXPECT_EQ(IsQualifiedName("/a"), std::vector<std::string>{"prefix part must be non-empty"});
  EXPECT_EQ(IsQualifiedName(std::string(64, 'a')),
            std::vector<std::string>{"name part must be no more than 63 characters"});
  std::vector<std::string> prefix_errs = IsQualifiedName("A/b");
  ASSERT_EQ(prefix_errs.size(), 1u);
  EXPECT_EQ(prefix_errs[0].rfind("prefix part a DNS-1123 subdomain must consist of", 0), 0u);
}

TEST(LabelValidationTest, LabelValues) {
  for (const char* ok : {"", "a", "A-b_c.9", "12345"}) {
    EXPECT_TRUE(IsValidLabelValue(ok).empty()) << ok;
  }
  for (const char* bad : {"-1", "+1", "a b", "a/b", "_a", "a.", "é"}) {
    EXPECT_FALSE(IsValidLabelValue(bad).empty()) << bad;
  }
  EXPECT_TRUE(IsValidLabelValue(std::string(63, 'v')).empty());
  EXPECT_EQ(IsValidLabelValue(std::string(64, 'v')),
            std::vector<std::string>{"must be no more than 63 characters"});
  // Too long and badly formed: both problems, in upstream's order.
  EXPECT_EQ(IsValidLabelValue(std::string(64, 'v').append("-")).size(), 2u);
}

TEST(LabelValidationTest, ValidateMessages) {
  Status s = ValidateLabelKey("a/b/c");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message.rfind("invalid label key \"a/b/c\": a qualified name must", 0), 0u);
  s = ValidateLabelValue("k", "a b");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message,
            "invalid label value: \"a b\": at key: \"k\": a valid label must be an empty string or "
            "consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
            "alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for "
            "validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')");
  EXPECT_TRUE(ValidateLabelKey("ok").ok());
  EXPECT_TRUE(ValidateLabelValue("ok", "").ok());
}

TEST(LabelValidationTest, DNS1123) {
  EXPECT_TRUE(IsDNS1123Label("my-name").empty());
  EXPECT_FALSE(IsDNS1123Label("My-name").empty());
  EXPECT_FALSE(IsDNS1123Label("a.b").empty());
  EXPECT_TRUE(IsDNS1123Subdomain("a.b-c.d").empty());
  EXPECT_FALSE(IsDNS1123Subdomain("a..b").empty());
  EXPECT_FALSE(IsDNS1123Subdomain("a.").empty());
  EXPECT_FALSE(IsDNS1123Subdomain("").empty());
}

TEST(LabelValidationTest, ParseInt64LikeGo) {
  EXPECT_EQ(ParseInt64("0"), 0);
  EXPECT_EQ(ParseInt64("+5"), 5);
  EXPECT_EQ(ParseInt64("-5"), -5);
  EXPECT_EQ(ParseInt64("007"), 7);
  EXPECT_EQ(ParseInt64("9223372036854775807"), std::numeric_limits<int64_t>::max());
  EXPECT_EQ(ParseInt64("-9223372036854775808"), std::numeric_limits<int64_t>::min());
  for (const char* bad :
       {"", "+", "-", " 1", "1 ", "1_000", "0x10", "1.5", "abc", "9223372036854775808",
        "-9223372036854775809", "99999999999999999999999"}) {
    EXPECT_FALSE(ParseInt64(bad).has_value()) << bad;
  }
}

}  // namespace labels_validation_test
}  // namespace ksched::labels
