#include "framework/runtime/framework.h"

#include <gtest/gtest.h>

#include "cache/nominated_pods.h"
#include "config/feature_gates.h"
#include "framework/runtime/fake_plugins_test.h"
#include "tests/fixtures.h"

namespace ksched::framework {
namespace framework_test {

using ksched::testing::TestCluster;
using ksched::testing::TestPod;
using testing::FakeKind;
using testing::FakeRegistry;
using testing::FakeSpec;
using testing::FakeSpecs;

constexpr const char* kThreeNodes = R"({"kind":"List","items":[
  {"kind":"Node","metadata":{"name":"n1"},"status":{"allocatable":{"cpu":"4","pods":"10"}}},
  {"kind":"Node","metadata":{"name":"n2"},"status":{"allocatable":{"cpu":"4","pods":"10"}}},
  {"kind":"Node","metadata":{"name":"n3"},"status":{"allocatable":{"cpu":"4","pods":"10"}}}]})";

class RuntimeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    FakeSpecs().clear();
    FakeSpecs().reserve(8);  // plugins keep pointers to their specs
    Add("Sort", FakeKind::kQueueSort);
    Add("Binder", FakeKind::kBinder);
  }
  // Index of the new spec (references would not survive later Adds).
  size_t Add(std::string name, FakeKind kind) {
    FakeSpec spec;
    spec.name = std::move(name);
    spec.kind = kind;
    FakeSpecs().push_back(std::move(spec));
    return FakeSpecs().size() - 1;
  }
  FakeSpec& Spec(size_t i) { return FakeSpecs()[i]; }

  static config::Profile BaseProfile() {
    config::Profile p;
    p.plugins.queue_sort.enabled = {{"Sort", 0}};
    p.plugins.bind.enabled = {{"Binder", 0}};
    return p;
  }
  Result<std::unique_ptr<Framework>> TryBuild(
      const config::Profile& profile,
      config::SchedulerVersion version = config::SchedulerVersion::kV126) {
    registry_ = FakeRegistry();
    FrameworkOptions options;
    options.registry = &registry_;
    options.nominated = &nominated_;
    options.feature_gates = config::DefaultFeatureGates(version);
    return Framework::New(profile, options);
  }
  std::unique_ptr<Framework> Build(
      const config::Profile& profile,
      config::SchedulerVersion version = config::SchedulerVersion::kV126) {
    auto f = TryBuild(profile, version);
    EXPECT_TRUE(f.ok()) << f.error().message;
    if (!f.ok()) return nullptr;
    (*f)->SetCluster(&cluster_);
    return std::move(f).value();
  }

  ClusterState cluster_ = TestCluster(kThreeNodes);
  NominatedPods nominated_;
  std::vector<RegistryEntry> registry_;
  Pod pod_ = TestPod(
      R"({"kind":"Pod","metadata":{"name":"p","uid":"p"},"spec":{"containers":[{"name":"c"}]}})");
};

Status FailOn(const NodeInfo& node, std::string_view name, std::string reason) {
  return node.name() == name ? Status::Unschedulable(std::move(reason)) : Status();
}

TEST_F(RuntimeTest, FilterStopsAtTheFirstFailingPluginAndNamesIt) {
  size_t a = Add("A", FakeKind::kFilter), b = Add("B", FakeKind::kFilter);
  Spec(a).filter_fn = [](const Pod&, const NodeInfo& n) { return FailOn(n, "n2", "a says no"); };
  Spec(b).filter_fn = [](const Pod&, const NodeInfo& n) {
    return n.name() == "n1" ? Status() : Status::Unresolvable("b says no");
  };
  config::Profile p = BaseProfile();
  p.plugins.filter.enabled = {{"A", 0}, {"B", 0}};
  auto f = Build(p);
  ASSERT_TRUE(f);
  CycleState state;
  EXPECT_TRUE(f->RunFilterPlugins(state, pod_, cluster_.node_info(0)).IsSuccess());
  Status s2 = f->RunFilterPlugins(state, pod_, cluster_.node_info(1));
  EXPECT_EQ(s2.code(), Code::kUnschedulable);
  EXPECT_EQ(s2.reasons(), std::vector<std::string>{"a says no"});
  EXPECT_EQ(s2.failed_plugin(), "A");
  Status s3 = f->RunFilterPlugins(state, pod_, cluster_.node_info(2));
  EXPECT_EQ(s3.code(), Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(s3.failed_plugin(), "B");
  // B ran on n1 and n3, never on n2 where A failed first.
  EXPECT_EQ(*Spec(a).filter_calls, 3);
  EXPECT_EQ(*Spec(b).filter_calls, 2);
}

TEST_F(RuntimeTest, FilterErrorIsWrappedWithThePluginName) {
  size_t a = Add("A", FakeKind::kFilter);
  Spec(a).filter_fn = [](const Pod&, const NodeInfo&) { return Status::Error("boom"); };
  config::Profile p = BaseProfile();
  p.plugins.filter.enabled = {{"A", 0}};
  auto f = Build(p);
  ASSERT_TRUE(f);
  CycleState state;
  Status s = f->RunFilterPlugins(state, pod_, cluster_.node_info(0));
  EXPECT_TRUE(s.IsError());
  EXPECT_EQ(s.Message(), "running \"A\" filter plugin: boom");
  EXPECT_EQ(s.failed_plugin(), "A");
}

TEST_F(RuntimeTest, ScoresAreNormalizedThenWeighted) {
  size_t a = Add("A", FakeKind::kScore), b = Add("B", FakeKind::kScore);
  Spec(a).score_fn = [](const NodeInfo& n) { return n.id == 0 ? 10 : n.id == 1 ? 20 : 40; };
  Spec(a).normalize = true;
  Spec(b).score_fn = [](const NodeInfo& n) { return int64_t{n.id}; };
  config::Profile p = BaseProfile();
  p.plugins.score.enabled = {{"A", 2}, {"B", 0}};  // B's unset weight is 1
  auto f = Build(p);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->score_weights(), (std::vector<int64_t>{2, 1}));
  CycleState state;
  PluginScores out;
  ASSERT_TRUE(f->RunScorePlugins(state, pod_, {0, 1, 2}, &out).IsSuccess());
  EXPECT_EQ(out.weighted, (std::vector<int64_t>{50, 100, 200, 0, 1, 2}));
  EXPECT_EQ(out.total, (std::vector<int64_t>{50, 101, 202}));
}

TEST_F(RuntimeTest, ScoreOutOfRangeIsAnError) {
  size_t a = Add("A", FakeKind::kScore);
  Spec(a).score_fn = [](const NodeInfo&) { return 101; };
  config::Profile p = BaseProfile();
  p.plugins.score.enabled = {{"A", 1}};
  auto f = Build(p);
  ASSERT_TRUE(f);
  CycleState state;
  PluginScores out;
  Status s = f->RunScorePlugins(state, pod_, {0}, &out);
  EXPECT_EQ(s.Message(),
            "applying score defaultWeights on Score plugins: plugin \"A\" returns an invalid score "
            "101, it should in the range of [0, 100] after normalizing");
}

TEST_F(RuntimeTest, PreFilterRejectionKeepsItsStatusAndErrorsAreWrapped) {
  size_t a = Add("A", FakeKind::kAll);
  Spec(a).pre_filter_status = Status::Unresolvable("not today");
  config::Profile p = BaseProfile();
  p.plugins.pre_filter.enabled = {{"A", 0}};
  auto f = Build(p);
  ASSERT_TRUE(f);
  CycleState state;
  PreFilterResult r;
  Status s = f->RunPreFilterPlugins(&state, pod_, &r);
  EXPECT_EQ(s.code(), Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(s.Message(), "not today");
  EXPECT_EQ(s.failed_plugin(), "A");

  Spec(a).pre_filter_status = Status::Error("broken");
  s = f->RunPreFilterPlugins(&state, pod_, &r);
  EXPECT_TRUE(s.IsError());
  EXPECT_EQ(s.Message(), "running PreFilter plugin \"A\": broken");
}

// v1.26 merges every PostFilter's rejection (the code of highest
// precedence); v1.35 stops at an UnschedulableAndUnresolvable one.
TEST_F(RuntimeTest, PostFilterUnresolvableEndsTheRunInV135Only) {
  size_t a = Add("A", FakeKind::kPostFilter), b = Add("B", FakeKind::kPostFilter),
         c = Add("C", FakeKind::kPostFilter);
  Spec(a).post_filter_status = Status::Unschedulable("a says no");
  Spec(a).post_filter_node = "n1";
  Spec(b).post_filter_status = Status::Unresolvable("b says never");
  Spec(c).post_filter_status = Status::Unschedulable("c says no");
  config::Profile p = BaseProfile();
  p.plugins.post_filter.enabled = {{"A", 0}, {"B", 0}, {"C", 0}};
  for (auto version : {config::SchedulerVersion::kV126, config::SchedulerVersion::kV135}) {
    SCOPED_TRACE(config::SchedulerVersionName(version));
    auto f = Build(p, version);
    ASSERT_TRUE(f);
    CycleState state;
    PostFilterResult result;
    Status s = f->RunPostFilterPlugins(&state, pod_, {}, &result);
    EXPECT_EQ(s.code(), Code::kUnschedulableAndUnresolvable);
    if (version == config::SchedulerVersion::kV126) {
      EXPECT_EQ(s.Message(), "a says no, b says never, c says no");
      EXPECT_TRUE(result.nominating);  // A's, the last that nominated
    } else {
      EXPECT_EQ(s.Message(), "b says never");
      EXPECT_EQ(s.failed_plugin(), "B");
      EXPECT_FALSE(result.nominating);  // B's own result
    }
  }
}

TEST_F(RuntimeTest, PostFilterRejectionsJoinTheirReasons) {
  size_t a = Add("A", FakeKind::kPostFilter), b = Add("B", FakeKind::kPostFilter);
  Spec(a).post_filter_status = Status::Unschedulable("a says no");
  Spec(b).post_filter_status = Status::Unschedulable("b says no");
  Spec(b).post_filter_node = "";
  config::Profile p = BaseProfile();
  p.plugins.post_filter.enabled = {{"A", 0}, {"B", 0}};
  for (auto version : {config::SchedulerVersion::kV126, config::SchedulerVersion::kV135}) {
    SCOPED_TRACE(config::SchedulerVersionName(version));
    auto f = Build(p, version);
    ASSERT_TRUE(f);
    CycleState state;
    PostFilterResult result;
    Status s = f->RunPostFilterPlugins(&state, pod_, {}, &result);
    EXPECT_EQ(s.code(), Code::kUnschedulable);
    EXPECT_EQ(s.Message(), "a says no, b says no");
    EXPECT_EQ(s.failed_plugin(), "A");
    EXPECT_TRUE(result.nominating);
    EXPECT_EQ(result.nominated_node_name, "");
  }
}

TEST_F(RuntimeTest, PreFilterResultsIntersect) {
  size_t a = Add("A", FakeKind::kAll), b = Add("B", FakeKind::kAll);
  Spec(a).pre_filter_nodes = std::vector<std::string>{"n1", "n2"};
  Spec(b).pre_filter_nodes = std::vector<std::string>{"n2", "n3"};
  config::Profile p = BaseProfile();
  p.plugins.pre_filter.enabled = {{"A", 0}, {"B", 0}};
  auto f = Build(p);
  ASSERT_TRUE(f);
  CycleState state;
  PreFilterResult r;
  ASSERT_TRUE(f->RunPreFilterPlugins(&state, pod_, &r).IsSuccess());
  EXPECT_EQ(r.node_names, std::vector<std::string>{"n2"});

  Spec(b).pre_filter_nodes = std::vector<std::string>{"n3"};
  Status s = f->RunPreFilterPlugins(&state, pod_, &r);
  EXPECT_EQ(s.code(), Code::kUnschedulable);
  EXPECT_EQ(s.Message(), "node(s) didn't satisfy plugin(s) [A B] simultaneously");

  Spec(a).pre_filter_nodes = std::vector<std::string>{};
  s = f->RunPreFilterPlugins(&state, pod_, &r);
  EXPECT_EQ(s.Message(), "node(s) didn't satisfy plugin A");
}

TEST_F(RuntimeTest, NominatedPodsOfHigherPriorityAreAddedInTheFirstPass) {
  // A fails a node holding any pod; B fails a node holding none.
  size_t a = Add("A", FakeKind::kAll);
  Spec(a).filter_fn = [](const Pod&, const NodeInfo& n) {
    return n.pods.empty() ? Status() : Status::Unschedulable("occupied");
  };
  config::Profile p = BaseProfile();
  p.plugins.pre_filter.enabled = {{"A", 0}};
  p.plugins.filter.enabled = {{"A", 0}};
  auto f = Build(p);
  ASSERT_TRUE(f);
  Pod high = TestPod(
      R"({"kind":"Pod","metadata":{"name":"h","uid":"h"},"spec":{"priority":10,"containers":[{"name":"c"}]}})");
  Pod low = TestPod(
      R"({"kind":"Pod","metadata":{"name":"l","uid":"l"},"spec":{"priority":-1,"containers":[{"name":"c"}]}})");
  nominated_.Add(&cluster_, high, "n1");
  nominated_.Add(&cluster_, low, "n2");
  CycleState state;
  Status s1 = f->RunFilterPluginsWithNominatedPods(state, pod_, cluster_.node_info(0));
  EXPECT_EQ(s1.Message(), "occupied");  // the higher-priority pod counts
  EXPECT_EQ(*Spec(a).add_pod_calls, 1);
  EXPECT_TRUE(f->RunFilterPluginsWithNominatedPods(state, pod_, cluster_.node_info(1)).IsSuccess());
  EXPECT_EQ(*Spec(a).add_pod_calls, 1);  // the lower one is ignored

  // Second pass: passing with the nominated pod is not enough.
  Spec(a).filter_fn = [](const Pod&, const NodeInfo& n) {
    return n.pods.empty() ? Status::Unschedulable("lonely") : Status();
  };
  Status again = f->RunFilterPluginsWithNominatedPods(state, pod_, cluster_.node_info(0));
  EXPECT_EQ(again.Message(), "lonely");
  // The pod itself, nominated, is never added for its own cycle.
  Pod self = pod_;
  self.spec.priority = 100;
  nominated_.Add(&cluster_, self, "n3");
  EXPECT_EQ(f->RunFilterPluginsWithNominatedPods(state, self, cluster_.node_info(2)).Message(),
            "lonely");
}

TEST_F(RuntimeTest, BuildErrorsAreUpstreams) {
  Add("A", FakeKind::kAll);
  config::Profile p = BaseProfile();
  p.plugins.filter.enabled = {{"Nope", 0}};
  EXPECT_EQ(TryBuild(p).error().message, "FilterPlugin \"Nope\" does not exist");

  p = BaseProfile();
  p.plugins.filter.enabled = {{"Sort", 0}};
  EXPECT_EQ(TryBuild(p).error().message, "plugin \"Sort\" does not extend FilterPlugin plugin");

  p = BaseProfile();
  p.plugins.filter.enabled = {{"A", 0}, {"A", 0}};
  EXPECT_EQ(TryBuild(p).error().message, "plugin \"A\" already registered as \"FilterPlugin\"");

  p = BaseProfile();
  p.plugins.queue_sort.enabled.clear();
  EXPECT_EQ(TryBuild(p).error().message,
            "only one queue sort plugin required for profile with scheduler name "
            "\"default-scheduler\", but got 0");

  p = BaseProfile();
  p.plugins.bind.enabled.clear();
  EXPECT_EQ(TryBuild(p).error().message,
            "at least one bind plugin is needed for profile with scheduler name "
            "\"default-scheduler\"");

  p = BaseProfile();
  p.plugins.multi_point.enabled = {{"Ghost", 0}};
  EXPECT_EQ(TryBuild(p).error().message, "PreFilterPlugin \"Ghost\" does not exist");

  p = BaseProfile();
  p.plugin_config = {{"A", {}}, {"A", {}}};
  EXPECT_EQ(TryBuild(p).error().message, "repeated config for plugin A");
}

TEST_F(RuntimeTest, MultiPointExpandsWithOverridesFirst) {
  Add("A", FakeKind::kAll);
  Add("B", FakeKind::kAll);
  Add("C", FakeKind::kAll);
  Add("D", FakeKind::kScore);
  config::Profile p;
  p.plugins.multi_point.enabled = {{"Sort", 0}, {"Binder", 0}, {"A", 3},
                                   {"B", 0},    {"C", 0},      {"D", 0}};
  // Score: C re-configured (an override, first), D disabled.
  p.plugins.score.enabled = {{"C", 5}};
  p.plugins.score.disabled = {{"D", 0}};
  p.plugins.filter.disabled = {{"*", 0}};
  auto f = Build(p);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->PluginNames(ExtensionPoint::kScore), (std::vector<std::string>{"C", "A", "B"}));
  EXPECT_EQ(f->score_weights(), (std::vector<int64_t>{5, 3, 1}));
  EXPECT_TRUE(f->PluginNames(ExtensionPoint::kFilter).empty());
  EXPECT_EQ(f->PluginNames(ExtensionPoint::kPreFilter), (std::vector<std::string>{"A", "B", "C"}));
  EXPECT_EQ(f->PluginNames(ExtensionPoint::kQueueSort), std::vector<std::string>{"Sort"});
}

TEST_F(RuntimeTest, MultiPointOverrideReorderingKeepsUpstreamsQuirk) {
  // Three plugins all re-configured at Score: upstream's delete-while-ranging
  // lists the last one twice and the middle one after the MultiPoint ones.
  Add("A", FakeKind::kScore);
  Add("B", FakeKind::kScore);
  Add("C", FakeKind::kScore);
  Add("D", FakeKind::kScore);
  config::Profile p = BaseProfile();
  p.plugins.multi_point.enabled = {{"A", 0}, {"B", 0}, {"C", 0}, {"D", 0}};
  p.plugins.score.enabled = {{"A", 0}, {"B", 0}, {"C", 0}};
  auto f = Build(p);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->PluginNames(ExtensionPoint::kScore),
            (std::vector<std::string>{"A", "C", "C", "D", "B"}));
}

// v1.35 ranges over a copy of the point's list: every override keeps its
// place, once.
TEST_F(RuntimeTest, MultiPointOverrideReorderingV135) {
  Add("A", FakeKind::kScore);
  Add("B", FakeKind::kScore);
  Add("C", FakeKind::kScore);
  Add("D", FakeKind::kScore);
  Add("E", FakeKind::kScore);
  config::Profile p = BaseProfile();
  p.plugins.multi_point.enabled = {{"A", 0}, {"B", 0}, {"C", 0}, {"D", 0}};
  p.plugins.score.enabled = {{"A", 2}, {"B", 0}, {"E", 0}, {"C", 7}};
  auto old = Build(p, config::SchedulerVersion::kV126);
  ASSERT_TRUE(old);
  EXPECT_EQ(old->PluginNames(ExtensionPoint::kScore),
            (std::vector<std::string>{"A", "C", "C", "D", "B", "E"}));
  auto f = Build(p, config::SchedulerVersion::kV135);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->PluginNames(ExtensionPoint::kScore),
            (std::vector<std::string>{"A", "B", "C", "D", "E"}));
  EXPECT_EQ(f->score_weights(), (std::vector<int64_t>{2, 1, 7, 1, 1}));
  // The three-override case of the test above.
  p.plugins.score.enabled = {{"A", 0}, {"B", 0}, {"C", 0}};
  auto g = Build(p, config::SchedulerVersion::kV135);
  ASSERT_TRUE(g);
  EXPECT_EQ(g->PluginNames(ExtensionPoint::kScore), (std::vector<std::string>{"A", "B", "C", "D"}));
}

TEST_F(RuntimeTest, ReserveErrorsAreWrappedAndUnreserveRunsInReverse) {
  size_t a = Add("A", FakeKind::kAll);
  Spec(a).reserve_status = Status::Error("no volume");
  config::Profile p = BaseProfile();
  p.plugins.reserve.enabled = {{"A", 0}};
  auto f = Build(p);
  ASSERT_TRUE(f);
  CycleState state;
  EXPECT_EQ(f->RunReservePluginsReserve(&state, pod_, 0).Message(),
            "running Reserve plugin \"A\": no volume");
  f->RunReservePluginsUnreserve(&state, pod_, 0);
  EXPECT_EQ(*Spec(a).unreserve_calls, 1);
}

}  // namespace framework_test
}  // namespace ksched::framework
