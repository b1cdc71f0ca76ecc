#include "api/pod_strategy.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "api/validation.h"
#include "tests/fixtures.h"

namespace ksched {
namespace pod_strategy_test {

using ::ksched::testing::TestPod;
using ::testing::IsEmpty;

// "key op [v]" for each requirement of a selector.
std::vector<std::string> Requirements(const std::optional<LabelSelector>& s) {
  std::vector<std::string> out;
  if (!s) return out;
  for (const SelectorRequirement& r : s->match_expressions) {
    std::string values;
    for (const std::string& v : r.values) values += (values.empty() ? "" : ",") + v;
    out.push_back(r.key + " " + r.op + " [" + values + "]");
  }
  return out;
}

constexpr std::string_view kPod = R"({"kind":"Pod","metadata":{"name":"web-1",
    "labels":{"app":"web","pod-template-hash":"5d8f","tenant":"a"}},"spec":{
    "containers":[{"name":"c"}],
    "affinity":{"podAntiAffinity":{
      "requiredDuringSchedulingIgnoredDuringExecution":[{"topologyKey":"kubernetes.io/hostname",
        "labelSelector":{"matchLabels":{"app":"web"}},
        "matchLabelKeys":["pod-template-hash","missing"],"mismatchLabelKeys":["tenant"]}],
      "preferredDuringSchedulingIgnoredDuringExecution":[{"weight":10,"podAffinityTerm":{
        "topologyKey":"zone","matchLabelKeys":["pod-template-hash"]}}]}},
    "topologySpreadConstraints":[{"maxSkew":1,"topologyKey":"zone",
      "whenUnsatisfiable":"DoNotSchedule","labelSelector":{"matchLabels":{"app":"web"}},
      "matchLabelKeys":["pod-template-hash"]}]},
    "status":{"containerStatuses":[{"name":"c","allocatedResources":{"cpu":"2"}}]}})";

TEST(PreparePodForCreate, V135MergesLabelKeysIntoSelectors) {
  Pod p = TestPod(kPod);
  PreparePodForCreate(&p, ApiServerOptions{});
  const PodAffinity& anti = *p.spec.affinity->pod_anti_affinity;
  // Keys the pod has no label for add nothing; mismatch keys add NotIn.
  EXPECT_THAT(Requirements(anti.required[0].label_selector),
              ::testing::ElementsAre("pod-template-hash In [5d8f]", "tenant NotIn [a]"));
  // A term without a selector matches nothing and stays so.
  EXPECT_FALSE(anti.preferred[0].term.label_selector);
  EXPECT_THAT(Requirements(p.spec.topology_spread_constraints[0].label_selector),
              ::testing::ElementsAre("pod-template-hash In [5d8f]"));
  EXPECT_THAT(p.container_statuses, IsEmpty());
  // The result validates as v1.35 would, but for the preferred term whose
  // matchLabelKeys has no selector to merge into, which the API server
  // refuses; doing it again changes nothing (a stored pod given to
  // --pending).
  EXPECT_THAT(ValidatePod(p),
              ::testing::ElementsAre(::testing::HasSubstr(
                  "podAffinityTerm.matchLabelKeys: Forbidden: must not be specified when "
                  "labelSelector is not set")));
  Pod again = p;
  PreparePodForCreate(&again, ApiServerOptions{});
  EXPECT_EQ(again.spec, p.spec);
}

TEST(PreparePodForCreate, GatesAndOlderReleases) {
  Pod v126 = TestPod(kPod);
  PreparePodForCreate(&v126, ApiServerOptions::For(ApiRelease::kV126));
  EXPECT_EQ(v126.spec, TestPod(kPod).spec);
  EXPECT_FALSE(v126.container_statuses.empty());

  ApiServerOptions no_merge;
  no_merge.match_label_keys_selector_merge = false;
  no_merge.match_label_keys_in_pod_affinity = false;
  Pod p = TestPod(kPod);
  PreparePodForCreate(&p, no_merge);
  EXPECT_THAT(Requirements(p.spec.topology_spread_constraints[0].label_selector), IsEmpty());
  EXPECT_THAT(Requirements(p.spec.affinity->pod_anti_affinity->required[0].label_selector),
              IsEmpty());
}

}  // namespace pod_strategy_test
}  // namespace ksched
