#include "labels/node_selector.h"

#include <gtest/gtest.h>

namespace ksched::labels {
namespace labels_node_selector_test {

Labels L(std::initializer_list<std::pair<std::string_view, std::string_view>> kv) {
  std::vector<Labels::Pair> pairs;
  for (const auto& [k, v] : kv) pairs.emplace_back(Intern(k), Intern(v));
  return Labels(std::move(pairs));
}

TEST(NodeSelectorTest, RequirementsEmptyListIsNothing) {
  Result<Selector> s = FromNodeSelectorRequirements({});
  ASSERT_TRUE(s.ok());
  EXPECT_TRUE(s->MatchesNothing());
  EXPECT_FALSE(s->Matches(L({})));
}

TEST(NodeSelectorTest, RequirementsAllOperators) {
  Result<Selector> s = FromNodeSelectorRequirements({{"zone", "In", {"a", "b"}},
                                                     {"bad", "NotIn", {"yes"}},
                                                     {"gpu", "Exists", {}},
                                                     {"tainted", "DoesNotExist", {}},
                                                     {"cores", "Gt", {"4"}},
                                                     {"mem", "Lt", {"64"}}});
  ASSERT_TRUE(s.ok()) << s.error().message;
  Labels good = L({{"zone", "b"}, {"gpu", "1"}, {"cores", "8"}, {"mem", "32"}});
  EXPECT_TRUE(s->Matches(good));
  EXPECT_FALSE(s->Matches(L({{"zone", "c"}, {"gpu", "1"}, {"cores", "8"}, {"mem", "32"}})));
  EXPECT_FALSE(
      s->Matches(L({{"zone", "b"}, {"gpu", "1"}, {"cores", "8"}, {"mem", "32"}, {"bad", "yes"}})));
  EXPECT_FALSE(s->Matches(L({{"zone", "b"}, {"cores", "8"}, {"mem", "32"}})));
  EXPECT_FALSE(
      s->Matches(L({{"zone", "b"}, {"gpu", "1"}, {"cores", "8"}, {"mem", "32"}, {"tainted", ""}})));
  EXPECT_FALSE(s->Matches(L({{"zone", "b"}, {"gpu", "1"}, {"cores", "4"}, {"mem", "32"}})));
  EXPECT_FALSE(s->Matches(L({{"zone", "b"}, {"gpu", "1"}, {"cores", "8"}, {"mem", "x"}})));
}

TEST(NodeSelectorTest, RequirementsErrors) {
  EXPECT_EQ(FromNodeSelectorRequirements({{"k", "Equals", {"a"}}}).error().message,
            "\"Equals\" is not a valid node selector operator");
  EXPECT_EQ(FromNodeSelectorRequirements({{"k", "Gt", {"abc"}}}).error().message,
            "for 'Gt', 'Lt' operators, the value must be an integer");
  EXPECT_EQ(FromNodeSelectorRequirements({{"k", "Gt", {"1", "2"}}}).error().message,
            "for 'Gt', 'Lt' operators, exactly one value is required");
  EXPECT_EQ(FromNodeSelectorRequirements({{"k", "Exists", {"a"}}}).error().message,
            "values set must be empty for exists and does not exist");
}

TEST(NodeSelectorTest, FieldSelector) {
  Result<FieldSelector> in = FromNodeSelectorFieldRequirements({{"metadata.name", "In", {"n1"}}});
  ASSERT_TRUE(in.ok());
  EXPECT_TRUE(in->Matches("n1"));
  EXPECT_FALSE(in->Matches("n2"));
  EXPECT_EQ(in->String(), "metadata.name=n1");

  Result<FieldSelector> notin =
      FromNodeSelectorFieldRequirements({{"metadata.name", "NotIn", {"n1"}}});
  ASSERT_TRUE(notin.ok());
  EXPECT_FALSE(notin->Matches("n1"));
  EXPECT_TRUE(notin->Matches("n2"));

  // Other fields read as "".
  EXPECT_TRUE(FromNodeSelectorFieldRequirements({{"spec.x", "In", {""}}})->Matches("n1"));
  EXPECT_FALSE(FromNodeSelectorFieldRequirements({{"spec.x", "In", {"n1"}}})->Matches("n1"));
  EXPECT_TRUE(FromNodeSelectorFieldRequirements({{"spec.x", "NotIn", {"n1"}}})->Matches("n1"));

  EXPECT_TRUE(FromNodeSelectorFieldRequirements({})->MatchesNothing());
  EXPECT_FALSE(FromNodeSelectorFieldRequirements({})->Matches("n1"));

  EXPECT_EQ(
      FromNodeSelectorFieldRequirements({{"metadata.name", "In", {"a", "b"}}}).error().message,
      "unexpected number of value (2) for node field selector operator \"In\"");
  EXPECT_EQ(FromNodeSelectorFieldRequirements({{"metadata.name", "NotIn", {}}}).error().message,
            "unexpected number of value (0) for node field selector operator \"NotIn\"");
  EXPECT_EQ(FromNodeSelectorFieldRequirements({{"metadata.name", "Exists", {}}}).error().message,
            "\"Exists\" is not a valid node field selector operator");
}

TEST(NodeSelectorTest, TermsEmptyListAndEmptyTermMatchNothing) {
  EXPECT_FALSE(
      CompiledNodeSelectorTerms::Compile(std::vector<NodeSelectorTerm>{}).Matches(L({}), "n1"));
  CompiledNodeSelectorTerms empty_term = CompiledNodeSelectorTerms::Compile({NodeSelectorTerm{}});
  EXPECT_EQ(empty_term.size(), 1u);
  EXPECT_FALSE(empty_term.Matches(L({{"a", "b"}}), "n1"));
  EXPECT_FALSE(empty_term.TermError(0).empty());
}

TEST(NodeSelectorTest, TermsAreOredAndBadTermOnlyDisablesItself) {
  NodeSelectorTerm bad;
  bad.match_expressions = {{"zone", "In", {}}};  // no values: does not compile
  NodeSelectorTerm bad_op;
  bad_op.match_expressions = {{"zone", "Equals", {"a"}}};
  NodeSelectorTerm zone_a;
  zone_a.match_expressions = {{"zone", "In", {"a"}}};
  NodeSelectorTerm by_name;
  by_name.match_fields = {{"metadata.name", "In", {"n9"}}};

  CompiledNodeSelectorTerms t = CompiledNodeSelectorTerms::Compile({bad, bad_op, zone_a, by_name});
  ASSERT_EQ(t.size(), 4u);
  EXPECT_EQ(t.TermError(0), "for 'in', 'notin' operators, values set can't be empty");
  EXPECT_EQ(t.TermError(1), "\"Equals\" is not a valid node selector operator");
  EXPECT_EQ(t.TermError(2), "");
  EXPECT_TRUE(t.Matches(L({{"zone", "a"}}), "n1"));
  EXPECT_TRUE(t.Matches(L({}), "n9"));
  EXPECT_FALSE(t.Matches(L({{"zone", "b"}}), "n1"));
  EXPECT_FALSE(t.TermMatches(0, L({{"zone", "a"}}), "n1"));
  EXPECT_FALSE(t.TermMatches(1, L({{"zone", "a"}}), "n1"));
  EXPECT_TRUE(t.TermMatches(2, L({{"zone", "a"}}), "n1"));
  EXPECT_FALSE(t.TermMatches(3, L({{"zone", "a"}}), "n1"));
  EXPECT_TRUE(t.TermMatches(3, L({{"zone", "a"}}), "n9"));
}

TEST(NodeSelectorTest, TermNeedsBothExpressionsAndFields) {
  NodeSelectorTerm term;
  term.match_expressions = {{"zone", "In", {"a"}}};
  term.match_fields = {{"metadata.name", "NotIn", {"n1"}}};
  CompiledNodeSelectorTerms t = CompiledNodeSelectorTerms::Compile({term});
  EXPECT_TRUE(t.Matches(L({{"zone", "a"}}), "n2"));
  EXPECT_FALSE(t.Matches(L({{"zone", "a"}}), "n1"));
  EXPECT_FALSE(t.Matches(L({{"zone", "b"}}), "n2"));

  // A field requirement with two values makes the whole term match nothing,
  // even though its expressions are fine.
  NodeSelectorTerm two_values = term;
  two_values.match_fields = {{"metadata.name", "In", {"n1", "n2"}}};
  CompiledNodeSelectorTerms t2 = CompiledNodeSelectorTerms::Compile({two_values});
  EXPECT_FALSE(t2.Matches(L({{"zone", "a"}}), "n1"));
  EXPECT_FALSE(t2.Matches(L({{"zone", "a"}}), "n2"));
  EXPECT_NE(t2.TermError(0), "");

  NodeSelectorTerm unknown_field_op;
  unknown_field_op.match_fields = {{"metadata.name", "Gt", {"1"}}};
  EXPECT_FALSE(CompiledNodeSelectorTerms::Compile({unknown_field_op}).Matches(L({}), "1"));

  NodeSelector ns{{term}};
  EXPECT_TRUE(CompiledNodeSelectorTerms::Compile(ns).Matches(L({{"zone", "a"}}), "n2"));
}

}  // namespace labels_node_selector_test
}  // namespace ksched::labels
