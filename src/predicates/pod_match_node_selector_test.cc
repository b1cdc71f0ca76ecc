#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "predicates/check_test_helper.h"
#include "predicates/factories.h"
#include "tests/fixtures.h"

namespace ksched {
namespace pod_match_node_selector_test {

using ::testing::ElementsAre;
using testing::RunCheck;
using testing::TestCluster;
using testing::TestPod;

constexpr const char* kCluster = R"({"kind":"List","items":[
  {"kind":"Node","metadata":{"name":"n1","labels":{"zone":"a","disk":"ssd","cores":"8"}}},
  {"kind":"Node","metadata":{"name":"n2","labels":{"zone":"b","cores":"two"}}},
  {"kind":"Node","metadata":{"name":"n3"}}]})";

// Pod with the given spec fields (a JSON fragment, may be empty).
Pod PodWith(const std::string& spec) {
  std::string s = R"({"kind":"Pod","metadata":{"name":"p"},"spec":{)";
  if (!spec.empty()) s += spec + ",";
  return TestPod(s + R"("containers":[]}})");
}

Pod PodWithRequired(const std::string& required) {
  return PodWith(
      R"("affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":)" +
      required + "}}");
}

// Names of the nodes of kCluster the pod fits, in order.
std::string Fitting(const Pod& pod) {
  static const ClusterState c = TestCluster(kCluster);
  auto p = NewPodMatchNodeSelector();
  std::string out;
  for (const char* n : {"n1", "n2", "n3"}) {
    auto r = RunCheck(*p, pod, c, n);
    if (r.fits) {
      out += out.empty() ? "" : ",";
      out += n;
    } else {
      EXPECT_THAT(r.reasons, ElementsAre("node(s) didn't match node selector"));
    }
  }
  return out;
}

TEST(PodMatchNodeSelector, NothingRequestedFitsAll) {
  EXPECT_EQ(Fitting(PodWith("")), "n1,n2,n3");
  EXPECT_EQ(Fitting(PodWith(R"("nodeSelector":{})")), "n1,n2,n3");
  EXPECT_EQ(Fitting(PodWith(R"("affinity":{})")), "n1,n2,n3");
  EXPECT_EQ(Fitting(PodWith(R"("affinity":{"nodeAffinity":{}})")), "n1,n2,n3");
}

TEST(PodMatchNodeSelector, NodeSelector) {
  EXPECT_EQ(Fitting(PodWith(R"("nodeSelector":{"zone":"a"})")), "n1");
  EXPECT_EQ(Fitting(PodWith(R"("nodeSelector":{"zone":"a","disk":"hdd"})")), "");
  EXPECT_EQ(Fitting(PodWith(R"("nodeSelector":{"missing":"x"})")), "");
}

TEST(PodMatchNodeSelector, InvalidNodeSelectorValueSelectsEverything) {
  // labels.SelectorFromSet silently drops a set with an invalid value.
  EXPECT_EQ(Fitting(PodWith(R"("nodeSelector":{"zone":"not a valid value!"})")), "n1,n2,n3");
}

TEST(PodMatchNodeSelector, PreferredOnlyAffinityFitsAll) {
  EXPECT_EQ(Fitting(PodWith(R"("affinity":{"nodeAffinity":{
      "preferredDuringSchedulingIgnoredDuringExecution":[{"weight":1,"preference":{
      "matchExpressions":[{"key":"zone","operator":"In","values":["z"]}]}}]}})")),
            "n1,n2,n3");
}

TEST(PodMatchNodeSelector, EmptyOrMissingTermsMatchNothing) {
  EXPECT_EQ(Fitting(PodWithRequired(R"({"nodeSelectorTerms":[]})")), "");
  EXPECT_EQ(Fitting(PodWithRequired(R"({})")), "");
  EXPECT_EQ(Fitting(PodWithRequired(R"({"nodeSelectorTerms":[{}]})")), "");
  EXPECT_EQ(Fitting(PodWithRequired(R"({"nodeSelectorTerms":[{"matchExpressions":[]}]})")), "");
}

TEST(PodMatchNodeSelector, TermsAreOred) {
  EXPECT_EQ(Fitting(PodWithRequired(R"({"nodeSelectorTerms":[
      {"matchExpressions":[{"key":"zone","operator":"In","values":["a"]}]},
      {"matchExpressions":[{"key":"zone","operator":"DoesNotExist"}]}]})")),
            "n1,n3");
  // An empty term next to a good one does not spoil it.
  EXPECT_EQ(Fitting(PodWithRequired(R"({"nodeSelectorTerms":[{},
      {"matchExpressions":[{"key":"zone","operator":"In","values":["b"]}]}]})")),
            "n2");
}

TEST(PodMatchNodeSelector, ExpressionsInATermAreAnded) {
  EXPECT_EQ(Fitting(PodWithRequired(R"({"nodeSelectorTerms":[{"matchExpressions":[
      {"key":"zone","operator":"Exists"},{"key":"disk","operator":"NotIn","values":["ssd"]}]}]})")),
            "n2");
}

TEST(PodMatchNodeSelector, UnparsableRequirementSpoilsOnlyItsTerm) {
  EXPECT_EQ(Fitting(PodWithRequired(R"({"nodeSelectorTerms":[
      {"matchExpressions":[{"key":"cores","operator":"Gt","values":["x"]}]},
      {"matchExpressions":[{"key":"zone","operator":"In","values":["b"]}]}]})")),
            "n2");
  EXPECT_EQ(Fitting(PodWithRequired(R"({"nodeSelectorTerms":[{"matchExpressions":[
      {"key":"zone","operator":"Exists"},{"key":"cores","operator":"Lt","values":["1","2"]}]}]})")),
            "");
  EXPECT_EQ(Fitting(PodWithRequired(R"({"nodeSelectorTerms":[{"matchExpressions":[
      {"key":"zone","operator":"Bogus","values":["a"]}]}]})")),
            "");
}

TEST(PodMatchNodeSelector, GtLt) {
  // n2's "two" is not an integer: never matches Gt/Lt.
  EXPECT_EQ(Fitting(PodWithRequired(R"({"nodeSelectorTerms":[{"matchExpressions":[
      {"key":"cores","operator":"Gt","values":["4"]}]}]})")),
            "n1");
  EXPECT_EQ(Fitting(PodWithRequired(R"({"nodeSelectorTerms":[{"matchExpressions":[
      {"key":"cores","operator":"Lt","values":["8"]}]}]})")),
            "");
}

TEST(PodMatchNodeSelector, MatchFieldsOnNodeName) {
  EXPECT_EQ(Fitting(PodWithRequired(R"({"nodeSelectorTerms":[{"matchFields":[
      {"key":"metadata.name","operator":"In","values":["n2"]}]}]})")),
            "n2");
  EXPECT_EQ(Fitting(PodWithRequired(R"({"nodeSelectorTerms":[{"matchFields":[
      {"key":"metadata.name","operator":"NotIn","values":["n2"]}]}]})")),
            "n1,n3");
  // Several values are not allowed in matchFields: the term matches nothing.
  EXPECT_EQ(Fitting(PodWithRequired(R"({"nodeSelectorTerms":[{"matchFields":[
      {"key":"metadata.name","operator":"In","values":["n1","n2"]}]}]})")),
            "");
  // Fields and expressions in one term are ANDed.
  EXPECT_EQ(Fitting(PodWithRequired(R"({"nodeSelectorTerms":[{
      "matchExpressions":[{"key":"zone","operator":"Exists"}],
      "matchFields":[{"key":"metadata.name","operator":"NotIn","values":["n1"]}]}]})")),
            "n2");
}

TEST(PodMatchNodeSelector, NodeSelectorAndAffinityMustBothMatch) {
  EXPECT_EQ(Fitting(PodWith(R"("nodeSelector":{"zone":"a"},
      "affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{
      "nodeSelectorTerms":[{"matchExpressions":[{"key":"zone","operator":"Exists"}]}]}}})")),
            "n1");
  EXPECT_EQ(Fitting(PodWith(R"("nodeSelector":{"zone":"a"},
      "affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{
      "nodeSelectorTerms":[{"matchExpressions":[
        {"key":"zone","operator":"In","values":["b"]}]}]}}})")),
            "");
  // Preferred-only affinity does not cancel the nodeSelector.
  EXPECT_EQ(Fitting(PodWith(R"("nodeSelector":{"zone":"b"},"affinity":{"nodeAffinity":{}})")),
            "n2");
}

}  // namespace pod_match_node_selector_test
}  // namespace ksched
