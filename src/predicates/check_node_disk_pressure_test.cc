#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "predicates/check_test_helper.h"
#include "predicates/factories.h"
#include "tests/fixtures.h"

namespace ksched {
namespace check_node_disk_pressure_test {

using ::testing::ElementsAre;
using testing::RunCheck;
using testing::TestCluster;
using testing::TestPod;

TEST(CheckNodeDiskPressure, RejectsEveryPodOnAPressuredNode) {
  ClusterState c = TestCluster(R"({"kind":"List","items":[
    {"kind":"Node","metadata":{"name":"fine"},"status":{"conditions":[
      {"type":"DiskPressure","status":"False"},{"type":"MemoryPressure","status":"True"}]}},
    {"kind":"Node","metadata":{"name":"unknown"},"status":{"conditions":[
      {"type":"DiskPressure","status":"Unknown"}]}},
    {"kind":"Node","metadata":{"name":"pressured"},"status":{"conditions":[
      {"type":"DiskPressure","status":"True"}]}}]})");
  auto p = NewCheckNodeDiskPressurePredicate();
  Pod pod = TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[
      {"name":"c","resources":{"requests":{"cpu":"1"}}}]}})");
  EXPECT_TRUE(RunCheck(*p, pod, c, "fine").fits);
  EXPECT_TRUE(RunCheck(*p, pod, c, "unknown").fits);
  EXPECT_THAT(RunCheck(*p, pod, c, "pressured").reasons, ElementsAre("node(s) had disk pressure"));
}

}  // namespace check_node_disk_pressure_test
}  // namespace ksched
