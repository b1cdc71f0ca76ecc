// The framework's scheduler loop with DefaultPreemption, v1.26 against
// v1.35: each test runs one scenario as both releases and expects each
// release's answer. The v1.35 answers are what refsched135 (upstream
// v1.35.4) printed for the same scenario; the v1.26 ones are ksched's v1.26
// engine, exact on ../shared/framework.
//
// Two loops run every scenario: `ksched replay`'s (RunFrameworkReplay, the
// vectors' output) and the snapshot loop of `schedule` and `capacity`
// (SnapshotLoop over the framework engine), which must agree on the
// decisions.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "api/scenario.h"
#include "cli/framework_step_writer.h"
#include "cli/replay.h"
#include "engine/engine.h"
#include "loop/snapshot_loop.h"

namespace ksched {
namespace framework_loop_test {

using nlohmann::json;

json Node(const std::string& name, const std::string& cpu) {
  json alloc = {{"cpu", cpu}, {"memory", "8Gi"}, {"pods", "110"}};
  return {{"kind", "Node"},
          {"metadata",
           {{"name", name},
            {"labels", {{"kubernetes.io/hostname", name}, {"topology.kubernetes.io/zone", "z1"}}}}},
          {"status",
           {{"capacity", alloc},
            {"allocatable", alloc},
            {"conditions", {{{"type", "Ready"}, {"status", "True"}}}}}}};
}

// A pending pod (nominated to `nominated` unless "").
json Pending(const std::string& name, const std::string& cpu, int priority,
             const std::string& nominated = "") {
  json pod = {
      {"kind", "Pod"},
      {"metadata", {{"name", name}, {"namespace", "default"}, {"uid", "uid-" + name}}},
      {"spec",
       {{"priority", priority},
        {"containers",
         {{{"name", "c"}, {"image", "busybox"}, {"resources", {{"requests", {{"cpu", cpu}}}}}}}}}},
      {"status", {{"phase", "Pending"}}}};
  if (!nominated.empty()) pod["status"]["nominatedNodeName"] = nominated;
  return pod;
}

// A pod running on `node` since 2020-01-01.
json Running(const std::string& name, const std::string& cpu, int priority, const std::string& node,
             const json& labels = nullptr) {
  json pod = Pending(name, cpu, priority);
  pod["spec"]["nodeName"] = node;
  pod["status"] = {{"phase", "Running"}, {"startTime", "2020-01-01T00:00:00Z"}};
  if (!labels.is_null()) pod["metadata"]["labels"] = labels;
  return pod;
}

// `pod` with its deletion under way; by preemption (DisruptionTarget,
// PreemptionByScheduler) when `disruption_target`.
json Terminating(json pod, bool disruption_target = false) {
  pod["metadata"]["deletionTimestamp"] = "2020-03-02T00:00:00Z";
  if (disruption_target) {
    pod["status"]["conditions"] = {
        {{"type", "DisruptionTarget"}, {"status", "True"}, {"reason", "PreemptionByScheduler"}}};
  }
  return pod;
}

struct Input {
  std::vector<json> nodes, pods, pending, pdbs;
  json feature_gates = nullptr;
  json config = nullptr;
};

std::string ScenarioText(const Input& in, config::SchedulerVersion version) {
  json s = {
      {"name", "loop-test"},
      {"schedulerVersion", std::string(config::SchedulerVersionName(version))},
      {"preemption", true},
      {"cluster", {{"nodes", in.nodes}, {"pods", in.pods}, {"podDisruptionBudgets", in.pdbs}}},
      {"pending", in.pending}};
  if (!in.feature_gates.is_null()) s["featureGates"] = in.feature_gates;
  if (!in.config.is_null()) s["config"] = in.config;
  return s.dump();
}

// `ksched replay`'s steps, one JSON object each.
std::vector<json> Replay(const Input& in, config::SchedulerVersion version) {
  auto scenario = ParseScenario(ScenarioText(in, version), "loop-test.json");
  EXPECT_TRUE(scenario.ok()) << (scenario.ok() ? "" : scenario.error().message);
  std::vector<json> steps;
  if (!scenario.ok()) return steps;
  Status s = RunFrameworkReplay(std::move(scenario).value(), FrameworkReplayOptions{},
                                [&](const Pod& pod, const framework::CycleResult& r,
                                    const ClusterState& c, const FrameworkPreemption* p) {
                                  steps.push_back(json::parse(FrameworkStepToJson(pod, r, c, p)));
                                });
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().message);
  return steps;
}

// The snapshot loop's attempts: pod, node ("" when none), and where
// preemption nominated ("-": it did not run, "": no node) with its victims
// and cleared nominations.
struct Attempted {
  std::string pod, node, preempted_on = "-";
  std::vector<std::string> victims, cleared;
  std::string error;
};

std::vector<Attempted> SnapshotLoopRun(const Input& in, config::SchedulerVersion version) {
  std::vector<Attempted> out;
  auto scenario = ParseScenario(ScenarioText(in, version), "loop-test.json");
  EXPECT_TRUE(scenario.ok());
  if (!scenario.ok()) return out;
  auto gates = ScenarioFeatureGates(*scenario);
  EXPECT_TRUE(gates.ok());
  auto cfg = ScenarioSchedulerConfiguration(*scenario, *gates);
  EXPECT_TRUE(cfg.ok()) << (cfg.ok() ? "" : cfg.error().message);
  if (!gates.ok() || !cfg.ok()) return out;
  framework::FrameworkOptions fw_options;
  fw_options.feature_gates = *gates;
  auto scheduler = framework::Scheduler::New(*cfg, fw_options, framework::SchedulerOptions{});
  EXPECT_TRUE(scheduler.ok());
  if (!scheduler.ok()) return out;
  std::unique_ptr<Engine> engine = MakeFrameworkEngine(std::move(scheduler).value());
  auto cluster =
      ClusterState::Build(std::move(scenario->cluster), nullptr, engine->cache_options());
  EXPECT_TRUE(cluster.ok());
  if (!cluster.ok()) return out;
  NodeTree tree(*cluster);
  SnapshotLoop loop(engine.get(), &*cluster, &tree, LoopOptions{});
  loop.Run(std::move(scenario->pending), [&](const Attempt& a) {
    Attempted s;
    s.pod = a.pod->meta.name;
    if (a.result.chosen != kNoNode) s.node = cluster->node(a.result.chosen).meta.name;
    s.error = a.result.error;
    if (a.preemption) {
      s.preempted_on =
          a.preemption->node == kNoNode ? "" : cluster->node(a.preemption->node).meta.name;
      for (PodId v : a.preemption->victims) s.victims.push_back(cluster->pod(v).pod.meta.name);
      for (const auto& r : a.preemption->nominated_pods_to_clear) s.cleared.push_back(r.key);
    }
    out.push_back(std::move(s));
  });
  return out;
}

constexpr auto kV126 = config::SchedulerVersion::kV126;
constexpr auto kV135 = config::SchedulerVersion::kV135;

json Preemption(const std::string& node, std::vector<std::string> victims,
                std::vector<std::string> cleared) {
  return {{"node", node}, {"victims", victims}, {"nominatedPodsToClear", cleared}};
}

// n1 holds a terminating victim and a pod of higher priority than the
// preemptor; l is nominated there with a priority between the two.
Input TerminatingVictim(bool disruption_target) {
  Input in;
  in.nodes = {Node("n1", "2")};
  in.pods = {Terminating(Running("v1", "1", 1, "n1"), disruption_target),
             Running("v2", "1", 20, "n1")};
  in.pending = {Pending("p", "1", 10), Pending("l", "100m", 5, "n1")};
  return in;
}

// v1.26 deletes a terminating victim again (and the preemptor then fits);
// v1.35 does not, lists no victim and, its asynchronous preemption having
// nothing to delete, clears no nomination. The preemptor's second attempt
// preempts again: the victim is terminating, but not by preemption.
TEST(FrameworkLoop, TerminatingVictimIsNotDeletedAgainInV135) {
  Input in = TerminatingVictim(false);
  std::vector<json> v126 = Replay(in, kV126);
  ASSERT_EQ(v126.size(), 3u);
  EXPECT_EQ(v126[0]["preemption"], Preemption("n1", {"default/v1"}, {"default/l"}));
  EXPECT_EQ(v126[1]["node"], "n1");

  std::vector<json> v135 = Replay(in, kV135);
  ASSERT_EQ(v135.size(), 3u);
  EXPECT_EQ(v135[0]["preemption"], Preemption("n1", {}, {}));
  EXPECT_EQ(v135[1]["pod"], "default/p");
  EXPECT_EQ(v135[1]["node"], nullptr);
  EXPECT_EQ(v135[1]["error"], "0/1 nodes are available: 1 Insufficient cpu.");
  EXPECT_EQ(v135[1]["preemption"], Preemption("n1", {}, {}));
  EXPECT_EQ(v135[2]["error"],
            "0/1 nodes are available: 1 Insufficient cpu. no new claims to deallocate, "
            "preemption: 0/1 nodes are available: 1 Insufficient cpu.");

  std::vector<Attempted> loop = SnapshotLoopRun(in, kV135);
  ASSERT_EQ(loop.size(), 3u);
  EXPECT_EQ(loop[0].preempted_on, "n1");
  EXPECT_TRUE(loop[0].victims.empty());
  EXPECT_TRUE(loop[0].cleared.empty());
  EXPECT_EQ(loop[1].preempted_on, "n1");
  EXPECT_EQ(loop[2].error, v135[2]["error"]);
  loop = SnapshotLoopRun(in, kV126);
  ASSERT_EQ(loop.size(), 3u);
  EXPECT_EQ(loop[0].victims, std::vector<std::string>{"v1"});
  EXPECT_EQ(loop[1].node, "n1");
}

// Without SchedulerAsyncPreemption v1.35 clears the lower-priority
// nominations even when every victim was already terminating.
TEST(FrameworkLoop, SynchronousPreemptionClearsNominationsWithoutVictims) {
  Input in = TerminatingVictim(false);
  std::vector<json> async = Replay(in, kV135);
  ASSERT_FALSE(async.empty());
  EXPECT_EQ(async[0]["preemption"], Preemption("n1", {}, {}));
  in.feature_gates = {{"SchedulerAsyncPreemption", false}};
  std::vector<json> sync = Replay(in, kV135);
  ASSERT_EQ(sync.size(), 3u);
  EXPECT_EQ(sync[0]["preemption"], Preemption("n1", {}, {"default/l"}));
  std::vector<Attempted> loop = SnapshotLoopRun(in, kV135);
  ASSERT_FALSE(loop.empty());
  EXPECT_EQ(loop[0].cleared, std::vector<std::string>{"default/l"});
}

// A victim that preemption is terminating (DisruptionTarget,
// PreemptionByScheduler) makes the nominated preemptor wait in v1.35.
TEST(FrameworkLoop, TerminatingByPreemptionMakesThePreemptorWaitInV135) {
  Input in = TerminatingVictim(true);
  std::vector<json> v135 = Replay(in, kV135);
  ASSERT_EQ(v135.size(), 3u);
  EXPECT_EQ(v135[0]["preemption"], Preemption("n1", {}, {}));
  EXPECT_EQ(v135[1]["error"],
            "0/1 nodes are available: 1 Insufficient cpu. no new claims to deallocate, "
            "preemption: not eligible due to a terminating pod on the nominated node.");
  EXPECT_EQ(v135[1]["preemption"], nullptr);
  EXPECT_EQ(v135[2]["error"], v135[1]["error"]);
  std::vector<json> v126 = Replay(in, kV126);
  ASSERT_EQ(v126.size(), 3u);
  EXPECT_EQ(v126[1]["node"], "n1");
}

// A terminating lower-priority pod on the preemptor's nominated node: v1.26
// waits for any; v1.35 only for one that preemption terminates.
TEST(FrameworkLoop, EligibilityWaitsOnlyForPreemptionsVictimsInV135) {
  Input in;
  in.nodes = {Node("n1", "2"), Node("n2", "2")};
  in.pods = {Terminating(Running("t", "1", 1, "n1")), Running("u", "1", 1, "n1"),
             Running("w", "2", 1, "n2")};
  in.pending = {Pending("p", "1", 10, "n1")};
  std::vector<json> v126 = Replay(in, kV126);
  ASSERT_EQ(v126.size(), 1u);
  EXPECT_EQ(v126[0]["error"],
            "0/2 nodes are available: 2 Insufficient cpu. preemption: not eligible due to a "
            "terminating pod on the nominated node..");
  EXPECT_EQ(v126[0]["preemption"], nullptr);
  std::vector<json> v135 = Replay(in, kV135);
  ASSERT_EQ(v135.size(), 2u);
  EXPECT_EQ(v135[0]["preemption"], Preemption("n1", {"default/u"}, {}));
  EXPECT_EQ(v135[1]["node"], "n1");
  std::vector<Attempted> loop = SnapshotLoopRun(in, kV135);
  ASSERT_EQ(loop.size(), 2u);
  EXPECT_EQ(loop[0].victims, std::vector<std::string>{"u"});
  EXPECT_EQ(loop[1].node, "n1");
}

// A node a PreFilterResult left out (NodeAffinity on metadata.name): v1.26
// dry-runs it (no status: preemption might help), v1.35 only dry-runs nodes
// whose status is Unschedulable and counts every node in its FitError.
TEST(FrameworkLoop, PreemptionDryRunsOnlyUnschedulableNodesInV135) {
  Input in;
  in.nodes = {Node("n1", "2"), Node("n2", "2")};
  in.pods = {Running("h", "2", 100, "n1"), Running("lo", "2", 1, "n2")};
  json pod = Pending("p", "1", 10);
  pod["spec"]["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"] = {
      {"nodeSelectorTerms",
       {{{"matchFields", {{{"key", "metadata.name"}, {"operator", "In"}, {"values", {"n1"}}}}}}}}};
  in.pending = {pod};
  std::vector<json> v126 = Replay(in, kV126);
  ASSERT_EQ(v126.size(), 1u);
  EXPECT_EQ(v126[0]["error"],
            "0/2 nodes are available: 1 Insufficient cpu. preemption: 0/2 nodes are available: 1 "
            "No preemption victims found for incoming pod, 1 node(s) didn't match Pod's node "
            "affinity/selector..");
  std::vector<json> v135 = Replay(in, kV135);
  ASSERT_EQ(v135.size(), 1u);
  EXPECT_EQ(v135[0]["error"],
            "0/2 nodes are available: 1 Insufficient cpu, 1 node(s) didn't satisfy plugin(s) "
            "[NodeAffinity]. no new claims to deallocate, preemption: 0/2 nodes are available: 1 "
            "No preemption victims found for incoming pod, 1 Preemption is not helpful for "
            "scheduling.");
  EXPECT_EQ(v135[0]["preemption"], nullptr);
  std::vector<Attempted> loop = SnapshotLoopRun(in, kV135);
  ASSERT_EQ(loop.size(), 1u);
  EXPECT_EQ(loop[0].error, v135[0]["error"]);
  EXPECT_EQ(loop[0].preempted_on, "");
}

// Both nodes need two victims, one of them protected by a budget. v1.26
// keeps the budget-violating victim first, so the "highest priority victim"
// pickOneNodeForPreemption compares is the violating one; v1.35 sorts the
// victims again and compares the most important.
TEST(FrameworkLoop, VictimsAreSortedAgainAcrossBudgetGroupsInV135) {
  Input in;
  in.nodes = {Node("n1", "2"), Node("n2", "2")};
  const json guarded = {{"app", "guarded"}};
  in.pods = {Running("a", "1", 5, "n1", guarded), Running("b", "1", 8, "n1"),
             Running("c", "1", 6, "n2", guarded), Running("d", "1", 7, "n2")};
  in.pdbs = {json{{"apiVersion", "policy/v1"},
                  {"kind", "PodDisruptionBudget"},
                  {"metadata", {{"name", "guard"}, {"namespace", "default"}}},
                  {"spec", {{"minAvailable", 2}, {"selector", {{"matchLabels", guarded}}}}},
                  {"status", {{"disruptionsAllowed", 0}}}}};
  in.pending = {Pending("p", "2", 10)};
  std::vector<json> v126 = Replay(in, kV126);
  ASSERT_EQ(v126.size(), 2u);
  EXPECT_EQ(v126[0]["preemption"], Preemption("n1", {"default/a", "default/b"}, {}));
  std::vector<json> v135 = Replay(in, kV135);
  ASSERT_EQ(v135.size(), 2u);
  EXPECT_EQ(v135[0]["preemption"], Preemption("n2", {"default/c", "default/d"}, {}));
  EXPECT_EQ(v135[1]["node"], "n2");
  EXPECT_EQ(SnapshotLoopRun(in, kV126).at(0).preempted_on, "n1");
  EXPECT_EQ(SnapshotLoopRun(in, kV135).at(0).preempted_on, "n2");
}

// A FitError that no PostFilter handles (the profile has none): v1.35
// clears the pod's nomination, v1.26 keeps it, and the nomination keeps
// room on n1 from a pod of lower priority.
TEST(FrameworkLoop, FitErrorWithoutPostFilterClearsTheNominationInV135) {
  Input in;
  in.nodes = {Node("n1", "2")};
  in.pods = {Running("r", "1", 1000, "n1")};
  in.pending = {Pending("p", "2", 10, "n1"), Pending("q", "1", 5)};
  in.config = {{"apiVersion", "kubescheduler.config.k8s.io/v1"},
               {"kind", "KubeSchedulerConfiguration"},
               {"profiles",
                {{{"schedulerName", "default-scheduler"},
                  {"plugins", {{"postFilter", {{"disabled", {{{"name", "*"}}}}}}}}}}}};
  std::vector<json> v126 = Replay(in, kV126);
  ASSERT_EQ(v126.size(), 2u);
  EXPECT_FALSE(v126[0].contains("preemption"));
  EXPECT_EQ(v126[1]["node"], nullptr);
  std::vector<json> v135 = Replay(in, kV135);
  ASSERT_EQ(v135.size(), 2u);
  EXPECT_EQ(v135[1]["node"], "n1");
  std::vector<Attempted> loop = SnapshotLoopRun(in, kV126);
  ASSERT_EQ(loop.size(), 2u);
  EXPECT_EQ(loop[1].node, "");
  loop = SnapshotLoopRun(in, kV135);
  ASSERT_EQ(loop.size(), 2u);
  EXPECT_EQ(loop[1].node, "n1");
}

// p's PVC does not exist and only NodeVolumeLimits looks for it. v1.26
// keeps p's nomination after the Error it returns, and the nomination keeps
// n1's room from q; v1.35 ends the nomination (schedulingCycle clears it
// after an error, and upstream's NodeVolumeLimits, which calls the claim
// unresolvable, gets it cleared by an unhelpful preemption).
TEST(FrameworkLoop, AFailedPodsNominationEndsInV135) {
  Input in;
  in.nodes = {Node("n1", "2")};
  in.pods = {Running("r", "1", 1000, "n1")};
  json p = Pending("p", "1", 10, "n1");
  p["spec"]["volumes"] = {{{"name", "d"}, {"persistentVolumeClaim", {{"claimName", "c"}}}}};
  in.pending = {p, Pending("q", "1", 5)};
  in.config = {{"apiVersion", "kubescheduler.config.k8s.io/v1"},
               {"kind", "KubeSchedulerConfiguration"},
               {"profiles",
                {{{"schedulerName", "default-scheduler"},
                  {"plugins",
                   {{"multiPoint",
                     {{"disabled",
                       {{{"name", "VolumeBinding"}},
                        {{"name", "VolumeRestrictions"}},
                        {{"name", "VolumeZone"}}}}}}}}}}}};
  std::vector<json> v126 = Replay(in, kV126);
  ASSERT_EQ(v126.size(), 2u);
  EXPECT_EQ(v126[1]["node"], nullptr);
  std::vector<json> v135 = Replay(in, kV135);
  ASSERT_EQ(v135.size(), 2u);
  EXPECT_EQ(v135[1]["node"], "n1");
  EXPECT_EQ(SnapshotLoopRun(in, kV126).at(1).node, "");
  EXPECT_EQ(SnapshotLoopRun(in, kV135).at(1).node, "n1");
}

// v1.35's DefaultPreemption is also a PreEnqueue plugin (the hold while its
// asynchronous preemption runs), so a profile may list it there; v1.26's is
// not.
TEST(FrameworkLoop, DefaultPreemptionIsAPreEnqueuePluginInV135) {
  Input in;
  in.nodes = {Node("n1", "2")};
  in.pending = {Pending("p", "1", 1)};
  in.config = {
      {"apiVersion", "kubescheduler.config.k8s.io/v1"},
      {"kind", "KubeSchedulerConfiguration"},
      {"profiles",
       {{{"schedulerName", "default-scheduler"},
         {"plugins", {{"preEnqueue", {{"enabled", {{{"name", "DefaultPreemption"}}}}}}}}}}}};
  std::vector<json> v135 = Replay(in, kV135);
  ASSERT_EQ(v135.size(), 1u);
  EXPECT_EQ(v135[0]["node"], "n1");
  auto scenario = ParseScenario(ScenarioText(in, kV126), "loop-test.json");
  ASSERT_TRUE(scenario.ok());
  Status s = RunFrameworkReplay(std::move(scenario).value(), FrameworkReplayOptions{}, nullptr);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message,
            "creating profile for scheduler name default-scheduler: plugin \"DefaultPreemption\" "
            "does not extend PreEnqueuePlugin plugin");
}

}  // namespace framework_loop_test
}  // namespace ksched
