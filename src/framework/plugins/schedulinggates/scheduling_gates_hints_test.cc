#include "framework/plugins/schedulinggates/scheduling_gates_hints.h"

#include <gtest/gtest.h>

#include "tests/fixtures.h"

namespace ksched::framework::plugins {
namespace scheduling_gates_hints_test {

std::shared_ptr<const Pod> PodNamed(const std::string& uid) {
  return std::make_shared<const Pod>(
      ::ksched::testing::TestPod(R"({"kind":"Pod","metadata":{"name":")" + uid + R"(","uid":")" +
                                 uid + R"("},"spec":{"containers":[{"name":"c"}]}})"));
}

TEST(SchedulingGatesHints, OnlyThePodsOwnGatesCount) {
  const std::shared_ptr<const Pod> pod_owner = PodNamed("p");
  const Pod& pod = *pod_owner;
  EXPECT_EQ(SchedulingGatesAfterGatesEliminated(pod, EventObject(PodNamed("p")),
                                                EventObject(PodNamed("p"))),
            QueueingHint::kQueue);
  EXPECT_EQ(SchedulingGatesAfterGatesEliminated(pod, EventObject(PodNamed("q")),
                                                EventObject(PodNamed("q"))),
            QueueingHint::kQueueSkip);
  ASSERT_EQ(SchedulingGatesEventsToRegister().size(), 1u);
  EXPECT_EQ(SchedulingGatesEventsToRegister()[0].event.action, kUpdatePodSchedulingGatesEliminated);
}

}  // namespace scheduling_gates_hints_test
}  // namespace ksched::framework::plugins
