#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "explain/framework_test_util.h"

namespace ksched::explain {
namespace topology_spread_test {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::ScheduleAndExplainV126;

// Zones a and b, and n3 without a zone label; two web pods run in zone a.
const char* kZones = R"({"kind":"List","items":[
  {"kind":"Node","metadata":{"name":"n1","labels":{"kubernetes.io/hostname":"n1","zone":"a"}},
   "status":{"allocatable":{"cpu":"4","pods":"110"}}},
  {"kind":"Node","metadata":{"name":"n2","labels":{"kubernetes.io/hostname":"n2","zone":"b"}},
   "status":{"allocatable":{"cpu":"4","pods":"110"}}},
  {"kind":"Node","metadata":{"name":"n3","labels":{"kubernetes.io/hostname":"n3"}},
   "status":{"allocatable":{"cpu":"4","pods":"110"}}},
  {"kind":"Pod","metadata":{"name":"w1","namespace":"default","labels":{"app":"web"}},
   "spec":{"nodeName":"n1","containers":[{"name":"c"}]}},
  {"kind":"Pod","metadata":{"name":"w2","namespace":"default","labels":{"app":"web"}},
   "spec":{"nodeName":"n1","containers":[{"name":"c"}]}}]})";

std::string SpreadPod(const std::string& constraints) {
  return R"({"kind":"Pod","metadata":{"name":"p","namespace":"default","labels":{"app":"web"}},
    "spec":{"containers":[{"name":"c"}],"topologySpreadConstraints":[)" +
         constraints + "]}}";
}

TEST(ExplainTopologySpread, SkewNamesDomainCountMinimumAndMaxSkew) {
  auto e = ScheduleAndExplainV126(
      kZones, SpreadPod(R"({"maxSkew":1,"topologyKey":"zone","whenUnsatisfiable":"DoNotSchedule",
                           "labelSelector":{"matchLabels":{"app":"web"}}})"));
  EXPECT_EQ(e.chosen, "n2");
  EXPECT_EQ(e.plugins["n1"], "PodTopologySpread");
  EXPECT_THAT(e.reasons["n1"], ElementsAre("node(s) didn't match pod topology spread constraints"));
  ASSERT_EQ(e.causes["n1"].size(), 1u);
  const Cause& c = e.causes["n1"][0];
  EXPECT_EQ(c.kind, "topologySpread");
  EXPECT_EQ(c.message,
            "topologySpreadConstraints[0] (topologyKey zone, maxSkew 1): zone=a has 2 pod(s) "
            "matching app=web, 1 more with this pod; the global minimum is 0 (zone=b): skew 3 > "
            "maxSkew 1");
  EXPECT_EQ(c.details["domain"], "zone=a");
  EXPECT_EQ(c.details["matchingPods"], 2);
  EXPECT_EQ(c.details["globalMinimum"], 0);
  EXPECT_EQ(c.details["minimumDomain"], "zone=b");
  EXPECT_EQ(c.details["skew"], 3);
  EXPECT_EQ(c.details["maxSkew"], 1);
}

TEST(ExplainTopologySpread, MissingLabelNamesTheKey) {
  auto e = ScheduleAndExplainV126(
      kZones, SpreadPod(R"({"maxSkew":5,"topologyKey":"zone","whenUnsatisfiable":"DoNotSchedule",
                           "labelSelector":{"matchLabels":{"app":"web"}}})"));
  EXPECT_THAT(e.reasons["n3"],
              ElementsAre("node(s) didn't match pod topology spread constraints (missing required "
                          "label)"));
  ASSERT_EQ(e.causes["n3"].size(), 1u);
  EXPECT_THAT(e.causes["n3"][0].message, HasSubstr("the node has no label zone"));
  EXPECT_EQ(e.causes["n3"][0].details["label"], "zone");
}

TEST(ExplainTopologySpread, NamesTheConstraintTheNodeBreaks) {
  // The hostname constraint holds everywhere; the zone one fails on n1.
  auto e = ScheduleAndExplainV126(kZones,
                                  SpreadPod(R"({"maxSkew":3,"topologyKey":"kubernetes.io/hostname",
                    "whenUnsatisfiable":"DoNotSchedule","labelSelector":{"matchLabels":{"app":"web"}}},
                   {"maxSkew":1,"topologyKey":"zone","whenUnsatisfiable":"ScheduleAnyway",
                    "labelSelector":{"matchLabels":{"app":"web"}}},
                   {"maxSkew":2,"topologyKey":"zone","whenUnsatisfiable":"DoNotSchedule",
                    "labelSelector":{"matchLabels":{"app":"web"}}})"));
  ASSERT_EQ(e.causes["n1"].size(), 1u);
  EXPECT_EQ(e.causes["n1"][0].details["constraint"], "topologySpreadConstraints[2]");
  EXPECT_EQ(e.causes["n1"][0].details["skew"], 3);
}

TEST(ExplainTopologySpread, MinDomainsMakesTheMinimumZero) {
  auto e = ScheduleAndExplainV126(
      kZones, SpreadPod(R"({"maxSkew":1,"topologyKey":"zone","whenUnsatisfiable":"DoNotSchedule",
                    "minDomains":3,"labelSelector":{"matchLabels":{"app":"web"}}})"),
      "", "MinDomainsInPodTopologySpread=true");
  ASSERT_EQ(e.causes["n1"].size(), 1u);
  const Cause& c = e.causes["n1"][0];
  EXPECT_THAT(c.message,
              HasSubstr("counts as 0 (only 2 eligible domain(s), fewer than minDomains 3)"));
  EXPECT_EQ(c.details["minDomains"], 3);
  EXPECT_EQ(c.details["eligibleDomains"], 2);
  EXPECT_EQ(c.details["skew"], 3);
}

}  // namespace topology_spread_test
}  // namespace ksched::explain
