#include "algorithm/policy.h"

#include <gtest/gtest.h>

#include "algorithm/provider.h"

namespace ksched {
namespace policy_test {

std::vector<std::string> PredicateNames(const SchedulerConfig& c) {
  std::vector<std::string> out;
  for (const auto& p : c.predicates) out.push_back(p.name);
  return out;
}

TEST(Policy, ParsesJsonAndYamlAlike) {
  auto j = ParsePolicy(R"({"kind":"Policy","apiVersion":"v1",
      "predicates":[{"name":"PodFitsResources"},
                    {"name":"CheckNodeLabelPresence","argument":{"labelsPresence":{"labels":["zone"],"presence":true}}}],
      "priorities":[{"name":"LeastRequestedPriority","weight":2},
                    {"name":"ZoneSpread","weight":3,"argument":{"serviceAntiAffinity":{"label":"zone"}}}],
      "hardPodAffinitySymmetricWeight":7,"alwaysCheckAllPredicates":true})",
                       "p.json");
  ASSERT_TRUE(j.ok()) << j.error().message;
  auto y = ParsePolicy(R"(kind: Policy
apiVersion: v1
predicates:
- name: PodFitsResources
- name: CheckNodeLabelPresence
  argument: {labelsPresence: {labels: [zone], presence: true}}
priorities:
- {name: LeastRequestedPriority, weight: 2}
- name: ZoneSpread
  weight: 3
  argument: {serviceAntiAffinity: {label: zone}}
hardPodAffinitySymmetricWeight: 7
alwaysCheckAllPredicates: true
)",
                       "p.yaml");
  ASSERT_TRUE(y.ok()) << y.error().message;
  for (const Policy* p : {&*j, &*y}) {
    ASSERT_TRUE(p->predicates.has_value());
    EXPECT_EQ(p->predicates->size(), 2u);
    EXPECT_TRUE((*p->predicates)[1].labels_presence.has_value());
    EXPECT_EQ((*p->priorities)[1].service_anti_affinity_label, "zone");
    EXPECT_EQ(p->hard_pod_affinity_symmetric_weight, 7);
    EXPECT_TRUE(p->always_check_all_predicates);
  }
}

TEST(Policy, AbsentListsTakeDefaultsEmptyListsMeanNone) {
  auto absent = ParsePolicy(R"({"kind":"Policy"})", "p");
  ASSERT_TRUE(absent.ok());
  auto c = BuildFromPolicy(*absent, BuildOptions{});
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_EQ(c->priorities.size(), 8u);
  EXPECT_EQ(PredicateNames(*c).size(), 11u);

  auto empty = ParsePolicy(R"({"predicates":[],"priorities":[]})", "p");
  ASSERT_TRUE(empty.ok());
  auto e = BuildFromPolicy(*empty, BuildOptions{});
  ASSERT_TRUE(e.ok());
  // The mandatory predicates still run, in upstream order.
  EXPECT_EQ(PredicateNames(*e),
            (std::vector<std::string>{"CheckNodeUnschedulable", "PodToleratesNodeTaints"}));
  EXPECT_TRUE(e->priorities.empty());
}

TEST(Policy, CustomNamedPredicateIsAcceptedButNeverRuns) {
  auto p = ParsePolicy(R"({"predicates":[{"name":"ZoneLabel",
      "argument":{"labelsPresence":{"labels":["zone"],"presence":true}}},{"name":"PodFitsPorts"}]})",
                       "p");
  ASSERT_TRUE(p.ok());
  auto c = BuildFromPolicy(*p, BuildOptions{});
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(PredicateNames(*c),
            (std::vector<std::string>{"CheckNodeUnschedulable", "PodToleratesNodeTaints"}));
}

TEST(Policy, RejectsWhatUpstreamRejects) {
  auto weight =
      ParsePolicy(R"({"priorities":[{"name":"LeastRequestedPriority","weight":0}]})", "p");
  ASSERT_FALSE(weight.ok());
  EXPECT_NE(weight.error().message.find("Priority LeastRequestedPriority should have a positive "
                                        "weight applied to it or it has overflown"),
            std::string::npos);

  auto unknown = ParsePolicy(R"({"predicates":[{"name":"NoSuchPredicate"}]})", "p");
  ASSERT_TRUE(unknown.ok());
  auto c = BuildFromPolicy(*unknown, BuildOptions{});
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.error().message,
            "Invalid configuration: Predicate type not found for NoSuchPredicate");

  // Node-condition predicates are unregistered under TaintNodesByCondition.
  auto cond = ParsePolicy(R"({"predicates":[{"name":"CheckNodeCondition"}]})", "p");
  EXPECT_FALSE(BuildFromPolicy(*cond, BuildOptions{}).ok());
  BuildOptions old;
  old.gates.taint_nodes_by_condition = false;
  EXPECT_TRUE(BuildFromPolicy(*cond, old).ok());

  auto limits =
      ParsePolicy(R"({"priorities":[{"name":"ResourceLimitsPriority","weight":1}]})", "p");
  EXPECT_FALSE(BuildFromPolicy(*limits, BuildOptions{}).ok());
  BuildOptions gated;
  gated.gates.resource_limits_priority_function = true;
  EXPECT_TRUE(BuildFromPolicy(*limits, gated).ok());

  // Upstream range-checks only the component-config weight (0-100); a
  // Policy's non-zero weight replaces it unchecked.
  auto hard = ParsePolicy(R"({"hardPodAffinitySymmetricWeight":101})", "p");
  ASSERT_TRUE(hard.ok());
  auto h = BuildFromPolicy(*hard, BuildOptions{});
  ASSERT_TRUE(h.ok()) << h.error().message;
  EXPECT_EQ(h->hard_pod_affinity_symmetric_weight, 101);
  auto negative = ParsePolicy(R"({"hardPodAffinitySymmetricWeight":-4})", "p");
  ASSERT_TRUE(negative.ok());
  auto n = BuildFromPolicy(*negative, BuildOptions{});
  ASSERT_TRUE(n.ok()) << n.error().message;
  EXPECT_EQ(n->hard_pod_affinity_symmetric_weight, -4);
  BuildOptions off;
  off.hard_pod_affinity_symmetric_weight = 0;
  EXPECT_TRUE(BuildFromProvider("DefaultProvider", off).ok());
  BuildOptions too_big;
  too_big.hard_pod_affinity_symmetric_weight = 101;
  auto big = BuildFromProvider("DefaultProvider", too_big);
  ASSERT_FALSE(big.ok());
  EXPECT_NE(big.error().message.find("not in valid range 0-100"), std::string::npos);
  too_big.hard_pod_affinity_symmetric_weight = -1;
  EXPECT_FALSE(BuildFromPolicy(*hard, too_big).ok());

  auto overflow = ParsePolicy(
      R"({"priorities":[{"name":"EqualPriority","weight":922337203685477579},
                        {"name":"LeastRequestedPriority","weight":922337203685477579}]})",
      "p");
  ASSERT_TRUE(overflow.ok());
  auto o = BuildFromPolicy(*overflow, BuildOptions{});
  ASSERT_FALSE(o.ok());
  EXPECT_EQ(o.error().message, "total priority of priority functions has overflown");

  auto two_args = ParsePolicy(R"({"predicates":[{"name":"X","argument":{
      "labelsPresence":{"labels":["a"]},"serviceAffinity":{"labels":["b"]}}}]})",
                              "p");
  ASSERT_TRUE(two_args.ok());
  EXPECT_FALSE(BuildFromPolicy(*two_args, BuildOptions{}).ok());

  auto ext = ParsePolicy(R"({"extenders":[
      {"urlPrefix":"http://a","prioritizeVerb":"p","weight":0},
      {"urlPrefix":"http://b","bindVerb":"bind","managedResources":[{"name":"example.com/x"},{"name":"example.com/x"}]},
      {"urlPrefix":"http://c","bindVerb":"bind"}]})",
                         "p");
  ASSERT_FALSE(ext.ok());
  EXPECT_NE(
      ext.error().message.find("Priority for extender http://a should have a positive weight"),
      std::string::npos);
  EXPECT_NE(ext.error().message.find("Duplicate extender managed resource name example.com/x"),
            std::string::npos);
  EXPECT_NE(ext.error().message.find("Only one extender can implement bind, found 2"),
            std::string::npos);

  auto type = ParsePolicy(R"({"priorities":[{"name":"EqualPriority","weight":"high"}]})", "f.json");
  ASSERT_FALSE(type.ok());
  EXPECT_EQ(type.error().message, "f.json: Policy: priorities[0].weight: must be an integer");
}

TEST(Policy, TlsDataIsBase64AsInGo) {
  auto p = ParsePolicy(R"({"extenders":[{"urlPrefix":"https://x","enableHttps":true,
      "tlsConfig":{"caData":"aGVsbG8="}}]})",
                       "p");
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_EQ(p->extenders[0].tls_config->ca_data, "hello");
  EXPECT_FALSE(ParsePolicy(R"({"extenders":[{"urlPrefix":"https://x",
      "tlsConfig":{"caData":"not base64!"}}]})",
                           "p")
                   .ok());
}

TEST(Providers, DefaultAndAutoscaler) {
  auto d = BuildFromProvider("DefaultProvider", BuildOptions{});
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(PredicateNames(*d),
            (std::vector<std::string>{
                "CheckNodeUnschedulable", "GeneralPredicates", "NoDiskConflict",
                "PodToleratesNodeTaints", "MaxEBSVolumeCount", "MaxGCEPDVolumeCount",
                "MaxCSIVolumeCountPred", "MaxAzureDiskVolumeCount", "CheckVolumeBinding",
                "NoVolumeZoneConflict", "MatchInterPodAffinity"}));
  int64_t avoid_weight = 0;
  for (const auto& p : d->priorities)
    if (p.name == "NodePreferAvoidPodsPriority") avoid_weight = p.weight;
  EXPECT_EQ(avoid_weight, 10000);
  auto ca = BuildFromProvider("ClusterAutoscalerProvider", BuildOptions{});
  ASSERT_TRUE(ca.ok());
  bool most = false;
  for (const auto& p : ca->priorities) most |= p.name == "MostRequestedPriority";
  EXPECT_TRUE(most);
  EXPECT_FALSE(BuildFromProvider("Bogus", BuildOptions{}).ok());
}

TEST(GenericScheduler, FeasibleNodesToFindFollowsUpstream) {
  EXPECT_EQ(GenericScheduler::NumFeasibleNodesToFind(99, 10), 99u);
  EXPECT_EQ(GenericScheduler::NumFeasibleNodesToFind(5000, 100), 5000u);
  EXPECT_EQ(GenericScheduler::NumFeasibleNodesToFind(5000, 0), 5000u * 10 / 100);  // 50-40
  EXPECT_EQ(GenericScheduler::NumFeasibleNodesToFind(1000, 0), 420u);              // 50-8
  EXPECT_EQ(GenericScheduler::NumFeasibleNodesToFind(200, 30), 100u);              // min 100
  EXPECT_EQ(GenericScheduler::NumFeasibleNodesToFind(10000, 0), 500u);             // floor 5%
}

TEST(GenericScheduler, FitErrorSortsHistogramAsStrings) {
  std::vector<NodeFailure> f = {{0, {"Insufficient cpu", "Insufficient memory"}, ""}};
  for (NodeId i = 1; i < 10; ++i) f.push_back({i, {"Insufficient cpu"}, ""});
  EXPECT_EQ(GenericScheduler::FitErrorMessage(12, f),
            "0/12 nodes are available: 1 Insufficient memory, 10 Insufficient cpu.");
}

}  // namespace policy_test
}  // namespace ksched
