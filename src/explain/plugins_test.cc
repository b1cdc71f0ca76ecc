// v1.26 plugins whose reasons v1.15's explainers detail.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "explain/framework_test_util.h"

namespace ksched::explain {
namespace plugins_test {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::ScheduleAndExplainV126;

TEST(ExplainPlugins, TaintTolerationListsEveryUntoleratedTaint) {
  const char* cluster = R"({"kind":"List","items":[
    {"kind":"Node","metadata":{"name":"gpu"},"spec":{"taints":[
      {"key":"nvidia.com/gpu","value":"present","effect":"NoSchedule"},
      {"key":"dedicated","effect":"NoExecute"}]},"status":{"allocatable":{"pods":"10"}}}]})";
  auto e = ScheduleAndExplainV126(
      cluster,
      R"({"kind":"Pod","metadata":{"name":"p","namespace":"default"},"spec":{"containers":[{"name":"c"}]}})");
  EXPECT_EQ(e.plugins["gpu"], "TaintToleration");
  EXPECT_THAT(e.reasons["gpu"],
              ElementsAre("node(s) had untolerated taint {nvidia.com/gpu: present}"));
  EXPECT_THAT(e.Messages("gpu"),
              ElementsAre("taint nvidia.com/gpu=present:NoSchedule is not tolerated",
                          "taint dedicated:NoExecute is not tolerated"));
}

TEST(ExplainPlugins, NodeNameUnschedulableAndPorts) {
  const char* cluster = R"({"kind":"List","items":[
    {"kind":"Node","metadata":{"name":"a"},"spec":{"unschedulable":true},"status":{"allocatable":{"pods":"10"}}},
    {"kind":"Node","metadata":{"name":"b"},"status":{"allocatable":{"pods":"10"}}},
    {"kind":"Pod","metadata":{"name":"web","namespace":"default"},"spec":{"nodeName":"b",
      "containers":[{"name":"c","ports":[{"containerPort":80,"hostPort":8080}]}]}}]})";
  auto e = ScheduleAndExplainV126(cluster,
                                  R"({"kind":"Pod","metadata":{"name":"p","namespace":"default"},
    "spec":{"containers":[{"name":"c","ports":[{"containerPort":80,"hostPort":8080}]}]}})");
  EXPECT_EQ(e.plugins["a"], "NodeUnschedulable");
  EXPECT_THAT(e.Messages("a")[0], HasSubstr("spec.unschedulable: true"));
  EXPECT_EQ(e.plugins["b"], "NodePorts");
  EXPECT_THAT(e.Messages("b"), ElementsAre("host port 8080/TCP is held by default/web"));

  auto named = ScheduleAndExplainV126(
      cluster, R"({"kind":"Pod","metadata":{"name":"p","namespace":"default"},
    "spec":{"nodeName":"c","containers":[{"name":"c"}]}})");
  EXPECT_EQ(named.plugins["b"], "NodeName");
  EXPECT_THAT(named.reasons["b"], ElementsAre("node(s) didn't match the requested node name"));
  EXPECT_THAT(named.Messages("b"), ElementsAre("the pod's spec.nodeName is c, not this node"));
}

TEST(ExplainPlugins, VolumeZoneReadsTheTopologyLabels) {
  const char* cluster = R"({"kind":"List","items":[
    {"kind":"Node","metadata":{"name":"n1","labels":{"topology.kubernetes.io/zone":"us-1b"}},
     "status":{"allocatable":{"pods":"10"}}},
    {"kind":"PersistentVolume","metadata":{"name":"pv1","labels":{"topology.kubernetes.io/zone":"us-1a"}},
     "spec":{"csi":{"driver":"d","volumeHandle":"h1"}}},
    {"kind":"PersistentVolumeClaim","metadata":{"name":"data","namespace":"default",
     "annotations":{"pv.kubernetes.io/bind-completed":"yes"}},
     "spec":{"volumeName":"pv1"}}]})";
  auto e = ScheduleAndExplainV126(cluster,
                                  R"({"kind":"Pod","metadata":{"name":"p","namespace":"default"},
    "spec":{"containers":[{"name":"c"}],"volumes":[{"name":"v","persistentVolumeClaim":{"claimName":"data"}}]}})");
  EXPECT_EQ(e.plugins["n1"], "VolumeZone");
  EXPECT_THAT(e.Messages("n1"), ElementsAre("volume v (claim data): PersistentVolume pv1 has "
                                            "topology.kubernetes.io/zone=us-1a, node has "
                                            "topology.kubernetes.io/zone=us-1b"));
}

TEST(ExplainPlugins, NoPodAffinityCauseWhenATermSelectsNamespacesByLabel) {
  const char* cluster = R"({"kind":"List","items":[
    {"kind":"Node","metadata":{"name":"n1","labels":{"kubernetes.io/hostname":"n1"}},
     "status":{"allocatable":{"pods":"10"}}},
    {"kind":"Node","metadata":{"name":"n2","labels":{"kubernetes.io/hostname":"n2"}},
     "status":{"allocatable":{"pods":"10"}}},
    {"kind":"Pod","metadata":{"name":"db","namespace":"other","labels":{"app":"db"}},
     "spec":{"nodeName":"n1","containers":[{"name":"c"}]}}]})";
  auto e = ScheduleAndExplainV126(cluster,
                                  R"({"kind":"Pod","metadata":{"name":"p","namespace":"default"},
    "spec":{"containers":[{"name":"c"}],"affinity":{"podAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[
      {"labelSelector":{"matchLabels":{"app":"db"}},"namespaceSelector":{},
       "topologyKey":"kubernetes.io/hostname"}]}}}})");
  EXPECT_EQ(e.chosen, "n1");
  EXPECT_THAT(e.reasons["n2"], ElementsAre("node(s) didn't match pod affinity rules"));
  // v1.15's explainer would look in namespace default only and say no
  // matching pod runs anywhere.
  EXPECT_TRUE(e.causes["n2"].empty()) << e.Messages("n2")[0];
}

}  // namespace plugins_test
}  // namespace ksched::explain
