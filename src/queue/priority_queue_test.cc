#include "queue/priority_queue.h"

#include <gtest/gtest.h>

#include <thread>

#include "tests/fixtures.h"

namespace ksched {
namespace {

using namespace std::chrono_literals;
using PodPtr = PriorityQueue::PodPtr;

PodPtr P(const std::string& name, int priority, const std::string& extra = "") {
  return std::make_shared<const Pod>(ksched::testing::TestPod(
      R"({"kind":"Pod","metadata":{"name":")" + name + R"(","uid":")" + name +
      R"(","labels":{"app":")" + name + R"("}},"spec":{"priority":)" + std::to_string(priority) +
      extra + R"(,"containers":[{"name":"c"}]}})"));
}

std::string PopName(PriorityQueue& q) {
  PodPtr p = q.TryPop();
  return p ? p->meta.name : "<empty>";
}

TEST(PriorityQueue, PriorityThenArrival) {
  FakeClock clock;
  PriorityQueue q(&clock);
  q.Add(P("a", 0));
  clock.Advance(1ms);
  q.Add(P("b", 10));
  clock.Advance(1ms);
  q.Add(P("c", 0));
  q.Add(P("d", 10));  // same instant as c: arrival decides
  EXPECT_EQ(PopName(q), "b");
  EXPECT_EQ(PopName(q), "d");
  EXPECT_EQ(PopName(q), "a");
  EXPECT_EQ(PopName(q), "c");
  EXPECT_EQ(PopName(q), "<empty>");
  EXPECT_EQ(q.SchedulingCycle(), 4);
}

TEST(PriorityQueue, UnschedulableWaitsForAMoveOrSixtySeconds) {
  FakeClock clock;
  PriorityQueue q(&clock);
  q.Add(P("a", 0));
  PodPtr a = q.TryPop();
  EXPECT_TRUE(q.AddUnschedulableIfNotPresent(a, q.SchedulingCycle()));
  EXPECT_FALSE(q.AddUnschedulableIfNotPresent(a, q.SchedulingCycle())) << "already queued";
  EXPECT_EQ(q.sizes().unschedulable, 1u);
  q.FlushBackoffCompleted();
  EXPECT_EQ(PopName(q), "<empty>");
  clock.Advance(59s);
  q.FlushUnschedulableLeftover();
  EXPECT_EQ(PopName(q), "<empty>");
  clock.Advance(2s);
  q.FlushUnschedulableLeftover();
  EXPECT_EQ(PopName(q), "a");
}

TEST(PriorityQueue, MoveAllRespectsBackoffWhichDoublesToTenSeconds) {
  FakeClock clock;
  PriorityQueue q(&clock);
  q.Add(P("a", 0));
  for (int failures = 1; failures <= 5; ++failures) {
    clock.Advance(1ms);  // the next failure comes after the last backoff ended
    PodPtr a = q.TryPop();
    ASSERT_TRUE(a) << "failure " << failures;
    q.AddUnschedulableIfNotPresent(a, q.SchedulingCycle());
    q.MoveAllToActive();
    EXPECT_EQ(q.sizes().backoff, 1u) << "backing off, so to backoff, not active";
    const auto expected =
        std::min<std::chrono::seconds>(std::chrono::seconds(1 << (failures - 1)), 10s);
    clock.Advance(expected - 1ms);
    q.FlushBackoffCompleted();
    EXPECT_EQ(q.sizes().active, 0u) << "failure " << failures;
    clock.Advance(1ms);
    q.FlushBackoffCompleted();
    EXPECT_EQ(q.sizes().active, 1u) << "failure " << failures;
  }
  // As upstream's PodBackoffMap: a failure that comes more than the maximum
  // after the last one starts again from the initial backoff.
  clock.Advance(1ms);
  PodPtr a = q.TryPop();
  q.AddUnschedulableIfNotPresent(a, q.SchedulingCycle());
  q.MoveAllToActive();
  clock.Advance(1s);
  q.FlushBackoffCompleted();
  EXPECT_EQ(q.sizes().active, 1u);
}

TEST(PriorityQueue, MoveRequestDuringTheCycleSendsAFailureToBackoff) {
  FakeClock clock;
  PriorityQueue q(&clock);
  q.Add(P("a", 0));
  PodPtr a = q.TryPop();
  const int64_t cycle = q.SchedulingCycle();
  q.MoveAllToActive();  // e.g. a node was added while `a` was being scheduled
  q.AddUnschedulableIfNotPresent(a, cycle);
  EXPECT_EQ(q.sizes().unschedulable, 0u);
  EXPECT_EQ(q.sizes().backoff, 1u);
}

TEST(PriorityQueue, StatusOnlyUpdatesLeaveUnschedulablePodsAlone) {
  FakeClock clock;
  PriorityQueue q(&clock);
  q.Add(P("a", 0));
  PodPtr a = q.TryPop();
  q.AddUnschedulableIfNotPresent(a, q.SchedulingCycle());
  auto status_only = std::make_shared<Pod>(*a);
  status_only->phase = "Pending";
  q.Update(a, status_only);
  EXPECT_EQ(q.sizes().unschedulable, 1u);
  auto relabelled = std::make_shared<Pod>(*a);
  relabelled->meta.labels.Set(Intern("tier"), Intern("x"));
  q.Update(status_only, relabelled);
  EXPECT_EQ(q.sizes().unschedulable, 0u);
  EXPECT_EQ(PopName(q), "a");
}

TEST(PriorityQueue, AssignedPodMovesPodsWithMatchingRequiredAffinity) {
  FakeClock clock;
  PriorityQueue q(&clock);
  q.Add(P("wants-db", 0,
          R"(,"affinity":{"podAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[
            {"labelSelector":{"matchLabels":{"app":"db"}},"topologyKey":"zone"}]}})"));
  q.Add(P("other", 0));
  PodPtr w = q.TryPop();
  PodPtr o = q.TryPop();
  q.AddUnschedulableIfNotPresent(w, q.SchedulingCycle());
  q.AddUnschedulableIfNotPresent(o, q.SchedulingCycle());
  q.AssignedPodAdded(*P("web", 0));
  EXPECT_EQ(q.sizes().unschedulable, 2u);
  q.AssignedPodAdded(*P("db", 0));
  EXPECT_EQ(q.sizes().unschedulable, 1u);
}

TEST(PriorityQueue, NominatedPodsFollowUpdatesAndDeletes) {
  FakeClock clock;
  PriorityQueue q(&clock);
  PodPtr a = P("a", 5);
  q.Add(a);
  q.UpdateNominatedPodForNode(a, "n1");
  // An update that does not carry the nomination yet keeps it.
  auto a2 = std::make_shared<Pod>(*a);
  a2->meta.labels.Set(Intern("v"), Intern("2"));
  q.Update(a, a2);
  auto nominated = q.NominatedPods();
  ASSERT_EQ(nominated.size(), 1u);
  EXPECT_EQ(nominated[0].first, "n1");
  q.Delete(*a2);
  EXPECT_TRUE(q.NominatedPods().empty());
}

TEST(PriorityQueue, PopBlocksUntilAddOrClose) {
  FakeClock clock;
  PriorityQueue q(&clock);
  std::thread t([&] {
    std::this_thread::sleep_for(20ms);
    q.Add(P("late", 0));
  });
  PodPtr p = q.Pop();
  t.join();
  ASSERT_TRUE(p);
  EXPECT_EQ(p->meta.name, "late");
  std::thread c([&] {
    std::this_thread::sleep_for(20ms);
    q.Close();
  });
  EXPECT_EQ(q.Pop(), nullptr);
  c.join();
}

}  // namespace
}  // namespace ksched
