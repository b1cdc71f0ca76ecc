#include "framework/preemption/preemption.h"

#include <gtest/gtest.h>

#include <functional>

#include "framework/plugins/testing/fake_handle.h"
#include "preemption/preemption_test_util.h"
#include "tests/fixtures.h"

namespace ksched::framework::preemption {
namespace preemption_test {

using framework::testing::FakeHandle;
using ksched::testing::FakeExtender;
using ksched::testing::TestCluster;
using ksched::testing::TestPod;

class CallExtendersTest : public ::testing::Test {
 protected:
  void SetUp() override {
    n1_ = cluster_.FindNode("n1");
    n2_ = cluster_.FindNode("n2");
    candidates_ = {{n1_, cluster_.node_info(n1_).pods, 0}, {n2_, cluster_.node_info(n2_).pods, 1}};
    handle_.set_cluster(&cluster_);
    handle_.set_extenders(&extenders_);
  }
  Status Call() {
    Evaluator ev("DefaultPreemption", &handle_, &state_, nullptr);
    return ev.CallExtenders(pod_, &candidates_);
  }
  FakeExtender* Add(FakeExtender::Answer answer, bool ignorable = false) {
    extenders_.push_back(std::make_unique<FakeExtender>(
        "fake", std::move(answer), /*preempts=*/true, /*interested=*/true, ignorable));
    return static_cast<FakeExtender*>(extenders_.back().get());
  }

  ClusterState cluster_ = TestCluster(R"({"kind":"List","items":[
      {"kind":"Node","metadata":{"name":"n1"}}, {"kind":"Node","metadata":{"name":"n2"}},
      {"kind":"Pod","metadata":{"name":"v1","uid":"v1"},"spec":{"nodeName":"n1","containers":[{"name":"c"}]}},
      {"kind":"Pod","metadata":{"name":"v2","uid":"v2"},"spec":{"nodeName":"n2","containers":[{"name":"c"}]}}]})");
  NodeId n1_ = kNoNode, n2_ = kNoNode;
  std::vector<Candidate> candidates_;
  std::vector<std::unique_ptr<SchedulerExtender>> extenders_;
  FakeHandle handle_{nullptr};
  CycleState state_;
  Pod pod_ =
      TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c"}]}})");
};

TEST_F(CallExtendersTest, WithoutExtendersTheCandidatesStay) {
  EXPECT_TRUE(Call().IsSuccess());
  ASSERT_EQ(candidates_.size(), 2u);
}

TEST_F(CallExtendersTest, AnExtenderNarrowsNodesAndVictims) {
  FakeExtender* first = Add([&](const std::vector<ExtenderNodeVictims>& asked) {
    EXPECT_EQ(asked.size(), 2u);
    EXPECT_EQ(asked[1].num_pdb_violations, 1);
    return Result<std::vector<ExtenderNodeVictims>>(std::vector<ExtenderNodeVictims>{asked[1]});
  });
  FakeExtender* second = Add([&](const std::vector<ExtenderNodeVictims>& asked) {
    EXPECT_EQ(asked.size(), 1u);  // the first one's answer
    return Result<std::vector<ExtenderNodeVictims>>(asked);
  });
  EXPECT_TRUE(Call().IsSuccess());
  ASSERT_EQ(candidates_.size(), 1u);
  EXPECT_EQ(candidates_[0].node, n2_);
  EXPECT_EQ(candidates_[0].num_pdb_violations, 1);
  EXPECT_EQ(first->calls, 1);
  EXPECT_EQ(second->calls, 1);
}

TEST_F(CallExtendersTest, NoNodeLeftStopsAskingTheOthers) {
  Add([](const std::vector<ExtenderNodeVictims>&) {
    return Result<std::vector<ExtenderNodeVictims>>(std::vector<ExtenderNodeVictims>{});
  });
  FakeExtender* second = Add([](const std::vector<ExtenderNodeVictims>& a) { return Result(a); });
  EXPECT_TRUE(Call().IsSuccess());
  EXPECT_TRUE(candidates_.empty());
  EXPECT_EQ(second->calls, 0);
}

TEST_F(CallExtendersTest, ErrorsStopPreemptionUnlessIgnorable) {
  Add([](const std::vector<ExtenderNodeVictims>&) -> Result<std::vector<ExtenderNodeVictims>> {
    return MakeError("Post http://x/preempt: refused");
  });
  Status s = Call();
  EXPECT_TRUE(s.IsError());
  EXPECT_EQ(s.Message(), "Post http://x/preempt: refused");

  extenders_.clear();
  Add(
      [](const std::vector<ExtenderNodeVictims>&) -> Result<std::vector<ExtenderNodeVictims>> {
        return MakeError("refused");
      },
      /*ignorable=*/true);
  EXPECT_TRUE(Call().IsSuccess());
  EXPECT_EQ(candidates_.size(), 2u);
}

TEST_F(CallExtendersTest, ANodeWithoutVictimsIsAnErrorUnlessIgnorable) {
  auto empty_n1 = [this](const std::vector<ExtenderNodeVictims>& asked) {
    std::vector<ExtenderNodeVictims> out = asked;
    out[0].pods.clear();
    (void)this;
    return Result<std::vector<ExtenderNodeVictims>>(out);
  };
  Add(empty_n1);
  Status s = Call();
  EXPECT_TRUE(s.IsError());
  EXPECT_EQ(s.Message(), "expected at least one victim pod on node \"n1\"");

  extenders_.clear();
  Add(empty_n1, /*ignorable=*/true);
  EXPECT_TRUE(Call().IsSuccess());
  ASSERT_EQ(candidates_.size(), 1u);
  EXPECT_EQ(candidates_[0].node, n2_);
}

}  // namespace preemption_test
}  // namespace ksched::framework::preemption
