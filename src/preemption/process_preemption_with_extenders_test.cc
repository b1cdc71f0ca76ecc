#include "preemption/process_preemption_with_extenders.h"

#include <gtest/gtest.h>

#include "preemption/preemption_test_util.h"

namespace ksched {
namespace process_preemption_with_extenders_test {

using namespace ksched::testing;

class ProcessPreemptionWithExtendersTest : public ::testing::Test {
 protected:
  void SetUp() override {
    cluster_.emplace(TestCluster(ListOf({
        NodeJson("a"),
        NodeJson("b"),
        RunningPodJson("a-lo", "a", "1", 10),
        RunningPodJson("b-lo", "b", "1", 10),
        RunningPodJson("b-lo2", "b", "1", 5),
    })));
    candidates_ = {{cluster_->FindNode("a"), Victims{{PodNamed(*cluster_, "a-lo")}, 1}},
                   {cluster_->FindNode("b"),
                    Victims{{PodNamed(*cluster_, "b-lo"), PodNamed(*cluster_, "b-lo2")}, 0}}};
  }
  FakeExtender* Add(std::unique_ptr<FakeExtender> e) {
    extenders_.push_back(std::move(e));
    return static_cast<FakeExtender*>(extenders_.back().get());
  }
  Status Run() { return ProcessPreemptionWithExtenders(pod_, *cluster_, extenders_, &candidates_); }
  static FakeExtender::Answer KeepOnly(NodeId node) {
    return [node](const std::vector<ExtenderNodeVictims>& in) {
      std::vector<ExtenderNodeVictims> out;
      for (const auto& v : in)
        if (v.node == node) out.push_back({v.node, v.pods, 0});
      return Result<std::vector<ExtenderNodeVictims>>(out);
    };
  }

  Pod pod_;
  std::optional<ClusterState> cluster_;
  std::vector<std::pair<NodeId, Victims>> candidates_;
  std::vector<std::unique_ptr<SchedulerExtender>> extenders_;
};

TEST_F(ProcessPreemptionWithExtendersTest, WithoutPreemptingExtendersNothingChanges) {
  FakeExtender* e = Add(std::make_unique<FakeExtender>("x", KeepOnly(0), /*preempts=*/false));
  ASSERT_TRUE(Run().ok());
  EXPECT_EQ(e->calls, 0);
  EXPECT_EQ(candidates_.size(), 2u);
  EXPECT_EQ(candidates_[0].second.num_pdb_violations, 1);
}

TEST_F(ProcessPreemptionWithExtendersTest, AnswerReplacesCandidatesForTheNextExtender) {
  NodeId b = cluster_->FindNode("b");
  FakeExtender* first = Add(std::make_unique<FakeExtender>("first", KeepOnly(b)));
  FakeExtender* second =
      Add(std::make_unique<FakeExtender>("second", [](const std::vector<ExtenderNodeVictims>& in) {
        // Keeps b but spares its first victim.
        std::vector<ExtenderNodeVictims> out = in;
        out[0].pods.erase(out[0].pods.begin());
        return Result<std::vector<ExtenderNodeVictims>>(out);
      }));
  ASSERT_TRUE(Run().ok());
  EXPECT_EQ(first->asked.size(), 2u);
  EXPECT_EQ(first->asked[0].num_pdb_violations, 1) << "the extender sees the violation count";
  ASSERT_EQ(second->asked.size(), 1u);
  EXPECT_EQ(second->asked[0].node, b);
  ASSERT_EQ(candidates_.size(), 1u);
  EXPECT_EQ(candidates_[0].first, b);
  EXPECT_EQ(candidates_[0].second.pods, std::vector<PodId>{PodNamed(*cluster_, "b-lo2")});
}

TEST_F(ProcessPreemptionWithExtendersTest, EmptyAnswerStopsTheRest) {
  FakeExtender* first =
      Add(std::make_unique<FakeExtender>("first", [](const std::vector<ExtenderNodeVictims>&) {
        return Result<std::vector<ExtenderNodeVictims>>(std::vector<ExtenderNodeVictims>{});
      }));
  FakeExtender* second = Add(std::make_unique<FakeExtender>("second", KeepOnly(0)));
  ASSERT_TRUE(Run().ok());
  EXPECT_EQ(first->calls, 1);
  EXPECT_EQ(second->calls, 0);
  EXPECT_TRUE(candidates_.empty());
}

TEST_F(ProcessPreemptionWithExtendersTest, NoCandidatesNoCalls) {
  candidates_.clear();
  FakeExtender* e = Add(std::make_unique<FakeExtender>("x", KeepOnly(0)));
  ASSERT_TRUE(Run().ok());
  EXPECT_EQ(e->calls, 0);
}

TEST_F(ProcessPreemptionWithExtendersTest, UninterestedExtenderIsNotAsked) {
  FakeExtender* e = Add(std::make_unique<FakeExtender>("x", KeepOnly(0), true,
                                                       /*interested=*/false));
  ASSERT_TRUE(Run().ok());
  EXPECT_EQ(e->calls, 0);
  EXPECT_EQ(candidates_.size(), 2u);
}

TEST_F(ProcessPreemptionWithExtendersTest, ErrorsEndPreemptionUnlessIgnorable) {
  auto fail = [](const auto&) {
    return Result<std::vector<ExtenderNodeVictims>>(MakeError("boom"));
  };
  Add(std::make_unique<FakeExtender>("ignorable", fail, true, true, /*ignorable=*/true));
  ASSERT_TRUE(Run().ok()) << "an ignorable extender's error is skipped";
  EXPECT_EQ(candidates_.size(), 2u);
  Add(std::make_unique<FakeExtender>("strict", fail));
  Status s = Run();
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message, "boom");
}

}  // namespace process_preemption_with_extenders_test
}  // namespace ksched
