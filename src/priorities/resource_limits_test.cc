#include <gtest/gtest.h>

#include <string>

#include "priorities/factories.h"
#include "priorities/priority_test_util.h"
#include "tests/fixtures.h"

namespace ksched {
namespace resource_limits_test {

using testing::ListOf;
using testing::ScoreNodes;
using testing::TestCluster;
using testing::TestPod;

std::string Node(const std::string& name, const std::string& allocatable) {
  return R"({"kind":"Node","metadata":{"name":")" + name + R"("},"status":{"allocatable":)" +
         allocatable + "}}";
}

std::string PodWithLimits(const std::vector<std::string>& limits,
                          const std::string& init_limits = "") {
  std::string s = R"({"kind":"Pod","metadata":{"name":"p","namespace":"default"},"spec":{)";
  if (!init_limits.empty()) {
    s += R"("initContainers":[{"name":"i","resources":{"limits":)" + init_limits + "}}],";
  }
  s += R"("containers":[)";
  for (size_t i = 0; i < limits.size(); ++i) {
    if (i > 0) s += ",";
    s += R"({"name":"c)" + std::to_string(i) + R"(","resources":{"limits":)" + limits[i] + "}}";
  }
  return s + "]}}";
}

class ResourceLimitsPriorityTest : public ::testing::Test {
 protected:
  ClusterState c_ = TestCluster(ListOf({Node("big", R"({"cpu":"4","memory":"8Gi"})"),
                                        Node("small", R"({"cpu":"1","memory":"1Gi"})"),
                                        Node("cpuonly", R"({"cpu":"4"})"), Node("none", "{}")}));
  std::unique_ptr<Priority> p_ = NewResourceLimitsPriority();
};

TEST_F(ResourceLimitsPriorityTest, EitherResourceFittingScoresOne) {
  auto s = ScoreNodes(*p_, TestPod(PodWithLimits({R"({"cpu":"2","memory":"2Gi"})"})), c_);
  EXPECT_EQ(s.at("big"), 1);
  EXPECT_EQ(s.at("small"), 0);
  EXPECT_EQ(s.at("cpuonly"), 1);  // cpu fits; memory allocatable 0 does not count
  EXPECT_EQ(s.at("none"), 0);
  // Only memory fits on "small".
  auto m = ScoreNodes(*p_, TestPod(PodWithLimits({R"({"cpu":"2","memory":"512Mi"})"})), c_);
  EXPECT_EQ(m.at("small"), 1);
}

TEST_F(ResourceLimitsPriorityTest, NoLimitsScoresZero) {
  auto s = ScoreNodes(*p_, TestPod(PodWithLimits({"{}"})), c_);
  for (const auto& [node, score] : s) EXPECT_EQ(score, 0) << node;
  // An explicit zero limit is no limit either.
  auto z = ScoreNodes(*p_, TestPod(PodWithLimits({R"({"cpu":"0"})"})), c_);
  EXPECT_EQ(z.at("big"), 0);
}

TEST_F(ResourceLimitsPriorityTest, LimitsSumOverContainersAndTakeInitMax) {
  // 600m + 600m = 1200m does not fit "small" (1 cpu).
  auto sum =
      ScoreNodes(*p_, TestPod(PodWithLimits({R"({"cpu":"600m"})", R"({"cpu":"600m"})"})), c_);
  EXPECT_EQ(sum.at("small"), 0);
  EXPECT_EQ(sum.at("big"), 1);
  // An init container's larger limit raises the pod's limit.
  auto init = ScoreNodes(*p_, TestPod(PodWithLimits({R"({"cpu":"500m"})"}, R"({"cpu":"2"})")), c_);
  EXPECT_EQ(init.at("small"), 0);
  auto init_small =
      ScoreNodes(*p_, TestPod(PodWithLimits({R"({"cpu":"500m"})"}, R"({"cpu":"100m"})")), c_);
  EXPECT_EQ(init_small.at("small"), 1);
}

TEST_F(ResourceLimitsPriorityTest, ExactFitCounts) {
  auto s = ScoreNodes(*p_, TestPod(PodWithLimits({R"({"cpu":"1"})"})), c_);
  EXPECT_EQ(s.at("small"), 1);
}

}  // namespace resource_limits_test
}  // namespace ksched
