#include "queue/priority_queue.h"

#include <gtest/gtest.h>

#include <map>
#include <thread>

#include "queue/events.h"
#include "tests/fixtures.h"

namespace ksched {
namespace priority_queue_test {

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

// A pod that came back because of an error goes to backoff without a move
// request, and its backoff grows with each failure as an unschedulable one's.
TEST(PriorityQueue, AddBackoffIfNotPresentNeedsNoMoveRequest) {
  FakeClock clock;
  PriorityQueue q(&clock);
  q.Add(P("a", 0));
  PodPtr a = q.TryPop();
  EXPECT_TRUE(q.AddBackoffIfNotPresent(a));
  EXPECT_FALSE(q.AddBackoffIfNotPresent(a)) << "already queued";
  EXPECT_FALSE(q.AddUnschedulableIfNotPresent(a, q.SchedulingCycle())) << "already queued";
  EXPECT_EQ(q.sizes().backoff, 1u);
  EXPECT_EQ(q.sizes().unschedulable, 0u);
  clock.Advance(500ms);
  q.FlushBackoffCompleted();
  EXPECT_EQ(PopName(q), "<empty>");
  clock.Advance(1s);
  q.FlushBackoffCompleted();
  EXPECT_EQ(PopName(q), "a");
  EXPECT_TRUE(q.AddBackoffIfNotPresent(a));  // 2 s this time
  clock.Advance(1500ms);
  q.FlushBackoffCompleted();
  EXPECT_EQ(PopName(q), "<empty>");
  clock.Advance(1s);
  q.FlushBackoffCompleted();
  EXPECT_EQ(PopName(q), "a");
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

// v1.26: with a ClusterEventMap, an event moves only the pods whose
// rejecting plugins registered for it; pods no plugin rejected move on any
// event; a pre-check keeps pods the node cannot take; moves are counted for
// scheduler_queue_incoming_pods_total.
TEST(PriorityQueue, EventsMoveOnlyThePodsTheirPluginsRegisteredFor) {
  FakeClock clock;
  std::vector<std::string> incoming;
  PriorityQueue::Options options;
  options.on_incoming = [&](std::string_view part, std::string_view event) {
    incoming.push_back(std::string(part) + "/" + std::string(event));
  };
  PriorityQueue q(&clock, options);
  framework::ClusterEventMap map;
  map.Register("NodeResourcesFit",
               {{framework::EventResource::kPod, framework::kDelete, ""},
                {framework::EventResource::kNode, framework::kAdd | framework::kUpdate, ""}});
  map.Register("VolumeBinding",
               {{framework::EventResource::kPersistentVolumeClaim, framework::kAdd, ""}});
  q.SetClusterEventMap(map);
  q.Add(P("cpu", 0));
  q.Add(P("pvc", 0));
  q.Add(P("error", 0));
  PodPtr cpu = q.TryPop(), pvc = q.TryPop(), error = q.TryPop();
  const int64_t cycle = q.SchedulingCycle();
  q.AddUnschedulableIfNotPresent(cpu, cycle, {"NodeResourcesFit"});
  q.AddUnschedulableIfNotPresent(pvc, cycle, {"VolumeBinding"});
  q.AddUnschedulableIfNotPresent(error, cycle, {});
  EXPECT_EQ(q.sizes().unschedulable, 3u);
  clock.Advance(20s);  // past every backoff

  q.MoveAllToActive({framework::EventResource::kPersistentVolumeClaim, framework::kAdd, "PvcAdd"});
  EXPECT_EQ(q.sizes().active, 2u);  // pvc, and error (no plugin rejected it)
  EXPECT_EQ(q.sizes().unschedulable, 1u);
  // A node the pod cannot take does not move it.
  q.MoveAllToActive(queue_events::kNodeAdd, [](const Pod&) { return false; });
  EXPECT_EQ(q.sizes().unschedulable, 1u);
  q.MoveAllToActive(queue_events::kAssignedPodAdd);
  EXPECT_EQ(q.sizes().unschedulable, 1u);
  q.MoveAllToActive(queue_events::kAssignedPodDelete);
  EXPECT_EQ(q.sizes().unschedulable, 0u);
  EXPECT_EQ(q.sizes().active, 3u);
  const std::vector<std::string> want = {"active/PodAdd",
                                         "active/PodAdd",
                                         "active/PodAdd",
                                         "unschedulable/ScheduleAttemptFailure",
                                         "unschedulable/ScheduleAttemptFailure",
                                         "unschedulable/ScheduleAttemptFailure",
                                         "active/PvcAdd",
                                         "active/PvcAdd",
                                         "active/AssignedPodDelete"};
  EXPECT_EQ(incoming, want);
}

// v1.15 (no map): every event moves every pod, whatever rejected it.
TEST(PriorityQueue, WithoutAnEventMapEveryEventMovesEveryPod) {
  FakeClock clock;
  PriorityQueue q(&clock);
  q.Add(P("cpu", 0));
  PodPtr cpu = q.TryPop();
  q.AddUnschedulableIfNotPresent(cpu, q.SchedulingCycle(), {"NodeResourcesFit"});
  clock.Advance(20s);
  q.MoveAllToActive({framework::EventResource::kService, framework::kAdd, "ServiceAdd"});
  EXPECT_EQ(q.sizes().active, 1u);
}

// A status write (new resourceVersion, same spec and metadata) does not
// move an unschedulable pod (upstream's isPodUpdated); with v1.26's queue
// an update of a pod backing off leaves it there.
TEST(PriorityQueue, StatusUpdatesDoNotMoveAndV126BackoffStays) {
  FakeClock clock;
  PriorityQueue q(&clock);
  q.SetClusterEventMap(framework::ClusterEventMap());
  q.Add(P("a", 0));
  PodPtr a = q.TryPop();
  q.AddUnschedulableIfNotPresent(a, q.SchedulingCycle(), {"NodeResourcesFit"});
  auto a2 = std::make_shared<Pod>(*a);
  a2->meta.resource_version = "42";
  q.Update(a, a2);
  EXPECT_EQ(q.sizes().unschedulable, 1u);
  // A move request during the next attempt sends it to backoff; an update
  // there keeps it in backoff.
  clock.Advance(20s);
  q.MoveAllToActive();
  PodPtr again = q.TryPop();
  ASSERT_TRUE(again);
  const int64_t cycle = q.SchedulingCycle();
  q.MoveAllToActive();
  q.AddUnschedulableIfNotPresent(again, cycle, {"NodeResourcesFit"});
  EXPECT_EQ(q.sizes().backoff, 1u);
  auto a3 = std::make_shared<Pod>(*again);
  a3->meta.labels.Set(Intern("v"), Intern("3"));
  q.Update(again, a3);
  EXPECT_EQ(q.sizes().backoff, 1u);
  EXPECT_EQ(q.sizes().active, 0u);
}

}  // namespace priority_queue_test
}  // namespace ksched

namespace ksched {
namespace priority_queue_test {

TEST(PriorityQueue, KeepsEachPodsAttemptsFromItsFirstEntry) {
  FakeClock clock;
  PriorityQueue q(&clock);
  clock.Advance(5s);
  q.Add(P("a", 0));
  EXPECT_EQ(q.AttemptsOf(*P("a", 0)).attempts, 0);
  clock.Advance(1s);
  PodPtr a = q.TryPop();
  EXPECT_EQ(q.AttemptsOf(*a).attempts, 1);
  ASSERT_TRUE(q.AddUnschedulableIfNotPresent(a, q.SchedulingCycle()));
  q.MoveAllToActive();
  clock.Advance(2s);
  q.FlushBackoffCompleted();
  a = q.TryPop();
  ASSERT_TRUE(a);
  PriorityQueue::Attempts at = q.AttemptsOf(*a);
  EXPECT_EQ(at.attempts, 2);
  EXPECT_EQ(clock.Now() - at.initial, 3s);  // since it was added, not popped
  q.NotAttempted(*a);                       // held back by PreEnqueue
  EXPECT_EQ(q.AttemptsOf(*a).attempts, 1);
  q.Delete(*a);
  EXPECT_EQ(q.AttemptsOf(*a).attempts, 0);
}

TEST(PriorityQueue, CountsRejectingPluginsUntilThePodLeaves) {
  FakeClock clock;
  PriorityQueue::Options options;
  std::map<std::string, int> count;
  options.on_unschedulable_plugin = [&](std::string_view plugin, std::string_view profile,
                                        int delta) {
    count[std::string(plugin) + "@" + std::string(profile)] += delta;
  };
  PriorityQueue q(&clock, options);
  q.Add(P("a", 0));
  q.Add(P("b", 0));
  PodPtr a = q.TryPop(), b = q.TryPop();
  q.AddUnschedulableIfNotPresent(a, q.SchedulingCycle(), {"NodeResourcesFit", "TaintToleration"});
  q.AddUnschedulableIfNotPresent(b, q.SchedulingCycle(), {"NodeResourcesFit"});
  EXPECT_EQ(count["NodeResourcesFit@default-scheduler"], 2);
  EXPECT_EQ(count["TaintToleration@default-scheduler"], 1);
  // Moved to active it still counts; popped it does not (upstream's Pop).
  q.MoveAllToActive();
  EXPECT_EQ(count["NodeResourcesFit@default-scheduler"], 2);
  clock.Advance(2s);
  q.FlushBackoffCompleted();
  EXPECT_EQ(PopName(q), "a");
  EXPECT_EQ(count["NodeResourcesFit@default-scheduler"], 1);
  EXPECT_EQ(count["TaintToleration@default-scheduler"], 0);
  // Deleted while it waits: no longer counted.
  q.Delete(*b);
  EXPECT_EQ(count["NodeResourcesFit@default-scheduler"], 0);
}

}  // namespace priority_queue_test
}  // namespace ksched
