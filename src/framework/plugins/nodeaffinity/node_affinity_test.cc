#include <gtest/gtest.h>

#include "config/feature_gates.h"
#include "framework/plugins/registry_factories.h"
#include "framework/plugins/testing/fake_handle.h"
#include "tests/fixtures.h"

namespace ksched::framework::plugins {
namespace nodeaffinity_node_affinity_test {

using framework::testing::As;
using framework::testing::FakeHandle;
using framework::testing::MustNew;
using framework::testing::NodeNamed;
using ksched::testing::TestCluster;
using ksched::testing::TestPod;

const char* kNodes = R"({"kind":"List","items":[
    {"kind":"Node","metadata":{"name":"n1","labels":{"zone":"a","disk":"ssd"}}},
    {"kind":"Node","metadata":{"name":"n2","labels":{"zone":"b","disk":"ssd"}}},
    {"kind":"Node","metadata":{"name":"n3","labels":{"zone":"b"}}}]})";

Pod PodWithSpec(const std::string& spec_extra) {
  return TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c"}])" +
                 spec_extra + "}}");
}

// Runs PreFilter, then Filter on every node: the names of the nodes that
// pass, or the PreFilter status when it fails. A v1.35 PreFilter Skip
// passes every node (the framework runs no Filter), which Filter on its own
// must agree with.
std::vector<std::string> FeasibleOn(const ClusterState& cluster, const Pod& pod, Plugin* plugin,
                                    PreFilterResult* result = nullptr,
                                    std::string* last_reason = nullptr) {
  CycleState state;
  PreFilterResult r;
  Status s = dynamic_cast<PreFilterPlugin*>(plugin)->PreFilter(&state, pod, &r);
  if (result != nullptr) *result = r;
  if (s.code() == Code::kSkip) {
    std::vector<std::string> out;
    CycleState none;
    for (const NodeInfo& n : cluster.node_infos()) {
      EXPECT_TRUE(dynamic_cast<FilterPlugin*>(plugin)->Filter(none, pod, n).IsSuccess());
      out.emplace_back(n.name());
    }
    return out;
  }
  if (!s.IsSuccess()) return {"PreFilter: " + s.Message()};
  std::vector<std::string> out;
  for (const NodeInfo& n : cluster.node_infos()) {
    Status f = dynamic_cast<FilterPlugin*>(plugin)->Filter(state, pod, n);
    // The code alone, as the engine's kept verdicts ask for it.
    EXPECT_EQ(dynamic_cast<FilterPlugin*>(plugin)->FilterCode(state, pod, n), f.code());
    if (f.IsSuccess()) {
      out.emplace_back(n.name());
    } else {
      EXPECT_EQ(f.code(), Code::kUnschedulableAndUnresolvable);
      if (last_reason != nullptr) *last_reason = f.Message();
    }
  }
  return out;
}

// Every test runs with v1.26's plugin and with v1.35's: they agree on these.
class NodeAffinityTest : public ::testing::TestWithParam<config::SchedulerVersion> {
 protected:
  std::vector<std::string> Feasible(const Pod& pod, Plugin* plugin,
                                    PreFilterResult* result = nullptr) {
    return FeasibleOn(cluster, pod, plugin, result, &last_reason);
  }

  ClusterState cluster = TestCluster(kNodes);
  FakeHandle handle{&cluster, config::DefaultFeatureGates(GetParam())};
  std::string last_reason;
};

using Names = std::vector<std::string>;

TEST_P(NodeAffinityTest, NodeSelectorAndRequiredTerms) {
  auto plugin = MustNew(&NewNodeAffinity, &handle);
  EXPECT_EQ(Feasible(PodWithSpec(""), plugin.get()), (Names{"n1", "n2", "n3"}));
  EXPECT_EQ(Feasible(PodWithSpec(R"(,"nodeSelector":{"zone":"b"})"), plugin.get()),
            (Names{"n2", "n3"}));
  EXPECT_EQ(last_reason, "node(s) didn't match Pod's node affinity/selector");
  // nodeSelector and affinity must both hold; terms are ORed.
  const char* affinity = R"(,"nodeSelector":{"zone":"b"},"affinity":{"nodeAffinity":{
      "requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[
        {"matchExpressions":[{"key":"disk","operator":"Exists"}]},
        {"matchExpressions":[{"key":"zone","operator":"In","values":["a"]}]}]}}})";
  EXPECT_EQ(Feasible(PodWithSpec(affinity), plugin.get()), (Names{"n2"}));
  // An empty term list matches no node.
  EXPECT_EQ(Feasible(PodWithSpec(R"(,"affinity":{"nodeAffinity":{
      "requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[]}}})"),
                     plugin.get()),
            Names{});
}

TEST_P(NodeAffinityTest, PreFilterNarrowsToNamedNodes) {
  auto plugin = MustNew(&NewNodeAffinity, &handle);
  PreFilterResult result;
  const char* by_name = R"(,"affinity":{"nodeAffinity":{
      "requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[
        {"matchFields":[{"key":"metadata.name","operator":"In","values":["n1"]}]},
        {"matchFields":[{"key":"metadata.name","operator":"In","values":["n3"]}]}]}}})";
  EXPECT_EQ(Feasible(PodWithSpec(by_name), plugin.get(), &result), (Names{"n1", "n3"}));
  ASSERT_TRUE(result.node_names.has_value());
  EXPECT_EQ(*result.node_names, (Names{"n1", "n3"}));

  // A term without a metadata.name In requirement allows every node.
  const char* mixed = R"(,"affinity":{"nodeAffinity":{
      "requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[
        {"matchFields":[{"key":"metadata.name","operator":"In","values":["n1"]}]},
        {"matchExpressions":[{"key":"zone","operator":"In","values":["b"]}]}]}}})";
  EXPECT_EQ(Feasible(PodWithSpec(mixed), plugin.get(), &result), (Names{"n1", "n2", "n3"}));
  EXPECT_TRUE(result.AllNodes());

  // Two name requirements of one term that share no name conflict.
  const char* conflict = R"(,"affinity":{"nodeAffinity":{
      "requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[
        {"matchFields":[{"key":"metadata.name","operator":"In","values":["n1"]},
                        {"key":"metadata.name","operator":"In","values":["n2"]}]}]}}})";
  EXPECT_EQ(Feasible(PodWithSpec(conflict), plugin.get()),
            (Names{"PreFilter: pod affinity terms conflict"}));
}

TEST_P(NodeAffinityTest, AddedAffinityIsEnforcedFirst) {
  config::NodeAffinityArgs args;
  args.added_affinity.emplace();
  args.added_affinity->required.emplace();
  NodeSelectorTerm term;
  term.match_expressions.push_back({"disk", "In", {"ssd"}});
  args.added_affinity->required->terms.push_back(term);
  auto plugin = MustNew(&NewNodeAffinity, &handle, args);
  EXPECT_EQ(Feasible(PodWithSpec(""), plugin.get()), (Names{"n1", "n2"}));
  EXPECT_EQ(last_reason, "node(s) didn't match scheduler-enforced node affinity");
  EXPECT_EQ(Feasible(PodWithSpec(R"(,"nodeSelector":{"zone":"a"})"), plugin.get()), (Names{"n1"}));
}

TEST_P(NodeAffinityTest, InvalidAddedAffinityFailsTheFactory) {
  config::NodeAffinityArgs args;
  args.added_affinity.emplace();
  args.added_affinity->required.emplace();
  NodeSelectorTerm term;
  term.match_expressions.push_back({"disk", "Foo", {"ssd"}});
  args.added_affinity->required->terms.push_back(term);
  Status error;
  auto plugin = NewNodeAffinity(args, &handle, &error);
  EXPECT_EQ(plugin, nullptr);
  EXPECT_TRUE(error.IsError());
}

TEST_P(NodeAffinityTest, ScoreSumsPreferredWeightsWithAddedAffinity) {
  config::NodeAffinityArgs args;
  args.added_affinity.emplace();
  PreferredSchedulingTerm added;
  added.weight = 3;
  added.preference.match_expressions.push_back({"zone", "In", {"a"}});
  args.added_affinity->preferred.push_back(added);
  auto plugin = MustNew(&NewNodeAffinity, &handle, args);

  Pod pod = PodWithSpec(R"(,"affinity":{"nodeAffinity":{
      "preferredDuringSchedulingIgnoredDuringExecution":[
        {"weight":5,"preference":{"matchExpressions":[{"key":"disk","operator":"Exists"}]}},
        {"weight":2,"preference":{"matchFields":[
            {"key":"metadata.name","operator":"In","values":["n3"]}]}}]}})");
  CycleState state;
  std::vector<NodeId> nodes = {0, 1, 2};
  ASSERT_TRUE(As<PreScorePlugin>(plugin)->PreScore(&state, pod, nodes).IsSuccess());
  auto* score = As<ScorePlugin>(plugin);
  NodeScoreList scores;
  for (NodeId n : nodes) {
    int64_t s = -1;
    ASSERT_TRUE(score->Score(state, pod, cluster.node_info(n), &s).IsSuccess());
    scores.push_back({n, s});
  }
  EXPECT_EQ(scores[0].score, 8);  // 5 + added 3
  EXPECT_EQ(scores[1].score, 5);
  EXPECT_EQ(scores[2].score, 2);
  ASSERT_TRUE(score->ScoreExt()->NormalizeScore(state, pod, &scores).IsSuccess());
  EXPECT_EQ(scores[0].score, 100);
  EXPECT_EQ(scores[1].score, 62);
  EXPECT_EQ(scores[2].score, 25);
}

TEST_P(NodeAffinityTest, InvalidPreferredTermIsAPreScoreError) {
  auto plugin = MustNew(&NewNodeAffinity, &handle);
  Pod pod = PodWithSpec(R"(,"affinity":{"nodeAffinity":{
      "preferredDuringSchedulingIgnoredDuringExecution":[
        {"weight":5,"preference":{"matchExpressions":[{"key":"disk","operator":"Foo"}]}}]}})");
  CycleState state;
  EXPECT_TRUE(As<PreScorePlugin>(plugin)->PreScore(&state, pod, {0}).IsError());
}

INSTANTIATE_TEST_SUITE_P(Versions, NodeAffinityTest,
                         ::testing::Values(config::SchedulerVersion::kV126,
                                           config::SchedulerVersion::kV135),
                         [](const auto& info) {
                           return std::string(
                               info.param == config::SchedulerVersion::kV126 ? "v126" : "v135");
                         });

// ------------------------------------------------- decisions keyed by release

struct BothVersions {
  ClusterState cluster = TestCluster(kNodes);
  FakeHandle h126{&cluster, config::DefaultFeatureGates(config::SchedulerVersion::kV126)};
  FakeHandle h135{&cluster, config::DefaultFeatureGates(config::SchedulerVersion::kV135)};
};

TEST(NodeAffinityVersions, PreFilterSkipsPodsWithoutRequirementsInV135) {
  BothVersions b;
  auto v126 = MustNew(&NewNodeAffinity, &b.h126);
  auto v135 = MustNew(&NewNodeAffinity, &b.h135);
  CycleState state;
  PreFilterResult result;
  Pod none = PodWithSpec("");
  EXPECT_TRUE(As<PreFilterPlugin>(v126)->PreFilter(&state, none, &result).IsSuccess());
  EXPECT_EQ(As<PreFilterPlugin>(v135)->PreFilter(&state, none, &result).code(), Code::kSkip);
  // Only preferred terms: nothing to filter either.
  Pod preferred = PodWithSpec(R"(,"affinity":{"nodeAffinity":{
      "preferredDuringSchedulingIgnoredDuringExecution":[
        {"weight":1,"preference":{"matchExpressions":[{"key":"disk","operator":"Exists"}]}}]}})");
  EXPECT_EQ(As<PreFilterPlugin>(v135)->PreFilter(&state, preferred, &result).code(), Code::kSkip);
  // An empty nodeSelector ({}) is not a missing one: upstream filters (and
  // passes every node).
  Pod empty_selector = PodWithSpec(R"(,"nodeSelector":{})");
  EXPECT_TRUE(As<PreFilterPlugin>(v135)->PreFilter(&state, empty_selector, &result).IsSuccess());
  // An added required affinity always filters.
  config::NodeAffinityArgs args;
  args.added_affinity.emplace();
  args.added_affinity->required.emplace();
  NodeSelectorTerm term;
  term.match_expressions.push_back({"disk", "In", {"ssd"}});
  args.added_affinity->required->terms.push_back(term);
  auto added = MustNew(&NewNodeAffinity, &b.h135, args);
  EXPECT_TRUE(As<PreFilterPlugin>(added)->PreFilter(&state, none, &result).IsSuccess());
}

TEST(NodeAffinityVersions, MetadataNameTermsConflictOnlyWhenTheirUnionIsEmptyInV135) {
  BothVersions b;
  auto v126 = MustNew(&NewNodeAffinity, &b.h126);
  auto v135 = MustNew(&NewNodeAffinity, &b.h135);
  // Term 1 names n1 and n2 in two requirements (none in both); term 2 n3.
  Pod pod = PodWithSpec(R"(,"affinity":{"nodeAffinity":{
      "requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[
        {"matchFields":[{"key":"metadata.name","operator":"In","values":["n1"]},
                        {"key":"metadata.name","operator":"In","values":["n2"]}]},
        {"matchFields":[{"key":"metadata.name","operator":"In","values":["n3"]}]}]}}})");
  PreFilterResult result;
  EXPECT_EQ(FeasibleOn(b.cluster, pod, v126.get(), &result),
            (Names{"PreFilter: pod affinity terms conflict"}));
  EXPECT_EQ(FeasibleOn(b.cluster, pod, v135.get(), &result), (Names{"n3"}));
  ASSERT_TRUE(result.node_names.has_value());
  EXPECT_EQ(*result.node_names, (Names{"n3"}));
  // Every term empty: a conflict in both.
  Pod empty = PodWithSpec(R"(,"affinity":{"nodeAffinity":{
      "requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[
        {"matchFields":[{"key":"metadata.name","operator":"In","values":["n1"]},
                        {"key":"metadata.name","operator":"In","values":["n2"]}]},
        {"matchFields":[{"key":"metadata.name","operator":"In","values":[]}]}]}}})");
  EXPECT_EQ(FeasibleOn(b.cluster, empty, v135.get()),
            (Names{"PreFilter: pod affinity terms conflict"}));
  // An empty term before one without a name requirement: every node.
  Pod open = PodWithSpec(R"(,"affinity":{"nodeAffinity":{
      "requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[
        {"matchFields":[{"key":"metadata.name","operator":"In","values":[]}]},
        {"matchExpressions":[{"key":"disk","operator":"Exists"}]}]}}})");
  EXPECT_EQ(FeasibleOn(b.cluster, open, v126.get()),
            (Names{"PreFilter: pod affinity terms conflict"}));
  EXPECT_EQ(FeasibleOn(b.cluster, open, v135.get(), &result), (Names{"n1", "n2"}));
  EXPECT_TRUE(result.AllNodes());
}

TEST(NodeAffinityVersions, PreScoreSkipsPodsWithoutAPreferredListInV135) {
  BothVersions b;
  auto v126 = MustNew(&NewNodeAffinity, &b.h126);
  auto v135 = MustNew(&NewNodeAffinity, &b.h135);
  CycleState state;
  const std::vector<NodeId> nodes = {0, 1, 2};
  Pod none = PodWithSpec(R"(,"affinity":{"nodeAffinity":{}})");
  EXPECT_TRUE(As<PreScorePlugin>(v126)->PreScore(&state, none, nodes).IsSuccess());
  EXPECT_EQ(As<PreScorePlugin>(v135)->PreScore(&state, none, nodes).code(), Code::kSkip);
  // null is no list either.
  Pod null_list = PodWithSpec(R"(,"affinity":{"nodeAffinity":{
      "preferredDuringSchedulingIgnoredDuringExecution":null}})");
  EXPECT_EQ(As<PreScorePlugin>(v135)->PreScore(&state, null_list, nodes).code(), Code::kSkip);
  // An empty list is one: scored, 0 everywhere.
  Pod empty = PodWithSpec(R"(,"affinity":{"nodeAffinity":{
      "preferredDuringSchedulingIgnoredDuringExecution":[]}})");
  ASSERT_TRUE(As<PreScorePlugin>(v135)->PreScore(&state, empty, nodes).IsSuccess());
  int64_t score = -1;
  ASSERT_TRUE(
      As<ScorePlugin>(v135)->Score(state, empty, b.cluster.node_info(0), &score).IsSuccess());
  EXPECT_EQ(score, 0);
  // Preferred terms the profile adds make every pod scored.
  config::NodeAffinityArgs args;
  args.added_affinity.emplace();
  PreferredSchedulingTerm added;
  added.weight = 3;
  added.preference.match_expressions.push_back({"zone", "In", {"a"}});
  args.added_affinity->preferred.push_back(added);
  auto with_added = MustNew(&NewNodeAffinity, &b.h135, args);
  EXPECT_TRUE(As<PreScorePlugin>(with_added)->PreScore(&state, none, nodes).IsSuccess());
}

}  // namespace nodeaffinity_node_affinity_test
}  // namespace ksched::framework::plugins
