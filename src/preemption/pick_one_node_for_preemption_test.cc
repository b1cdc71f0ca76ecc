#include "preemption/pick_one_node_for_preemption.h"

#include <gtest/gtest.h>

#include "preemption/preemption_test_util.h"

namespace ksched {
namespace pick_one_node_for_preemption_test {

using namespace ksched::testing;

class PickOneNodeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    cluster_.emplace(TestCluster(ListOf({
        NodeJson("a"),
        NodeJson("b"),
        NodeJson("c"),
        RunningPodJson("a-hi", "a", "1", 100, "2020-01-01T00:00:00Z"),
        RunningPodJson("a-lo", "a", "1", 10, "2020-01-01T00:00:05Z"),
        RunningPodJson("b-hi", "b", "1", 100, "2020-01-01T00:00:10Z"),
        RunningPodJson("b-lo", "b", "1", 10, "2020-01-01T00:00:01Z"),
        RunningPodJson("c-neg1", "c", "1", -5, "2020-01-01T00:00:02Z"),
        RunningPodJson("c-neg2", "c", "1", -5),
    })));
  }
  Victims V(std::vector<std::string> names, int pdb = 0) {
    Victims v;
    for (const auto& n : names) v.pods.push_back(PodNamed(*cluster_, n));
    v.num_pdb_violations = pdb;
    return v;
  }
  NodeId N(const std::string& name) { return cluster_->FindNode(name); }
  std::string Pick(std::vector<std::pair<NodeId, Victims>> c) {
    NodeId n = PickOneNodeForPreemption(*cluster_, c);
    return n == kNoNode ? "<none>" : cluster_->node(n).meta.name;
  }
  std::optional<ClusterState> cluster_;
};

TEST_F(PickOneNodeTest, NoCandidatesNoNode) { EXPECT_EQ(Pick({}), "<none>"); }

TEST_F(PickOneNodeTest, NodeWithoutVictimsWinsOutright) {
  EXPECT_EQ(Pick({{N("c"), V({"c-neg1"})}, {N("b"), V({})}, {N("a"), V({})}}), "a")
      << "the smallest-named node without victims";
}

TEST_F(PickOneNodeTest, FewestBudgetViolationsFirst) {
  EXPECT_EQ(Pick({{N("a"), V({"a-lo"}, 1)}, {N("b"), V({"b-hi", "b-lo"}, 0)}}), "b");
}

TEST_F(PickOneNodeTest, LowestPriorityOfTheFirstVictim) {
  // b's first victim is 10 even though b-hi (100) is also a victim.
  EXPECT_EQ(Pick({{N("a"), V({"a-hi"})}, {N("b"), V({"b-lo", "b-hi"})}}), "b");
}

TEST_F(PickOneNodeTest, SumOfShiftedPrioritiesCountsNegativesAsSmall) {
  // Same first-victim priority (-5): one victim at -5 beats two at -5, whose
  // shifted sum is larger even though the plain sum (-10) is smaller.
  Victims one = V({"c-neg1"});
  Victims two = V({"c-neg1", "c-neg2"});
  EXPECT_EQ(Pick({{N("a"), two}, {N("c"), one}}), "c");
}

TEST_F(PickOneNodeTest, FewestVictimsThenLatestStart) {
  // Equal first priority (10) and sums: the node whose highest-priority
  // victims started latest wins (a-lo 00:05 vs b-lo 00:01).
  EXPECT_EQ(Pick({{N("b"), V({"b-lo"})}, {N("a"), V({"a-lo"})}}), "a");
}

TEST_F(PickOneNodeTest, MissingStartTimeCountsAsLatest) {
  EXPECT_EQ(Pick({{N("a"), V({"c-neg1"})}, {N("c"), V({"c-neg2"})}}), "c");
  // Two nodes without start times tie: the smallest name.
  EXPECT_EQ(Pick({{N("c"), V({"c-neg2"})}, {N("b"), V({"c-neg2"})}}), "b");
}

}  // namespace pick_one_node_for_preemption_test
}  // namespace ksched
