#include <gtest/gtest.h>

#include "config/feature_gates.h"
#include "framework/plugins/interpodaffinity/plugin.h"
#include "framework/plugins/interpodaffinity/test_util.h"

namespace ksched::framework::interpodaffinity {
namespace interpodaffinity_filtering_test {

using namespace test;  // NOLINT

class InterPodAffinityFilterTest : public ::testing::Test {
 protected:
  void Build(const std::vector<std::string>& items) {
    cluster_.emplace(ksched::testing::TestCluster(ListOf(items)));
    handle_ = std::make_unique<FakeHandle>(&*cluster_);
    plugin_ = std::make_unique<InterPodAffinity>(config::InterPodAffinityArgs{}, handle_.get());
  }
  // The Filter status of every node, after PreFilter.
  std::vector<Status> FilterAll(const Pod& pod, CycleState* state) {
    PreFilterResult r;
    Status pre = plugin_->PreFilter(state, pod, &r);
    EXPECT_TRUE(pre.IsSuccess()) << pre.Message();
    std::vector<Status> out;
    for (const NodeInfo& n : cluster_->node_infos()) out.push_back(plugin_->Filter(*state, pod, n));
    // The batch form gives every node Filter's code.
    std::vector<NodeId> ids;
    for (NodeId id = 0; id < cluster_->num_nodes(); ++id) ids.push_back(id);
    std::vector<Code> codes(ids.size());
    EXPECT_TRUE(plugin_->FilterCodesOf(*state, pod, ids.data(), ids.size(), codes.data()));
    for (NodeId id : ids) EXPECT_EQ(codes[id], out[id].code()) << cluster_->node_info(id).name();
    return out;
  }
  std::vector<Status> FilterAll(const Pod& pod) {
    CycleState state;
    return FilterAll(pod, &state);
  }

  std::optional<ClusterState> cluster_;
  std::unique_ptr<FakeHandle> handle_;
  std::unique_ptr<InterPodAffinity> plugin_;
};

void ExpectStatus(const Status& s, Code code, const std::string& reason) {
  EXPECT_EQ(s.code(), code) << s.Message();
  if (code != Code::kSuccess) {
    ASSERT_EQ(s.reasons().size(), 1u);
    EXPECT_EQ(s.reasons()[0], reason);
  }
}

TEST_F(InterPodAffinityFilterTest, RequiredAffinityNeedsAMatchingPodInTheDomain) {
  Build({NodeJson("n1", R"("zone":"a")"), NodeJson("n2", R"("zone":"a")"),
         NodeJson("n3", R"("zone":"b")"), NodeJson("n4", ""),
         PodJson("db", R"("app":"db")", "n1")});
  Pod pod = ksched::testing::TestPod(
      PodJson("p", R"("app":"web")", "", Affinity(Term(R"("app":"db")", "zone"))));
  auto st = FilterAll(pod);
  ExpectStatus(st[0], Code::kSuccess, "");
  ExpectStatus(st[1], Code::kSuccess, "");
  ExpectStatus(st[2], Code::kUnschedulableAndUnresolvable, kErrReasonAffinityRulesNotMatch);
  ExpectStatus(st[3], Code::kUnschedulableAndUnresolvable, kErrReasonAffinityRulesNotMatch);
}

TEST_F(InterPodAffinityFilterTest, OtherNamespaceDoesNotMatch) {
  Build({NodeJson("n1", R"("zone":"a")"), PodJson("db", R"("app":"db")", "n1", "", "other")});
  Pod pod = ksched::testing::TestPod(
      PodJson("p", R"("app":"web")", "", Affinity(Term(R"("app":"db")", "zone"))));
  ExpectStatus(FilterAll(pod)[0], Code::kUnschedulableAndUnresolvable,
               kErrReasonAffinityRulesNotMatch);
  // Listed namespaces replace the pod's own.
  Pod listed = ksched::testing::TestPod(
      PodJson("p", R"("app":"web")", "",
              Affinity(Term(R"("app":"db")", "zone", R"("namespaces":["other"])"))));
  ExpectStatus(FilterAll(listed)[0], Code::kSuccess, "");
}

TEST_F(InterPodAffinityFilterTest, FirstPodOfAGroupMatchingItsOwnTermsPasses) {
  Build({NodeJson("n1", R"("zone":"a")"), NodeJson("n2", "")});
  Pod pod = ksched::testing::TestPod(
      PodJson("p", R"("app":"db")", "", Affinity(Term(R"("app":"db")", "zone"))));
  auto st = FilterAll(pod);
  ExpectStatus(st[0], Code::kSuccess, "");
  // The topology key must still be on the node.
  ExpectStatus(st[1], Code::kUnschedulableAndUnresolvable, kErrReasonAffinityRulesNotMatch);
  // Not matching its own terms: no exception.
  Pod other = ksched::testing::TestPod(
      PodJson("p", R"("app":"web")", "", Affinity(Term(R"("app":"db")", "zone"))));
  ExpectStatus(FilterAll(other)[0], Code::kUnschedulableAndUnresolvable,
               kErrReasonAffinityRulesNotMatch);
}

TEST_F(InterPodAffinityFilterTest, SelfMatchDoesNotApplyOnceAnyPodMatchesSomewhere) {
  Build({NodeJson("n1", R"("zone":"a")"), NodeJson("n2", R"("zone":"b")"),
         PodJson("db", R"("app":"db")", "n1")});
  Pod pod = ksched::testing::TestPod(
      PodJson("p", R"("app":"db")", "", Affinity(Term(R"("app":"db")", "zone"))));
  auto st = FilterAll(pod);
  ExpectStatus(st[0], Code::kSuccess, "");
  ExpectStatus(st[1], Code::kUnschedulableAndUnresolvable, kErrReasonAffinityRulesNotMatch);
}

TEST_F(InterPodAffinityFilterTest, AllTermsMustMatchTheSamePod) {
  Build({NodeJson("n1", R"("zone":"a","host":"n1")"), NodeJson("n2", R"("zone":"a","host":"n2")"),
         PodJson("a", R"("x":"1")", "n1"), PodJson("b", R"("y":"1")", "n1"),
         PodJson("c", R"("x":"1","y":"1")", "n2")});
  Pod pod = ksched::testing::TestPod(PodJson(
      "p", "", "", Affinity(Term(R"("x":"1")", "host") + "," + Term(R"("y":"1")", "zone"))));
  auto st = FilterAll(pod);
  // Only c matches both terms: its host is n2, its zone a.
  ExpectStatus(st[0], Code::kUnschedulableAndUnresolvable, kErrReasonAffinityRulesNotMatch);
  ExpectStatus(st[1], Code::kSuccess, "");
}

TEST_F(InterPodAffinityFilterTest, IncomingAntiAffinity) {
  Build({NodeJson("n1", R"("host":"n1")"), NodeJson("n2", R"("host":"n2")"), NodeJson("n3", ""),
         PodJson("web", R"("app":"web")", "n1")});
  Pod pod = ksched::testing::TestPod(
      PodJson("p", R"("app":"web")", "", Affinity("", "", Term(R"("app":"web")", "host"))));
  auto st = FilterAll(pod);
  ExpectStatus(st[0], Code::kUnschedulable, kErrReasonAntiAffinityRulesNotMatch);
  ExpectStatus(st[1], Code::kSuccess, "");
  ExpectStatus(st[2], Code::kSuccess, "");
}

TEST_F(InterPodAffinityFilterTest, ExistingPodsAntiAffinity) {
  Build(
      {NodeJson("n1", R"("zone":"a")"), NodeJson("n2", R"("zone":"a")"),
       NodeJson("n3", R"("zone":"b")"),
       PodJson("guard", R"("app":"db")", "n1", Affinity("", "", Term(R"("app":"web")", "zone")))});
  Pod web = ksched::testing::TestPod(PodJson("p", R"("app":"web")", ""));
  auto st = FilterAll(web);
  ExpectStatus(st[0], Code::kUnschedulable, kErrReasonExistingAntiAffinityRulesNotMatch);
  ExpectStatus(st[1], Code::kUnschedulable, kErrReasonExistingAntiAffinityRulesNotMatch);
  ExpectStatus(st[2], Code::kSuccess, "");
  Pod other = ksched::testing::TestPod(PodJson("p", R"("app":"other")", ""));
  ExpectStatus(FilterAll(other)[0], Code::kSuccess, "");
}

TEST_F(InterPodAffinityFilterTest, AffinityIsCheckedBeforeAntiAffinity) {
  Build(
      {NodeJson("n1", R"("zone":"a")"),
       PodJson("guard", R"("app":"db")", "n1", Affinity("", "", Term(R"("app":"web")", "zone")))});
  Pod pod = ksched::testing::TestPod(
      PodJson("p", R"("app":"web")", "",
              Affinity(Term(R"("app":"none")", "zone"), "", Term(R"("app":"db")", "zone"))));
  ExpectStatus(FilterAll(pod)[0], Code::kUnschedulableAndUnresolvable,
               kErrReasonAffinityRulesNotMatch);
  Pod anti = ksched::testing::TestPod(
      PodJson("p", R"("app":"web")", "", Affinity("", "", Term(R"("app":"db")", "zone"))));
  ExpectStatus(FilterAll(anti)[0], Code::kUnschedulable, kErrReasonAntiAffinityRulesNotMatch);
}

TEST_F(InterPodAffinityFilterTest, ExistingTermsWithNamespaceSelector) {
  // An existing pod in "default" whose term selects namespaces by label.
  Build({NamespaceJson("team", R"("tier":"front")"), NamespaceJson("default", ""),
         NodeJson("n1", R"("zone":"a")"),
         PodJson("guard", R"("app":"db")", "n1",
                 Affinity("", "",
                          Term(R"("app":"web")", "zone",
                               R"("namespaceSelector":{"matchLabels":{"tier":"front"}})")))});
  Pod in_team = ksched::testing::TestPod(PodJson("p", R"("app":"web")", "", "", "team"));
  ExpectStatus(FilterAll(in_team)[0], Code::kUnschedulable,
               kErrReasonExistingAntiAffinityRulesNotMatch);
  // The pod's own namespace is not implied once a selector is given.
  Pod in_default = ksched::testing::TestPod(PodJson("p", R"("app":"web")", ""));
  ExpectStatus(FilterAll(in_default)[0], Code::kSuccess, "");
}

TEST_F(InterPodAffinityFilterTest, IncomingNamespaceSelectorIsMergedIntoNamespaces) {
  Build({NamespaceJson("team", R"("tier":"front")"), NamespaceJson("other", ""),
         NodeJson("n1", R"("zone":"a")"), NodeJson("n2", R"("zone":"b")"),
         PodJson("a", R"("app":"db")", "n1", "", "team"),
         PodJson("b", R"("app":"db")", "n2", "", "other")});
  Pod pod = ksched::testing::TestPod(
      PodJson("p", "", "",
              Affinity(Term(R"("app":"db")", "zone",
                            R"("namespaceSelector":{"matchLabels":{"tier":"front"}})"))));
  auto st = FilterAll(pod);
  ExpectStatus(st[0], Code::kSuccess, "");
  ExpectStatus(st[1], Code::kUnschedulableAndUnresolvable, kErrReasonAffinityRulesNotMatch);
  // {} selects every namespace.
  Pod all = ksched::testing::TestPod(
      PodJson("p", "", "", Affinity(Term(R"("app":"db")", "zone", R"("namespaceSelector":{})"))));
  auto st2 = FilterAll(all);
  ExpectStatus(st2[0], Code::kSuccess, "");
  ExpectStatus(st2[1], Code::kSuccess, "");
}

TEST_F(InterPodAffinityFilterTest, AddAndRemovePodUpdateTheCounts) {
  Build({NodeJson("n1", R"("zone":"a")"), NodeJson("n2", R"("zone":"b")"),
         PodJson("db", R"("app":"db")", "n1")});
  Pod pod = ksched::testing::TestPod(
      PodJson("p", R"("app":"web")", "",
              Affinity(Term(R"("app":"db")", "zone"), "", Term(R"("app":"web")", "zone"))));
  CycleState state;
  auto st = FilterAll(pod, &state);
  ExpectStatus(st[0], Code::kSuccess, "");
  ExpectStatus(st[1], Code::kUnschedulableAndUnresolvable, kErrReasonAffinityRulesNotMatch);

  // A db pod nominated to n2 makes zone b acceptable.
  PodInfo db2 = MakePodInfo(ksched::testing::TestPod(PodJson("db2", R"("app":"db")", "")));
  const NodeInfo& n2 = cluster_->node_info(1);
  CycleState copy = state.Clone();
  ASSERT_TRUE(plugin_->AddPod(&copy, pod, db2, n2).IsSuccess());
  ExpectStatus(plugin_->Filter(copy, pod, n2), Code::kSuccess, "");
  // The original state is untouched.
  ExpectStatus(plugin_->Filter(state, pod, n2), Code::kUnschedulableAndUnresolvable,
               kErrReasonAffinityRulesNotMatch);

  // A web pod there violates the incoming pod's anti-affinity.
  PodInfo web = MakePodInfo(ksched::testing::TestPod(PodJson("w", R"("app":"web")", "")));
  ASSERT_TRUE(plugin_->AddPod(&copy, pod, web, n2).IsSuccess());
  ExpectStatus(plugin_->Filter(copy, pod, n2), Code::kUnschedulable,
               kErrReasonAntiAffinityRulesNotMatch);
  ASSERT_TRUE(plugin_->RemovePod(&copy, pod, web, n2).IsSuccess());
  ExpectStatus(plugin_->Filter(copy, pod, n2), Code::kSuccess, "");

  // Removing the only db pod leaves no match anywhere.
  const PodInfo& db = cluster_->pod(0);
  ASSERT_TRUE(plugin_->RemovePod(&state, pod, db, cluster_->node_info(0)).IsSuccess());
  ExpectStatus(plugin_->Filter(state, pod, cluster_->node_info(0)),
               Code::kUnschedulableAndUnresolvable, kErrReasonAffinityRulesNotMatch);
}

TEST_F(InterPodAffinityFilterTest, AddedPodWithAntiAffinityBlocksTheIncomingPod) {
  Build({NodeJson("n1", R"("zone":"a")"), NodeJson("n2", R"("zone":"a")")});
  Pod pod = ksched::testing::TestPod(PodJson("p", R"("app":"web")", ""));
  CycleState state;
  auto st = FilterAll(pod, &state);
  ExpectStatus(st[1], Code::kSuccess, "");
  PodInfo guard = MakePodInfo(ksched::testing::TestPod(
      PodJson("g", "", "", Affinity("", "", Term(R"("app":"web")", "zone")))));
  ASSERT_TRUE(plugin_->AddPod(&state, pod, guard, cluster_->node_info(0)).IsSuccess());
  ExpectStatus(plugin_->Filter(state, pod, cluster_->node_info(1)), Code::kUnschedulable,
               kErrReasonExistingAntiAffinityRulesNotMatch);
  ASSERT_TRUE(plugin_->RemovePod(&state, pod, guard, cluster_->node_info(0)).IsSuccess());
  ExpectStatus(plugin_->Filter(state, pod, cluster_->node_info(1)), Code::kSuccess, "");
}

TEST_F(InterPodAffinityFilterTest, InvalidSelectorRejectsThePod) {
  Build({NodeJson("n1", R"("zone":"a")")});
  Pod pod = ksched::testing::TestPod(PodJson(
      "p", "", "",
      R"({"podAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[{"labelSelector":{"matchExpressions":[{"key":"a","operator":"Bogus"}]},"topologyKey":"zone"}]}})"));
  CycleState state;
  PreFilterResult r;
  Status s = plugin_->PreFilter(&state, pod, &r);
  EXPECT_EQ(s.code(), Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(s.Message(),
            "parsing pod: requiredAffinityTerms: \"Bogus\" is not a valid pod selector operator");
}

TEST_F(InterPodAffinityFilterTest, FilterWithoutPreFilterIsAnError) {
  Build({NodeJson("n1", "")});
  CycleState state;
  Pod pod = ksched::testing::TestPod(PodJson("p", "", ""));
  Status s = plugin_->Filter(state, pod, cluster_->node_info(0));
  EXPECT_TRUE(s.IsError());
  EXPECT_EQ(s.Message(), "error reading \"PreFilterInterPodAffinity\" from cycleState: not found");
}

TEST_F(InterPodAffinityFilterTest, ExistingPodOnAnotherClusterIsReparsed) {
  // The same plugin object with a second ClusterState: PodIds are reused
  // there, so cached terms must not leak across.
  Build({NodeJson("n1", R"("zone":"a")"),
         PodJson("guard", "", "n1", Affinity("", "", Term(R"("app":"web")", "zone")))});
  Pod web = ksched::testing::TestPod(PodJson("p", R"("app":"web")", ""));
  ExpectStatus(FilterAll(web)[0], Code::kUnschedulable,
               kErrReasonExistingAntiAffinityRulesNotMatch);
  ClusterState second = ksched::testing::TestCluster(
      ListOf({NodeJson("n1", R"("zone":"a")"),
              PodJson("guard", "", "n1", Affinity("", "", Term(R"("app":"db")", "zone")))}));
  std::swap(*cluster_, second);
  ExpectStatus(FilterAll(web)[0], Code::kSuccess, "");
}

// ---- v1.26 and v1.35 on one input (every version-keyed decision)

using config::SchedulerVersion;

// PreFilter then Filter on every node as release `v` decides, walking the
// placed pods and from the sums kept between cycles, which must agree (and
// the batch forms with Filter): "" for a pass, else "U: " / "UR: " and the
// reason; {"skip"} when PreFilter skips the plugin.
std::vector<std::string> FilterVersion(const std::vector<std::string>& items, const Pod& pod,
                                       SchedulerVersion v) {
  std::vector<std::string> results[2];
  for (bool reuse : {false, true}) {
    ClusterState cluster = ksched::testing::TestCluster(ListOf(items));
    FakeHandle handle(&cluster);
    handle.gates = config::DefaultFeatureGates(v);
    handle.reuse = reuse;
    InterPodAffinity plugin(config::InterPodAffinityArgs{}, &handle);
    CycleState state;
    PreFilterResult r;
    Status pre = plugin.PreFilter(&state, pod, &r);
    std::vector<std::string>& out = results[reuse];
    if (pre.IsSkip()) {
      out = {"skip"};
      continue;
    }
    EXPECT_TRUE(pre.IsSuccess()) << pre.Message();
    std::vector<NodeId> ids;
    for (NodeId id = 0; id < cluster.num_nodes(); ++id) ids.push_back(id);
    std::vector<Code> codes(ids.size());
    EXPECT_TRUE(plugin.FilterCodesOf(state, pod, ids.data(), ids.size(), codes.data()));
    for (NodeId id : ids) {
      Status s = plugin.Filter(state, pod, cluster.node_info(id));
      EXPECT_EQ(codes[id], s.code()) << id;
      EXPECT_EQ(plugin.FilterCodeOf(state, pod, id), s.code()) << id;
      std::string verdict;
      if (s.code() == Code::kUnschedulable) verdict = "U: " + s.Message();
      if (s.code() == Code::kUnschedulableAndUnresolvable) verdict = "UR: " + s.Message();
      out.push_back(verdict);
    }
  }
  EXPECT_EQ(results[0], results[1]) << "kept sums differ from the walk";
  return results[0];
}

const std::string kU = "U: ";
const std::string kUR = "UR: ";

TEST(InterPodAffinityFilterVersions, PreFilterSkipsWithoutRequiredTermsOrExistingAntiAffinity) {
  const std::vector<std::string> items = {
      NodeJson("n1", R"("zone":"a")"), NodeJson("n2", R"("zone":"b")"),
      PodJson("db", R"("app":"db")", "n1"),
      // Existing anti-affinity against app=web; none against app=db.
      PodJson("guard", R"("app":"g")", "n2", Affinity("", "", Term(R"("app":"web")", "zone"))),
      // Anti-affinity on a key no node has: matches, but counts nowhere.
      PodJson("loose", R"("app":"l")", "n1", Affinity("", "", Term(R"("app":"db")", "rack")))};
  const Pod db = ksched::testing::TestPod(PodJson("p", R"("app":"db")", ""));
  EXPECT_EQ(FilterVersion(items, db, SchedulerVersion::kV126), (std::vector<std::string>{"", ""}));
  EXPECT_EQ(FilterVersion(items, db, SchedulerVersion::kV135), (std::vector<std::string>{"skip"}));
  // An existing pod's anti-affinity that matches: both releases filter.
  const Pod web = ksched::testing::TestPod(PodJson("p", R"("app":"web")", ""));
  const std::vector<std::string> want = {"", kU + kErrReasonExistingAntiAffinityRulesNotMatch};
  EXPECT_EQ(FilterVersion(items, web, SchedulerVersion::kV126), want);
  EXPECT_EQ(FilterVersion(items, web, SchedulerVersion::kV135), want);
  // Required terms of its own: both filter.
  const Pod with_terms = ksched::testing::TestPod(
      PodJson("p", R"("app":"x")", "", Affinity(Term(R"("app":"db")", "zone"))));
  const std::vector<std::string> want_terms = {"", kUR + kErrReasonAffinityRulesNotMatch};
  EXPECT_EQ(FilterVersion(items, with_terms, SchedulerVersion::kV126), want_terms);
  EXPECT_EQ(FilterVersion(items, with_terms, SchedulerVersion::kV135), want_terms);
}

TEST(InterPodAffinityFilterVersions, SkippedPreFilterLeavesNominatedAntiAffinityUnseen) {
  // In v1.26 AddPod of a nominated pod with anti-affinity against the pod
  // rejects its node; v1.35 skipped the plugin, so its extensions and
  // Filter never run (the runtime's part) -- PreFilter says Skip here.
  const std::vector<std::string> items = {NodeJson("n1", R"("zone":"a")")};
  const Pod pod = ksched::testing::TestPod(PodJson("p", R"("app":"web")", ""));
  EXPECT_EQ(FilterVersion(items, pod, SchedulerVersion::kV135), (std::vector<std::string>{"skip"}));
  ClusterState cluster = ksched::testing::TestCluster(ListOf(items));
  FakeHandle handle(&cluster);
  InterPodAffinity plugin(config::InterPodAffinityArgs{}, &handle);
  CycleState state;
  PreFilterResult r;
  ASSERT_TRUE(plugin.PreFilter(&state, pod, &r).IsSuccess());
  PodInfo guard = MakePodInfo(ksched::testing::TestPod(
      PodJson("g", "", "", Affinity("", "", Term(R"("app":"web")", "zone")))));
  ASSERT_TRUE(plugin.AddPod(&state, pod, guard, cluster.node_info(0)).IsSuccess());
  ExpectStatus(plugin.Filter(state, pod, cluster.node_info(0)), Code::kUnschedulable,
               kErrReasonExistingAntiAffinityRulesNotMatch);
}

TEST(InterPodAffinityFilterVersions, IncomingNamespaceSelectorMatchingNoLabelsInV135) {
  // The pod (namespace dev) has required anti-affinity against app=web in
  // namespaces "env NotIn [prod]"; a web pod runs in prod, zone a. v1.26
  // merges the selector into the names (dev, other) and drops it; v1.35
  // keeps it and matches it against no labels, which NotIn accepts: the
  // prod pod counts too.
  const std::vector<std::string> items = {NamespaceJson("dev", R"("env":"dev")"),
                                          NamespaceJson("prod", R"("env":"prod")"),
                                          NamespaceJson("other", ""),
                                          NodeJson("n1", R"("zone":"a")"),
                                          NodeJson("n2", R"("zone":"b")"),
                                          PodJson("w", R"("app":"web")", "n1", "", "prod")};
  const std::string not_prod =
      R"("namespaceSelector":{"matchExpressions":[{"key":"env","operator":"NotIn","values":["prod"]}]})";
  const Pod anti = ksched::testing::TestPod(PodJson(
      "p", R"("app":"x")", "", Affinity("", "", Term(R"("app":"web")", "zone", not_prod)), "dev"));
  EXPECT_EQ(FilterVersion(items, anti, SchedulerVersion::kV126),
            (std::vector<std::string>{"", ""}));
  EXPECT_EQ(FilterVersion(items, anti, SchedulerVersion::kV135),
            (std::vector<std::string>{kU + kErrReasonAntiAffinityRulesNotMatch, ""}));
  // Required affinity with DoesNotExist: v1.35 finds the prod pod.
  const std::string no_env =
      R"("namespaceSelector":{"matchExpressions":[{"key":"env","operator":"DoesNotExist"}]})";
  const Pod aff = ksched::testing::TestPod(
      PodJson("p", R"("app":"x")", "", Affinity(Term(R"("app":"web")", "zone", no_env)), "dev"));
  EXPECT_EQ(FilterVersion(items, aff, SchedulerVersion::kV126),
            (std::vector<std::string>{kUR + kErrReasonAffinityRulesNotMatch,
                                      kUR + kErrReasonAffinityRulesNotMatch}));
  EXPECT_EQ(FilterVersion(items, aff, SchedulerVersion::kV135),
            (std::vector<std::string>{"", kUR + kErrReasonAffinityRulesNotMatch}));
  // A selector that needs a label (In, matchLabels) behaves alike in both.
  const std::string is_prod = R"("namespaceSelector":{"matchLabels":{"env":"prod"}})";
  const Pod in = ksched::testing::TestPod(PodJson(
      "p", R"("app":"x")", "", Affinity("", "", Term(R"("app":"web")", "zone", is_prod)), "dev"));
  const std::vector<std::string> want = {kU + kErrReasonAntiAffinityRulesNotMatch, ""};
  EXPECT_EQ(FilterVersion(items, in, SchedulerVersion::kV126), want);
  EXPECT_EQ(FilterVersion(items, in, SchedulerVersion::kV135), want);
}

}  // namespace interpodaffinity_filtering_test
}  // namespace ksched::framework::interpodaffinity
