#include "predicates/general_predicates.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "predicates/check_test_helper.h"
#include "predicates/factories.h"
#include "tests/fixtures.h"

namespace ksched {
namespace general_predicates_test {

using ::testing::ElementsAre;
using testing::RunCheck;
using testing::TestCluster;
using testing::TestPod;

constexpr const char* kCluster = R"({"kind":"List","items":[
  {"kind":"Node","metadata":{"name":"n1","labels":{"zone":"a"}},
   "status":{"allocatable":{"cpu":"1","memory":"1Gi","pods":"1"}}},
  {"kind":"Node","metadata":{"name":"n2","labels":{"zone":"b"}},
   "status":{"allocatable":{"cpu":"4","memory":"4Gi","pods":"10"}}},
  {"kind":"Pod","metadata":{"name":"old"},"spec":{"nodeName":"n1","containers":[
   {"name":"c","ports":[{"containerPort":80,"hostPort":80}]}]}}]})";

TEST(GeneralPredicates, ReportsEveryReasonInUpstreamOrder) {
  ClusterState c = TestCluster(kCluster);
  Pod pod = TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{
      "nodeName":"n2","nodeSelector":{"zone":"b"},
      "containers":[{"name":"c","resources":{"requests":{"cpu":"2","memory":"2Gi",
        "example.com/gpu":"1"}},"ports":[{"containerPort":80,"hostPort":80}]}]}})");
  auto p = NewGeneralPredicates();
  EXPECT_THAT(
      RunCheck(*p, pod, c, "n1").reasons,
      ElementsAre("Insufficient pods", "Insufficient cpu", "Insufficient memory",
                  "Insufficient example.com/gpu", "node(s) didn't match the requested hostname",
                  "node(s) didn't have free ports for the requested pod ports",
                  "node(s) didn't match node selector"));
  EXPECT_THAT(RunCheck(*p, pod, c, "n2").reasons, ElementsAre("Insufficient example.com/gpu"));
}

TEST(GeneralPredicates, FitsWhenAllPartsFit) {
  ClusterState c = TestCluster(kCluster);
  Pod pod = TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{"nodeSelector":{"zone":"b"},
      "containers":[{"name":"c","resources":{"requests":{"cpu":"2"}},
        "ports":[{"containerPort":80,"hostPort":80}]}]}})");
  auto p = NewGeneralPredicates();
  EXPECT_TRUE(RunCheck(*p, pod, c, "n2").fits);
}

TEST(GeneralPredicates, LaterPartsStillRunAfterAFailure) {
  ClusterState c = TestCluster(kCluster);
  Pod pod = TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{"nodeSelector":{"zone":"b"},
      "containers":[]}})");
  auto p = NewGeneralPredicates();
  EXPECT_THAT(RunCheck(*p, pod, c, "n1").reasons,
              ElementsAre("Insufficient pods", "node(s) didn't match node selector"));
}

TEST(GeneralPredicates, IgnoredExtendedResources) {
  ClusterState c = TestCluster(kCluster);
  Pod pod = TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{
      "containers":[{"name":"c","resources":{"requests":{"example.com/gpu":"1"}}}]}})");
  EXPECT_FALSE(RunCheck(*NewGeneralPredicates(), pod, c, "n2").fits);
  EXPECT_TRUE(RunCheck(*NewGeneralPredicatesIgnoring({"example.com/gpu"}), pod, c, "n2").fits);
}

}  // namespace general_predicates_test
}  // namespace ksched
