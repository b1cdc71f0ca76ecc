#include "predicates/tolerations.h"

#include <gtest/gtest.h>

#include <optional>
#include <random>
#include <string>
#include <vector>

namespace ksched {
namespace tolerations_test {

Taint MakeTaint(const std::string& key, const std::string& value, TaintEffect effect) {
  Taint t;
  t.key = Intern(key);
  t.value = Intern(value);
  t.effect = effect;
  return t;
}

Toleration MakeToleration(const std::string& key, const std::string& op, const std::string& value,
                          TaintEffect effect, std::optional<int64_t> seconds = std::nullopt) {
  Toleration t;
  t.key = Intern(key);
  t.op = op;
  t.value = Intern(value);
  t.effect = effect;
  t.toleration_seconds = seconds;
  return t;
}

constexpr TaintEffect kNone = TaintEffect::kNone;
constexpr TaintEffect kNoSchedule = TaintEffect::kNoSchedule;
constexpr TaintEffect kPrefer = TaintEffect::kPreferNoSchedule;
constexpr TaintEffect kNoExecute = TaintEffect::kNoExecute;

struct Case {
  const char* name;
  Toleration toleration;
  Taint taint;
  bool tolerated;
};

TEST(ToleratesTaint, Table) {
  const Case cases[] = {
      {"exists with empty key matches any key and value", MakeToleration("", "Exists", "", kNone),
       MakeTaint("k", "v", kNoSchedule), true},
      {"exists with empty key respects its effect", MakeToleration("", "Exists", "", kNoExecute),
       MakeTaint("k", "v", kNoSchedule), false},
      {"empty effect matches every effect", MakeToleration("k", "Equal", "v", kNone),
       MakeTaint("k", "v", kNoExecute), true},
      {"empty effect matches PreferNoSchedule", MakeToleration("k", "Equal", "v", kNone),
       MakeTaint("k", "v", kPrefer), true},
      {"effect mismatch", MakeToleration("k", "Equal", "v", kNoSchedule),
       MakeTaint("k", "v", kNoExecute), false},
      {"equal with same value", MakeToleration("k", "Equal", "v", kNoSchedule),
       MakeTaint("k", "v", kNoSchedule), true},
      {"equal with value mismatch", MakeToleration("k", "Equal", "v", kNoSchedule),
       MakeTaint("k", "w", kNoSchedule), false},
      {"empty operator means Equal", MakeToleration("k", "", "v", kNoSchedule),
       MakeTaint("k", "v", kNoSchedule), true},
      {"empty operator with value mismatch", MakeToleration("k", "", "v", kNoSchedule),
       MakeTaint("k", "", kNoSchedule), false},
      {"equal with empty values", MakeToleration("k", "Equal", "", kNoSchedule),
       MakeTaint("k", "", kNoSchedule), true},
      {"exists ignores the value", MakeToleration("k", "Exists", "", kNoSchedule),
       MakeTaint("k", "anything", kNoSchedule), true},
      {"key mismatch", MakeToleration("k", "Exists", "", kNone),
       MakeTaint("other", "v", kNoSchedule), false},
      {"empty key with Equal matches any key when the values agree",
       MakeToleration("", "Equal", "v", kNone), MakeTaint("k", "v", kNoSchedule), true},
      {"empty key with Equal still compares values", MakeToleration("", "Equal", "v", kNone),
       MakeTaint("k", "w", kNoSchedule), false},
      {"unknown operator never matches", MakeToleration("k", "In", "v", kNone),
       MakeTaint("k", "v", kNoSchedule), false},
      {"operator is case sensitive", MakeToleration("k", "exists", "", kNone),
       MakeTaint("k", "v", kNoSchedule), false},
      {"NoExecute with tolerationSeconds still tolerates",
       MakeToleration("k", "Equal", "v", kNoExecute, 300), MakeTaint("k", "v", kNoExecute), true},
      {"NoExecute with zero tolerationSeconds still tolerates",
       MakeToleration("k", "Exists", "", kNoExecute, 0), MakeTaint("k", "v", kNoExecute), true},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(ToleratesTaint(c.toleration, c.taint), c.tolerated) << c.name;
  }
}

TEST(TolerationsTolerateTaint, AnyToleration) {
  Taint taint = MakeTaint("k", "v", kNoSchedule);
  EXPECT_FALSE(TolerationsTolerateTaint({}, taint));
  EXPECT_FALSE(TolerationsTolerateTaint({MakeToleration("k", "Equal", "w", kNone)}, taint));
  EXPECT_TRUE(TolerationsTolerateTaint(
      {MakeToleration("k", "Equal", "w", kNone), MakeToleration("k", "Exists", "", kNone)}, taint));
}

}  // namespace tolerations_test
}  // namespace ksched

namespace ksched {
namespace tolerations_test {

// The index must answer exactly as the scan it replaces, for every mix of
// empty keys, Exists/Equal/""/unknown operators, values and effects.
TEST(TolerationIndex, AgreesWithTheScanOnRandomLists) {
  std::mt19937 rng(7);
  const std::vector<std::string> keys = {"", "a", "b", "c"};
  const std::vector<std::string> values = {"", "x", "y"};
  const std::vector<std::string> ops = {"", "Equal", "Exists", "Bogus"};
  const std::vector<TaintEffect> effects = {kNone, kNoSchedule, kPrefer, kNoExecute,
                                            TaintEffect::kOther};
  auto pick = [&](const auto& v) { return v[rng() % v.size()]; };
  int tolerated = 0, total = 0;
  for (int round = 0; round < 300; ++round) {
    std::vector<Toleration> list;
    size_t n = TolerationIndex::kIndexFrom + rng() % 8;
    for (size_t i = 0; i < n; ++i) {
      // Mostly specific tolerations, so that plenty of taints go untolerated.
      std::string key = rng() % 6 == 0 ? "" : pick(keys) + std::to_string(rng() % 20);
      std::string op = pick(ops);
      list.push_back(MakeToleration(rng() % 10 == 0 ? "" : key, op, pick(values), pick(effects)));
    }
    TolerationIndex index(list);
    for (int t = 0; t < 50; ++t) {
      Taint taint = MakeTaint(rng() % 10 == 0 ? "" : pick(keys) + std::to_string(rng() % 20),
                              pick(values), pick(effects));
      bool want = TolerationsTolerateTaint(list, taint);
      ASSERT_EQ(index.Tolerates(taint), want) << "round " << round << " taint " << t;
      tolerated += want;
      ++total;
    }
  }
  // Both answers occur often enough for the comparison to mean something.
  EXPECT_GT(tolerated, total / 10);
  EXPECT_LT(tolerated, total * 9 / 10);
}

// TaintTolerationComparisonOperators: Lt and Gt compare decimal integers
// (upstream's content.IsDecimalInteger, then ParseInt), and tolerate
// nothing without the gate.
TEST(ToleratesTaintComparison, DecimalIntegersOnly) {
  auto lt = [](const std::string& tol, const std::string& taint, bool gate = true) {
    return ToleratesTaint(MakeToleration("k", "Lt", tol, kNone), MakeTaint("k", taint, kNoSchedule),
                          gate);
  };
  auto gt = [](const std::string& tol, const std::string& taint) {
    return ToleratesTaint(MakeToleration("k", "Gt", tol, kNone), MakeTaint("k", taint, kNoSchedule),
                          true);
  };
  EXPECT_TRUE(lt("10", "5"));
  EXPECT_FALSE(lt("10", "5", /*gate=*/false));
  EXPECT_FALSE(lt("10", "10"));
  EXPECT_FALSE(lt("10", "11"));
  EXPECT_TRUE(gt("10", "11"));
  EXPECT_FALSE(gt("10", "10"));
  EXPECT_TRUE(lt("0", "-1"));
  EXPECT_TRUE(lt("-5", "-6"));
  EXPECT_TRUE(lt("9223372036854775807", "-9223372036854775808"));
  EXPECT_FALSE(lt("9223372036854775808", "1")) << "beyond int64";
  EXPECT_FALSE(lt("10", "-9223372036854775809")) << "beyond int64";
  for (const char* bad : {"", "-", "05", "-0", "+5", "1.5", "1e3", " 5", "5 ", "0x10", "--1"}) {
    EXPECT_FALSE(lt("10", bad)) << "taint " << bad;
    EXPECT_FALSE(gt(bad, "20")) << "toleration " << bad;
  }
  // Key and effect rules as for the other operators.
  EXPECT_FALSE(ToleratesTaint(MakeToleration("other", "Lt", "10", kNone),
                              MakeTaint("k", "5", kNoSchedule), true));
  EXPECT_FALSE(ToleratesTaint(MakeToleration("k", "Lt", "10", kNoExecute),
                              MakeTaint("k", "5", kNoSchedule), true));
  EXPECT_TRUE(TolerationsTolerateTaint({MakeToleration("k", "Gt", "1", kNone)},
                                       MakeTaint("k", "5", kNoSchedule), true));
}

}  // namespace tolerations_test
}  // namespace ksched
