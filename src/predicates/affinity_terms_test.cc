#include "predicates/affinity_terms.h"

#include <gtest/gtest.h>

#include "tests/fixtures.h"

namespace ksched {
namespace affinity_terms_test {

using ::ksched::testing::TestCluster;
using ::ksched::testing::TestPod;

Labels L(std::vector<std::pair<std::string, std::string>> kv) {
  std::vector<Labels::Pair> pairs;
  for (auto& [k, v] : kv) pairs.emplace_back(Intern(k), Intern(v));
  return Labels(std::move(pairs));
}

TEST(AffinityTermsTest, NodesShareTopology) {
  StrId zone = Intern("zone");
  EXPECT_TRUE(NodesShareTopology(L({{"zone", "a"}}), L({{"zone", "a"}, {"x", "y"}}), zone));
  EXPECT_FALSE(NodesShareTopology(L({{"zone", "a"}}), L({{"zone", "b"}}), zone));
  EXPECT_FALSE(NodesShareTopology(L({{"zone", "a"}}), L({}), zone));
  EXPECT_FALSE(NodesShareTopology(L({}), L({}), zone));
  // An empty key never matches, even between nodes carrying an empty key.
  EXPECT_FALSE(NodesShareTopology(L({{"", "a"}}), L({{"", "a"}}), kEmptyStr));
}

TEST(AffinityTermsTest, CompileTerm) {
  Pod pod = TestPod(
      R"({"kind":"Pod","metadata":{"name":"p","namespace":"prod","labels":{"app":"web"}}})");
  PodAffinityTerm t;
  t.topology_key = "zone";
  t.label_selector = LabelSelector{{{"app", "web"}}, {}};
  AffinityTerm own = CompileAffinityTerm(t, Intern("prod"), 3);
  EXPECT_TRUE(own.valid());
  EXPECT_EQ(own.weight, 3);
  EXPECT_EQ(own.topology_key, Intern("zone"));
  EXPECT_TRUE(own.Matches(pod));
  AffinityTerm other_ns = CompileAffinityTerm(t, Intern("dev"), 0);
  EXPECT_FALSE(other_ns.Matches(pod));

  t.namespaces = {"dev", "prod", "dev"};
  EXPECT_TRUE(CompileAffinityTerm(t, Intern("dev"), 0).Matches(pod));

  t.label_selector.reset();  // no selector: matches nothing
  EXPECT_FALSE(CompileAffinityTerm(t, Intern("prod"), 0).Matches(pod));
  t.label_selector = LabelSelector{};  // empty selector: matches everything
  EXPECT_TRUE(CompileAffinityTerm(t, Intern("prod"), 0).Matches(pod));

  t.label_selector->match_expressions.push_back({"app", "In", {}});
  AffinityTerm bad = CompileAffinityTerm(t, Intern("prod"), 0);
  EXPECT_FALSE(bad.valid());
  EXPECT_FALSE(bad.Matches(pod));
  EXPECT_EQ(*bad.error, "for 'in', 'notin' operators, values set can't be empty");
}

TEST(AffinityTermsTest, PodMatchesAllTerms) {
  Pod pod = TestPod(R"({"kind":"Pod","metadata":{"name":"p","labels":{"a":"1","b":"2"}}})");
  PodAffinityTerm a{LabelSelector{{{"a", "1"}}, {}}, {}, "zone", std::nullopt, {}, {}};
  PodAffinityTerm b{LabelSelector{{{"b", "2"}}, {}}, {}, "zone", std::nullopt, {}, {}};
  PodAffinityTerm c{LabelSelector{{{"c", "3"}}, {}}, {}, "zone", std::nullopt, {}, {}};
  StrId ns = pod.meta.ns;
  EXPECT_FALSE(PodMatchesAllTerms(pod, {}));
  EXPECT_TRUE(
      PodMatchesAllTerms(pod, {CompileAffinityTerm(a, ns, 0), CompileAffinityTerm(b, ns, 0)}));
  EXPECT_FALSE(
      PodMatchesAllTerms(pod, {CompileAffinityTerm(a, ns, 0), CompileAffinityTerm(c, ns, 0)}));
}

TEST(AffinityTermsTest, CacheFollowsTheCluster) {
  auto cluster_with = [](const std::string& app) {
    return TestCluster(
        R"({"kind":"List","items":[{"kind":"Node","metadata":{"name":"n1"}},)"
        R"({"kind":"Pod","metadata":{"name":"g","namespace":"default"},"spec":{"nodeName":"n1",)"
        R"("affinity":{"podAntiAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[)"
        R"({"labelSelector":{"matchLabels":{"app":")" +
        app + R"("}},"topologyKey":"zone"}]}}}}]})");
  };
  Pod web = TestPod(R"({"kind":"Pod","metadata":{"name":"w","labels":{"app":"web"}}})");
  PodAffinityCache cache;
  auto lock = cache.Lock();
  ClusterState a = cluster_with("web");
  EXPECT_TRUE(cache.Get(a, 0).required_anti_affinity.at(0).Matches(web));
  ClusterState b = cluster_with("db");
  EXPECT_FALSE(cache.Get(b, 0).required_anti_affinity.at(0).Matches(web));
  EXPECT_TRUE(cache.Get(a, 0).required_anti_affinity.at(0).Matches(web));
}

}  // namespace affinity_terms_test
}  // namespace ksched
