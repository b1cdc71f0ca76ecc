#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "explain/framework_test_util.h"

namespace ksched::explain {
namespace pod_request_test {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::ScheduleAndExplainV126;

const char* kNode = R"({"kind":"List","items":[
  {"kind":"Node","metadata":{"name":"n1"},"status":{"allocatable":{"cpu":"2","memory":"4Gi","pods":"2"}}},
  {"kind":"Pod","metadata":{"name":"old","namespace":"default"},
   "spec":{"nodeName":"n1","containers":[{"name":"c","resources":{"requests":{"cpu":"1"}}}]}}]})";

TEST(ExplainPodRequest, InitContainerAndOverheadAreCounted) {
  auto e =
      ScheduleAndExplainV126(kNode, R"({"kind":"Pod","metadata":{"name":"p","namespace":"default"},
    "spec":{"overhead":{"cpu":"250m"},
      "initContainers":[{"name":"migrate","resources":{"requests":{"cpu":"1500m"}}}],
      "containers":[{"name":"c","resources":{"requests":{"cpu":"500m"}}}]}})");
  EXPECT_EQ(e.plugins["n1"], "NodeResourcesFit");
  EXPECT_THAT(e.reasons["n1"], ElementsAre("Insufficient cpu"));
  EXPECT_THAT(e.Messages("n1"),
              ElementsAre("cpu: the pod requests 1750m, the node has 1 free (allocatable 2, "
                          "requested by its pods 1); the pod's request is init container "
                          "migrate's 1500m (its containers ask 500m) + spec.overhead 250m"));
  const Cause& c = e.causes["n1"][0];
  EXPECT_EQ(c.details["requested"], 1750);
  EXPECT_EQ(c.details["containersRequest"], 500);
  EXPECT_EQ(c.details["initContainer"], "migrate");
  EXPECT_EQ(c.details["overhead"], 250);
}

TEST(ExplainPodRequest, PlainRequestHasNoBreakdown) {
  auto e =
      ScheduleAndExplainV126(kNode, R"({"kind":"Pod","metadata":{"name":"p","namespace":"default"},
    "spec":{"containers":[{"name":"c","resources":{"requests":{"memory":"5Gi"}}}]}})");
  EXPECT_THAT(e.reasons["n1"], ElementsAre("Insufficient memory"));
  EXPECT_THAT(e.Messages("n1"),
              ElementsAre("memory: the pod requests 5Gi, the node has 4Gi free (allocatable 4Gi, "
                          "requested by its pods 0)"));
}

TEST(ExplainPodRequest, TooManyPods) {
  const char* full = R"({"kind":"List","items":[
    {"kind":"Node","metadata":{"name":"n1"},"status":{"allocatable":{"cpu":"2","pods":"1"}}},
    {"kind":"Pod","metadata":{"name":"old","namespace":"default"},
     "spec":{"nodeName":"n1","containers":[{"name":"c"}]}}]})";
  auto e = ScheduleAndExplainV126(
      full,
      R"({"kind":"Pod","metadata":{"name":"p","namespace":"default"},"spec":{"containers":[{"name":"c"}]}})");
  EXPECT_THAT(e.reasons["n1"], ElementsAre("Too many pods"));
  EXPECT_THAT(e.Messages("n1"), ElementsAre("pods: the node allows 1 pods and already counts 1"));
}

// v1.35 counts native sidecars with the containers and pod-level requests
// instead of theirs; the cause says so.
TEST(ExplainPodRequest, V135SidecarsAndPodLevelRequests) {
  const char* sidecar = R"({"kind":"Pod","metadata":{"name":"p","namespace":"default"},
    "spec":{"initContainers":[
      {"name":"proxy","restartPolicy":"Always","resources":{"requests":{"cpu":"500m"}}}],
      "containers":[{"name":"c","resources":{"requests":{"cpu":"800m"}}}]}})";
  // v1.26: max(800m, 500m) fits the 1 cpu free.
  EXPECT_EQ(ScheduleAndExplainV126(kNode, sidecar).chosen, "n1");
  auto e = ScheduleAndExplainV126(kNode, sidecar, "", "", config::SchedulerVersion::kV135);
  EXPECT_THAT(e.reasons["n1"], ElementsAre("Insufficient cpu"));
  EXPECT_THAT(e.Messages("n1"),
              ElementsAre("cpu: the pod requests 1300m, the node has 1 free (allocatable 2, "
                          "requested by its pods 1); the pod's request is 1300m with its init "
                          "containers and sidecars (its containers ask 800m)"));
  EXPECT_EQ(e.causes["n1"][0].details["withInitContainers"], 1300);

  const char* pod_level = R"({"kind":"Pod","metadata":{"name":"p","namespace":"default"},
    "spec":{"resources":{"requests":{"cpu":"1500m"}},
      "containers":[{"name":"c","resources":{"requests":{"cpu":"500m"}}}]}})";
  auto p = ScheduleAndExplainV126(kNode, pod_level, "", "", config::SchedulerVersion::kV135);
  EXPECT_THAT(p.Messages("n1"),
              ElementsAre("cpu: the pod requests 1500m, the node has 1 free (allocatable 2, "
                          "requested by its pods 1); the pod's request is its pod-level request "
                          "(spec.resources) 1500m"));
  EXPECT_EQ(p.causes["n1"][0].details["podLevelRequest"], 1500);
}

}  // namespace pod_request_test
}  // namespace ksched::explain
