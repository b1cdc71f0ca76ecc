#include <gtest/gtest.h>

#include "framework/plugins/registry_factories.h"
#include "framework/plugins/testing/fake_handle.h"
#include "tests/fixtures.h"

namespace ksched::framework::plugins {
namespace {

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

class NodeAffinityTest : public ::testing::Test {
 protected:
  // Runs PreFilter, then Filter on every node: the names of the nodes that
  // pass, or the PreFilter status when it fails.
  std::vector<std::string> Feasible(const Pod& pod, Plugin* plugin,
                                    PreFilterResult* result = nullptr) {
    CycleState state;
    PreFilterResult r;
    Status s = dynamic_cast<PreFilterPlugin*>(plugin)->PreFilter(&state, pod, &r);
    if (result != nullptr) *result = r;
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
        last_reason = f.Message();
      }
    }
    return out;
  }

  ClusterState cluster = TestCluster(kNodes);
  FakeHandle handle{&cluster};
  std::string last_reason;
};

using Names = std::vector<std::string>;

TEST_F(NodeAffinityTest, NodeSelectorAndRequiredTerms) {
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

TEST_F(NodeAffinityTest, PreFilterNarrowsToNamedNodes) {
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

TEST_F(NodeAffinityTest, AddedAffinityIsEnforcedFirst) {
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

TEST_F(NodeAffinityTest, InvalidAddedAffinityFailsTheFactory) {
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

TEST_F(NodeAffinityTest, ScoreSumsPreferredWeightsWithAddedAffinity) {
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

TEST_F(NodeAffinityTest, InvalidPreferredTermIsAPreScoreError) {
  auto plugin = MustNew(&NewNodeAffinity, &handle);
  Pod pod = PodWithSpec(R"(,"affinity":{"nodeAffinity":{
      "preferredDuringSchedulingIgnoredDuringExecution":[
        {"weight":5,"preference":{"matchExpressions":[{"key":"disk","operator":"Foo"}]}}]}})");
  CycleState state;
  EXPECT_TRUE(As<PreScorePlugin>(plugin)->PreScore(&state, pod, {0}).IsError());
}

}  // namespace
}  // namespace ksched::framework::plugins
