#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "explain/framework_test_util.h"
#include "tests/fixtures.h"

namespace ksched::explain {
namespace node_affinity_plugin_test {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::ScheduleAndExplainV126;

const char* kNodes = R"({"kind":"List","items":[
  {"kind":"Node","metadata":{"name":"n1","labels":{"zone":"a"}},"status":{"allocatable":{"pods":"10"}}},
  {"kind":"Node","metadata":{"name":"n2","labels":{"zone":"b"}},"status":{"allocatable":{"pods":"10"}}}]})";

const char* kPlainPod =
    R"({"kind":"Pod","metadata":{"name":"p","namespace":"default"},"spec":{"containers":[{"name":"c"}]}})";

TEST(ExplainNodeAffinityPlugin, AddedAffinityOfTheProfile) {
  const char* config = R"(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  pluginConfig:
  - name: NodeAffinity
    args:
      addedAffinity:
        requiredDuringSchedulingIgnoredDuringExecution:
          nodeSelectorTerms:
          - matchExpressions:
            - {key: zone, operator: In, values: [a]}
)";
  auto e = ScheduleAndExplainV126(kNodes, kPlainPod, config);
  EXPECT_EQ(e.chosen, "n1");
  EXPECT_EQ(e.plugins["n2"], "NodeAffinity");
  EXPECT_THAT(e.reasons["n2"],
              ElementsAre("node(s) didn't match scheduler-enforced node affinity"));
  EXPECT_THAT(e.Messages("n2"),
              ElementsAre("profile default-scheduler's addedAffinity (NodeAffinity args, applied "
                          "to every pod) term 1 zone In (a): node has zone=b"));
  EXPECT_EQ(e.causes["n2"][0].details["source"], "addedAffinity");
}

TEST(ExplainNodeAffinityPlugin, PodsOwnAffinityAsV115) {
  auto e = ScheduleAndExplainV126(
      kNodes, R"({"kind":"Pod","metadata":{"name":"p","namespace":"default"},"spec":{
        "nodeSelector":{"zone":"a"},"containers":[{"name":"c"}]}})");
  EXPECT_THAT(e.reasons["n2"], ElementsAre("node(s) didn't match Pod's node affinity/selector"));
  EXPECT_THAT(e.Messages("n2"), ElementsAre("nodeSelector zone=a: node has zone=b"));
}

TEST(ExplainNodeAffinityPlugin, ConflictingTermsRejectThePodAtPreFilter) {
  auto e =
      ScheduleAndExplainV126(kNodes, R"({"kind":"Pod","metadata":{"name":"p","namespace":"default"},
    "spec":{"containers":[{"name":"c"}],"affinity":{"nodeAffinity":{
      "requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[{"matchFields":[
        {"key":"metadata.name","operator":"In","values":["n1"]},
        {"key":"metadata.name","operator":"In","values":["n2"]}]}]}}}}})");
  EXPECT_EQ(e.chosen, "");
  EXPECT_TRUE(e.reasons.empty());
  EXPECT_EQ(e.pre_filter_plugin, "NodeAffinity");
  EXPECT_EQ(e.pre_filter_msg, "pod affinity terms conflict");
  ASSERT_EQ(e.pre_filter_causes.size(), 1u);
  EXPECT_THAT(e.pre_filter_causes[0].message,
              HasSubstr("term 1: its matchFields metadata.name In (n1) and metadata.name In (n2) "
                        "have no node name in common"));
}

TEST(ExplainNodeAffinityPlugin, NodesPreFilterLeftOut) {
  const char* pod = R"({"kind":"Pod","metadata":{"name":"p","namespace":"default"},
    "spec":{"containers":[{"name":"c"}],"affinity":{"nodeAffinity":{
      "requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[{"matchFields":[
        {"key":"metadata.name","operator":"In","values":["n1"]}]}]}}}}})";
  auto e = ScheduleAndExplainV126(kNodes, pod);
  EXPECT_EQ(e.chosen, "n1");
  ASSERT_TRUE(e.pre_filter_nodes.has_value());
  EXPECT_THAT(*e.pre_filter_nodes, ElementsAre("n1"));
  EXPECT_TRUE(e.reasons.empty());  // n2 was never filtered

  ClusterState cluster = ::ksched::testing::TestCluster(kNodes);
  std::vector<Cause> causes =
      ExplainPreFilterNarrowing(::ksched::testing::TestPod(pod), cluster, cluster.FindNode("n2"));
  ASSERT_EQ(causes.size(), 1u);
  EXPECT_EQ(causes[0].message,
            "required node affinity term 1 metadata.name In (n1): node's metadata.name is n2");
  EXPECT_EQ(causes[0].reason, "node(s) didn't match Pod's node affinity/selector");
}

}  // namespace node_affinity_plugin_test
}  // namespace ksched::explain
