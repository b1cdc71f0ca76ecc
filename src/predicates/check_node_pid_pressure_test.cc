#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "predicates/check_test_helper.h"
#include "predicates/factories.h"
#include "tests/fixtures.h"

namespace ksched {
namespace check_node_pid_pressure_test {

using ::testing::ElementsAre;
using testing::RunCheck;
using testing::TestCluster;
using testing::TestPod;

TEST(CheckNodePIDPressure, RejectsEveryPodOnAPressuredNode) {
  ClusterState c = TestCluster(R"({"kind":"List","items":[
    {"kind":"Node","metadata":{"name":"fine"},"status":{"conditions":[
      {"type":"PIDPressure","status":"False"},{"type":"MemoryPressure","status":"True"}]}},
    {"kind":"Node","metadata":{"name":"unknown"},"status":{"conditions":[
      {"type":"PIDPressure","status":"Unknown"}]}},
    {"kind":"Node","metadata":{"name":"pressured"},"status":{"conditions":[
      {"type":"PIDPressure","status":"True"}]}}]})");
  auto p = NewCheckNodePIDPressurePredicate();
  Pod pod = TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[
      {"name":"c","resources":{"requests":{"cpu":"1"}}}]}})");
  EXPECT_TRUE(RunCheck(*p, pod, c, "fine").fits);
  EXPECT_TRUE(RunCheck(*p, pod, c, "unknown").fits);
  EXPECT_THAT(RunCheck(*p, pod, c, "pressured").reasons, ElementsAre("node(s) had pid pressure"));
}

}  // namespace check_node_pid_pressure_test
}  // namespace ksched
