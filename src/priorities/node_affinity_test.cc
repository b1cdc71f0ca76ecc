#include <gtest/gtest.h>

#include <string>

#include "priorities/factories.h"
#include "priorities/priority_test_util.h"
#include "tests/fixtures.h"

namespace ksched {
namespace priorities_node_affinity_test {

using testing::ListOf;
using testing::ScoreNodes;
using testing::TestCluster;
using testing::TestPod;

std::string PodPreferring(const std::string& terms) {
  return R"({"kind":"Pod","metadata":{"name":"p","namespace":"default"},"spec":{)"
         R"("containers":[{"name":"c"}],"affinity":{"nodeAffinity":{)"
         R"("preferredDuringSchedulingIgnoredDuringExecution":)" +
         terms + "}}}}";
}

class NodeAffinityPriorityTest : public ::testing::Test {
 protected:
  ClusterState c_ = TestCluster(ListOf({
      R"({"kind":"Node","metadata":{"name":"a-ssd","labels":{"zone":"a","disk":"ssd","cores":"8"}}})",
      R"({"kind":"Node","metadata":{"name":"a-hdd","labels":{"zone":"a","disk":"hdd","cores":"2"}}})",
      R"({"kind":"Node","metadata":{"name":"b-ssd","labels":{"zone":"b","disk":"ssd"}}})",
      R"({"kind":"Node","metadata":{"name":"bare"}})",
  }));
  std::unique_ptr<Priority> p_ = NewNodeAffinityPriority();
};

TEST_F(NodeAffinityPriorityTest, SumsMatchingWeightsAndNormalises) {
  Pod pod = TestPod(PodPreferring(R"([
      {"weight":2,"preference":{"matchExpressions":[{"key":"zone","operator":"In","values":["a"]}]}},
      {"weight":3,"preference":{"matchExpressions":[{"key":"disk","operator":"In","values":["ssd"]}]}}
  ])"));
  auto s = ScoreNodes(*p_, pod, c_);
  EXPECT_EQ(s.at("a-ssd"), 10);  // 5 of 5
  EXPECT_EQ(s.at("a-hdd"), 4);   // 10 * 2 / 5
  EXPECT_EQ(s.at("b-ssd"), 6);   // 10 * 3 / 5
  EXPECT_EQ(s.at("bare"), 0);
}

TEST_F(NodeAffinityPriorityTest, NoPreferencesScoresZeroEverywhere) {
  Pod pod = TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[]}})");
  for (const auto& [node, score] : ScoreNodes(*p_, pod, c_)) EXPECT_EQ(score, 0) << node;
  // Terms that match no node: all 0 as well (nothing to normalise by).
  Pod none = TestPod(PodPreferring(
      R"([{"weight":5,"preference":{"matchExpressions":[{"key":"zone","operator":"In","values":["z"]}]}}])"));
  for (const auto& [node, score] : ScoreNodes(*p_, none, c_)) EXPECT_EQ(score, 0) << node;
}

TEST_F(NodeAffinityPriorityTest, AllMatchingNodesEqualScoreTen) {
  Pod pod = TestPod(PodPreferring(
      R"([{"weight":1,"preference":{"matchExpressions":[{"key":"zone","operator":"DoesNotExist"}]}}])"));
  auto s = ScoreNodes(*p_, pod, c_);
  EXPECT_EQ(s.at("bare"), 10);
  EXPECT_EQ(s.at("a-ssd"), 0);
}

TEST_F(NodeAffinityPriorityTest, EmptyPreferenceMatchesNothing) {
  // Upstream builds the selector from matchExpressions only: an empty list is
  // labels.Nothing(), and matchFields are ignored.
  Pod pod = TestPod(PodPreferring(R"([
      {"weight":4,"preference":{}},
      {"weight":4,"preference":{"matchFields":[{"key":"metadata.name","operator":"In","values":["bare"]}]}},
      {"weight":1,"preference":{"matchExpressions":[{"key":"disk","operator":"Exists"}]}}
  ])"));
  auto s = ScoreNodes(*p_, pod, c_);
  EXPECT_EQ(s.at("a-ssd"), 10);
  EXPECT_EQ(s.at("bare"), 0);
}

TEST_F(NodeAffinityPriorityTest, ZeroWeightTermsAreSkipped) {
  // Terms without a weight (0: the decoder rejects an explicit weight outside
  // 1-100, as the API server does). Even an invalid one (Gt with a
  // non-integer) is never compiled.
  Pod pod = TestPod(PodPreferring(R"([
      {"preference":{"matchExpressions":[{"key":"cores","operator":"Gt","values":["x"]}]}},
      {"preference":{"matchExpressions":[{"key":"zone","operator":"In","values":["b"]}]}},
      {"weight":1,"preference":{"matchExpressions":[{"key":"zone","operator":"In","values":["a"]}]}}
  ])"));
  auto s = ScoreNodes(*p_, pod, c_);
  EXPECT_EQ(s.at("a-hdd"), 10);
  EXPECT_EQ(s.at("b-ssd"), 0);
}

TEST_F(NodeAffinityPriorityTest, GtLt) {
  Pod pod = TestPod(PodPreferring(R"([
      {"weight":1,"preference":{"matchExpressions":[{"key":"cores","operator":"Gt","values":["4"]}]}},
      {"weight":1,"preference":{"matchExpressions":[{"key":"cores","operator":"Lt","values":["4"]}]}}
  ])"));
  auto s = ScoreNodes(*p_, pod, c_);
  EXPECT_EQ(s.at("a-ssd"), 10);
  EXPECT_EQ(s.at("a-hdd"), 10);
  EXPECT_EQ(s.at("b-ssd"), 0);  // no label: neither Gt nor Lt matches
}

TEST_F(NodeAffinityPriorityTest, InvalidTermScoresZero) {
  // Upstream fails the cycle here; the priority itself contributes nothing.
  Pod pod = TestPod(PodPreferring(R"([
      {"weight":1,"preference":{"matchExpressions":[{"key":"zone","operator":"In","values":["a"]}]}},
      {"weight":1,"preference":{"matchExpressions":[{"key":"cores","operator":"Gt","values":["x"]}]}}
  ])"));
  for (const auto& [node, score] : ScoreNodes(*p_, pod, c_)) EXPECT_EQ(score, 0) << node;
}

}  // namespace priorities_node_affinity_test
}  // namespace ksched
