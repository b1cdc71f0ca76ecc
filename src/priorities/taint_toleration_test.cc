#include <gtest/gtest.h>

#include <string>

#include "priorities/factories.h"
#include "priorities/priority_test_util.h"
#include "tests/fixtures.h"

namespace ksched {
namespace priorities_taint_toleration_test {

using testing::ListOf;
using testing::ScoreNodes;
using testing::TestCluster;
using testing::TestPod;

std::string Node(const std::string& name, const std::string& taints) {
  return R"({"kind":"Node","metadata":{"name":")" + name + R"("},"spec":{"taints":)" + taints +
         "}}";
}

std::string PodTolerating(const std::string& tolerations) {
  return R"({"kind":"Pod","metadata":{"name":"p","namespace":"default"},"spec":{)"
         R"("containers":[{"name":"c"}],"tolerations":)" +
         tolerations + "}}";
}

class TaintTolerationPriorityTest : public ::testing::Test {
 protected:
  ClusterState c_ = TestCluster(ListOf({
      Node("clean", "[]"),
      Node("one", R"([{"key":"a","value":"1","effect":"PreferNoSchedule"}])"),
      Node("two", R"([{"key":"a","value":"1","effect":"PreferNoSchedule"},
                      {"key":"b","value":"2","effect":"PreferNoSchedule"}])"),
      // Hard taints never count here (the predicates deal with them).
      Node("hard", R"([{"key":"a","value":"1","effect":"NoSchedule"},
                       {"key":"c","value":"3","effect":"NoExecute"}])"),
  }));
  std::unique_ptr<Priority> p_ = NewTaintTolerationPriority();
};

TEST_F(TaintTolerationPriorityTest, FewerIntolerableTaintsScoreHigher) {
  auto s = ScoreNodes(*p_, TestPod(PodTolerating("[]")), c_);
  EXPECT_EQ(s.at("clean"), 10);
  EXPECT_EQ(s.at("one"), 5);  // 10 - 10 * 1 / 2
  EXPECT_EQ(s.at("two"), 0);
  EXPECT_EQ(s.at("hard"), 10);
}

TEST_F(TaintTolerationPriorityTest, TolerationsWithPreferNoScheduleOrNoEffectCount) {
  // Tolerates a=1 with an empty effect (matches every effect).
  auto s = ScoreNodes(
      *p_, TestPod(PodTolerating(R"([{"key":"a","operator":"Equal","value":"1"}])")), c_);
  EXPECT_EQ(s.at("one"), 10);
  EXPECT_EQ(s.at("two"), 0);  // b remains: 1 of max 1
  EXPECT_EQ(s.at("clean"), 10);
  // Exists with no key tolerates everything: all 0 counts -> all 10.
  auto all = ScoreNodes(*p_, TestPod(PodTolerating(R"([{"operator":"Exists"}])")), c_);
  for (const auto& [node, score] : all) EXPECT_EQ(score, 10) << node;
}

TEST_F(TaintTolerationPriorityTest, TolerationsWithOtherEffectsDoNotCount) {
  auto s = ScoreNodes(
      *p_, TestPod(PodTolerating(R"([{"key":"a","operator":"Exists","effect":"NoSchedule"}])")),
      c_);
  EXPECT_EQ(s.at("one"), 5);
  auto prefer = ScoreNodes(
      *p_,
      TestPod(PodTolerating(R"([{"key":"a","operator":"Exists","effect":"PreferNoSchedule"}])")),
      c_);
  EXPECT_EQ(prefer.at("one"), 10);
  EXPECT_EQ(prefer.at("two"), 0);
}

TEST_F(TaintTolerationPriorityTest, ValueMismatchIsNotTolerated) {
  auto s = ScoreNodes(*p_, TestPod(PodTolerating(R"([{"key":"a","value":"2"}])")), c_);
  EXPECT_EQ(s.at("one"), 5);
}

}  // namespace priorities_taint_toleration_test
}  // namespace ksched
