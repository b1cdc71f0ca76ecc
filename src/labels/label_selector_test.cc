#include "labels/label_selector.h"

#include <gtest/gtest.h>

namespace ksched::labels {
namespace label_selector_test {

Labels L(std::initializer_list<std::pair<std::string_view, std::string_view>> kv) {
  std::vector<Labels::Pair> pairs;
  for (const auto& [k, v] : kv) pairs.emplace_back(Intern(k), Intern(v));
  return Labels(std::move(pairs));
}

TEST(LabelSelectorTest, NilIsNothingEmptyIsEverything) {
  Result<Selector> nil = FromLabelSelector(static_cast<const LabelSelector*>(nullptr));
  ASSERT_TRUE(nil.ok());
  EXPECT_TRUE(nil->MatchesNothing());
  EXPECT_FALSE(nil->Matches(L({})));

  LabelSelector empty;
  Result<Selector> all = FromLabelSelector(&empty);
  ASSERT_TRUE(all.ok());
  EXPECT_TRUE(all->Empty());
  EXPECT_TRUE(all->Matches(L({{"a", "b"}})));

  std::optional<LabelSelector> absent;
  EXPECT_TRUE(FromLabelSelector(absent)->MatchesNothing());
  EXPECT_TRUE(FromLabelSelector(std::optional<LabelSelector>(LabelSelector{}))->Empty());
}

TEST(LabelSelectorTest, MatchLabelsAndExpressions) {
  LabelSelector ls;
  ls.match_labels = {{"app", "web"}};
  ls.match_expressions = {{"tier", "In", {"fe", "be"}},
                          {"canary", "DoesNotExist", {}},
                          {"zone", "NotIn", {"z1"}},
                          {"team", "Exists", {}}};
  Result<Selector> s = FromLabelSelector(&ls);
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(s->String(), "app=web,!canary,team,tier in (be,fe),zone notin (z1)");
  EXPECT_TRUE(s->Matches(L({{"app", "web"}, {"tier", "be"}, {"team", "x"}})));
  EXPECT_FALSE(s->Matches(L({{"app", "web"}, {"tier", "be"}, {"team", "x"}, {"zone", "z1"}})));
  EXPECT_FALSE(s->Matches(L({{"app", "web"}, {"tier", "be"}, {"team", "x"}, {"canary", ""}})));
  EXPECT_FALSE(s->Matches(L({{"app", "db"}, {"tier", "be"}, {"team", "x"}})));
  EXPECT_FALSE(s->Matches(L({{"app", "web"}, {"tier", "mid"}, {"team", "x"}})));
}

TEST(LabelSelectorTest, RepeatedMatchLabelKeyKeepsLastValue) {
  LabelSelector ls;
  ls.match_labels = {{"app", "a"}, {"app", "b"}};
  Result<Selector> s = FromLabelSelector(&ls);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->String(), "app=b");
}

TEST(LabelSelectorTest, Errors) {
  LabelSelector bad_op;
  bad_op.match_expressions = {{"n", "Gt", {"1"}}};
  Result<Selector> s = FromLabelSelector(&bad_op);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message, "\"Gt\" is not a valid pod selector operator");

  LabelSelector lower;
  lower.match_expressions = {{"n", "in", {"1"}}};
  EXPECT_EQ(FromLabelSelector(&lower).error().message,
            "\"in\" is not a valid pod selector operator");

  LabelSelector no_values;
  no_values.match_expressions = {{"n", "In", {}}};
  EXPECT_EQ(FromLabelSelector(&no_values).error().message,
            "for 'in', 'notin' operators, values set can't be empty");

  LabelSelector bad_key;
  bad_key.match_labels = {{"a/b/c", "x"}};
  EXPECT_EQ(FromLabelSelector(&bad_key).error().message.rfind("invalid label key \"a/b/c\"", 0),
            0u);

  LabelSelector bad_value;
  bad_value.match_labels = {{"k", std::string(64, 'v')}};
  EXPECT_FALSE(FromLabelSelector(&bad_value).ok());
}

}  // namespace label_selector_test
}  // namespace ksched::labels
