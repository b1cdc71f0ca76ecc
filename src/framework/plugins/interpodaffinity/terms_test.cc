#include "framework/plugins/interpodaffinity/terms.h"

#include <gtest/gtest.h>

#include "framework/plugins/interpodaffinity/test_util.h"

namespace ksched::framework::interpodaffinity {
namespace terms_test {

using namespace test;  // NOLINT

Pod P(const std::string& affinity, const std::string& ns = "default") {
  return ksched::testing::TestPod(PodJson("p", "", "", affinity, ns));
}

TEST(InterPodAffinityTerms, NamespacesDefaultToThePodsOwnOnlyWithoutASelector) {
  PodTerms t = ParsePodTerms(P(Affinity(Term("", "zone")), "mine"));
  ASSERT_EQ(t.required_affinity.size(), 1u);
  EXPECT_EQ(t.required_affinity[0].namespaces, std::vector<StrId>{Intern("mine")});
  EXPECT_TRUE(t.required_affinity[0].namespace_selector.MatchesNothing());

  PodTerms s = ParsePodTerms(
      P(Affinity(Term("", "zone", R"("namespaceSelector":{"matchLabels":{"a":"b"}})")), "mine"));
  ASSERT_EQ(s.required_affinity.size(), 1u);
  EXPECT_TRUE(s.required_affinity[0].namespaces.empty());
  Labels ab({{Intern("a"), Intern("b")}});
  EXPECT_TRUE(s.required_affinity[0].namespace_selector.Matches(ab));

  PodTerms l = ParsePodTerms(P(Affinity(Term("", "zone", R"("namespaces":["y","x","y"])"))));
  EXPECT_EQ(l.required_affinity[0].namespaces.size(), 2u);
  EXPECT_TRUE(l.required_affinity[0].HasNamespace(Intern("x")));
  EXPECT_FALSE(l.required_affinity[0].HasNamespace(Intern("default")));
}

TEST(InterPodAffinityTerms, MatchesByNamespaceListOrNamespaceLabels) {
  PodTerms t = ParsePodTerms(P(
      Affinity(Term(R"("app":"db")", "zone",
                    R"("namespaces":["a"],"namespaceSelector":{"matchLabels":{"env":"prod"}})"))));
  const AffinityTerm& term = t.required_affinity[0];
  Labels prod({{Intern("env"), Intern("prod")}});
  Pod in_a = ksched::testing::TestPod(PodJson("x", R"("app":"db")", "", "", "a"));
  Pod in_b = ksched::testing::TestPod(PodJson("x", R"("app":"db")", "", "", "b"));
  EXPECT_TRUE(term.Matches(in_a, Labels()));
  EXPECT_FALSE(term.Matches(in_b, Labels()));
  EXPECT_TRUE(term.Matches(in_b, prod));
  Pod other = ksched::testing::TestPod(PodJson("x", R"("app":"web")", "", "", "a"));
  EXPECT_FALSE(term.Matches(other, prod));
}

TEST(InterPodAffinityTerms, NilLabelSelectorMatchesNothingAndEmptyEverything) {
  PodTerms t = ParsePodTerms(
      P(Affinity(R"({"topologyKey":"zone"},{"labelSelector":{},"topologyKey":"zone"})")));
  ASSERT_EQ(t.required_affinity.size(), 2u);
  Pod x = ksched::testing::TestPod(PodJson("x", R"("a":"b")", ""));
  EXPECT_FALSE(t.required_affinity[0].Matches(x, Labels()));
  EXPECT_TRUE(t.required_affinity[1].Matches(x, Labels()));
}

TEST(InterPodAffinityTerms, AnErrorEmptiesItsListOnly) {
  const std::string bad =
      R"({"labelSelector":{"matchExpressions":[{"key":"a","operator":"Bogus"}]},"topologyKey":"zone"})";
  PodTerms t =
      ParsePodTerms(P(Affinity(Term("", "zone") + "," + bad, Weighted(2, Term("", "zone")))));
  EXPECT_TRUE(t.required_affinity.empty());
  EXPECT_EQ(t.preferred_affinity.size(), 1u);
  EXPECT_EQ(t.preferred_affinity[0].weight, 2);
  EXPECT_EQ(t.error, "requiredAffinityTerms: \"Bogus\" is not a valid pod selector operator");

  PodTerms two = ParsePodTerms(P(Affinity(bad, "", bad)));
  EXPECT_EQ(two.error,
            "[requiredAffinityTerms: \"Bogus\" is not a valid pod selector operator, "
            "requiredAntiAffinityTerms: \"Bogus\" is not a valid pod selector operator]");
}

TEST(InterPodAffinityTerms, NamespaceSelectorErrorsToo) {
  PodTerms t = ParsePodTerms(P(Affinity(Term(
      "", "zone",
      R"("namespaceSelector":{"matchExpressions":[{"key":"a","operator":"Gt","values":["1"]}]})"))));
  EXPECT_TRUE(t.required_affinity.empty());
  EXPECT_EQ(t.error, "requiredAffinityTerms: \"Gt\" is not a valid pod selector operator");
}

TEST(InterPodAffinityTerms, PodMatchesAllTermsIsFalseForNone) {
  Pod x = ksched::testing::TestPod(PodJson("x", R"("a":"b")", ""));
  EXPECT_FALSE(PodMatchesAllTerms({}, x));
}

TEST(InterPodAffinityTerms, CacheGroupsEqualTermsAndFollowsTheCluster) {
  ClusterState c = ksched::testing::TestCluster(
      ListOf({NodeJson("n1", ""), PodJson("a", "", "n1", Affinity(Term(R"("x":"1")", "zone"))),
              PodJson("b", "", "n1", Affinity(Term(R"("x":"1")", "zone"))),
              PodJson("c", "", "n1", Affinity(Term(R"("x":"2")", "zone"))),
              PodJson("d", "", "n1", Affinity(Term(R"("x":"1")", "zone")), "other")}));
  TermCache cache;
  EXPECT_EQ(cache.Group(c, 0), cache.Group(c, 1));
  EXPECT_NE(cache.Group(c, 0), cache.Group(c, 2));
  EXPECT_NE(cache.Group(c, 0), cache.Group(c, 3));  // own namespace differs
  EXPECT_EQ(cache.terms(cache.Group(c, 3)).required_affinity[0].namespaces,
            std::vector<StrId>{Intern("other")});
}

TEST(InterPodAffinityTerms, HasPreferredTermsReadsTheSpec) {
  EXPECT_FALSE(HasPreferredTerms(P(Affinity(Term("", "zone")))));
  EXPECT_TRUE(HasPreferredTerms(P(Affinity("", "", "", Weighted(1, Term("", "zone"))))));
}

}  // namespace terms_test
}  // namespace ksched::framework::interpodaffinity
