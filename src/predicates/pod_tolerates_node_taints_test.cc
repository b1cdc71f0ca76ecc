#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "predicates/check_test_helper.h"
#include "predicates/factories.h"
#include "tests/fixtures.h"

namespace ksched {
namespace pod_tolerates_node_taints_test {

using ::testing::ElementsAre;
using testing::RunCheck;
using testing::TestCluster;
using testing::TestPod;

constexpr const char* kCluster = R"({"kind":"List","items":[
  {"kind":"Node","metadata":{"name":"plain"}},
  {"kind":"Node","metadata":{"name":"prefer"},"spec":{"taints":[
    {"key":"k","value":"v","effect":"PreferNoSchedule"}]}},
  {"kind":"Node","metadata":{"name":"nosched"},"spec":{"taints":[
    {"key":"k","value":"v","effect":"NoSchedule"}]}},
  {"kind":"Node","metadata":{"name":"noexec"},"spec":{"taints":[
    {"key":"e","value":"x","effect":"NoExecute"}]}},
  {"kind":"Node","metadata":{"name":"both"},"spec":{"taints":[
    {"key":"k","value":"v","effect":"NoSchedule"},{"key":"e","value":"x","effect":"NoExecute"}]}}
  ]})";

Pod PodTolerating(const std::string& tolerations) {
  return TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{"tolerations":)" + tolerations +
                 R"(,"containers":[]}})");
}

std::string Fitting(const Predicate& p, const Pod& pod) {
  static const ClusterState c = TestCluster(kCluster);
  std::string out;
  for (const char* n : {"plain", "prefer", "nosched", "noexec", "both"}) {
    auto r = RunCheck(p, pod, c, n);
    if (r.fits) {
      out += out.empty() ? "" : ",";
      out += n;
    } else {
      EXPECT_THAT(r.reasons, ElementsAre("node(s) had taints that the pod didn't tolerate"));
    }
  }
  return out;
}

TEST(PodToleratesNodeTaints, NoTolerations) {
  EXPECT_EQ(Fitting(*NewPodToleratesNodeTaints(), PodTolerating("[]")), "plain,prefer");
}

TEST(PodToleratesNodeTaints, ToleratingOneTaintIsNotEnoughForTwo) {
  EXPECT_EQ(Fitting(*NewPodToleratesNodeTaints(),
                    PodTolerating(R"([{"key":"k","operator":"Equal","value":"v"}])")),
            "plain,prefer,nosched");
  EXPECT_EQ(Fitting(*NewPodToleratesNodeTaints(),
                    PodTolerating(R"([{"key":"k","value":"v","effect":"NoSchedule"},
                                      {"key":"e","operator":"Exists","effect":"NoExecute",
                                       "tolerationSeconds":60}])")),
            "plain,prefer,nosched,noexec,both");
}

TEST(PodToleratesNodeTaints, ExistsWithoutKeyToleratesEverything) {
  EXPECT_EQ(Fitting(*NewPodToleratesNodeTaints(), PodTolerating(R"([{"operator":"Exists"}])")),
            "plain,prefer,nosched,noexec,both");
}

TEST(PodToleratesNodeTaints, WrongEffectOrValue) {
  EXPECT_EQ(Fitting(*NewPodToleratesNodeTaints(),
                    PodTolerating(R"([{"key":"k","value":"v","effect":"NoExecute"},
                                      {"key":"e","value":"y"}])")),
            "plain,prefer");
}

TEST(PodToleratesNodeNoExecuteTaints, OnlyNoExecuteCounts) {
  auto p = NewPodToleratesNodeNoExecuteTaints();
  EXPECT_EQ(Fitting(*p, PodTolerating("[]")), "plain,prefer,nosched");
  EXPECT_EQ(Fitting(*p, PodTolerating(R"([{"key":"e","operator":"Exists"}])")),
            "plain,prefer,nosched,noexec,both");
}

}  // namespace pod_tolerates_node_taints_test
}  // namespace ksched
