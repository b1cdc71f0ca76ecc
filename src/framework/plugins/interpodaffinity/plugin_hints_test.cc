#include "framework/plugins/interpodaffinity/plugin_hints.h"

#include <gtest/gtest.h>

#include "tests/fixtures.h"

namespace ksched::framework::interpodaffinity {
namespace plugin_hints_test {

std::shared_ptr<const Pod> Labelled(const std::string& node, const std::string& labels) {
  return std::make_shared<const Pod>(::ksched::testing::TestPod(
      R"({"kind":"Pod","metadata":{"name":"x","namespace":"default","labels":)" + labels +
      R"(},"spec":{"nodeName":")" + node + R"(","containers":[{"name":"c"}]}})"));
}
std::shared_ptr<const Node> Zoned(const std::string& labels) {
  return std::make_shared<const Node>(::ksched::testing::TestNode(
      R"({"kind":"Node","metadata":{"name":"n","labels":)" + labels + "}}"));
}

const Pod& WantsWeb() {
  static const Pod pod = ::ksched::testing::TestPod(
      R"({"kind":"Pod","metadata":{"name":"p","namespace":"default"},"spec":{"affinity":)"
      R"({"podAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[)"
      R"({"labelSelector":{"matchLabels":{"app":"web"}},"topologyKey":"zone"}]}},)"
      R"("containers":[{"name":"c"}]}})");
  return pod;
}
const Pod& AvoidsDb() {
  static const Pod pod = ::ksched::testing::TestPod(
      R"({"kind":"Pod","metadata":{"name":"p","namespace":"default"},"spec":{"affinity":)"
      R"({"podAntiAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[)"
      R"({"labelSelector":{"matchLabels":{"app":"db"}},"topologyKey":"zone"}]}},)"
      R"("containers":[{"name":"c"}]}})");
  return pod;
}

TEST(InterPodAffinityHints, PodsThatSatisfyOrStopViolating) {
  EXPECT_EQ(InterPodAffinityAfterPodChange(WantsWeb(), {},
                                           EventObject(Labelled("n", R"({"app":"web"})"))),
            QueueingHint::kQueue);
  EXPECT_EQ(
      InterPodAffinityAfterPodChange(WantsWeb(), {}, EventObject(Labelled("n", R"({"app":"db"})"))),
      QueueingHint::kQueueSkip);
  // Pending pods count for nothing.
  EXPECT_EQ(
      InterPodAffinityAfterPodChange(WantsWeb(), {}, EventObject(Labelled("", R"({"app":"web"})"))),
      QueueingHint::kQueueSkip);
  EXPECT_EQ(
      InterPodAffinityAfterPodChange(AvoidsDb(), EventObject(Labelled("n", R"({"app":"db"})")), {}),
      QueueingHint::kQueue);
  EXPECT_EQ(
      InterPodAffinityAfterPodChange(AvoidsDb(), EventObject(Labelled("n", R"({"app":"db"})")),
                                     EventObject(Labelled("n", R"({"app":"x"})"))),
      QueueingHint::kQueue);
}

TEST(InterPodAffinityHints, NodesThatOfferADomain) {
  EXPECT_EQ(InterPodAffinityAfterNodeChange(WantsWeb(), {}, EventObject(Zoned(R"({"zone":"a"})"))),
            QueueingHint::kQueue);
  EXPECT_EQ(InterPodAffinityAfterNodeChange(WantsWeb(), {}, EventObject(Zoned(R"({})"))),
            QueueingHint::kQueueSkip);
  EXPECT_EQ(InterPodAffinityAfterNodeChange(WantsWeb(), EventObject(Zoned(R"({"zone":"a"})")),
                                            EventObject(Zoned(R"({"zone":"a","x":"y"})"))),
            QueueingHint::kQueueSkip);
  // Any new node may take a pod with anti-affinity.
  EXPECT_EQ(InterPodAffinityAfterNodeChange(AvoidsDb(), {}, EventObject(Zoned(R"({})"))),
            QueueingHint::kQueue);
}

}  // namespace plugin_hints_test
}  // namespace ksched::framework::interpodaffinity
