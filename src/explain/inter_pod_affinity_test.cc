#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "explain/explain_test_util.h"

namespace ksched::explain {
namespace explain_inter_pod_affinity_test {

using ::testing::ElementsAre;
using testing::List;
using testing::ScheduleAndExplain;

std::string Node(const std::string& name, const std::string& zone) {
  return R"({"kind":"Node","metadata":{"name":")" + name +
         R"(","labels":{"kubernetes.io/hostname":")" + name + R"(","zone":")" + zone +
         R"("}},"status":{"allocatable":{"pods":"10"}}})";
}

std::string Pod(const std::string& name, const std::string& labels, const std::string& node,
                const std::string& affinity = "") {
  std::string s = R"({"kind":"Pod","metadata":{"name":")" + name +
                  R"(","namespace":"shop","labels":)" + labels + R"(},"spec":{)";
  if (!node.empty()) s += R"("nodeName":")" + node + R"(",)";
  if (!affinity.empty()) s += R"("affinity":)" + affinity + ",";
  return s + R"("containers":[{"name":"c"}]}})";
}

const std::string kAntiWebPerHost =
    R"({"podAntiAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[
    {"labelSelector":{"matchLabels":{"app":"web"}},"topologyKey":"kubernetes.io/hostname"}]}})";

TEST(ExplainInterPodAffinity, ExistingPodsAntiAffinityNamesThePodAndTerm) {
  auto e = ScheduleAndExplain(List({Node("n1", "z1"), Node("n2", "z1"),
                                    Pod("web-1", R"({"app":"web"})", "n1", kAntiWebPerHost),
                                    Pod("db-1", R"({"app":"db"})", "n2")}),
                              Pod("web-2", R"({"app":"web"})", ""));
  EXPECT_THAT(e.reasons["n1"],
              ElementsAre("node(s) didn't match pod affinity/anti-affinity",
                          "node(s) didn't satisfy existing pods anti-affinity rules"));
  EXPECT_THAT(e.Messages("n1"),
              ElementsAre("shop/web-1 (on n1) has required anti-affinity against pods matching "
                          "app=web in namespace shop, topologyKey kubernetes.io/hostname"));
  EXPECT_EQ(e.causes["n1"][0].kind, "existingPodAntiAffinity");
  EXPECT_EQ(e.causes["n1"][0].details["podCount"], 1);
  EXPECT_EQ(e.causes.count("n2"), 0u);  // n2 fits
}

TEST(ExplainInterPodAffinity, OwnAntiAffinityNamesThePodsInTheDomain) {
  const std::string anti_zone =
      R"({"podAntiAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[
      {"labelSelector":{"matchExpressions":[{"key":"app","operator":"In","values":["db"]}]},
       "topologyKey":"zone"}]}})";
  auto e = ScheduleAndExplain(
      List({Node("n1", "z1"), Node("n2", "z1"), Node("n3", "z2"),
            Pod("db-1", R"({"app":"db"})", "n1"), Pod("db-2", R"({"app":"db"})", "n2")}),
      Pod("db-3", R"({"app":"db"})", "", anti_zone));
  EXPECT_THAT(e.reasons["n2"], ElementsAre("node(s) didn't match pod affinity/anti-affinity",
                                           "node(s) didn't match pod anti-affinity rules"));
  EXPECT_THAT(e.Messages("n2"),
              ElementsAre("required anti-affinity term 1 (app In (db) in namespace shop, "
                          "topologyKey zone): shop/db-1 (on n1), shop/db-2 (on n2) already run in "
                          "zone=z1"));
  EXPECT_EQ(e.causes.count("n3"), 0u);
}

TEST(ExplainInterPodAffinity, OwnAffinityNamesTheMissingMatch) {
  const std::string with_cache =
      R"({"podAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[
      {"labelSelector":{"matchLabels":{"app":"cache"}},"topologyKey":"zone"}]}})";
  const std::string no_zone =
      R"({"kind":"Node","metadata":{"name":"bare"},"status":{"allocatable":{"pods":"10"}}})";
  auto e = ScheduleAndExplain(List({Node("n1", "z1"), Node("n2", "z2"), no_zone,
                                    Pod("cache-1", R"({"app":"cache"})", "n1")}),
                              Pod("web", R"({"app":"web"})", "", with_cache));
  EXPECT_THAT(e.reasons["n2"], ElementsAre("node(s) didn't match pod affinity/anti-affinity",
                                           "node(s) didn't match pod affinity rules"));
  EXPECT_THAT(e.Messages("n2"),
              ElementsAre("required affinity term 1 (app=cache in namespace shop, topologyKey "
                          "zone): no pod matching it runs in zone=z2"));
  EXPECT_THAT(e.Messages("bare"),
              ElementsAre("required affinity term 1 (app=cache in namespace shop, topologyKey "
                          "zone): the node has no label zone"));
  EXPECT_EQ(e.causes.count("n1"), 0u);
}

}  // namespace explain_inter_pod_affinity_test
}  // namespace ksched::explain
