#include "queue/priority_queue_v135.h"

#include <gtest/gtest.h>

#include "tests/fixtures.h"

namespace ksched {
namespace priority_queue_v135_test {

using namespace std::chrono_literals;
using framework::ClusterEvent;
using framework::ClusterEventWithHint;
using framework::EventObject;
using framework::EventResource;
using framework::QueueingHint;

std::shared_ptr<const Pod> MakePod(const std::string& name, const std::string& node = "",
                                   int priority = 0, const std::string& gates = "[]",
                                   const std::string& labels = "{}") {
  return std::make_shared<const Pod>(testing::TestPod(
      R"({"kind":"Pod","metadata":{"name":")" + name + R"(","namespace":"default","uid":"uid-)" +
      name + R"(","labels":)" + labels + R"(},"spec":{"nodeName":")" + node + R"(","priority":)" +
      std::to_string(priority) + R"(,"schedulingGates":)" + gates +
      R"(,"containers":[{"name":"c","resources":{"requests":{"cpu":"1"}}}]}})"));
}

const ClusterEvent& PodDelete() {
  static const ClusterEvent e =
      framework::MakeClusterEvent(EventResource::kAssignedPod, framework::kDelete);
  return e;
}
const ClusterEvent& NodeLabel() {
  static const ClusterEvent e =
      framework::MakeClusterEvent(EventResource::kNode, framework::kUpdateNodeLabel);
  return e;
}

// A profile like the default one, reduced: "Fit" moves on a bound pod's
// deletion (its hint: the deleted pod was bound) and a node added; "Gates"
// on a pod's gates removed; "Preempt" holds pods back (skip hint).
framework::QueueingHintMaps Hints() {
  framework::QueueingHintMap m;
  m.Register("Fit", {{{EventResource::kPod, framework::kDelete, ""},
                      [](const Pod&, const EventObject& o, const EventObject&) {
                        const Pod* p = o.As<Pod>();
                        return p != nullptr && !p->spec.node_name.empty()
                                   ? QueueingHint::kQueue
                                   : QueueingHint::kQueueSkip;
                      }},
                     {{EventResource::kNode, framework::kAdd, ""}, {}}});
  m.Register("Gates", {{{EventResource::kPod, framework::kUpdatePodSchedulingGatesEliminated, ""},
                        [](const Pod& pod, const EventObject&, const EventObject& n) {
                          const Pod* p = n.As<Pod>();
                          return p != nullptr && p->meta.uid == pod.meta.uid
                                     ? QueueingHint::kQueue
                                     : QueueingHint::kQueueSkip;
                        }}});
  m.Register("Preempt", {{{EventResource::kPod, framework::kDelete, ""},
                          [](const Pod&, const EventObject&, const EventObject&) {
                            return QueueingHint::kQueueSkip;
                          }}});
  framework::QueueingHintMaps maps;
  maps["default-scheduler"] = std::move(m);
  return maps;
}

class QueueV135Test : public ::testing::Test {
 protected:
  QueueV135Test() {
    clock.Advance(1000s + 300ms);  // mid-window
  }
  PriorityQueueV135& Make(bool pop_from_backoff = true) {
    SchedulingQueue::Options o;
    o.unschedulable_timeout = 5min;
    o.pop_from_backoff = pop_from_backoff;
    o.hints = Hints();
    o.pre_enqueue = [this](const Pod& pod) -> std::string {
      if (!pod.spec.scheduling_gates.empty()) return "Gates";
      if (held.count(pod.meta.name)) return "Preempt";
      return "";
    };
    o.on_incoming = [this](std::string_view part, std::string_view event) {
      incoming.push_back(std::string(part) + "/" + std::string(event));
    };
    q = std::make_unique<PriorityQueueV135>(&clock, std::move(o));
    return *q;
  }
  // Pops `pod` and fails it with `plugins` (none: an error).
  void Fail(const std::shared_ptr<const Pod>& pod, std::vector<std::string> plugins) {
    auto popped = q->TryPop();
    ASSERT_NE(popped, nullptr);
    ASSERT_EQ(popped->meta.name, pod->meta.name);
    q->AddUnschedulableIfNotPresent(pod, q->SchedulingCycle(), std::move(plugins));
  }
  // The pod's backoff in seconds after `now`, from the window it ends in.
  double BackoffSeconds(const Pod& pod) {
    auto t = q->BackoffExpiration(pod);
    return t ? std::chrono::duration<double>(*t - clock.Now()).count() : 0;
  }

  FakeClock clock;
  std::set<std::string> held;
  std::vector<std::string> incoming;
  std::unique_ptr<PriorityQueueV135> q;
};

TEST_F(QueueV135Test, UnschedulableCountAndConsecutiveErrorsBackOffApart) {
  auto& q = Make();
  auto p = MakePod("p");
  q.Add(p);
  Fail(p, {"Fit"});  // unschedulable 1: 1 s, truncated to the window
  EXPECT_EQ(q.PartOf(*p), "unschedulable");
  EXPECT_NEAR(BackoffSeconds(*p), 0.7, 1e-9);
  q.MoveAllToActive();
  q.TryPop();
  q.AddUnschedulableIfNotPresent(p, q.SchedulingCycle(), {});  // an error: consecutive 1
  EXPECT_EQ(q.PartOf(*p), "errorBackoff");
  EXPECT_NEAR(BackoffSeconds(*p), 0.7, 1e-9);
  // A backoff that ends within the current window still holds the pod: it
  // leaves at the flush of the next whole second.
  clock.Advance(1s);
  q.FlushBackoffCompleted();
  EXPECT_EQ(q.PartOf(*p), "errorBackoff");
  clock.Advance(1s);
  q.FlushBackoffCompleted();
  EXPECT_EQ(q.PartOf(*p), "active");
  q.TryPop();
  q.AddUnschedulableIfNotPresent(p, q.SchedulingCycle(), {});  // consecutive 2: 2 s
  EXPECT_NEAR(BackoffSeconds(*p), 1.7, 1e-9);
  clock.Advance(3s);
  q.FlushBackoffCompleted();
  ASSERT_EQ(q.PartOf(*p), "active");
  q.TryPop();
  // A verdict again: the errors are forgotten, the unschedulable count is 2.
  q.AddUnschedulableIfNotPresent(p, q.SchedulingCycle(), {"Fit"});
  EXPECT_NEAR(BackoffSeconds(*p), 1.7, 1e-9);
  EXPECT_EQ(q.AttemptsOf(*p).attempts, 4);
}

TEST_F(QueueV135Test, PopsFromBackoffWhenNothingIsActiveButNotFromErrorBackoff) {
  auto& q = Make();
  auto a = MakePod("a"), b = MakePod("b");
  q.Add(a);
  q.Add(b);
  Fail(a, {"Fit"});
  Fail(b, {});
  // The deletion of a bound pod moves `a`: still backing off, to backoff.
  q.MoveAllToActive(PodDelete(), EventObject(MakePod("x", "n1")), {}, {});
  EXPECT_EQ(q.PartOf(*a), "backoff");
  EXPECT_EQ(q.PartOf(*b), "errorBackoff");
  // Active is empty: `a` is popped before its backoff ends; `b` is not.
  auto popped = q.TryPop();
  ASSERT_NE(popped, nullptr);
  EXPECT_EQ(popped->meta.name, "a");
  EXPECT_EQ(q.TryPop(), nullptr);
  EXPECT_NE(std::find(incoming.begin(), incoming.end(), "active/PopFromBackoffQ"), incoming.end());

  // Without PopFromBackoffQ nothing leaves backoff early.
  auto& q2 = Make(/*pop_from_backoff=*/false);
  q2.Add(a);
  Fail(a, {"Fit"});
  q2.MoveAllToActive(PodDelete(), EventObject(MakePod("x", "n1")), {}, {});
  EXPECT_EQ(q2.PartOf(*a), "backoff");
  EXPECT_EQ(q2.TryPop(), nullptr);
}

TEST_F(QueueV135Test, HintsDecideWhichEventsMoveAPod) {
  auto& q = Make();
  auto p = MakePod("p");
  q.Add(p);
  Fail(p, {"Fit"});
  // A label change: Fit did not register for it.
  q.MoveAllToActive(NodeLabel(), {}, EventObject(std::make_shared<const Node>()), {});
  EXPECT_EQ(q.PartOf(*p), "unschedulable");
  // A pending pod deleted: Fit's hint skips.
  q.MoveAllToActive(PodDelete(), EventObject(MakePod("pending")), {}, {});
  EXPECT_EQ(q.PartOf(*p), "unschedulable");
  // A bound pod deleted, after the backoff: straight to active.
  clock.Advance(2s);
  q.MoveAllToActive(PodDelete(), EventObject(MakePod("bound", "n1")), {}, {});
  EXPECT_EQ(q.PartOf(*p), "active");
  EXPECT_EQ(incoming.back(), "active/AssignedPodDelete");
}

TEST_F(QueueV135Test, EventsWhileInFlightAreReplayedWhenThePodFails) {
  auto& q = Make();
  auto p = MakePod("p"), other = MakePod("other");
  q.Add(p);
  q.Add(other);
  ASSERT_EQ(q.TryPop()->meta.name, "p");
  // While p is in flight a bound pod is deleted, and a pending one.
  q.MoveAllToActive(PodDelete(), EventObject(MakePod("pending")), {}, {});
  EXPECT_EQ(q.InFlightEvents(), 1u);
  q.AddUnschedulableIfNotPresent(p, q.SchedulingCycle(), {"Fit"});
  EXPECT_EQ(q.PartOf(*p), "unschedulable");  // the pending pod's deletion cannot help
  // Pruned: no pod is in flight any more.
  EXPECT_EQ(q.InFlightEvents(), 0u);

  ASSERT_EQ(q.TryPop()->meta.name, "other");
  q.MoveAllToActive(PodDelete(), EventObject(MakePod("bound", "n1")), {}, {});
  q.AddUnschedulableIfNotPresent(other, q.SchedulingCycle(), {"Fit"});
  // The bound pod's deletion came while `other` was tried: it backs off
  // rather than waiting for another event.
  EXPECT_EQ(q.PartOf(*other), "backoff");
}

TEST_F(QueueV135Test, GatedPodsAreNeverPoppedUntilTheirGatesGo) {
  auto& q = Make();
  auto gated = MakePod("g", "", 0, R"([{"name":"example.com/wait"}])");
  q.Add(gated);
  EXPECT_EQ(q.PartOf(*gated), "gated");
  EXPECT_EQ(q.sizes().gated, 1u);
  EXPECT_EQ(q.TryPop(), nullptr);
  // Events its gating plugin did not register for do not look at it.
  q.MoveAllToActive(PodDelete(), EventObject(MakePod("bound", "n1")), {}, {});
  EXPECT_EQ(q.PartOf(*gated), "gated");
  // Another update (a label) keeps it gated.
  auto relabelled = MakePod("g", "", 0, R"([{"name":"example.com/wait"}])", R"({"a":"b"})");
  q.Update(gated, relabelled);
  EXPECT_EQ(q.PartOf(*gated), "gated");
  auto open = MakePod("g", "", 0, "[]", R"({"a":"b"})");
  q.Update(relabelled, open);
  EXPECT_EQ(q.PartOf(*open), "active");
  EXPECT_EQ(q.TryPop()->meta.name, "g");
  EXPECT_EQ(q.AttemptsOf(*open).attempts, 1);
}

TEST_F(QueueV135Test, APreemptorIsHeldUntilItsPreemptionEnds) {
  auto& q = Make();
  auto p = MakePod("p", "", 100);
  q.Add(p);
  ASSERT_NE(q.TryPop(), nullptr);
  held.insert("p");  // its preemption runs
  q.AddUnschedulableIfNotPresent(p, q.SchedulingCycle(), {"Fit"});
  EXPECT_EQ(q.PartOf(*p), "unschedulable");
  clock.Advance(2s);
  // A victim's deletion: Fit queues it, but PreEnqueue holds it back.
  q.MoveAllToActive(PodDelete(), EventObject(MakePod("victim1", "n1")), {}, {});
  EXPECT_EQ(q.PartOf(*p), "gated");
  // The last victim's deletion, the preemption over: through.
  held.clear();
  q.MoveAllToActive(PodDelete(), EventObject(MakePod("victim2", "n1")), {}, {});
  EXPECT_EQ(q.PartOf(*p), "active");
}

TEST_F(QueueV135Test, ActivateMovesAPodAtOnceAndFlushMovesTheLeftovers) {
  auto& q = Make();
  auto a = MakePod("a"), b = MakePod("b");
  q.Add(a);
  q.Add(b);
  Fail(a, {"Fit"});
  Fail(b, {"Fit"});
  q.Activate(*a);
  EXPECT_EQ(q.PartOf(*a), "active");
  EXPECT_EQ(incoming.back(), "active/ForceActivate");
  clock.Advance(5min + 1s);
  q.FlushUnschedulableLeftover();
  EXPECT_EQ(q.PartOf(*b), "active");
  EXPECT_EQ(incoming.back(), "active/UnschedulableTimeout");
}

TEST_F(QueueV135Test, HigherPriorityFirstThenEarlier) {
  auto& q = Make();
  q.Add(MakePod("low", "", 1));
  clock.Advance(1ms);
  q.Add(MakePod("high", "", 10));
  q.Add(MakePod("high2", "", 10));
  EXPECT_EQ(q.TryPop()->meta.name, "high");
  EXPECT_EQ(q.TryPop()->meta.name, "high2");
  EXPECT_EQ(q.TryPop()->meta.name, "low");
}

TEST(PodSchedulingPropertiesChange, NamesEachKindOfChange) {
  auto labels = [](const std::vector<ClusterEvent>& events) {
    std::vector<std::string> out;
    for (const ClusterEvent& e : events) out.push_back(e.label);
    return out;
  };
  auto base = MakePod("p");
  EXPECT_EQ(
      labels(PodSchedulingPropertiesChange(*MakePod("p", "", 0, "[]", R"({"a":"b"})"), *base)),
      std::vector<std::string>{"UnschedulablePodUpdatePodLabel"});
  EXPECT_EQ(labels(PodSchedulingPropertiesChange(*base, *MakePod("p", "", 0, R"([{"name":"x"}])"))),
            std::vector<std::string>{"UnschedulablePodUpdatePodSchedulingGatesEliminated"});
  EXPECT_EQ(labels(PodSchedulingPropertiesChange(*MakePod("p", "n1", 5), *MakePod("p", "n1", 0))),
            std::vector<std::string>{"AssignedPodUpdate"});
}

}  // namespace priority_queue_v135_test
}  // namespace ksched
