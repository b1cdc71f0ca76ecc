#include "api/version_skew.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "api/decode.h"

namespace ksched {
namespace version_skew_test {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

// The skew entries the pods of `json` (a List) use, as the decoder notes them.
SkewReport Report(std::string_view json) {
  ObjectSet set;
  EXPECT_TRUE(DecodeObjects(json, "t.json", &set).ok());
  SkewReport r;
  for (const FieldNote& n : set.field_notes) r.Add(n.skew, n.object);
  return r;
}

std::string PodWith(std::string_view name, std::string_view spec_extra) {
  return R"({"kind":"Pod","metadata":{"name":")" + std::string(name) +
         R"(","namespace":"shop"},"spec":{"containers":[{"name":"c"}])" + std::string(spec_extra) +
         "}}";
}

TEST(VersionSkew, OnePodNamedInFull) {
  SkewReport r =
      Report("[" + PodWith("web-1", R"(,"topologySpreadConstraints":[{"maxSkew":1}])") + "]");
  EXPECT_THAT(r.Lines(), ElementsAre("pod shop/web-1 uses topologySpreadConstraints (Kubernetes "
                                     "1.16+), which the v1.15 algorithm ignores"));
  EXPECT_THAT(r.LinesFor("shop/web-1"),
              ElementsAre("uses topologySpreadConstraints (Kubernetes 1.16+), which the v1.15 "
                          "algorithm ignores"));
  EXPECT_THAT(r.LinesFor("shop/other"), IsEmpty());
}

TEST(VersionSkew, ManyPodsSummarised) {
  std::string list = "[";
  for (int i = 1; i <= 37; ++i) {
    if (i > 1) list += ",";
    list += PodWith("web-" + std::to_string(i), R"(,"topologySpreadConstraints":[{"maxSkew":1}])");
  }
  list += "]";
  EXPECT_THAT(Report(list).Lines(),
              ElementsAre("37 pods use topologySpreadConstraints (Kubernetes 1.16+), which the "
                          "v1.15 algorithm ignores; e.g. shop/web-1, shop/web-2, shop/web-3"));
}

TEST(VersionSkew, EachFieldItsOwnLine) {
  SkewReport r =
      Report("[" + PodWith("a", R"(,"overhead":{"cpu":"250m"},"schedulingGates":[{"name":"g"}])") +
             "," + PodWith("b", R"(,"initContainers":[{"name":"side","restartPolicy":"Always"}])") +
             "," + PodWith("c", R"(,"resources":{"requests":{"cpu":"1"}},"affinity":{"podAffinity":{
          "requiredDuringSchedulingIgnoredDuringExecution":[{"topologyKey":"zone",
          "namespaceSelector":{},"matchLabelKeys":["v"]}]}})") +
             "]");
  EXPECT_THAT(
      r.Lines(),
      ElementsAre(
          "pod shop/a uses pod overhead (spec.overhead) (Kubernetes 1.16+), which v1.15 does not "
          "add to the pod's requests",
          "pod shop/b uses native sidecars (init containers with restartPolicy: Always) "
          "(Kubernetes 1.28+), which v1.15 counts as ordinary init containers (their requests "
          "are not added to the containers')",
          "pod shop/a uses schedulingGates (Kubernetes 1.26+), which v1.15 ignores: the pods are "
          "scheduled as if ungated",
          "pod shop/c uses pod-level resources (spec.resources) (Kubernetes 1.32+), which v1.15 "
          "ignores: only containers' requests count",
          "pod shop/c uses pod affinity namespaceSelector (Kubernetes 1.21+), which v1.15 ignores "
          "(it reads only namespaces)",
          "pod shop/c uses pod affinity matchLabelKeys (Kubernetes 1.29+), which the v1.15 "
          "algorithm ignores"));
}

TEST(VersionSkew, ValuesThatAskForNothingAreQuiet) {
  SkewReport r =
      Report("[" + PodWith("a", R"(,"topologySpreadConstraints":[],"schedulingGates":null)") + "," +
             PodWith("b", R"(,"initContainers":[{"name":"i","restartPolicy":"OnFailure"}])") + "," +
             R"({"kind":"Pod","metadata":{"name":"c"},"spec":{"containers":[
          {"name":"c","restartPolicy":"Always"}]}})" +
             "]");
  EXPECT_TRUE(r.empty()) << ::testing::PrintToString(r.Lines());
}

TEST(VersionSkew, TheFrameworkEngineNamesOnlyWhatItIgnores) {
  SkewReport r = Report("[" +
                        PodWith("web-1", R"(,"topologySpreadConstraints":[{"maxSkew":1}],)"
                                         R"("resourceClaims":[{"name":"gpu"}])") +
                        "]");
  r.set_engine("v1.26");
  EXPECT_THAT(r.LinesFor("shop/web-1"),
              ElementsAre("uses resourceClaims (dynamic resource allocation) (Kubernetes 1.26+), "
                          "which v1.26 reads only with the alpha DynamicResources gate, a plugin "
                          "ksched does not run: the claims are ignored"));
  EXPECT_EQ(r.Lines().size(), 1u);
  r.set_engine("v1.15");
  EXPECT_EQ(r.LinesFor("shop/web-1").size(), 2u);
}

TEST(VersionSkew, TheV135EngineHonoursEveryField) {
  SkewReport r = Report(
      "[" +
      PodWith("a", R"(,"overhead":{"cpu":"250m"},"schedulingGates":[{"name":"g"}],)"
                   R"("resources":{"requests":{"cpu":"1"}},"resourceClaims":[{"name":"gpu"}],)"
                   R"("initContainers":[{"name":"side","restartPolicy":"Always"}],)"
                   R"("topologySpreadConstraints":[{"maxSkew":1,"minDomains":2,)"
                   R"("matchLabelKeys":["pod-template-hash"]}])") +
      "]");
  r.set_engine("v1.35");
  EXPECT_THAT(r.Lines(), IsEmpty());
  EXPECT_THAT(r.LinesFor("shop/a"), IsEmpty());
  r.set_engine("v1.26");
  EXPECT_EQ(r.Lines().size(), 6u) << ::testing::PrintToString(r.Lines());
}

TEST(VersionSkew, SpreadFieldsV126ReadsOnlyWithItsGates) {
  SkewReport r = Report(
      "[" +
      PodWith("a", R"(,"topologySpreadConstraints":[{"maxSkew":1,"topologyKey":"zone"},)"
                   R"({"maxSkew":1,"minDomains":3,"matchLabelKeys":["pod-template-hash"]}])") +
      "," + PodWith("b", R"(,"topologySpreadConstraints":[{"maxSkew":1,"matchLabelKeys":[]}])") +
      "]");
  r.set_engine("v1.26");
  EXPECT_THAT(
      r.Lines(),
      ElementsAre("pod shop/a uses topology spread minDomains (Kubernetes 1.24+), which v1.26 "
                  "honours only with its beta gate on (--feature-gates "
                  "MinDomainsInPodTopologySpread=true); without it minDomains is ignored",
                  "pod shop/a uses topology spread matchLabelKeys (Kubernetes 1.25+), which "
                  "v1.26 honours only with its alpha gate (--feature-gates "
                  "MatchLabelKeysInPodTopologySpread=true); without it the pods spread against "
                  "every revision's pods"));
  // v1.15 ignores the constraints as a whole, and says so once.
  r.set_engine("v1.15");
  EXPECT_THAT(r.Lines(), ElementsAre("pods shop/a, shop/b use topologySpreadConstraints "
                                     "(Kubernetes 1.16+), which the v1.15 algorithm ignores"));
}

}  // namespace version_skew_test
}  // namespace ksched
