#include "live/live_scheduler.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <mutex>

#include "algorithm/provider.h"
#include "config/feature_gates.h"
#include "config/load.h"
#include "framework/schedule_one.h"

namespace ksched::live {
namespace live_scheduler_test {

using namespace std::chrono_literals;
using client::Resource;
using client::WatchEvent;
using client::WatchEventType;

// Records every write; binds of pods named in `reject` fail with 409.
class FakeApi : public SchedulerApi {
 public:
  Status BindPod(std::string_view ns, std::string_view name, std::string_view,
                 std::string_view node) override {
    std::lock_guard<std::mutex> lock(mu);
    const std::string key = std::string(ns) + "/" + std::string(name);
    if (reject.count(key))
      return Error{"POST pods/" + std::string(name) + "/binding: conflict", 409};
    binds[key] = std::string(node);
    ++bind_calls;
    return Status::Ok();
  }
  Status DeletePod(std::string_view ns, std::string_view name, std::string_view) override {
    std::lock_guard<std::mutex> lock(mu);
    deleted.push_back(std::string(ns) + "/" + std::string(name));
    return Status::Ok();
  }
  Status SetNominatedNodeName(std::string_view ns, std::string_view name,
                              std::string_view node) override {
    std::lock_guard<std::mutex> lock(mu);
    nominations[std::string(ns) + "/" + std::string(name)] = std::string(node);
    return Status::Ok();
  }
  Status SetPodScheduledCondition(std::string_view ns, std::string_view name, std::string_view,
                                  std::string_view reason, std::string_view message) override {
    std::lock_guard<std::mutex> lock(mu);
    conditions.push_back(std::string(ns) + "/" + std::string(name) + " " + std::string(reason) +
                         ": " + std::string(message));
    return Status::Ok();
  }
  Status SetDisruptionTarget(std::string_view ns, std::string_view name, std::string_view reason,
                             std::string_view message) override {
    std::lock_guard<std::mutex> lock(mu);
    conditions.push_back(std::string(ns) + "/" + std::string(name) + " DisruptionTarget " +
                         std::string(reason) + ": " + std::string(message));
    return Status::Ok();
  }
  Status CreateEvent(const client::EventRecord& e) override {
    std::lock_guard<std::mutex> lock(mu);
    events.push_back(e.involved_object.ns + "/" + e.involved_object.name + " " + e.reason + " " +
                     e.message);
    return Status::Ok();
  }
  std::vector<std::string> Events(const std::string& reason) {
    std::lock_guard<std::mutex> lock(mu);
    std::vector<std::string> out;
    for (const std::string& e : events)
      if (e.find(" " + reason + " ") != std::string::npos) out.push_back(e);
    return out;
  }

  std::mutex mu;
  std::set<std::string> reject;
  std::map<std::string, std::string> binds;
  int bind_calls = 0;
  std::vector<std::string> deleted, conditions, events;
  std::map<std::string, std::string> nominations;
};

std::string NodeJson(const std::string& name, const std::string& cpu) {
  return R"({"kind":"Node","metadata":{"name":")" + name +
         R"(","labels":{"kubernetes.io/hostname":")" + name +
         R"("}},"status":{"allocatable":{"cpu":")" + cpu +
         R"(","memory":"8Gi","pods":"110"},"conditions":[{"type":"Ready","status":"True"}]}})";
}

std::string PodJson(const std::string& name, const std::string& cpu, const std::string& node = "",
                    int priority = 0, const std::string& scheduler = "default-scheduler") {
  std::string spec =
      R"("schedulerName":")" + scheduler + R"(","priority":)" + std::to_string(priority);
  if (!node.empty()) spec += R"(,"nodeName":")" + node + "\"";
  return R"({"kind":"Pod","metadata":{"name":")" + name + R"(","namespace":"default","uid":"uid-)" +
         name + R"("},"spec":{)" + spec +
         R"(,"containers":[{"name":"c","resources":{"requests":{"cpu":")" + cpu +
         R"("}}}]},"status":{"phase":"Pending"}})";
}

// The value of the sample `series` (name and labels as exposed), -1 if absent.
double Sample(const Metrics& metrics, const std::string& series) {
  const std::string text = metrics.Serialize();
  size_t at = 0;
  while ((at = text.find(series + " ", at)) != std::string::npos) {
    if (at == 0 || text[at - 1] == '\n') return std::stod(text.substr(at + series.size() + 1));
    at += series.size();
  }
  return -1;
}

// A LiveScheduler over `engine` with fakes for the API and the clock.
class LiveFixture : public ::testing::Test {
 protected:
  LiveFixture(std::unique_ptr<Engine> e, LiveOptions options)
      : metrics(e->version()),
        engine(std::move(e)),
        sched(engine.get(), &api, &clock, &metrics, WithTestDefaults(std::move(options))) {}
  static LiveOptions WithTestDefaults(LiveOptions o) {
    o.log_decisions = false;
    return o;
  }
  void Event(WatchEventType t, Resource r, std::string json) {
    sched.OnWatchEvent(WatchEvent{t, r, std::move(json), "1"});
  }
  void Cycle() {
    sched.RunOnce(true);
    sched.WaitForBindings();
  }

  FakeClock clock;
  FakeApi api;
  Metrics metrics;
  std::unique_ptr<Engine> engine;
  LiveScheduler sched;
};

class LiveSchedulerTest : public LiveFixture {
 protected:
  LiveSchedulerTest()
      : LiveFixture(MakeV115Engine(BuildFromProvider("DefaultProvider", BuildOptions()).value(),
                                   TieBreak::kName),
                    Options()) {}
  static LiveOptions Options() {
    LiveOptions o;
    o.bind_workers = 4;
    return o;
  }
};

TEST_F(LiveSchedulerTest, BindsWhereTheEngineDecidesAndCountsAssumedPods) {
  Event(WatchEventType::kAdded, Resource::kNode, NodeJson("n1", "2"));
  Event(WatchEventType::kAdded, Resource::kNode, NodeJson("n2", "2"));
  Event(WatchEventType::kAdded, Resource::kPod, PodJson("a", "1500m"));
  Event(WatchEventType::kAdded, Resource::kPod, PodJson("b", "1500m"));
  Event(WatchEventType::kAdded, Resource::kPod, PodJson("other", "100m", "", 0, "someone-else"));
  Cycle();
  // a and b cannot share a node: the second cycle counted the first's
  // assumption before its binding was confirmed.
  ASSERT_EQ(api.binds.size(), 2u);
  EXPECT_NE(api.binds["default/a"], api.binds["default/b"]);
  EXPECT_EQ(api.binds.count("default/other"), 0u);
  EXPECT_EQ(api.Events("Scheduled").size(), 2u);
  EXPECT_NE(api.events[0].find("Successfully assigned default/"), std::string::npos);
  EXPECT_EQ(sched.bound(), 2u);
  EXPECT_EQ(Sample(metrics, "scheduler_schedule_attempts_total{result=\"scheduled\"}"), 2);
  EXPECT_EQ(sched.cache().num_assumed(), 2u);
  // The watch confirms both.
  Event(WatchEventType::kModified, Resource::kPod, PodJson("a", "1500m", api.binds["default/a"]));
  Event(WatchEventType::kModified, Resource::kPod, PodJson("b", "1500m", api.binds["default/b"]));
  Cycle();
  EXPECT_EQ(sched.cache().num_assumed(), 0u);
  EXPECT_EQ(api.bind_calls, 2);
}

TEST_F(LiveSchedulerTest, UnschedulablePodGetsEventConditionAndFitsOnceANodeArrives) {
  Event(WatchEventType::kAdded, Resource::kNode, NodeJson("small", "1"));
  Event(WatchEventType::kAdded, Resource::kPod, PodJson("big", "3"));
  Cycle();
  EXPECT_TRUE(api.binds.empty());
  auto failed = api.Events("FailedScheduling");
  ASSERT_EQ(failed.size(), 1u);
  EXPECT_NE(failed[0].find("0/1 nodes are available: 1 Insufficient cpu."), std::string::npos)
      << failed[0];
  ASSERT_EQ(api.conditions.size(), 1u);
  EXPECT_EQ(api.conditions[0],
            "default/big Unschedulable: 0/1 nodes are available: 1 Insufficient cpu.");
  EXPECT_EQ(sched.queue().sizes().unschedulable, 1u);
  EXPECT_EQ(Sample(metrics, "scheduler_schedule_attempts_total{result=\"unschedulable\"}"), 1);
  // A fitting node moves it back; after its backoff it binds there.
  Event(WatchEventType::kAdded, Resource::kNode, NodeJson("large", "4"));
  clock.Advance(2s);
  Cycle();
  EXPECT_EQ(api.binds["default/big"], "large");
}

TEST_F(LiveSchedulerTest, RepeatedFailuresWriteTheConditionOnce) {
  Event(WatchEventType::kAdded, Resource::kNode, NodeJson("small", "1"));
  Event(WatchEventType::kAdded, Resource::kPod, PodJson("big", "3"));
  Cycle();
  for (int i = 0; i < 3; ++i) {
    clock.Advance(61s);  // the 60 s flush retries it
    sched.RunOnce(false);
    Cycle();
  }
  EXPECT_GE(api.Events("FailedScheduling").size(), 3u);
  EXPECT_EQ(api.conditions.size(), 1u);
}

TEST_F(LiveSchedulerTest, FailedBindForgetsAndRequeues) {
  Event(WatchEventType::kAdded, Resource::kNode, NodeJson("n1", "2"));
  Event(WatchEventType::kAdded, Resource::kPod, PodJson("p", "1"));
  api.reject.insert("default/p");
  Cycle();
  EXPECT_TRUE(api.binds.empty());
  EXPECT_EQ(sched.cache().num_assumed(), 0u);
  auto failed = api.Events("FailedScheduling");
  ASSERT_EQ(failed.size(), 1u);
  EXPECT_NE(failed[0].find("Binding rejected: "), std::string::npos) << failed[0];
  EXPECT_EQ(Sample(metrics, "scheduler_schedule_attempts_total{result=\"error\"}"), 1);
  EXPECT_EQ(sched.queue().sizes().backoff, 1u);
  EXPECT_EQ(sched.queue().sizes().unschedulable, 0u);
}

// A binding that fails (the API server restarting) while other pods wait:
// the pod is retried once its backoff is over, not after the unschedulable
// flush; v1.15 moves none of the waiting pods for it.
TEST_F(LiveSchedulerTest, FailedBindIsRetriedAfterItsBackoffNotTheFlush) {
  Event(WatchEventType::kAdded, Resource::kNode, NodeJson("n1", "2"));
  Event(WatchEventType::kAdded, Resource::kPod, PodJson("big", "3"));
  Event(WatchEventType::kAdded, Resource::kPod, PodJson("p", "1"));
  api.reject.insert("default/p");
  Cycle();
  EXPECT_TRUE(api.binds.empty());
  EXPECT_EQ(sched.queue().sizes().unschedulable, 1u);  // big, and only big
  EXPECT_EQ(sched.queue().sizes().backoff, 1u);
  // Failing again doubles the backoff: 2 s.
  clock.Advance(1100ms);
  Cycle();
  EXPECT_EQ(Sample(metrics, "scheduler_schedule_attempts_total{result=\"error\"}"), 2);
  EXPECT_EQ(sched.queue().sizes().backoff, 1u);
  api.reject.clear();
  clock.Advance(1s);
  Cycle();
  EXPECT_TRUE(api.binds.empty()) << "still backing off";
  clock.Advance(1100ms);
  Cycle();
  EXPECT_EQ(api.binds["default/p"], "n1");
  EXPECT_EQ(sched.queue().sizes().unschedulable, 1u);
  EXPECT_EQ(Sample(metrics, "scheduler_schedule_attempts_total{result=\"unschedulable\"}"), 1)
      << "big was not attempted again";
}

TEST_F(LiveSchedulerTest, ConflictBecauseSomeoneElseBoundItDropsThePod) {
  Event(WatchEventType::kAdded, Resource::kNode, NodeJson("n1", "2"));
  Event(WatchEventType::kAdded, Resource::kPod, PodJson("p", "1"));
  api.reject.insert("default/p");
  Cycle();
  // The watch shows it bound by someone else: out of the queue for good.
  Event(WatchEventType::kModified, Resource::kPod, PodJson("p", "1", "n1"));
  api.reject.clear();
  clock.Advance(30s);
  Cycle();
  EXPECT_TRUE(api.binds.empty());
  EXPECT_EQ(sched.queue().sizes().active + sched.queue().sizes().backoff +
                sched.queue().sizes().unschedulable,
            0u);
}

TEST_F(LiveSchedulerTest, DeletedPodIsNotScheduled) {
  Event(WatchEventType::kAdded, Resource::kNode, NodeJson("n1", "2"));
  Event(WatchEventType::kAdded, Resource::kPod, PodJson("p", "1"));
  Event(WatchEventType::kDeleted, Resource::kPod, PodJson("p", "1"));
  Cycle();
  EXPECT_TRUE(api.binds.empty());
}

TEST_F(LiveSchedulerTest, PreemptionNominatesDeletesVictimsAndBindsAfterTheirDeletion) {
  Event(WatchEventType::kAdded, Resource::kNode, NodeJson("n1", "2"));
  Event(WatchEventType::kAdded, Resource::kPod, PodJson("low", "2", "n1", 0, "x"));
  Event(WatchEventType::kAdded, Resource::kPod, PodJson("high", "2", "", 100));
  Cycle();
  EXPECT_TRUE(api.binds.empty());
  EXPECT_EQ(api.nominations["default/high"], "n1");
  EXPECT_EQ(api.deleted, std::vector<std::string>{"default/low"});
  auto preempted = api.Events("Preempted");
  ASSERT_EQ(preempted.size(), 1u);
  EXPECT_EQ(preempted[0], "default/low Preempted by default/high on node n1");
  EXPECT_EQ(metrics.preemption_attempts->Value(), 1);
  EXPECT_EQ(Sample(metrics, "scheduler_pod_preemption_victims"), 1);
  // The victim's deletion arrives; the nominated pod then fits.
  Event(WatchEventType::kDeleted, Resource::kPod, PodJson("low", "2", "n1", 0, "x"));
  clock.Advance(2s);
  Cycle();
  EXPECT_EQ(api.binds["default/high"], "n1");
}

TEST_F(LiveSchedulerTest, NominatedRoomIsKeptFromLowerPriorityPods) {
  Event(WatchEventType::kAdded, Resource::kNode, NodeJson("n1", "2"));
  Event(WatchEventType::kAdded, Resource::kPod, PodJson("low", "2", "n1", 0, "x"));
  Event(WatchEventType::kAdded, Resource::kPod, PodJson("high", "2", "", 100));
  Cycle();
  ASSERT_EQ(api.nominations["default/high"], "n1");
  // The victim goes; a small low-priority pod arrives before high retries:
  // the room nominated to high is not given to it.
  Event(WatchEventType::kDeleted, Resource::kPod, PodJson("low", "2", "n1", 0, "x"));
  Event(WatchEventType::kAdded, Resource::kPod, PodJson("small", "1", "", 0));
  sched.RunOnce(true);  // high is backing off; small is tried alone
  sched.WaitForBindings();
  EXPECT_EQ(api.binds.count("default/small"), 0u);
  clock.Advance(2s);
  Cycle();
  EXPECT_EQ(api.binds["default/high"], "n1");
}

TEST_F(LiveSchedulerTest, NothingIsScheduledBeforeTheCacheSynced) {
  sched.cache().ExpectResources({Resource::kNode, Resource::kPod});
  Event(WatchEventType::kAdded, Resource::kNode, NodeJson("n1", "2"));
  Event(WatchEventType::kAdded, Resource::kPod, PodJson("p", "1"));
  Event(WatchEventType::kSynced, Resource::kNode, "");
  Cycle();
  EXPECT_TRUE(api.binds.empty());
  Event(WatchEventType::kSynced, Resource::kPod, "");
  Cycle();
  EXPECT_EQ(api.binds["default/p"], "n1");
}

TEST_F(LiveSchedulerTest, MetricsAreExposedUnderUpstreamNames) {
  Event(WatchEventType::kAdded, Resource::kNode, NodeJson("n1", "2"));
  Event(WatchEventType::kAdded, Resource::kPod, PodJson("p", "1"));
  Cycle();
  const std::string text = metrics.Serialize();
  for (const char* name :
       {"scheduler_schedule_attempts_total{result=\"scheduled\"} 1",
        "scheduler_e2e_scheduling_duration_seconds_bucket",
        "scheduler_binding_duration_seconds_count 1", "scheduler_pending_pods{queue=\"active\"}",
        "scheduler_total_preemption_attempts", "scheduler_pod_preemption_victims",
        "scheduler_scheduling_algorithm_duration_seconds"}) {
    EXPECT_NE(text.find(name), std::string::npos) << name << "\n" << text;
  }
}

// The same loop with kube-scheduler v1.26's framework (the default of `run`).
class LiveScheduler126Test : public LiveFixture {
 protected:
  LiveScheduler126Test() : LiveFixture(Engine126(), Options()) {}
  static std::unique_ptr<Engine> Engine126() {
    config::FeatureGates gates;
    gates.pod_scheduling_readiness = true;
    config::KubeSchedulerConfiguration cfg = config::DefaultConfiguration(gates);
    config::Profile second = cfg.profiles.front();
    second.scheduler_name = "second";
    cfg.profiles.push_back(second);
    framework::FrameworkOptions fw;
    fw.feature_gates = gates;
    auto scheduler = framework::Scheduler::New(cfg, fw, framework::SchedulerOptions());
    EXPECT_TRUE(scheduler.ok()) << scheduler.error().message;
    return MakeFrameworkEngine(std::move(scheduler).value());
  }
  static LiveOptions Options() {
    LiveOptions o;
    o.bind_workers = 2;
    o.scheduler_names = {"default-scheduler", "second"};
    o.disruption_target_condition = true;
    o.sample_every_cycle = true;
    return o;
  }
};

// v1.26's handleBindingCycleError: the forgotten pod's room moves the pods
// rejected for room (AssignedPodDelete), and the pod itself goes to backoff
// (the move request came in its cycle), not to the unschedulable pool for
// the 5-minute flush.
TEST_F(LiveScheduler126Test, FailedBindMovesPodsWaitingForRoomAndIsRetriedAfterItsBackoff) {
  Event(WatchEventType::kAdded, Resource::kNode, NodeJson("n1", "2"));
  Event(WatchEventType::kAdded, Resource::kPod, PodJson("big", "3"));
  Event(WatchEventType::kAdded, Resource::kPod, PodJson("p", "1"));
  api.reject.insert("default/p");
  Cycle();
  EXPECT_TRUE(api.binds.empty());
  EXPECT_EQ(sched.queue().sizes().unschedulable, 0u);
  EXPECT_EQ(sched.queue().sizes().backoff, 2u);  // big still backing off, and p
  EXPECT_EQ(Sample(metrics,
                   "scheduler_queue_incoming_pods_total{event=\"AssignedPodDelete\","
                   "queue=\"backoff\"}"),
            1);
  EXPECT_EQ(Sample(metrics,
                   "scheduler_queue_incoming_pods_total{event=\"ScheduleAttemptFailure\","
                   "queue=\"backoff\"}"),
            1);
  api.reject.clear();
  clock.Advance(1100ms);
  Cycle();
  EXPECT_EQ(api.binds["default/p"], "n1");
  EXPECT_EQ(sched.queue().sizes().unschedulable, 1u);  // big, rejected again
}

TEST_F(LiveScheduler126Test, ServesEveryProfile) {
  Event(WatchEventType::kAdded, Resource::kNode, NodeJson("n1", "4"));
  Event(WatchEventType::kAdded, Resource::kPod, PodJson("a", "1"));
  Event(WatchEventType::kAdded, Resource::kPod, PodJson("b", "1", "", 0, "second"));
  Event(WatchEventType::kAdded, Resource::kPod, PodJson("c", "1", "", 0, "third"));
  Cycle();
  EXPECT_EQ(api.binds["default/a"], "n1");
  EXPECT_EQ(api.binds["default/b"], "n1");
  EXPECT_EQ(api.binds.count("default/c"), 0u);
  // v1.26's metric names, one series per profile.
  EXPECT_EQ(
      Sample(metrics, "scheduler_schedule_attempts_total{profile=\"second\",result=\"scheduled\"}"),
      1);
  EXPECT_EQ(
      Sample(
          metrics,
          "scheduler_schedule_attempts_total{profile=\"default-scheduler\",result=\"scheduled\"}"),
      1);
  const std::string text = metrics.Serialize();
  for (const char* name :
       {"scheduler_scheduling_attempt_duration_seconds_bucket",
        "scheduler_pending_pods{queue=\"gated\"}", "scheduler_preemption_attempts_total",
        "scheduler_scheduler_cache_size{type=\"nodes\"}"}) {
    EXPECT_NE(text.find(name), std::string::npos) << name << "\n" << text;
  }
  EXPECT_EQ(text.find("scheduler_e2e_scheduling_duration_seconds"), std::string::npos);
}

TEST_F(LiveScheduler126Test, FitErrorEndsWithPreemptionsMessage) {
  Event(WatchEventType::kAdded, Resource::kNode, NodeJson("small", "1"));
  Event(WatchEventType::kAdded, Resource::kPod, PodJson("big", "3"));
  Cycle();
  EXPECT_TRUE(api.binds.empty());
  ASSERT_EQ(api.conditions.size(), 1u);
  EXPECT_EQ(api.conditions[0],
            "default/big Unschedulable: 0/1 nodes are available: 1 Insufficient cpu. "
            "preemption: 0/1 nodes are available: 1 No preemption victims found for incoming "
            "pod..");  // upstream v1.26's text: its FitError adds a period after PostFilter's
  auto failed = api.Events("FailedScheduling");
  ASSERT_EQ(failed.size(), 1u);
  EXPECT_NE(failed[0].find("preemption: 0/1 nodes are available"), std::string::npos) << failed[0];
}

TEST_F(LiveScheduler126Test, DefaultPreemptionDeletesVictimsAndNominates) {
  Event(WatchEventType::kAdded, Resource::kNode, NodeJson("n1", "2"));
  Event(WatchEventType::kAdded, Resource::kPod, PodJson("low", "2", "n1", 0, "x"));
  Event(WatchEventType::kAdded, Resource::kPod, PodJson("high", "2", "", 100));
  Cycle();
  EXPECT_TRUE(api.binds.empty());
  EXPECT_EQ(api.nominations["default/high"], "n1");
  EXPECT_EQ(api.deleted, std::vector<std::string>{"default/low"});
  // v1.26: the victim is marked DisruptionTarget first; its event names the
  // preemptor as "Preempted by NS/NAME".
  EXPECT_NE(std::find(api.conditions.begin(), api.conditions.end(),
                      "default/low DisruptionTarget PreemptionByKubeScheduler: Kube-scheduler: "
                      "preempting to accommodate a "
                      "higher priority pod: default/high"),
            api.conditions.end());
  auto preempted = api.Events("Preempted");
  ASSERT_EQ(preempted.size(), 1u);
  EXPECT_EQ(preempted[0], "default/low Preempted Preempted by default/high on node n1");
  EXPECT_EQ(Sample(metrics, "scheduler_preemption_attempts_total"), 1);
  EXPECT_EQ(Sample(metrics, "scheduler_preemption_victims_count"), 1);
  Event(WatchEventType::kDeleted, Resource::kPod, PodJson("low", "2", "n1", 0, "x"));
  clock.Advance(2s);
  Cycle();
  EXPECT_EQ(api.binds["default/high"], "n1");
}

TEST_F(LiveScheduler126Test, GatedPodWaitsWithoutAttemptsUntilItsGatesGo) {
  Event(WatchEventType::kAdded, Resource::kNode, NodeJson("n1", "4"));
  std::string gated = PodJson("g", "1");
  const std::string spec = R"("spec":{)";
  gated.replace(gated.find(spec), spec.size(), spec + R"("schedulingGates":[{"name":"x"}],)");
  Event(WatchEventType::kAdded, Resource::kPod, gated);
  Cycle();
  clock.Advance(301s);  // past the unschedulable flush: still gated
  sched.RunOnce(false);
  Cycle();
  EXPECT_TRUE(api.binds.empty());
  EXPECT_TRUE(api.events.empty());
  EXPECT_TRUE(api.conditions.empty());
  EXPECT_EQ(sched.cycles(), 0u);
  EXPECT_EQ(Sample(metrics, "scheduler_pending_pods{queue=\"gated\"}"), 1);
  const std::string gated_by =
      "scheduler_unschedulable_pods{plugin=\"SchedulingGates\",profile=\"default-scheduler\"}";
  EXPECT_EQ(Sample(metrics, gated_by), 1);
  // The update that removes the gates moves it; it binds.
  Event(WatchEventType::kModified, Resource::kPod, PodJson("g", "1"));
  clock.Advance(2s);
  Cycle();
  EXPECT_EQ(api.binds["default/g"], "n1");
  EXPECT_EQ(Sample(metrics, gated_by), 0);
  // Bound at its first attempt: the pops while it was gated do not count.
  EXPECT_EQ(Sample(metrics, "scheduler_pod_scheduling_duration_seconds_count{attempts=\"1\"}"), 1);
  EXPECT_EQ(
      Sample(
          metrics,
          "scheduler_framework_extension_point_duration_seconds_count{extension_point="
          "\"PreEnqueue\",profile=\"default-scheduler\",status=\"UnschedulableAndUnresolvable\"}"),
      2);  // popped twice while gated (at first and after the flush)
}

// The series of one extension point's histogram.
std::string PointCount(const std::string& point, const std::string& status,
                       const std::string& profile = "default-scheduler") {
  return "scheduler_framework_extension_point_duration_seconds_count{extension_point=\"" + point +
         "\",profile=\"" + profile + "\",status=\"" + status + "\"}";
}

TEST_F(LiveScheduler126Test, FrameworkAndPodMetricsUnderUpstreamNames) {
  Event(WatchEventType::kAdded, Resource::kNode, NodeJson("n1", "2"));
  Event(WatchEventType::kAdded, Resource::kNode, NodeJson("n2", "2"));
  Event(WatchEventType::kAdded, Resource::kPod, PodJson("fits", "1"));
  Event(WatchEventType::kAdded, Resource::kPod, PodJson("big", "3"));
  Cycle();
  ASSERT_EQ(api.binds.size(), 1u);
  EXPECT_EQ(Sample(metrics, PointCount("PreEnqueue", "Success")), 2);
  EXPECT_EQ(Sample(metrics, PointCount("PreFilter", "Success")), 2);
  EXPECT_EQ(Sample(metrics, PointCount("Filter", "Success")), 2);
  EXPECT_EQ(Sample(metrics, PointCount("PreScore", "Success")), 1);  // two nodes fit `fits`
  EXPECT_EQ(Sample(metrics, PointCount("Score", "Success")), 1);
  EXPECT_EQ(Sample(metrics, PointCount("PostFilter", "Unschedulable")), 1);
  EXPECT_EQ(Sample(metrics, PointCount("Bind", "Success")), 1);
  // Every cycle sampled here (10 % in `run`): each plugin's time per node.
  EXPECT_GE(Sample(metrics,
                   "scheduler_plugin_execution_duration_seconds_count{extension_point=\"Filter\","
                   "plugin=\"NodeResourcesFit\",status=\"Unschedulable\"}"),
            2);
  EXPECT_GE(Sample(metrics,
                   "scheduler_plugin_execution_duration_seconds_count{extension_point=\"Score\","
                   "plugin=\"NodeResourcesFit\",status=\"Success\"}"),
            2);
  EXPECT_NE(metrics.Serialize().find(
                "scheduler_plugin_execution_duration_seconds_bucket{extension_point=\"PreFilter\","
                "plugin=\"NodeResourcesFit\",status=\"Success\",le=\"1e-05\"}"),
            std::string::npos);
  // Upstream's buckets: 0.1 ms doubling, 12 of them, then +Inf.
  EXPECT_NE(metrics.Serialize().find(
                "scheduler_framework_extension_point_duration_seconds_bucket{extension_point="
                "\"Bind\",profile=\"default-scheduler\",status=\"Success\",le=\"0.2048\"}"),
            std::string::npos);
  // The bound pod: one attempt, its time since it was queued.
  EXPECT_EQ(Sample(metrics, "scheduler_pod_scheduling_attempts_count"), 1);
  EXPECT_EQ(Sample(metrics, "scheduler_pod_scheduling_attempts_bucket{le=\"1\"}"), 1);
  EXPECT_EQ(Sample(metrics, "scheduler_pod_scheduling_duration_seconds_count{attempts=\"1\"}"), 1);
  EXPECT_EQ(Sample(metrics, "scheduler_goroutines{operation=\"binding\"}"), 0);
  EXPECT_EQ(Sample(metrics, "scheduler_scheduler_goroutines{work=\"binding\"}"), 0);
  // The pod that fits nowhere, counted under the plugin that rejected it.
  const std::string fit =
      "scheduler_unschedulable_pods{plugin=\"NodeResourcesFit\",profile=\"default-scheduler\"}";
  EXPECT_EQ(Sample(metrics, fit), 1);
  // A second failure after the unschedulable pods' flush: popped (-1),
  // rejected again (+1).
  clock.Advance(61s);
  Cycle();
  EXPECT_EQ(Sample(metrics, fit), 1);
  EXPECT_EQ(Sample(metrics, PointCount("PostFilter", "Unschedulable")), 2);
  // A node it fits: bound at its third attempt.
  Event(WatchEventType::kAdded, Resource::kNode, NodeJson("n4", "4"));
  clock.Advance(20s);
  Cycle();
  EXPECT_EQ(api.binds["default/big"], "n4");
  EXPECT_EQ(Sample(metrics, fit), 0);
  EXPECT_EQ(Sample(metrics, "scheduler_pod_scheduling_duration_seconds_count{attempts=\"3\"}"), 1);
  EXPECT_EQ(Sample(metrics, "scheduler_pod_scheduling_attempts_count"), 2);
}

TEST_F(LiveScheduler126Test, AnUnschedulablePodDeletedIsNoLongerCounted) {
  Event(WatchEventType::kAdded, Resource::kNode, NodeJson("n1", "1"));
  Event(WatchEventType::kAdded, Resource::kPod, PodJson("big", "3"));
  Cycle();
  const std::string fit =
      "scheduler_unschedulable_pods{plugin=\"NodeResourcesFit\",profile=\"default-scheduler\"}";
  EXPECT_EQ(Sample(metrics, fit), 1);
  Event(WatchEventType::kDeleted, Resource::kPod, PodJson("big", "3"));
  Cycle();
  EXPECT_EQ(Sample(metrics, fit), 0);
}

// The loop with kube-scheduler v1.35's framework and queue (what `run`
// picks on a server that serves resource.k8s.io/v1).
class LiveScheduler135Test : public LiveFixture {
 protected:
  LiveScheduler135Test() : LiveFixture(Engine135(), Options()) {}
  static std::unique_ptr<Engine> Engine135() {
    const config::FeatureGates gates = config::DefaultFeatureGates(config::SchedulerVersion::kV135);
    config::KubeSchedulerConfiguration cfg = config::DefaultConfiguration(gates);
    framework::FrameworkOptions fw;
    fw.feature_gates = gates;
    auto scheduler = framework::Scheduler::New(cfg, fw, framework::SchedulerOptions());
    EXPECT_TRUE(scheduler.ok()) << scheduler.error().message;
    return MakeFrameworkEngine(std::move(scheduler).value());
  }
  static LiveOptions Options() {
    LiveOptions o;
    o.bind_workers = 2;
    o.disruption_target_condition = true;
    o.async_preemption = true;
    o.queue.pop_from_backoff = true;
    o.queue.unschedulable_timeout = std::chrono::minutes(5);
    return o;
  }
  std::string Gated(const std::string& name, const std::string& cpu) {
    std::string pod = PodJson(name, cpu);
    const std::string spec = R"("spec":{)";
    pod.replace(pod.find(spec), spec.size(), spec + R"("schedulingGates":[{"name":"x"}],)");
    return pod;
  }
};

// v1.35's handleBindingCycleError: the forgotten pod's room moves the pod
// waiting for room (its NodeResourcesFit hint: a bound pod went), and the
// failed pod backs off by its count of errors, in the error backoff that
// popping from backoff never takes early.
TEST_F(LiveScheduler135Test, FailedBindBacksOffAsAnErrorAndMovesThePodsWaitingForRoom) {
  Event(WatchEventType::kAdded, Resource::kNode, NodeJson("n1", "2"));
  Event(WatchEventType::kAdded, Resource::kPod, PodJson("big", "3"));
  Event(WatchEventType::kAdded, Resource::kPod, PodJson("p", "1"));
  api.reject.insert("default/p");
  Cycle();
  EXPECT_TRUE(api.binds.empty());
  EXPECT_EQ(sched.queue().sizes().unschedulable, 0u);
  EXPECT_EQ(sched.queue().sizes().backoff, 2u);
  EXPECT_EQ(Sample(metrics,
                   "scheduler_queue_incoming_pods_total{event=\"AssignedPodDelete\","
                   "queue=\"backoff\"}"),
            1);
  auto failed = api.Events("FailedScheduling");
  ASSERT_EQ(failed.size(), 2u);
  EXPECT_NE(failed[1].find("running Bind plugin \"DefaultBinder\": "), std::string::npos)
      << failed[1];
  api.reject.clear();
  // Active empty: big is popped from backoff at once (and rejected again);
  // p waits out its error backoff (1 s, in whole-second windows).
  clock.Advance(1100ms);
  Cycle();
  EXPECT_TRUE(api.binds.empty());
  EXPECT_EQ(Sample(metrics,
                   "scheduler_queue_incoming_pods_total{event=\"PopFromBackoffQ\","
                   "queue=\"active\"}"),
            1);
  clock.Advance(1s);
  Cycle();
  EXPECT_EQ(api.binds["default/p"], "n1");
  EXPECT_EQ(sched.queue().sizes().unschedulable, 1u);
}

// A pod rejected for CPU waits through an unrelated node change (a label)
// without an attempt, and is bound once the pod holding the CPU goes.
TEST_F(LiveScheduler135Test, RejectedForCpuMovesOnlyWhenRoomIsFreed) {
  Event(WatchEventType::kAdded, Resource::kNode, NodeJson("n1", "2"));
  Event(WatchEventType::kAdded, Resource::kPod, PodJson("filler", "1500m", "n1"));
  Event(WatchEventType::kAdded, Resource::kPod, PodJson("big", "1"));
  Cycle();
  ASSERT_EQ(Sample(metrics,
                   "scheduler_schedule_attempts_total{profile=\"default-scheduler\","
                   "result=\"unschedulable\"}"),
            1);
  std::string relabelled = NodeJson("n1", "2");
  relabelled.replace(relabelled.find(R"("labels":{)"), 10, R"("labels":{"team":"a",)");
  Event(WatchEventType::kModified, Resource::kNode, relabelled);
  clock.Advance(3s);
  Cycle();
  EXPECT_EQ(Sample(metrics,
                   "scheduler_schedule_attempts_total{profile=\"default-scheduler\","
                   "result=\"unschedulable\"}"),
            1);
  EXPECT_EQ(sched.queue().sizes().unschedulable, 1u);
  Event(WatchEventType::kDeleted, Resource::kPod, PodJson("filler", "1500m", "n1"));
  Cycle();
  EXPECT_EQ(api.binds["default/big"], "n1");
  // Its hint ran for the deletion (and was never asked about the label).
  const std::string text = metrics.Serialize();
  EXPECT_NE(text.find("scheduler_queueing_hint_execution_duration_seconds_count{event="
                      "\"AssignedPodDelete\",hint=\"Queue\",plugin=\"NodeResourcesFit\"}"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("event=\"NodeUpdateNodeLabel\""), std::string::npos) << text;
}

// Gated pods: held by SchedulingGates in the queue, never attempted (no
// event, no condition: the API server's PodScheduled=False/SchedulingGated
// stays), bound once the gates are removed.
TEST_F(LiveScheduler135Test, GatedPodIsNeverAttemptedUntilItsGatesGo) {
  Event(WatchEventType::kAdded, Resource::kNode, NodeJson("n1", "4"));
  Event(WatchEventType::kAdded, Resource::kPod, Gated("g", "1"));
  Cycle();
  clock.Advance(301s);
  sched.RunOnce(false);
  Cycle();
  EXPECT_EQ(sched.cycles(), 0u);
  EXPECT_TRUE(api.events.empty());
  EXPECT_TRUE(api.conditions.empty());
  EXPECT_EQ(Sample(metrics, "scheduler_pending_pods{queue=\"gated\"}"), 1);
  EXPECT_EQ(Sample(metrics,
                   "scheduler_unschedulable_pods{plugin=\"SchedulingGates\","
                   "profile=\"default-scheduler\"}"),
            1);
  Event(WatchEventType::kModified, Resource::kPod, PodJson("g", "1"));
  Cycle();
  EXPECT_EQ(api.binds["default/g"], "n1");
  EXPECT_EQ(sched.cycles(), 1u);
  EXPECT_EQ(Sample(metrics, "scheduler_pod_scheduling_sli_duration_seconds_count{attempts=\"1\"}"),
            1);
}

// Asynchronous preemption: the victim is marked and deleted off the
// scheduling thread with v1.35's words; the preemptor binds after the
// victim's deletion.
TEST_F(LiveScheduler135Test, PreemptionDeletesVictimsAsynchronously) {
  Event(WatchEventType::kAdded, Resource::kNode, NodeJson("n1", "2"));
  Event(WatchEventType::kAdded, Resource::kPod, PodJson("low", "2", "n1", 0));
  Event(WatchEventType::kAdded, Resource::kPod, PodJson("high", "2", "", 100));
  Cycle();
  EXPECT_TRUE(api.binds.empty());
  EXPECT_EQ(api.nominations["default/high"], "n1");
  EXPECT_EQ(api.deleted, std::vector<std::string>{"default/low"});
  EXPECT_NE(std::find(api.conditions.begin(), api.conditions.end(),
                      "default/low DisruptionTarget PreemptionByScheduler: default-scheduler: "
                      "preempting to accommodate a higher priority pod"),
            api.conditions.end());
  auto preempted = api.Events("Preempted");
  ASSERT_EQ(preempted.size(), 1u);
  EXPECT_EQ(preempted[0], "default/low Preempted Preempted by pod uid-high on node n1");
  EXPECT_EQ(Sample(metrics, "scheduler_preemption_goroutines_execution_total{result=\"success\"}"),
            1);
  Event(WatchEventType::kDeleted, Resource::kPod, PodJson("low", "2", "n1", 0));
  Cycle();
  EXPECT_EQ(api.binds["default/high"], "n1");
}

TEST_F(LiveScheduler135Test, MetricsUnderV135Names) {
  Event(WatchEventType::kAdded, Resource::kNode, NodeJson("n1", "2"));
  Event(WatchEventType::kAdded, Resource::kPod, PodJson("p", "1"));
  Cycle();
  const std::string text = metrics.Serialize();
  for (const char* name :
       {"scheduler_cache_size{type=\"nodes\"}",
        "scheduler_pod_scheduling_sli_duration_seconds_count{attempts=\"1\"}",
        "scheduler_queue_incoming_pods_total{event=\"UnschedulablePodAdd\",queue=\"active\"}",
        "scheduler_goroutines{operation=\"binding\"}"}) {
    EXPECT_NE(text.find(name), std::string::npos) << name << "\n" << text;
  }
  for (const char* gone : {"scheduler_scheduler_cache_size", "scheduler_scheduler_goroutines",
                           "scheduler_pod_scheduling_duration_seconds"}) {
    EXPECT_EQ(text.find(std::string(gone) + "{"), std::string::npos) << gone;
  }
}

}  // namespace live_scheduler_test
}  // namespace ksched::live
