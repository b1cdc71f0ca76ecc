#include "framework/plugins/noderesources/fit_hints.h"

#include <gtest/gtest.h>

#include "tests/fixtures.h"

namespace ksched::framework::noderesources {
namespace fit_hints_test {

using ksched::testing::TestNode;
using ksched::testing::TestPod;

std::shared_ptr<const Pod> PodOn(const std::string& name, const std::string& node,
                                 const std::string& cpu, const std::string& nominated = "") {
  return std::make_shared<const Pod>(
      TestPod(R"({"kind":"Pod","metadata":{"name":")" + name +
              R"(","namespace":"default","uid":")" + name + R"("},"spec":{"nodeName":")" + node +
              R"(","containers":[{"name":"c","resources":{"requests":{"cpu":")" + cpu +
              R"("}}}]},"status":{"nominatedNodeName":")" + nominated + R"("}})"));
}
std::shared_ptr<const Node> NodeWith(const std::string& cpu, const std::string& pods = "110",
                                     const std::string& labels = "{}") {
  return std::make_shared<const Node>(
      TestNode(R"({"kind":"Node","metadata":{"name":"n","labels":)" + labels +
               R"(},"status":{"allocatable":{"cpu":")" + cpu + R"(","memory":"8Gi","pods":")" +
               pods + R"("}}})"));
}

const FitHintOptions kOptions;

TEST(FitHints, RegistersPodDeleteAndScaleDownAndNodeAddAndAllocatable) {
  std::vector<ClusterEventWithHint> events = FitEventsToRegister(kOptions);
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].event.resource, EventResource::kPod);
  EXPECT_EQ(events[0].event.action, kDelete | kUpdatePodScaleDown);
  EXPECT_EQ(events[1].event.resource, EventResource::kNode);
  EXPECT_EQ(events[1].event.action, kAdd | kUpdateNodeAllocatable);  // no label changes
  FitHintOptions without_resize;
  without_resize.in_place_pod_vertical_scaling = false;
  EXPECT_EQ(FitEventsToRegister(without_resize)[0].event.action, kDelete);
}

TEST(FitHints, ADeletedPodHelpsOnlyWhenItWasBoundOrNominated) {
  const std::shared_ptr<const Pod> target_owner = PodOn("target", "", "2");
  const Pod& target = *target_owner;
  EXPECT_EQ(FitAfterPodEvent(kOptions, target, EventObject(PodOn("bound", "n", "1")), {}),
            QueueingHint::kQueue);
  EXPECT_EQ(FitAfterPodEvent(kOptions, target, EventObject(PodOn("pending", "", "1")), {}),
            QueueingHint::kQueueSkip);
  EXPECT_EQ(FitAfterPodEvent(kOptions, target, EventObject(PodOn("nominated", "", "1", "n")), {}),
            QueueingHint::kQueue);
}

TEST(FitHints, AScaleDownHelpsWhenABoundPodReleasesWhatThePodRequests) {
  const std::shared_ptr<const Pod> target_owner = PodOn("target", "", "2");
  const Pod& target = *target_owner;
  EXPECT_EQ(FitAfterPodEvent(kOptions, target, EventObject(PodOn("b", "n", "2")),
                             EventObject(PodOn("b", "n", "1"))),
            QueueingHint::kQueue);
  // A pending pod shrinking frees nothing.
  EXPECT_EQ(FitAfterPodEvent(kOptions, target, EventObject(PodOn("b", "", "2")),
                             EventObject(PodOn("b", "", "1"))),
            QueueingHint::kQueueSkip);
  // The pod itself shrinking may let it fit.
  EXPECT_EQ(FitAfterPodEvent(kOptions, target, EventObject(PodOn("target", "", "2")),
                             EventObject(PodOn("target", "", "1"))),
            QueueingHint::kQueue);
}

TEST(FitHints, ANodeHelpsWhenThePodFitsItAndItGrew) {
  const std::shared_ptr<const Pod> target_owner = PodOn("target", "", "3");
  const Pod& target = *target_owner;
  EXPECT_EQ(FitAfterNodeChange(kOptions, target, {}, EventObject(NodeWith("4"))),
            QueueingHint::kQueue);
  EXPECT_EQ(FitAfterNodeChange(kOptions, target, {}, EventObject(NodeWith("2"))),
            QueueingHint::kQueueSkip);
  // Grown from 2 to 4 CPUs: queue; relabelled only: skip.
  EXPECT_EQ(
      FitAfterNodeChange(kOptions, target, EventObject(NodeWith("2")), EventObject(NodeWith("4"))),
      QueueingHint::kQueue);
  EXPECT_EQ(FitAfterNodeChange(kOptions, target, EventObject(NodeWith("4")),
                               EventObject(NodeWith("4", "110", R"({"a":"b"})"))),
            QueueingHint::kQueueSkip);
  // More pods allowed counts as growth.
  EXPECT_EQ(FitAfterNodeChange(kOptions, target, EventObject(NodeWith("4", "1")),
                               EventObject(NodeWith("4", "2"))),
            QueueingHint::kQueue);
  // A node event without a node: an error, which queues.
  EXPECT_EQ(FitAfterNodeChange(kOptions, target, {}, EventObject(PodOn("x", "", "1"))),
            QueueingHint::kError);
}

}  // namespace fit_hints_test
}  // namespace ksched::framework::noderesources
