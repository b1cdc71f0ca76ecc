#include <gtest/gtest.h>

#include "priorities/factories.h"
#include "priorities/priority_test_util.h"
#include "tests/fixtures.h"

namespace ksched {
namespace node_label_test {

using testing::ListOf;
using testing::ScoreNodes;
using testing::TestCluster;
using testing::TestPod;

class NodeLabelPriorityTest : public ::testing::Test {
 protected:
  ClusterState c_ = TestCluster(ListOf({
      R"({"kind":"Node","metadata":{"name":"ssd","labels":{"disktype":"ssd"}}})",
      R"({"kind":"Node","metadata":{"name":"empty","labels":{"disktype":""}}})",
      R"({"kind":"Node","metadata":{"name":"other","labels":{"zone":"a"}}})",
      R"({"kind":"Node","metadata":{"name":"bare"}})",
  }));
  Pod pod_ = TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[]}})");
};

TEST_F(NodeLabelPriorityTest, PresenceTrueFavoursNodesWithTheLabelWhateverItsValue) {
  auto s = ScoreNodes(*NewNodeLabelPriority("disktype", true), pod_, c_);
  EXPECT_EQ(s.at("ssd"), 10);
  EXPECT_EQ(s.at("empty"), 10);
  EXPECT_EQ(s.at("other"), 0);
  EXPECT_EQ(s.at("bare"), 0);
}

TEST_F(NodeLabelPriorityTest, PresenceFalseFavoursNodesWithoutIt) {
  auto s = ScoreNodes(*NewNodeLabelPriority("disktype", false), pod_, c_);
  EXPECT_EQ(s.at("ssd"), 0);
  EXPECT_EQ(s.at("empty"), 0);
  EXPECT_EQ(s.at("other"), 10);
  EXPECT_EQ(s.at("bare"), 10);
}

TEST_F(NodeLabelPriorityTest, LabelNoNodeHas) {
  auto s = ScoreNodes(*NewNodeLabelPriority("never-seen-label-xyz", true), pod_, c_);
  for (const auto& [node, score] : s) EXPECT_EQ(score, 0) << node;
}

}  // namespace node_label_test
}  // namespace ksched
