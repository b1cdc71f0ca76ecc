#include "cache/nominated_pods.h"

#include <gtest/gtest.h>

#include "tests/fixtures.h"

namespace ksched {
namespace nominated_pods_test {

using ksched::testing::TestCluster;
using ksched::testing::TestPod;

Pod P(const std::string& name, int priority) {
  return TestPod(R"({"kind":"Pod","metadata":{"name":")" + name + R"(","uid":")" + name +
                 R"("},"spec":{"priority":)" + std::to_string(priority) +
                 R"(,"containers":[{"name":"c"}]}})");
}

TEST(NominatedPods, AddMovesAndRemoveKeepsOrder) {
  ClusterState c = TestCluster(R"({"kind":"List","items":[]})");
  NominatedPods n;
  n.Add(&c, P("a", 1), "n1");
  n.Add(&c, P("b", 2), "n1");
  n.Add(&c, P("c", 3), "n1");
  ASSERT_EQ(n.ForNode("n1").size(), 3u);
  n.Add(&c, P("a", 1), "n2");  // a moves to the end of n2's list
  ASSERT_EQ(n.ForNode("n1").size(), 2u);
  EXPECT_EQ(n.ForNode("n1")[0].uid, "b");
  EXPECT_EQ(n.ForNode("n1")[1].uid, "c");
  EXPECT_EQ(n.NodeOf("a"), "n2");
  EXPECT_TRUE(n.Remove(&c, "b"));
  EXPECT_FALSE(n.Remove(&c, "b"));
  EXPECT_EQ(n.ForNode("n1")[0].uid, "c");
  EXPECT_EQ(n.size(), 2u);
  // The nominated copies carry their node and count for nothing in the cluster.
  const PodInfo& copy = c.pod(n.ForNode("n2")[0].pod);
  EXPECT_EQ(copy.pod.nominated_node_name, "n2");
  EXPECT_FALSE(copy.live);
  EXPECT_EQ(c.num_live_pods(), 0u);
}

TEST(ClusterStateRemovePod, UpdatesOnlyThatNodeAndTheChangeLog) {
  ClusterState c = TestCluster(R"({"kind":"List","items":[
    {"kind":"Node","metadata":{"name":"n1"},"status":{"allocatable":{"cpu":"4","pods":"10"}}},
    {"kind":"Pod","metadata":{"name":"a","uid":"a"},"spec":{"nodeName":"n1",
      "containers":[{"name":"c","resources":{"requests":{"cpu":"1","example.com/gpu":"2"}},
      "ports":[{"containerPort":80,"hostPort":8080}]}]}},
    {"kind":"Pod","metadata":{"name":"b","uid":"b"},"spec":{"nodeName":"n1",
      "affinity":{"podAntiAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[
        {"labelSelector":{"matchLabels":{"x":"y"}},"topologyKey":"kubernetes.io/hostname"}]}},
      "containers":[{"name":"c","resources":{"requests":{"cpu":"2"}}}]}}]})");
  const NodeInfo& n = c.node_info(0);
  ASSERT_EQ(n.pods.size(), 2u);
  EXPECT_EQ(n.requested.milli_cpu, 3000);
  const uint64_t g = c.generation();
  EXPECT_TRUE(c.RemovePod(0));
  EXPECT_FALSE(c.RemovePod(0)) << "removed already";
  EXPECT_EQ(n.requested.milli_cpu, 2000);
  EXPECT_EQ(n.requested.Scalar(Intern("example.com/gpu")), 0);
  EXPECT_TRUE(n.used_ports.empty());
  EXPECT_EQ(n.pods, std::vector<PodId>{1});
  EXPECT_EQ(c.generation(), g + 1);
  EXPECT_EQ(c.change_log().back(), 0u);
  EXPECT_EQ(c.num_live_pods(), 1u);
  EXPECT_FALSE(c.pod(0).live);
  EXPECT_TRUE(c.RemovePod(1));
  EXPECT_TRUE(c.pods_with_affinity().empty());
  EXPECT_TRUE(n.pods_with_affinity.empty());
  EXPECT_EQ(n.nonzero_requested.milli_cpu, 0);
}

TEST(ClusterStateRemovePod, SwapsTheLastPodIntoTheGap) {
  ClusterState c = TestCluster(R"({"kind":"List","items":[
    {"kind":"Node","metadata":{"name":"n1"}},
    {"kind":"Pod","metadata":{"name":"a"},"spec":{"nodeName":"n1","containers":[]}},
    {"kind":"Pod","metadata":{"name":"b"},"spec":{"nodeName":"n1","containers":[]}},
    {"kind":"Pod","metadata":{"name":"c"},"spec":{"nodeName":"n1","containers":[]}}]})");
  c.RemovePod(0);
  EXPECT_EQ(c.node_info(0).pods, (std::vector<PodId>{2, 1})) << "as upstream's NodeInfo.RemovePod";
}

}  // namespace nominated_pods_test
}  // namespace ksched
