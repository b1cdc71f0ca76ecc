#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "predicates/check_test_helper.h"
#include "predicates/factories.h"
#include "predicates/pressure_conditions.h"
#include "tests/fixtures.h"

namespace ksched {
namespace check_node_memory_pressure_test {

using ::testing::ElementsAre;
using testing::RunCheck;
using testing::TestCluster;
using testing::TestPod;

Pod PodWith(const std::string& spec) {
  return TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":)" + spec + "}");
}

TEST(IsPodBestEffort, RequestsAndLimitsOfRegularContainers) {
  EXPECT_TRUE(IsPodBestEffort(PodWith(R"({"containers":[{"name":"c"}]})")));
  EXPECT_TRUE(IsPodBestEffort(PodWith(R"({"containers":[]})")));
  EXPECT_TRUE(IsPodBestEffort(PodWith(
      R"({"containers":[{"name":"c","resources":{"requests":{"cpu":"0","memory":"0"}}}]})")));
  // Only cpu and memory count.
  EXPECT_TRUE(IsPodBestEffort(PodWith(
      R"({"containers":[{"name":"c","resources":{"requests":{"ephemeral-storage":"1Gi",
          "example.com/gpu":"1"},"limits":{"example.com/gpu":"1"}}}]})")));
  // v1.15's GetPodQOS does not look at init containers.
  EXPECT_TRUE(IsPodBestEffort(PodWith(R"({"initContainers":[{"name":"i","resources":{
      "requests":{"cpu":"1"}}}],"containers":[{"name":"c"}]})")));
  EXPECT_FALSE(IsPodBestEffort(
      PodWith(R"({"containers":[{"name":"c","resources":{"requests":{"cpu":"1m"}}}]})")));
  EXPECT_FALSE(IsPodBestEffort(
      PodWith(R"({"containers":[{"name":"c","resources":{"limits":{"memory":"1"}}}]})")));
  EXPECT_FALSE(IsPodBestEffort(PodWith(
      R"({"containers":[{"name":"a"},{"name":"b","resources":{"requests":{"cpu":"0.0001"}}}]})")));
}

constexpr const char* kCluster = R"({"kind":"List","items":[
  {"kind":"Node","metadata":{"name":"fine"},"status":{"conditions":[
    {"type":"MemoryPressure","status":"False"},{"type":"DiskPressure","status":"True"}]}},
  {"kind":"Node","metadata":{"name":"pressured"},"status":{"conditions":[
    {"type":"MemoryPressure","status":"True"}]}},
  {"kind":"Node","metadata":{"name":"recovered"},"status":{"conditions":[
    {"type":"MemoryPressure","status":"True"},{"type":"MemoryPressure","status":"False"}]}}]})";

TEST(CheckNodeMemoryPressure, OnlyBestEffortPodsAreRejected) {
  ClusterState c = TestCluster(kCluster);
  auto p = NewCheckNodeMemoryPressurePredicate();
  Pod best_effort = PodWith(R"({"containers":[{"name":"c"}]})");
  Pod burstable = PodWith(R"({"containers":[{"name":"c","resources":{"limits":{"cpu":"1"}}}]})");
  EXPECT_TRUE(RunCheck(*p, best_effort, c, "fine").fits);
  EXPECT_THAT(RunCheck(*p, best_effort, c, "pressured").reasons,
              ElementsAre("node(s) had memory pressure"));
  // The last condition of a type wins, as in upstream's NodeInfo.
  EXPECT_TRUE(RunCheck(*p, best_effort, c, "recovered").fits);
  EXPECT_TRUE(RunCheck(*p, burstable, c, "pressured").fits);
}

}  // namespace check_node_memory_pressure_test
}  // namespace ksched
