#include "framework/plugins/nodeaffinity/node_affinity_hints.h"

#include <gtest/gtest.h>

#include "tests/fixtures.h"

namespace ksched::framework::plugins {
namespace node_affinity_hints_test {

std::shared_ptr<const Node> NodeLabelled(const std::string& labels) {
  return std::make_shared<const Node>(::ksched::testing::TestNode(
      R"({"kind":"Node","metadata":{"name":"n","labels":)" + labels + "}}"));
}

TEST(NodeAffinityHints, QueueWhenTheNodeComesToMatch) {
  const Pod pod = ::ksched::testing::TestPod(
      R"({"kind":"Pod","metadata":{"name":"p"},"spec":{"nodeSelector":{"disk":"ssd"},)"
      R"("containers":[{"name":"c"}]}})");
  const std::optional<labels::CompiledNodeSelectorTerms> none;
  auto ssd = EventObject(NodeLabelled(R"({"disk":"ssd"})"));
  auto hdd = EventObject(NodeLabelled(R"({"disk":"hdd"})"));
  EXPECT_EQ(NodeAffinityAfterNodeChange(none, pod, {}, ssd), QueueingHint::kQueue);
  EXPECT_EQ(NodeAffinityAfterNodeChange(none, pod, {}, hdd), QueueingHint::kQueueSkip);
  EXPECT_EQ(NodeAffinityAfterNodeChange(none, pod, hdd, ssd), QueueingHint::kQueue);
  // Matching before already: the update changes nothing for the pod.
  EXPECT_EQ(NodeAffinityAfterNodeChange(none, pod, ssd,
                                        EventObject(NodeLabelled(R"({"disk":"ssd","x":"y"})"))),
            QueueingHint::kQueueSkip);
  // Registered for added nodes and label changes only.
  std::vector<ClusterEventWithHint> events = NodeAffinityEventsToRegister(std::nullopt);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].event.action, kAdd | kUpdateNodeLabel);
}

}  // namespace node_affinity_hints_test
}  // namespace ksched::framework::plugins
