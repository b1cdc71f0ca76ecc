#include "predicates/pod_fits_resources.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "predicates/check_test_helper.h"
#include "predicates/factories.h"
#include "tests/fixtures.h"

namespace ksched {
namespace pod_fits_resources_test {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using testing::List;
using testing::RunCheck;
using testing::TestCluster;
using testing::TestPod;

std::string NodeJson(const std::string& name, const std::string& allocatable) {
  return R"({"kind":"Node","metadata":{"name":")" + name + R"("},"status":{"allocatable":)" +
         allocatable + "}}";
}

// A pod with one regular container requesting `requests` (a JSON object),
// bound to `node` when non-empty.
std::string PodJson(const std::string& name, const std::string& requests,
                    const std::string& node = "", const std::string& init_requests = "") {
  std::string s =
      R"({"kind":"Pod","metadata":{"name":")" + name + R"(","namespace":"default"},"spec":{)";
  if (!node.empty()) s += R"("nodeName":")" + node + R"(",)";
  if (!init_requests.empty()) {
    s += R"("initContainers":[{"name":"i","resources":{"requests":)" + init_requests + "}}],";
  }
  s += R"("containers":[{"name":"c","resources":{"requests":)" + requests + "}}]}}";
  return s;
}

TEST(PodFitsResources, FitsExactlyAndFailsByOneMilli) {
  ClusterState c = TestCluster(List({NodeJson("n1", R"({"cpu":"1","memory":"1Gi","pods":"10"})"),
                                     PodJson("old", R"({"cpu":"400m","memory":"512Mi"})", "n1")}));
  auto p = NewPodFitsResources();
  auto exact = RunCheck(*p, TestPod(PodJson("new", R"({"cpu":"600m","memory":"512Mi"})")), c, "n1");
  EXPECT_TRUE(exact.fits);
  auto over = RunCheck(*p, TestPod(PodJson("new", R"({"cpu":"601m","memory":"512Mi"})")), c, "n1");
  EXPECT_THAT(over.reasons, ElementsAre("Insufficient cpu"));
}

TEST(PodFitsResources, ZeroRequestPodOnlyChecksPodCount) {
  // The node is overcommitted on cpu and memory; a pod asking for nothing
  // still fits while there is room for one more pod.
  ClusterState c = TestCluster(List({NodeJson("n1", R"({"cpu":"1","memory":"1Gi","pods":"2"})"),
                                     NodeJson("n2", R"({"cpu":"1","memory":"1Gi","pods":"1"})"),
                                     PodJson("a", R"({"cpu":"2","memory":"2Gi"})", "n1"),
                                     PodJson("b", R"({"cpu":"2","memory":"2Gi"})", "n2")}));
  auto p = NewPodFitsResources();
  Pod pod = TestPod(PodJson("new", "{}"));
  EXPECT_TRUE(RunCheck(*p, pod, c, "n1").fits);
  EXPECT_THAT(RunCheck(*p, pod, c, "n2").reasons, ElementsAre("Insufficient pods"));
  // An explicit "0" is still a zero request.
  Pod zero = TestPod(PodJson("new", R"({"cpu":"0","memory":"0"})"));
  EXPECT_TRUE(RunCheck(*p, zero, c, "n1").fits);
}

TEST(PodFitsResources, ScalarRequestedAsZeroDisablesEarlyExit) {
  // Upstream's early exit tests for the presence of scalar entries, so a pod
  // asking for "0" of an extended resource is checked against cpu too.
  ClusterState c = TestCluster(List({NodeJson("n1", R"({"cpu":"1","memory":"1Gi","pods":"10"})"),
                                     PodJson("a", R"({"cpu":"2"})", "n1")}));
  auto p = NewPodFitsResources();
  auto r = RunCheck(*p, TestPod(PodJson("new", R"({"example.com/foo":"0"})")), c, "n1");
  EXPECT_THAT(r.reasons, ElementsAre("Insufficient cpu"));
}

TEST(PodFitsResources, NodeWithoutPodsAllocatable) {
  ClusterState c = TestCluster(List({NodeJson("n1", R"({"cpu":"1"})")}));
  auto p = NewPodFitsResources();
  auto r = RunCheck(*p, TestPod(PodJson("new", R"({"cpu":"100m"})")), c, "n1");
  EXPECT_THAT(r.reasons, ElementsAre("Insufficient pods"));
}

TEST(PodFitsResources, AllReasonsInUpstreamOrder) {
  ClusterState c = TestCluster(List({NodeJson("n1", R"({"cpu":"1","memory":"1Gi","pods":"1",
      "ephemeral-storage":"1Gi","hugepages-2Mi":"4Mi"})"),
                                     PodJson("a", R"({"cpu":"500m"})", "n1")}));
  auto p = NewPodFitsResources();
  auto r = RunCheck(*p, TestPod(PodJson("new", R"({"hugepages-2Mi":"8Mi","example.com/gpu":"1",
                        "ephemeral-storage":"2Gi","memory":"2Gi","cpu":"1"})")),
                    c, "n1");
  EXPECT_THAT(r.reasons, ElementsAre("Insufficient pods", "Insufficient cpu", "Insufficient memory",
                                     "Insufficient ephemeral-storage",
                                     "Insufficient example.com/gpu", "Insufficient hugepages-2Mi"));
}

TEST(PodFitsResources, InitContainerMaxCountsForIncomingPodOnly) {
  // Existing pod: 300m regular + a 2-cpu init container that no longer counts.
  ClusterState c = TestCluster(List({NodeJson("n1", R"({"cpu":"1","memory":"1Gi","pods":"10"})"),
                                     PodJson("a", R"({"cpu":"300m"})", "n1", R"({"cpu":"2"})")}));
  auto p = NewPodFitsResources();
  // Incoming: 200m regular, but an 800m init container raises it to 800m.
  auto r =
      RunCheck(*p, TestPod(PodJson("new", R"({"cpu":"200m"})", "", R"({"cpu":"800m"})")), c, "n1");
  EXPECT_THAT(r.reasons, ElementsAre("Insufficient cpu"));
  auto ok =
      RunCheck(*p, TestPod(PodJson("new", R"({"cpu":"200m"})", "", R"({"cpu":"700m"})")), c, "n1");
  EXPECT_TRUE(ok.fits);
  // An init container asking only for memory does not raise cpu.
  auto mem = RunCheck(*p, TestPod(PodJson("new", R"({"cpu":"700m"})", "", R"({"memory":"1Gi"})")),
                      c, "n1");
  EXPECT_TRUE(mem.fits);
}

TEST(PodFitsResources, OvercommittedNodeRejectsAnyRequest) {
  ClusterState c = TestCluster(List({NodeJson("n1", R"({"cpu":"1","memory":"1Gi","pods":"10"})"),
                                     PodJson("a", R"({"memory":"2Gi"})", "n1")}));
  auto p = NewPodFitsResources();
  auto r = RunCheck(*p, TestPod(PodJson("new", R"({"memory":"1"})")), c, "n1");
  EXPECT_THAT(r.reasons, ElementsAre("Insufficient memory"));
  // Once the pod requests anything, an overcommitted resource fails even when
  // the pod asks for none of it (upstream compares allocatable < 0 + used).
  auto cpu = RunCheck(*p, TestPod(PodJson("new", R"({"cpu":"1m"})")), c, "n1");
  EXPECT_THAT(cpu.reasons, ElementsAre("Insufficient memory"));
}

TEST(PodFitsResources, ExtendedResourceAndHugepages) {
  ClusterState c = TestCluster(List(
      {NodeJson("n1", R"({"cpu":"4","pods":"10","example.com/gpu":"2","hugepages-2Mi":"10Mi"})"),
       NodeJson("n2", R"({"cpu":"4","pods":"10"})"),
       PodJson("a", R"({"example.com/gpu":"1","hugepages-2Mi":"6Mi"})", "n1")}));
  auto p = NewPodFitsResources();
  Pod gpu = TestPod(PodJson("new", R"({"example.com/gpu":"1"})"));
  EXPECT_TRUE(RunCheck(*p, gpu, c, "n1").fits);
  EXPECT_THAT(RunCheck(*p, gpu, c, "n2").reasons, ElementsAre("Insufficient example.com/gpu"));
  Pod two = TestPod(PodJson("new", R"({"example.com/gpu":"2"})"));
  EXPECT_THAT(RunCheck(*p, two, c, "n1").reasons, ElementsAre("Insufficient example.com/gpu"));
  Pod huge = TestPod(PodJson("new", R"({"hugepages-2Mi":"6Mi"})"));
  EXPECT_THAT(RunCheck(*p, huge, c, "n1").reasons, ElementsAre("Insufficient hugepages-2Mi"));
  Pod huge_ok = TestPod(PodJson("new", R"({"hugepages-2Mi":"4Mi"})"));
  EXPECT_TRUE(RunCheck(*p, huge_ok, c, "n1").fits);
}

TEST(PodFitsResources, IgnoredExtendedResources) {
  ClusterState c = TestCluster(List({NodeJson("n1", R"({"cpu":"4","pods":"10"})")}));
  auto p = NewPodFitsResourcesIgnoring({"example.com/gpu", "hugepages-2Mi"});
  auto gpu = RunCheck(*p, TestPod(PodJson("new", R"({"example.com/gpu":"3"})")), c, "n1");
  EXPECT_TRUE(gpu.fits);
  auto other = RunCheck(*p, TestPod(PodJson("new", R"({"example.com/foo":"1"})")), c, "n1");
  EXPECT_THAT(other.reasons, ElementsAre("Insufficient example.com/foo"));
  // Only extended resources can be ignored; hugepages are still checked.
  auto huge = RunCheck(*p, TestPod(PodJson("new", R"({"hugepages-2Mi":"2Mi"})")), c, "n1");
  EXPECT_THAT(huge.reasons, ElementsAre("Insufficient hugepages-2Mi"));
}

TEST(PodFitsResources, NonScalarUnknownResourcesAreIgnored) {
  // A plain name without a domain is not an extended resource: not counted.
  ClusterState c = TestCluster(List({NodeJson("n1", R"({"cpu":"4","pods":"10"})")}));
  auto p = NewPodFitsResources();
  auto r = RunCheck(*p, TestPod(PodJson("new", R"({"foo":"1"})")), c, "n1");
  EXPECT_TRUE(r.fits);
  EXPECT_THAT(r.reasons, IsEmpty());
}

}  // namespace pod_fits_resources_test
}  // namespace ksched
