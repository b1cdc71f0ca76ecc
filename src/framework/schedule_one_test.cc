#include "framework/schedule_one.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "config/defaults.h"
#include "framework/runtime/fake_plugins_test.h"
#include "framework/runtime/list_sink_test_util.h"
#include "framework/runtime/metrics_recorder.h"
#include "tests/fixtures.h"

namespace ksched::framework {
namespace schedule_one_test {

using ksched::testing::TestCluster;
using ksched::testing::TestPod;
using testing::FakeKind;
using testing::FakeRegistry;
using testing::FakeSpec;
using testing::FakeSpecs;

constexpr const char* kNodes = R"({"kind":"List","items":[
  {"kind":"Node","metadata":{"name":"n3"}},
  {"kind":"Node","metadata":{"name":"n1"}},
  {"kind":"Node","metadata":{"name":"n2"}},
  {"kind":"Node","metadata":{"name":"n4"}}]})";

class CycleTest : public ::testing::Test {
 protected:
  void SetUp() override {
    FakeSpecs().clear();
    FakeSpecs().reserve(8);
    Add("Sort", FakeKind::kQueueSort);
    Add("Binder", FakeKind::kBinder);
    filter_ = Add("F", FakeKind::kAll);
    score_ = Add("S", FakeKind::kScore);
  }
  size_t Add(std::string name, FakeKind kind) {
    FakeSpec spec;
    spec.name = std::move(name);
    spec.kind = kind;
    FakeSpecs().push_back(std::move(spec));
    return FakeSpecs().size() - 1;
  }
  FakeSpec& Spec(size_t i) { return FakeSpecs()[i]; }

  std::unique_ptr<Scheduler> Build(SchedulerOptions scheduler_options = {}) {
    config::KubeSchedulerConfiguration cfg;
    config::Profile p;
    p.plugins.queue_sort.enabled = {{"Sort", 0}};
    p.plugins.bind.enabled = {{"Binder", 0}};
    p.plugins.pre_filter.enabled = {{"F", 0}};
    p.plugins.filter.enabled = {{"F", 0}};
    p.plugins.reserve.enabled = {{"F", 0}};
    p.plugins.score.enabled = {{"S", 2}};
    cfg.profiles.push_back(p);
    registry_ = FakeRegistry();
    FrameworkOptions options;
    options.registry = &registry_;
    auto s = Scheduler::New(cfg, options, scheduler_options);
    EXPECT_TRUE(s.ok()) << s.error().message;
    return s.ok() ? std::move(s).value() : nullptr;
  }
  std::string Name(NodeId id) const { return cluster_.node(id).meta.name; }

  ClusterState cluster_ = TestCluster(kNodes);
  std::vector<RegistryEntry> registry_;
  size_t filter_ = 0, score_ = 0;
  Pod pod_ = TestPod(
      R"({"kind":"Pod","metadata":{"name":"p","uid":"p"},"spec":{"containers":[{"name":"c"}]}})");
};

TEST_F(CycleTest, FitErrorCountsReasonsSortedAsStrings) {
  Spec(filter_).filter_fn = [](const Pod&, const NodeInfo& n) {
    if (n.name() == "n1")
      return Status(Code::kUnschedulable, std::vector<std::string>{"b reason", "a reason"});
    return Status::Unschedulable("b reason");
  };
  auto s = Build();
  ASSERT_TRUE(s);
  CycleResult r = s->ScheduleOne(pod_, &cluster_);
  EXPECT_EQ(r.chosen, kNoNode);
  EXPECT_TRUE(r.fit_error);
  EXPECT_EQ(r.error, "0/4 nodes are available: 1 a reason, 4 b reason.");
  EXPECT_EQ(r.failures.size(), 4u);
  for (const auto& f : r.failures) EXPECT_EQ(f.status.failed_plugin(), "F");
  EXPECT_EQ(r.unschedulable_plugins, std::vector<std::string>{"F"});
}

TEST_F(CycleTest, PreFilterRejectionLeavesNoFailures) {
  Spec(filter_).pre_filter_status = Status::Unresolvable("pod is odd");
  auto s = Build();
  ASSERT_TRUE(s);
  CycleResult r = s->ScheduleOne(pod_, &cluster_);
  EXPECT_EQ(r.error, "0/4 nodes are available: pod is odd.");
  EXPECT_TRUE(r.failures.empty());
  EXPECT_EQ(*Spec(filter_).filter_calls, 0);
}

TEST_F(CycleTest, PreFilterNodeSetLimitsTheNodesFiltered) {
  Spec(filter_).pre_filter_nodes = std::vector<std::string>{"n2", "n4"};
  auto s = Build();
  ASSERT_TRUE(s);
  CycleResult r = s->ScheduleOne(pod_, &cluster_);
  EXPECT_EQ(*Spec(filter_).filter_calls, 2);
  ASSERT_EQ(r.feasible.size(), 2u);

  Spec(filter_).pre_filter_nodes = std::vector<std::string>{"n9"};
  r = s->ScheduleOne(pod_, &cluster_);
  EXPECT_EQ(r.error, "nodeinfo not found for node name \"n9\"");
}

TEST_F(CycleTest, HighestTotalWinsAndTiesGoToTheSmallestName) {
  Spec(score_).score_fn = [](const NodeInfo& n) { return n.name() == "n1" ? 10 : 40; };
  auto s = Build();
  ASSERT_TRUE(s);
  CycleResult r = s->ScheduleOne(pod_, &cluster_);
  ASSERT_NE(r.chosen, kNoNode);
  EXPECT_EQ(Name(r.chosen), "n2");
  ASSERT_EQ(r.max_nodes.size(), 3u);
  EXPECT_EQ(Name(r.max_nodes[0]), "n2");
  EXPECT_EQ(Name(r.max_nodes[1]), "n3");
  EXPECT_EQ(Name(r.max_nodes[2]), "n4");
  // The weight (2) applies to every score.
  for (size_t i = 0; i < r.feasible.size(); ++i)
    EXPECT_EQ(r.totals[i], Name(r.feasible[i]) == "n1" ? 20 : 80);
  ASSERT_TRUE(r.assumed.has_value());
  EXPECT_EQ(cluster_.pod(*r.assumed).pod.spec.node_name, "n2");
}

TEST_F(CycleTest, ReserveFailureForgetsThePod) {
  Spec(filter_).reserve_status = Status::Error("cannot");
  auto s = Build();
  ASSERT_TRUE(s);
  size_t live = cluster_.num_live_pods();
  CycleResult r = s->ScheduleOne(pod_, &cluster_);
  EXPECT_EQ(r.chosen, kNoNode);
  EXPECT_EQ(r.error, "running Reserve plugin \"F\": cannot");
  EXPECT_EQ(*Spec(filter_).unreserve_calls, 1);
  EXPECT_EQ(cluster_.num_live_pods(), live);
}

TEST_F(CycleTest, MovedPodLandsInTheClusterOrStaysWithTheCaller) {
  auto s = Build();
  ASSERT_TRUE(s);
  Pod pod = pod_;
  CycleResult r = s->ScheduleOne(std::move(pod), &cluster_);
  ASSERT_TRUE(r.assumed.has_value());
  Pod want = pod_;
  want.spec.node_name = Name(r.chosen);
  auto same = [](const Pod& a, const Pod& b) {
    return a.meta == b.meta && a.spec == b.spec && a.nominated_node_name == b.nominated_node_name;
  };
  EXPECT_TRUE(same(cluster_.pod(*r.assumed).pod, want));

  // No node: the pod is not touched.
  Spec(filter_).filter_fn = [](const Pod&, const NodeInfo&) { return Status::Unschedulable("no"); };
  pod = pod_;
  r = s->ScheduleOne(std::move(pod), &cluster_);
  EXPECT_FALSE(r.assumed.has_value());
  EXPECT_TRUE(same(pod, pod_));

  // Reserve fails after the pod was assumed: the caller gets it back.
  Spec(filter_).filter_fn = nullptr;
  Spec(filter_).reserve_status = Status::Error("cannot");
  pod = pod_;
  pod.spec.node_name = "";
  r = s->ScheduleOne(std::move(pod), &cluster_);
  EXPECT_EQ(r.chosen, kNoNode);
  EXPECT_TRUE(same(pod, pod_));
}

TEST_F(CycleTest, NominatedNodeIsTriedFirstAndAlone) {
  auto s = Build();
  ASSERT_TRUE(s);
  Pod pod = pod_;
  pod.nominated_node_name = "n4";
  CycleResult r = s->ScheduleOne(pod, &cluster_);
  ASSERT_EQ(r.feasible.size(), 1u);
  EXPECT_EQ(Name(r.chosen), "n4");
  EXPECT_EQ(*Spec(filter_).filter_calls, 1);

  // When it fails, every node is filtered as usual.
  Spec(filter_).filter_fn = [](const Pod&, const NodeInfo& n) {
    return n.name() == "n4" ? Status::Unschedulable("no") : Status();
  };
  r = s->ScheduleOne(pod, &cluster_);
  EXPECT_EQ(r.feasible.size(), 3u);
  EXPECT_EQ(r.failures.size(), 1u);
}

TEST_F(CycleTest, UnknownProfile) {
  auto s = Build();
  ASSERT_TRUE(s);
  Pod pod = pod_;
  pod.spec.scheduler_name = "other";
  CycleResult r = s->ScheduleOne(pod, &cluster_);
  EXPECT_EQ(r.error, "profile not found for scheduler name \"other\"");
}

// Nodes are walked as upstream's node tree lists them, zone by zone in turn,
// with v1.26's zone key: the beta zone label wins over a differing
// topology.kubernetes.io/zone. 120 nodes, 100 of them searched: one zone per
// beta label (n000-n059, n060-n119) interleaves the two halves; keyed by the
// shared GA label the walk would be n000-n099.
TEST_F(CycleTest, WalkFollowsTheNodeTreeOfBetaZoneLabels) {
  std::string nodes = R"({"kind":"List","items":[)";
  for (int i = 0; i < 120; ++i) {
    nodes += fmt::format(
        R"({}{{"kind":"Node","metadata":{{"name":"n{:03d}","labels":{{)"
        R"("failure-domain.beta.kubernetes.io/zone":"b{}","topology.kubernetes.io/zone":"g"}}}}}})",
        i == 0 ? "" : ",", i, i < 60 ? 0 : 1);
  }
  nodes += "]}";
  cluster_ = TestCluster(nodes);
  SchedulerOptions options;
  options.percentage_of_nodes_to_score = 0;  // adaptive: 100 of 120
  auto s = Build(options);
  ASSERT_TRUE(s);
  CycleResult r = s->ScheduleOne(pod_, &cluster_);
  ASSERT_EQ(r.feasible.size(), 100u);
  std::vector<std::string> walked;
  for (NodeId id : r.feasible) walked.push_back(Name(id));
  std::sort(walked.begin(), walked.end());
  EXPECT_EQ(walked[49], "n049");
  EXPECT_EQ(walked[50], "n060");
  EXPECT_EQ(walked[99], "n109");
}

TEST_F(CycleTest, NumFeasibleNodesToFind) {
  auto s = Build();
  ASSERT_TRUE(s);
  EXPECT_EQ(s->NumFeasibleNodesToFind(std::nullopt, 50), 50);
  EXPECT_EQ(s->NumFeasibleNodesToFind(std::nullopt, 1000), 420);
  EXPECT_EQ(s->NumFeasibleNodesToFind(std::nullopt, 5000), 500);
  EXPECT_EQ(s->NumFeasibleNodesToFind(std::nullopt, 10000), 500);
  EXPECT_EQ(s->NumFeasibleNodesToFind(1, 1000), 100);
  EXPECT_EQ(s->NumFeasibleNodesToFind(100, 1000), 1000);
}

TEST_F(CycleTest, RecorderTimesEveryExtensionPointAndPluginsOnlyOnSampledCycles) {
  auto s = Build();
  ASSERT_TRUE(s);
  ListSink sink;
  MetricsRecorder m(&sink);
  m.SetSampleEvery(false);
  s->SetMetricsRecorder(&m);
  CycleResult r = s->ScheduleOne(pod_, &cluster_);
  ASSERT_NE(r.chosen, kNoNode);
  EXPECT_EQ(sink.points,
            (std::vector<std::string>{
                "PreFilter Success default-scheduler", "Filter Success default-scheduler",
                "PreScore Success default-scheduler", "Score Success default-scheduler",
                "Reserve Success default-scheduler"}));
  EXPECT_EQ(m.Flush(), 0u);  // not sampled: no plugin was timed

  m.SetSampleEvery(true);
  Pod second = pod_;
  second.meta.name = "q";
  second.meta.uid = "q";
  r = s->ScheduleOne(second, &cluster_);
  ASSERT_NE(r.chosen, kNoNode);
  m.Flush();
  EXPECT_EQ(sink.CountPlugin("F PreFilter Success"), 1u);
  EXPECT_EQ(sink.CountPlugin("F Filter Success"), 4u);  // one per node
  EXPECT_EQ(sink.CountPlugin("S Score Success"), 4u);
  EXPECT_EQ(sink.CountPlugin("F Reserve Success"), 1u);

  // Without a recorder nothing is timed.
  s->SetMetricsRecorder(nullptr);
  sink.points.clear();
  second.meta.name = second.meta.uid = "r";
  s->ScheduleOne(second, &cluster_);
  EXPECT_TRUE(sink.points.empty());
  EXPECT_EQ(m.Flush(), 0u);
}

TEST_F(CycleTest, ACycleRunTwiceForItsFitErrorCountsItsExtensionPointsOnce) {
  Spec(filter_).filter_fn = [](const Pod&, const NodeInfo&) { return Status::Unschedulable("no"); };
  SchedulerOptions lean;
  lean.record_details = false;  // as `ksched run`: a FitError runs the cycle again in full
  auto s = Build(lean);
  ASSERT_TRUE(s);
  ListSink sink;
  MetricsRecorder m(&sink);
  m.SetSampleEvery(true);
  s->SetMetricsRecorder(&m);
  CycleResult r = s->ScheduleOne(pod_, &cluster_);
  EXPECT_TRUE(r.fit_error);
  EXPECT_EQ(sink.points, (std::vector<std::string>{"PreFilter Success default-scheduler",
                                                   "Filter Success default-scheduler"}));
  m.Flush();  // the plugins ran in both runs, and each run is timed
  EXPECT_EQ(sink.CountPlugin("F PreFilter Success"), 2u);
  EXPECT_EQ(sink.CountPlugin("F Filter Unschedulable"), 8u);
}

TEST(FitErrorMessage, PreFilterAndPostFilterParts) {
  NodeToStatusMap failures;
  EXPECT_EQ(FitErrorMessage(3, "x", failures, {}), "0/3 nodes are available: x.");
  failures.push_back({0, Status::Unschedulable("r")});
  EXPECT_EQ(FitErrorMessage(3, "", failures, {}, "preemption: y"),
            "0/3 nodes are available: 1 r. preemption: y.");
  EXPECT_EQ(FitErrorMessage(3, "", {}, {}), "0/3 nodes are available:");
}

// The default profile's registrations, as upstream's plugins make them: a
// pod NodeResourcesFit rejected moves when a pod is deleted or a node added
// or changed, never on a PVC or Service change; one only VolumeBinding
// rejected moves on a PVC.
TEST(SchedulerClusterEvents, DefaultProfileRegistersUpstreamsEvents) {
  config::DecodedConfiguration decoded;
  decoded.api_version = config::kVersionV1;
  config::FeatureGates gates;
  config::KubeSchedulerConfiguration cfg = config::SetDefaults(decoded, gates);
  auto s = Scheduler::New(cfg, FrameworkOptions{}, SchedulerOptions{});
  ASSERT_TRUE(s.ok()) << s.error().message;
  const ClusterEventMap map = (*s)->ClusterEvents();
  const std::vector<std::string> fit = {"NodeResourcesFit"};
  EXPECT_TRUE(map.Matches(fit, {EventResource::kPod, kDelete, "AssignedPodDelete"}));
  EXPECT_TRUE(map.Matches(fit, {EventResource::kNode, kUpdateNodeAllocatable, "x"}));
  EXPECT_FALSE(map.Matches(fit, {EventResource::kPod, kAdd, "AssignedPodAdd"}));
  EXPECT_FALSE(map.Matches(fit, {EventResource::kPersistentVolumeClaim, kAdd, "PvcAdd"}));
  EXPECT_FALSE(map.Matches(fit, {EventResource::kService, kAdd, "ServiceAdd"}));
  EXPECT_TRUE(
      map.Matches({"VolumeBinding"}, {EventResource::kPersistentVolumeClaim, kAdd, "PvcAdd"}));
  EXPECT_FALSE(map.Fires(EventResource::kService, kAdd));
  EXPECT_TRUE(map.Fires(EventResource::kCSIDriver, kUpdate));
}

}  // namespace schedule_one_test
}  // namespace ksched::framework
