#include "priorities/requested_to_capacity_ratio.h"

#include <gtest/gtest.h>

#include <string>

#include "priorities/factories.h"
#include "priorities/priority_test_util.h"
#include "tests/fixtures.h"

namespace ksched {
namespace requested_to_capacity_ratio_test {

using testing::ListOf;
using testing::ScoreNodes;
using testing::TestCluster;
using testing::TestPod;

TEST(RequestedToCapacityRatioPriority, BrokenLinearDefaultShape) {
  FunctionShape shape = DefaultFunctionShape();
  EXPECT_EQ(BrokenLinear(shape, 0), 10);
  EXPECT_EQ(BrokenLinear(shape, 100), 0);
  EXPECT_EQ(BrokenLinear(shape, 50), 5);
  // 10 + (0 - 10) * 15 / 100 = 10 + (-150 / 100) = 10 - 1 (truncated toward 0).
  EXPECT_EQ(BrokenLinear(shape, 15), 9);
  EXPECT_EQ(BrokenLinear(shape, 99), 1);
}

TEST(RequestedToCapacityRatioPriority, BrokenLinearOutsideAndBetweenPoints) {
  FunctionShape shape = {{20, 2}, {60, 9}, {90, 3}};
  EXPECT_EQ(BrokenLinear(shape, 0), 2);  // before the first point
  EXPECT_EQ(BrokenLinear(shape, 20), 2);
  EXPECT_EQ(BrokenLinear(shape, 40), 5);  // 2 + 7 * 20 / 40 = 2 + 3
  EXPECT_EQ(BrokenLinear(shape, 60), 9);
  EXPECT_EQ(BrokenLinear(shape, 61), 9);   // 9 + (-6 * 1) / 30 = 9 + 0
  EXPECT_EQ(BrokenLinear(shape, 75), 6);   // 9 + (-6 * 15) / 30 = 9 - 3
  EXPECT_EQ(BrokenLinear(shape, 100), 3);  // after the last point
  EXPECT_EQ(BrokenLinear({{50, 7}}, 10), 7);
  EXPECT_EQ(BrokenLinear({{50, 7}}, 90), 7);
}

TEST(RequestedToCapacityRatioPriority, Validate) {
  EXPECT_TRUE(ValidateFunctionShape(DefaultFunctionShape()).ok());
  EXPECT_EQ(ValidateFunctionShape({}).error().message, "at least one point must be specified");
  EXPECT_EQ(ValidateFunctionShape({{10, 1}, {10, 2}}).error().message,
            "utilization values must be sorted. Utilization[0]==10 >= Utilization[1]==10");
  EXPECT_EQ(ValidateFunctionShape({{-1, 1}}).error().message,
            "utilization values must not be less than 0. Utilization[0]==-1");
  EXPECT_EQ(ValidateFunctionShape({{0, 1}, {101, 1}}).error().message,
            "utilization values must not be greater than 100. Utilization[1]==101");
  EXPECT_EQ(ValidateFunctionShape({{0, -1}}).error().message,
            "score values must not be less than 0. Score[0]==-1");
  EXPECT_EQ(ValidateFunctionShape({{0, 11}}).error().message,
            "score valuses not be greater than 10. Score[0]==11");
}

std::string Node(const std::string& name, const std::string& cpu, const std::string& mem) {
  return R"({"kind":"Node","metadata":{"name":")" + name +
         R"("},"status":{"allocatable":{"cpu":")" + cpu + R"(","memory":")" + mem + R"("}}})";
}

std::string PodRequesting(const std::string& cpu, const std::string& mem) {
  return R"({"kind":"Pod","metadata":{"name":"p","namespace":"default"},"spec":{"containers":[)"
         R"({"name":"c","resources":{"requests":{"cpu":")" +
         cpu + R"(","memory":")" + mem + R"("}}}]}})";
}

TEST(RequestedToCapacityRatioPriority, ScoresCpuAndMemoryAndAverages) {
  ClusterState c = TestCluster(
      ListOf({Node("n1", "1", "1000"), Node("n2", "0", "1000"), Node("n3", "100m", "1000")}));
  Pod pod = TestPod(PodRequesting("250m", "500"));
  // Utilization is 100 - floor(free% ): cpu 25 -> f = 10 + (-10*25)/100 = 8,
  // memory 50 -> 5; (8 + 5) / 2 = 6.
  auto def = ScoreNodes(*NewRequestedToCapacityRatioPriority({}), pod, c);
  EXPECT_EQ(def.at("n1"), 6);
  // No cpu: scored as 100% used (0); memory 5; (0 + 5) / 2 = 2.
  EXPECT_EQ(def.at("n2"), 2);
  // Over-committed cpu: also 100%.
  EXPECT_EQ(def.at("n3"), 2);

  auto peak =
      ScoreNodes(*NewRequestedToCapacityRatioPriority({{0, 0}, {50, 10}, {100, 0}}), pod, c);
  EXPECT_EQ(peak.at("n1"), 7);  // cpu 25% -> 5, memory 50% -> 10
  EXPECT_EQ(peak.at("n2"), 5);
}

TEST(RequestedToCapacityRatioPriority, UtilizationRoundsUp) {
  // cpu 1m of 1000m: free 999*100/1000 = 99 (truncated), utilization 1%.
  ClusterState c = TestCluster(ListOf({Node("n1", "1", "1000")}));
  auto p = NewRequestedToCapacityRatioPriority({{0, 0}, {1, 10}});
  EXPECT_EQ(ScoreNodes(*p, TestPod(PodRequesting("1m", "0")), c).at("n1"), 5);
}

}  // namespace requested_to_capacity_ratio_test
}  // namespace ksched
