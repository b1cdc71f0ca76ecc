#include "framework/plugins/helper/node_affinity.h"

#include <gtest/gtest.h>

#include "framework/plugins/testing/fake_handle.h"
#include "tests/fixtures.h"

namespace ksched::framework::helper {
namespace helper_node_affinity_test {

using framework::testing::NodeNamed;

class NodeAffinityHelperTest : public ::testing::Test {
 protected:
  ClusterState cluster = ksched::testing::TestCluster(R"({"kind":"List","items":[
      {"kind":"Node","metadata":{"name":"n1","labels":{"zone":"a","gen":"3"}}},
      {"kind":"Node","metadata":{"name":"n2","labels":{"zone":"b"}}}]})");
  const NodeInfo& n1 = NodeNamed(cluster, "n1");
  const NodeInfo& n2 = NodeNamed(cluster, "n2");
};

NodeSelectorTerm Expr(std::string key, std::string op, std::vector<std::string> values) {
  NodeSelectorTerm t;
  t.match_expressions.push_back({std::move(key), std::move(op), std::move(values)});
  return t;
}

TEST_F(NodeAffinityHelperTest, RequiredNodeAffinityOfAPodWithNothingMatchesAll) {
  Pod pod;
  auto r = RequiredNodeAffinity::ForPod(pod);
  EXPECT_TRUE(r.Match(n1));
  EXPECT_TRUE(r.Match(n2));
  pod.spec.node_selector = Labels({{Intern("zone"), Intern("b")}});
  r = RequiredNodeAffinity::ForPod(pod);
  EXPECT_FALSE(r.Match(n1));
  EXPECT_TRUE(r.Match(n2));
}

TEST_F(NodeAffinityHelperTest, NewNodeSelectorSkipsEmptyTermsAndRejectsInvalidOnes) {
  NodeSelector ok;
  ok.terms = {NodeSelectorTerm{}, Expr("gen", "Gt", {"2"})};
  auto sel = NewNodeSelector(ok);
  ASSERT_TRUE(sel.ok());
  EXPECT_TRUE(sel->Matches(n1.labels(), n1.name()));
  EXPECT_FALSE(sel->Matches(n2.labels(), n2.name()));

  NodeSelector bad;
  bad.terms = {Expr("gen", "Gt", {"2"}), Expr("gen", "Bogus", {})};
  EXPECT_FALSE(NewNodeSelector(bad).ok());
}

TEST_F(NodeAffinityHelperTest, PreferredTermsSumMatchingWeights) {
  std::vector<PreferredSchedulingTerm> terms(4);
  terms[0] = {4, Expr("zone", "In", {"a", "b"})};
  terms[1] = {2, Expr("gen", "Exists", {})};
  terms[2] = {7, NodeSelectorTerm{}};          // empty: dropped
  terms[3] = {0, Expr("zone", "Exists", {})};  // weight 0: dropped
  terms[3].preference.match_fields.push_back({"metadata.name", "In", {"n2"}});
  auto pref = PreferredSchedulingTerms::Compile(terms);
  ASSERT_TRUE(pref.ok());
  EXPECT_EQ(pref->Score(n1), 6);
  EXPECT_EQ(pref->Score(n2), 4);

  terms.push_back({1, Expr("zone", "In", {})});  // In needs values
  EXPECT_FALSE(PreferredSchedulingTerms::Compile(terms).ok());
}

}  // namespace helper_node_affinity_test
}  // namespace ksched::framework::helper
