#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "predicates/check_test_helper.h"
#include "predicates/factories.h"
#include "tests/fixtures.h"

namespace ksched {
namespace check_node_condition_test {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using testing::RunCheck;
using testing::TestCluster;
using testing::TestPod;

constexpr const char* kCluster = R"({"kind":"List","items":[
  {"kind":"Node","metadata":{"name":"noconds"}},
  {"kind":"Node","metadata":{"name":"healthy"},"status":{"conditions":[
    {"type":"Ready","status":"True"},{"type":"NetworkUnavailable","status":"False"},
    {"type":"OutOfDisk","status":"True"},{"type":"MemoryPressure","status":"True"}]}},
  {"kind":"Node","metadata":{"name":"notready"},"status":{"conditions":[
    {"type":"Ready","status":"Unknown"}]}},
  {"kind":"Node","metadata":{"name":"everything"},"spec":{"unschedulable":true},
   "status":{"conditions":[{"type":"NetworkUnavailable","status":"Unknown"},
    {"type":"Ready","status":"False"}]}}]})";

TEST(CheckNodeCondition, Reasons) {
  ClusterState c = TestCluster(kCluster);
  Pod pod = TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[]}})");
  auto p = NewCheckNodeConditionPredicate();
  EXPECT_TRUE(RunCheck(*p, pod, c, "noconds").fits);
  // v1.15 ignores OutOfDisk; pressure conditions belong to other predicates.
  EXPECT_THAT(RunCheck(*p, pod, c, "healthy").reasons, IsEmpty());
  EXPECT_THAT(RunCheck(*p, pod, c, "notready").reasons, ElementsAre("node(s) were not ready"));
  // One reason per condition, in the node's order, then unschedulable.
  EXPECT_THAT(RunCheck(*p, pod, c, "everything").reasons,
              ElementsAre("node(s) had unavailable network", "node(s) were not ready",
                          "node(s) were unschedulable"));
}

}  // namespace check_node_condition_test
}  // namespace ksched
