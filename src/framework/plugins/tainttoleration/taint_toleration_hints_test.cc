#include "framework/plugins/tainttoleration/taint_toleration_hints.h"

#include <gtest/gtest.h>

#include "tests/fixtures.h"

namespace ksched::framework::plugins {
namespace taint_toleration_hints_test {

std::shared_ptr<const Node> NodeTainted(const std::string& taints) {
  return std::make_shared<const Node>(::ksched::testing::TestNode(
      R"({"kind":"Node","metadata":{"name":"n"},"spec":{"taints":)" + taints + "}}"));
}
std::shared_ptr<const Pod> PodNamed(const std::string& uid, const std::string& tolerations = "[]") {
  return std::make_shared<const Pod>(::ksched::testing::TestPod(
      R"({"kind":"Pod","metadata":{"name":")" + uid + R"(","uid":")" + uid +
      R"("},"spec":{"tolerations":)" + tolerations + R"(,"containers":[{"name":"c"}]}})"));
}

TEST(TaintTolerationHints, QueueWhenTheLastUntoleratedTaintGoes) {
  const std::shared_ptr<const Pod> pod_owner = PodNamed("p");
  const Pod& pod = *pod_owner;
  const std::string gpu = R"([{"key":"gpu","effect":"NoSchedule"}])";
  EXPECT_EQ(TaintTolerationAfterNodeChange(pod, {}, EventObject(NodeTainted("[]"))),
            QueueingHint::kQueue);
  EXPECT_EQ(TaintTolerationAfterNodeChange(pod, {}, EventObject(NodeTainted(gpu))),
            QueueingHint::kQueueSkip);
  EXPECT_EQ(TaintTolerationAfterNodeChange(pod, EventObject(NodeTainted(gpu)),
                                           EventObject(NodeTainted("[]"))),
            QueueingHint::kQueue);
  // Tolerated before and after: nothing new.
  EXPECT_EQ(TaintTolerationAfterNodeChange(pod, EventObject(NodeTainted("[]")),
                                           EventObject(NodeTainted("[]"))),
            QueueingHint::kQueueSkip);
  // PreferNoSchedule never keeps a pod off.
  EXPECT_EQ(TaintTolerationAfterNodeChange(
                pod, {}, EventObject(NodeTainted(R"([{"key":"a","effect":"PreferNoSchedule"}])"))),
            QueueingHint::kQueue);
}

TEST(TaintTolerationHints, OnlyThePodsOwnTolerationUpdateCounts) {
  const std::shared_ptr<const Pod> pod_owner = PodNamed("p");
  const Pod& pod = *pod_owner;
  EXPECT_EQ(TaintTolerationAfterPodTolerationChange(pod, EventObject(PodNamed("p")),
                                                    EventObject(PodNamed("p"))),
            QueueingHint::kQueue);
  EXPECT_EQ(TaintTolerationAfterPodTolerationChange(pod, EventObject(PodNamed("q")),
                                                    EventObject(PodNamed("q"))),
            QueueingHint::kQueueSkip);
}

}  // namespace taint_toleration_hints_test
}  // namespace ksched::framework::plugins
