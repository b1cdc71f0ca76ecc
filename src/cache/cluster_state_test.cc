// ClusterState's v1.26 additions: accounting of init containers and
// overhead (CacheOptions::v126), required anti-affinity lists, namespaces,
// CSINodes and CSIDrivers. The v1.15 accounting is covered by the
// predicates' and priorities' tests and the conformance vectors.
#include "cache/cluster_state.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "api/decode.h"

namespace ksched {
namespace cluster_state_test {

ClusterState Build(std::string_view json, CacheOptions options) {
  ObjectSet objects;
  Status s = DecodeObjects(json, "test.json", &objects);
  EXPECT_TRUE(s.ok()) << s.error().message;
  Result<ClusterState> c = ClusterState::Build(std::move(objects), nullptr, options);
  EXPECT_TRUE(c.ok()) << c.error().message;
  return std::move(c).value();
}

// One node; pod "a" has two containers (100m + 200m cpu, 1Gi memory in one),
// an init container asking for 500m cpu and no memory, and an overhead of
// 50m cpu and 10Mi memory; pod "b" names no requests at all and has required
// anti-affinity.
constexpr char kCluster[] = R"({"kind": "List", "items": [
  {"kind": "Node", "metadata": {"name": "n1"},
   "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}}},
  {"kind": "Node", "metadata": {"name": "n2"}},
  {"kind": "Pod", "metadata": {"name": "a"}, "spec": {"nodeName": "n1",
    "containers": [{"resources": {"requests": {"cpu": "100m", "memory": "1Gi"}}},
                   {"resources": {"requests": {"cpu": "200m", "example.com/gpu": "1"}}}],
    "initContainers": [{"resources": {"requests": {"cpu": "500m", "example.com/gpu": "2"}}}],
    "overhead": {"cpu": "50m", "memory": "10Mi"}}},
  {"kind": "Pod", "metadata": {"name": "b"}, "spec": {"nodeName": "n1",
    "containers": [{}],
    "affinity": {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
      {"topologyKey": "zone"}]}}}},
  {"kind": "Pod", "metadata": {"name": "c"}, "spec": {"nodeName": "n1",
    "affinity": {"podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
      {"weight": 1, "podAffinityTerm": {"topologyKey": "zone"}}]}}}},
  {"apiVersion": "v1", "kind": "Namespace",
   "metadata": {"name": "shop", "labels": {"team": "a"}}},
  {"apiVersion": "storage.k8s.io/v1", "kind": "CSINode", "metadata": {"name": "n2"},
   "spec": {"drivers": [{"name": "ebs.csi.aws.com", "allocatable": {"count": 3}}]}},
  {"apiVersion": "storage.k8s.io/v1", "kind": "CSIDriver", "metadata": {"name": "ebs.csi.aws.com"},
   "spec": {"attachRequired": false}}]})";

constexpr int64_t kMi = 1024 * 1024;
const StrId kGpu = Intern("example.com/gpu");

TEST(ClusterStateV126Test, V115CountsRegularContainersOnly) {
  ClusterState c = Build(kCluster, CacheOptions{});
  const NodeInfo& n = c.node_info(c.FindNode("n1"));
  EXPECT_EQ(n.requested.milli_cpu, 300);
  EXPECT_EQ(n.requested.memory, 1024 * kMi);
  EXPECT_EQ(n.requested.Scalar(kGpu), 1);
  // a: 300m / 1Gi + 200Mi (its second container names no memory); b and c:
  // one default-sized container... c has none.
  EXPECT_EQ(n.nonzero_requested.milli_cpu, 300 + 100);
  EXPECT_EQ(n.nonzero_requested.memory, 1024 * kMi + 200 * kMi + 200 * kMi);
  EXPECT_FALSE(c.options().v126);
  EXPECT_EQ(c.FindCSINode("n1"), nullptr);  // no CSINode invented for v1.15
}

TEST(ClusterStateV126Test, V126CountsInitContainersAndOverhead) {
  ClusterState c = Build(kCluster, CacheOptions{.v126 = true, .v135 = false, .requests = {}});
  const NodeInfo& n = c.node_info(c.FindNode("n1"));
  // a: max(100m + 200m, 500m) + 50m; memory 1Gi + 10Mi; gpu max(1, 2).
  EXPECT_EQ(n.requested.milli_cpu, 550);
  EXPECT_EQ(n.requested.memory, 1024 * kMi + 10 * kMi);
  EXPECT_EQ(n.requested.Scalar(kGpu), 2);
  // a's non-zero: cpu max(300m, 500m) + 50m; memory max(1Gi + 200Mi, 200Mi
  // for the init container naming none) + 10Mi. b: 100m / 200Mi.
  EXPECT_EQ(n.nonzero_requested.milli_cpu, 550 + 100);
  EXPECT_EQ(n.nonzero_requested.memory, 1224 * kMi + 10 * kMi + 200 * kMi);

  // Removing a pod takes away what adding it counted.
  ClusterState c2 = Build(kCluster, CacheOptions{.v126 = true, .v135 = false, .requests = {}});
  PodId a = c2.node_info(0).pods[0];
  ASSERT_EQ(c2.pod(a).pod.meta.name, "a");
  ASSERT_TRUE(c2.RemovePod(a));
  EXPECT_EQ(c2.node_info(0).requested.milli_cpu, 0);
  EXPECT_EQ(c2.node_info(0).nonzero_requested.milli_cpu, 100);
  EXPECT_EQ(c2.node_info(0).nonzero_requested.memory, 200 * kMi);
}

TEST(ClusterStateV126Test, MakePodInfoTakesTheOptions) {
  ClusterState c = Build(kCluster, CacheOptions{});
  const Pod& a = c.pod(c.node_info(0).pods[0]).pod;
  EXPECT_EQ(MakePodInfo(a).request.milli_cpu, 300);
  EXPECT_EQ(
      MakePodInfo(a, CacheOptions{.v126 = true, .v135 = false, .requests = {}}).request.milli_cpu,
      550);
  EXPECT_EQ(PodRequestV126(a).milli_cpu, 550);
  EXPECT_EQ(PodNonZeroRequestV126(a).milli_cpu, 550);
}

TEST(ClusterStateV126Test, RequiredAntiAffinityLists) {
  ClusterState c = Build(kCluster, CacheOptions{.v126 = true, .v135 = false, .requests = {}});
  const NodeInfo& n = c.node_info(0);
  ASSERT_EQ(n.pods_with_required_anti_affinity.size(), 1u);
  PodId b = n.pods_with_required_anti_affinity[0];
  EXPECT_EQ(c.pod(b).pod.meta.name, "b");
  EXPECT_TRUE(c.pod(b).has_required_anti_affinity);
  EXPECT_EQ(n.pods_with_affinity.size(), 2u);  // b and c

  NodeInfo copy = n;
  EXPECT_TRUE(copy.RemovePod(b, c.pod(b)));
  EXPECT_TRUE(copy.pods_with_required_anti_affinity.empty());
  EXPECT_EQ(copy.pods_with_affinity.size(), 1u);
  copy.AddPod(b, c.pod(b));
  EXPECT_EQ(copy.pods_with_required_anti_affinity.size(), 1u);
}

TEST(ClusterStateV126Test, NamespacesAndCsi) {
  ClusterState c = Build(kCluster, CacheOptions{.v126 = true, .v135 = false, .requests = {}});
  ASSERT_EQ(c.namespaces().size(), 1u);
  const Labels* shop = c.NamespaceLabels(Intern("shop"));
  ASSERT_NE(shop, nullptr);
  EXPECT_EQ(shop->Get(Intern("team")), Intern("a"));
  EXPECT_EQ(c.NamespaceLabels(Intern("elsewhere")), nullptr);

  // n1 has no CSINode in the input: it gets an empty one named after it.
  const CSINode* n1 = c.FindCSINode("n1");
  ASSERT_NE(n1, nullptr);
  EXPECT_EQ(n1->meta.name, "n1");
  EXPECT_TRUE(n1->drivers.empty());
  EXPECT_EQ(c.CSINodeOf(c.FindNode("n1")), n1);
  const CSINode* n2 = c.CSINodeOf(c.FindNode("n2"));
  ASSERT_NE(n2, nullptr);
  ASSERT_EQ(n2->drivers.size(), 1u);
  EXPECT_EQ(n2->drivers[0].allocatable_count, 3);
  EXPECT_EQ(c.FindCSINode("n3"), nullptr);
  EXPECT_EQ(c.csi_nodes().size(), 2u);

  const CSIDriver* d = c.FindCSIDriver("ebs.csi.aws.com");
  ASSERT_NE(d, nullptr);
  EXPECT_FALSE(d->attach_required);
  EXPECT_EQ(c.FindCSIDriver("other"), nullptr);
  EXPECT_EQ(c.csi_drivers().size(), 1u);
}

TEST(ClusterStateV126Test, StateSurvivesAMove) {
  ClusterState c = Build(kCluster, CacheOptions{.v126 = true, .v135 = false, .requests = {}});
  ClusterState moved = std::move(c);
  const CSINode* n1 = moved.CSINodeOf(moved.FindNode("n1"));
  ASSERT_NE(n1, nullptr);
  EXPECT_EQ(n1->meta.name, "n1");
  EXPECT_EQ(n1, moved.FindCSINode("n1"));
}

// v1.26's zone key reads the beta labels first, each falling back to its
// topology.kubernetes.io twin only when absent (not when empty); keys are
// numbered in the order they first appear, 0 for the "" key.
TEST(ClusterStateV126Test, Zone126IndexFollowsGetZoneKey) {
  ClusterState c = Build(R"({"kind": "List", "items": [
    {"kind": "Node", "metadata": {"name": "none"}},
    {"kind": "Node", "metadata": {"name": "ga", "labels": {
      "topology.kubernetes.io/region": "r", "topology.kubernetes.io/zone": "a"}}},
    {"kind": "Node", "metadata": {"name": "beta", "labels": {
      "failure-domain.beta.kubernetes.io/region": "r",
      "failure-domain.beta.kubernetes.io/zone": "a"}}},
    {"kind": "Node", "metadata": {"name": "both", "labels": {
      "failure-domain.beta.kubernetes.io/zone": "b", "topology.kubernetes.io/zone": "a",
      "topology.kubernetes.io/region": "r"}}},
    {"kind": "Node", "metadata": {"name": "empty-beta", "labels": {
      "failure-domain.beta.kubernetes.io/zone": "", "topology.kubernetes.io/zone": "a"}}},
    {"kind": "Node", "metadata": {"name": "region-only", "labels": {
      "topology.kubernetes.io/region": "r"}}}]})",
                         CacheOptions{.v126 = true, .v135 = false, .requests = {}});
  auto zone = [&](const char* name) { return c.zone126_index(c.FindNode(name)); };
  EXPECT_EQ(zone("none"), 0u);
  EXPECT_EQ(zone("ga"), 1u);
  EXPECT_EQ(zone("beta"), 1u);  // "r:\0:a" either way
  EXPECT_EQ(zone("both"), 2u);  // the beta zone "b" wins
  EXPECT_EQ(zone("empty-beta"), 0u);
  EXPECT_EQ(zone("region-only"), 3u);
  EXPECT_EQ(c.num_zones126(), 3u);
  // v1.15's key reads the beta labels alone.
  EXPECT_EQ(c.zone_index(c.FindNode("ga")), 0u);
  EXPECT_NE(c.zone_index(c.FindNode("beta")), 0u);
}

}  // namespace cluster_state_test
}  // namespace ksched
