#include "framework/plugins/volumebinding/binder.h"

#include <gtest/gtest.h>

namespace ksched::framework::volumebinding {
namespace {

TEST(BinderTest, ParseIntErrorAsGoPrintsIt) {
  EXPECT_EQ(ParseIntError("42"), "");
  EXPECT_EQ(ParseIntError("-9223372036854775808"), "");
  EXPECT_EQ(ParseIntError(""), "strconv.ParseInt: parsing \"\": invalid syntax");
  EXPECT_EQ(ParseIntError("4x"), "strconv.ParseInt: parsing \"4x\": invalid syntax");
  EXPECT_EQ(ParseIntError("9223372036854775808"),
            "strconv.ParseInt: parsing \"9223372036854775808\": value out of range");
}

TEST(BinderTest, PvNodeAffinityMatchesLabelsOnly) {
  NodeSelector sel;
  NodeSelectorTerm term;
  term.match_expressions.push_back({"zone", "In", {"a"}});
  sel.terms.push_back(term);
  PvNodeAffinity affinity(sel);
  EXPECT_TRUE(affinity.Matches(Labels({{Intern("zone"), Intern("a")}})));
  EXPECT_FALSE(affinity.Matches(Labels({{Intern("zone"), Intern("b")}})));
  EXPECT_TRUE(PvNodeAffinity(std::nullopt).Matches(Labels()));
  // matchFields on a field other than metadata.name never matches in v1.26.
  NodeSelector fields;
  NodeSelectorTerm ft;
  ft.match_fields.push_back({"spec.unschedulable", "NotIn", {"x"}});
  fields.terms.push_back(ft);
  EXPECT_FALSE(PvNodeAffinity(fields).Matches(Labels()));
}

}  // namespace
}  // namespace ksched::framework::volumebinding
