#include "labels/selector.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <utility>
#include <vector>

namespace ksched::labels {
namespace selector_test {

Labels L(std::initializer_list<std::pair<std::string_view, std::string_view>> kv) {
  std::vector<Labels::Pair> pairs;
  for (const auto& [k, v] : kv) pairs.emplace_back(Intern(k), Intern(v));
  return Labels(std::move(pairs));
}

Requirement Req(std::string_view key, Op op, std::vector<std::string> values) {
  Result<Requirement> r = Requirement::Make(key, op, values);
  EXPECT_TRUE(r.ok()) << r.error().message;
  return std::move(r).value();
}

std::string MakeErr(std::string_view key, Op op, std::vector<std::string> values) {
  Result<Requirement> r = Requirement::Make(key, op, values);
  return r.ok() ? "" : r.error().message;
}

Selector MustParse(std::string_view s) {
  Result<Selector> r = Parse(s);
  EXPECT_TRUE(r.ok()) << s << ": " << r.error().message;
  return r.ok() ? std::move(r).value() : Selector::Nothing();
}

std::string ParseErr(std::string_view s) {
  Result<Selector> r = Parse(s);
  return r.ok() ? "<ok: " + r->String() + ">" : r.error().message;
}

TEST(RequirementTest, InAndEquals) {
  for (Op op : {Op::kIn, Op::kEquals, Op::kDoubleEquals}) {
    Requirement r = Req("zone", op, {"a"});
    EXPECT_TRUE(r.Matches(L({{"zone", "a"}})));
    EXPECT_FALSE(r.Matches(L({{"zone", "b"}})));
    EXPECT_FALSE(r.Matches(L({{"other", "a"}})));
    EXPECT_FALSE(r.Matches(L({})));
  }
  Requirement in = Req("zone", Op::kIn, {"a", "b", "a"});
  EXPECT_TRUE(in.Matches(L({{"zone", "b"}})));
  EXPECT_EQ(in.values().size(), 2u);
  // The empty string is a value like any other.
  Requirement empty = Req("zone", Op::kIn, {""});
  EXPECT_TRUE(empty.Matches(L({{"zone", ""}})));
  EXPECT_FALSE(empty.Matches(L({})));
}

TEST(RequirementTest, NotInAndNotEqualsMatchAbsentKey) {
  for (Op op : {Op::kNotIn, Op::kNotEquals}) {
    Requirement r = Req("zone", op, {"a"});
    EXPECT_FALSE(r.Matches(L({{"zone", "a"}})));
    EXPECT_TRUE(r.Matches(L({{"zone", "b"}})));
    EXPECT_TRUE(r.Matches(L({})));
    EXPECT_TRUE(r.Matches(L({{"x", "a"}})));
  }
}

TEST(RequirementTest, ExistsAndDoesNotExist) {
  Requirement ex = Req("gpu", Op::kExists, {});
  Requirement dne = Req("gpu", Op::kDoesNotExist, {});
  EXPECT_TRUE(ex.Matches(L({{"gpu", ""}})));
  EXPECT_FALSE(ex.Matches(L({{"cpu", "x"}})));
  EXPECT_FALSE(dne.Matches(L({{"gpu", ""}})));
  EXPECT_TRUE(dne.Matches(L({{"cpu", "x"}})));
  EXPECT_TRUE(dne.Matches(L({})));
}

TEST(RequirementTest, GtAndLt) {
  Requirement gt = Req("n", Op::kGt, {"5"});
  Requirement lt = Req("n", Op::kLt, {"5"});
  EXPECT_TRUE(gt.Matches(L({{"n", "6"}})));
  EXPECT_FALSE(gt.Matches(L({{"n", "5"}})));
  EXPECT_FALSE(gt.Matches(L({{"n", "-7"}})));
  EXPECT_TRUE(lt.Matches(L({{"n", "-7"}})));
  EXPECT_TRUE(lt.Matches(L({{"n", "+4"}})));
  EXPECT_TRUE(lt.Matches(L({{"n", "0004"}})));
  EXPECT_FALSE(lt.Matches(L({{"n", "5"}})));
  // Absent or non-integer labels match neither.
  for (const Requirement* r : {&gt, &lt}) {
    EXPECT_FALSE(r->Matches(L({})));
    EXPECT_FALSE(r->Matches(L({{"n", "abc"}})));
    EXPECT_FALSE(r->Matches(L({{"n", ""}})));
    EXPECT_FALSE(r->Matches(L({{"n", "1.5"}})));
    EXPECT_FALSE(r->Matches(L({{"n", "99999999999999999999"}})));
  }
  EXPECT_TRUE(Req("n", Op::kGt, {"0"}).Matches(L({{"n", "9223372036854775807"}})));
  EXPECT_EQ(gt.bound(), 5);
}

TEST(RequirementTest, ValidationErrors) {
  EXPECT_NE(MakeErr("a/b/c", Op::kExists, {}).find("invalid label key \"a/b/c\""),
            std::string::npos);
  EXPECT_NE(MakeErr(std::string(64, 'k'), Op::kExists, {})
                .find("name part must be no more than 63 characters"),
            std::string::npos);
  EXPECT_NE(MakeErr("k", Op::kIn, {std::string(64, 'v')})
                .find("at key: \"k\": must be no more than 63 characters"),
            std::string::npos);
  EXPECT_EQ(MakeErr("k", Op::kIn, {"a$b"}).rfind("invalid label value: \"a$b\": at key: \"k\"", 0),
            0u);
  EXPECT_EQ(MakeErr("k", Op::kIn, {}), "for 'in', 'notin' operators, values set can't be empty");
  EXPECT_EQ(MakeErr("k", Op::kNotIn, {}), "for 'in', 'notin' operators, values set can't be empty");
  EXPECT_EQ(MakeErr("k", Op::kEquals, {"a", "b"}),
            "exact-match compatibility requires one single value");
  EXPECT_EQ(MakeErr("k", Op::kNotEquals, {}),
            "exact-match compatibility requires one single value");
  EXPECT_EQ(MakeErr("k", Op::kExists, {"a"}),
            "values set must be empty for exists and does not exist");
  EXPECT_EQ(MakeErr("k", Op::kDoesNotExist, {"a"}),
            "values set must be empty for exists and does not exist");
  EXPECT_EQ(MakeErr("k", Op::kGt, {"abc"}),
            "for 'Gt', 'Lt' operators, the value must be an integer");
  EXPECT_EQ(MakeErr("k", Op::kLt, {"1", "2"}),
            "for 'Gt', 'Lt' operators, exactly one value is required");
  EXPECT_EQ(MakeErr("k", Op::kGt, {}), "for 'Gt', 'Lt' operators, exactly one value is required");
  // Upstream also validates Gt/Lt bounds as label values: a sign is rejected.
  EXPECT_EQ(MakeErr("k", Op::kGt, {"-1"}).rfind("invalid label value: \"-1\"", 0), 0u);
  // The key is checked before anything else.
  EXPECT_EQ(MakeErr("-k", Op::kIn, {}).rfind("invalid label key", 0), 0u);
}

TEST(RequirementTest, String) {
  EXPECT_EQ(Req("a", Op::kIn, {"y", "x", "y"}).String(), "a in (x,y,y)");
  EXPECT_EQ(Req("a", Op::kNotIn, {"x"}).String(), "a notin (x)");
  EXPECT_EQ(Req("a", Op::kEquals, {"x"}).String(), "a=x");
  EXPECT_EQ(Req("a", Op::kDoubleEquals, {"x"}).String(), "a==x");
  EXPECT_EQ(Req("a", Op::kNotEquals, {""}).String(), "a!=");
  EXPECT_EQ(Req("a", Op::kExists, {}).String(), "a");
  EXPECT_EQ(Req("a", Op::kDoesNotExist, {}).String(), "!a");
  EXPECT_EQ(Req("a", Op::kGt, {"5"}).String(), "a>5");
  EXPECT_EQ(Req("a", Op::kLt, {"5"}).String(), "a<5");
}

TEST(SelectorTest, EverythingAndNothing) {
  Selector all = Selector::Everything();
  Selector none = Selector::Nothing();
  EXPECT_TRUE(all.Matches(L({})));
  EXPECT_TRUE(all.Matches(L({{"a", "b"}})));
  EXPECT_TRUE(all.Empty());
  EXPECT_FALSE(all.MatchesNothing());
  EXPECT_FALSE(none.Matches(L({})));
  EXPECT_FALSE(none.Matches(L({{"a", "b"}})));
  EXPECT_FALSE(none.Empty());
  EXPECT_TRUE(none.MatchesNothing());
  none.Add(Req("a", Op::kExists, {}));
  EXPECT_TRUE(none.requirements().empty());
  EXPECT_EQ(none.String(), "");
  EXPECT_EQ(all.String(), "");
}

TEST(SelectorTest, AndOfRequirementsSortedByKey) {
  Selector s = Selector::FromRequirements(
      {Req("b", Op::kIn, {"1"}), Req("a", Op::kExists, {}), Req("c", Op::kDoesNotExist, {})});
  EXPECT_EQ(s.String(), "a,b in (1),!c");
  EXPECT_TRUE(s.Matches(L({{"a", ""}, {"b", "1"}})));
  EXPECT_FALSE(s.Matches(L({{"a", ""}, {"b", "1"}, {"c", "x"}})));
  EXPECT_FALSE(s.Matches(L({{"b", "1"}})));
  EXPECT_FALSE(s.Empty());
}

TEST(SelectorTest, FromSet) {
  Selector s = FromSet(L({{"app", "web"}, {"tier", "fe"}}));
  EXPECT_EQ(s.String(), "app=web,tier=fe");
  EXPECT_TRUE(s.Matches(L({{"app", "web"}, {"tier", "fe"}, {"x", "y"}})));
  EXPECT_FALSE(s.Matches(L({{"app", "web"}})));
  EXPECT_TRUE(FromSet(L({})).Empty());
  // Upstream quirk: one invalid pair turns the whole set into Everything().
  Selector quirk = FromSet(L({{"app", "web"}, {"bad key", "x"}}));
  EXPECT_TRUE(quirk.Empty());
  EXPECT_TRUE(quirk.Matches(L({})));
}

TEST(SelectorParseTest, Basic) {
  Selector s = MustParse("a=b,c!=d,e in (x,y),!f,g,h notin (z),i>5,j<3");
  EXPECT_EQ(s.String(), "a=b,c!=d,e in (x,y),!f,g,h notin (z),i>5,j<3");
  EXPECT_EQ(s.requirements().size(), 8u);
  Labels ok = L({{"a", "b"}, {"e", "y"}, {"g", ""}, {"i", "6"}, {"j", "2"}});
  EXPECT_TRUE(s.Matches(ok));
  EXPECT_FALSE(s.Matches(L({{"a", "b"}, {"e", "y"}, {"g", ""}, {"i", "6"}, {"j", "3"}})));
  EXPECT_FALSE(
      s.Matches(L({{"a", "b"}, {"e", "y"}, {"g", ""}, {"i", "6"}, {"j", "2"}, {"f", "1"}})));
  EXPECT_FALSE(
      s.Matches(L({{"a", "b"}, {"e", "y"}, {"g", ""}, {"i", "6"}, {"j", "2"}, {"h", "z"}})));
}

TEST(SelectorParseTest, WhitespaceParenthesesAndSorting) {
  EXPECT_EQ(MustParse("  x in ( a , b ) ,\ty\n,\r!z  ").String(), "x in (a,b),y,!z");
  EXPECT_EQ(MustParse("x==a").String(), "x==a");
  EXPECT_EQ(MustParse("z=1,a=2").String(), "a=2,z=1");
  EXPECT_EQ(MustParse("x=").String(), "x=");
  EXPECT_EQ(MustParse("x=,y").String(), "x=,y");
  EXPECT_EQ(MustParse("x!=").String(), "x!=");
  EXPECT_EQ(MustParse("x in ()").String(), "x in ()");
  EXPECT_EQ(MustParse("x in (,a)").String(), "x in (,a)");
  EXPECT_EQ(MustParse("x in (a,)").String(), "x in (,a)");
  EXPECT_EQ(MustParse("x in (a,,b)").String(), "x in (,a,b)");
  EXPECT_EQ(MustParse("x in (b,a,b)").String(), "x in (a,b)");  // parsed values are a set
  EXPECT_EQ(MustParse("x notin (a)").String(), "x notin (a)");
  // "in" and "notin" are plain identifiers where a key or value is expected.
  EXPECT_EQ(MustParse("in in (in,notin)").String(), "in in (in,notin)");
  EXPECT_EQ(MustParse("notin=in").String(), "notin=in");
  EXPECT_EQ(MustParse("example.com/a=b").String(), "example.com/a=b");
  EXPECT_TRUE(MustParse("").Empty());
  EXPECT_TRUE(MustParse("   ").Empty());
  EXPECT_TRUE(MustParse("x in ()").Matches(L({{"x", ""}})));
  EXPECT_FALSE(MustParse("x in ()").Matches(L({})));
}

TEST(SelectorParseTest, Errors) {
  EXPECT_EQ(ParseErr("x=a,"), "found '', expected: identifier after ','");
  EXPECT_EQ(ParseErr(",x"), "found ',', expected: !, identifier, or 'end of string'");
  EXPECT_EQ(ParseErr("x y"),
            "unable to parse requirement: found 'y', expected: '=', '!=', '==', 'in', notin'");
  EXPECT_EQ(ParseErr("x in a"), "unable to parse requirement: found 'a' expected: '('");
  EXPECT_EQ(ParseErr("x in (a"), "unable to parse requirement: found '', expected: ',' or ')'");
  EXPECT_EQ(ParseErr("x in (a b)"), "unable to parse requirement: found 'b', expected: ',' or ')'");
  EXPECT_EQ(ParseErr("x in (=)"),
            "unable to parse requirement: found '=', expected: ',', ')' or identifier");
  EXPECT_EQ(ParseErr("x in (a,=)"),
            "unable to parse requirement: found '=', expected: ',', or identifier");
  EXPECT_EQ(ParseErr("x=(a)"), "unable to parse requirement: found '(', expected: identifier");
  EXPECT_EQ(ParseErr("x=a b"), "found 'b', expected: ',' or 'end of string'");
  EXPECT_EQ(ParseErr("!"), "unable to parse requirement: found '', expected: identifier");
  EXPECT_EQ(ParseErr("!=a"), "found '!=', expected: !, identifier, or 'end of string'");
  // '!' returns as soon as the key is read, so the "=" is what trips.
  EXPECT_EQ(ParseErr("!x=a"), "found '=', expected: ',' or 'end of string'");
  EXPECT_EQ(ParseErr("x>a"),
            "unable to parse requirement: for 'Gt', 'Lt' operators, the value must be an integer");
  EXPECT_EQ(ParseErr("x<"),
            "unable to parse requirement: for 'Gt', 'Lt' operators, the value must be an integer");
  EXPECT_EQ(ParseErr("x>-1").rfind("unable to parse requirement: invalid label value: \"-1\"", 0),
            0u);
  EXPECT_EQ(
      ParseErr("a/b/c=x").rfind("unable to parse requirement: invalid label key \"a/b/c\"", 0), 0u);
  EXPECT_EQ(ParseErr("x=a$").rfind("unable to parse requirement: invalid label value: \"a$\"", 0),
            0u);
  // Longest special-symbol token wins: "=>" lexes as "=" then ">".
  EXPECT_EQ(ParseErr("x=>1"), "unable to parse requirement: found '>', expected: identifier");
  EXPECT_EQ(ParseErr("x!==a"), "unable to parse requirement: found '=', expected: identifier");
}

TEST(SelectorParseTest, NulByteEndsInputWhereATokenStarts) {
  using namespace std::string_view_literals;
  EXPECT_EQ(MustParse("x=a\0"sv).String(), "x=a");
  EXPECT_EQ(ParseErr("x=a, \0y"sv), "found '', expected: identifier after ','");
  EXPECT_EQ(ParseErr("\0x=a"sv), "<ok: >");
  // Right after a token the NUL is swallowed as a separator instead.
  EXPECT_EQ(MustParse("x=a,\0y"sv).String(), "x=a,y");
  EXPECT_EQ(ParseErr("x=a\0b"sv), "found 'b', expected: ',' or 'end of string'");
}

TEST(SelectorTest, FiveThousandValuesIsFast) {
  std::vector<std::string> values;
  for (int i = 0; i < 5000; ++i) values.push_back("value-" + std::to_string(i));
  Requirement in = Req("host", Op::kIn, values);
  Requirement notin = Req("host", Op::kNotIn, values);
  Selector s = Selector::FromRequirements({in});
  std::vector<Labels> nodes;
  for (int i = 0; i < 10000; ++i) nodes.push_back(L({{"host", "value-" + std::to_string(i)}}));

  auto start = std::chrono::steady_clock::now();
  int matched = 0, not_matched = 0;
  for (int round = 0; round < 10; ++round) {
    for (const Labels& n : nodes) {
      matched += s.Matches(n);
      not_matched += notin.Matches(n);
    }
  }
  auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(matched, 10 * 5000);
  EXPECT_EQ(not_matched, 10 * 5000);
  // 200k matches of a 5000-value set: binary search keeps this in the low
  // milliseconds; a linear scan of strings would take seconds.
  EXPECT_LT(std::chrono::duration_cast<std::chrono::milliseconds>(elapsed).count(), 500);
}

}  // namespace selector_test
}  // namespace ksched::labels
