#include <gtest/gtest.h>

#include "framework/plugins/registry_factories.h"
#include "framework/plugins/testing/fake_handle.h"
#include "framework/plugins/volumebinding/test_handle.h"
#include "tests/fixtures.h"

namespace ksched::framework::plugins {
namespace {

using ksched::testing::TestCluster;
using ksched::testing::TestPod;

const char* kCluster = R"({"kind":"List","items":[
  {"kind":"Node","metadata":{"name":"n1"},"status":{"allocatable":{"attachable-volumes-csi-ebs.csi.aws.com":"1"}}},
  {"kind":"Node","metadata":{"name":"n2"}},
  {"kind":"Pod","metadata":{"name":"old","namespace":"default"},"spec":{"nodeName":"n1",
    "containers":[{"name":"c"}],
    "volumes":[{"name":"b","persistentVolumeClaim":{"claimName":"c1"}}]}},
  {"kind":"PersistentVolume","metadata":{"name":"pv1"},"spec":{"csi":{"driver":"ebs.csi.aws.com","volumeHandle":"h1"}}},
  {"kind":"PersistentVolume","metadata":{"name":"pv2"},"spec":{"csi":{"driver":"ebs.csi.aws.com","volumeHandle":"h2"}}},
  {"kind":"PersistentVolumeClaim","metadata":{"name":"c1","namespace":"default"},"spec":{"volumeName":"pv1"}},
  {"kind":"PersistentVolumeClaim","metadata":{"name":"c2","namespace":"default"},"spec":{"volumeName":"pv2"}}
]})";

struct Fixture {
  ClusterState cluster = TestCluster(kCluster);
  testing::VolumeTestHandle handle{&cluster};
  std::unique_ptr<Plugin> plugin;
  Fixture() {
    Status error;
    plugin = NewNodeVolumeLimits({}, &handle, &error);
  }
  Status Filter(const Pod& pod, const char* node) {
    CycleState state;
    return dynamic_cast<FilterPlugin*>(plugin.get())
        ->Filter(state, pod, cluster.node_info(cluster.FindNode(node)));
  }
};

Pod WithClaim(const std::string& claim) {
  return TestPod(
      R"({"kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","persistentVolumeClaim":{"claimName":")" +
      claim + R"("}}]}})");
}

TEST(CSILimitsTest, PassesEveryNodeOnlyWithoutVolumes) {
  Fixture f;
  framework::testing::ExpectPassesEveryNodeOnlyWithoutVolumes(f.plugin, f.cluster, WithClaim("c2"));
}

TEST(CSILimitsTest, PerDriverLimitFromAllocatable) {
  Fixture f;
  EXPECT_TRUE(f.Filter(WithClaim("c1"), "n1").IsSuccess());  // already attached
  Status s = f.Filter(WithClaim("c2"), "n1");
  EXPECT_EQ(s.code(), Code::kUnschedulable);
  EXPECT_EQ(s.Message(), "node(s) exceed max volume count");
  EXPECT_TRUE(f.Filter(WithClaim("c2"), "n2").IsSuccess());  // no limit
}

}  // namespace
}  // namespace ksched::framework::plugins

namespace ksched::framework::plugins {
namespace {

// n1's CSINode: the EBS driver allows one volume and serves migrated
// in-tree EBS volumes; n1 runs a pod with inline EBS volume vol-1.
const char* kMigrated = R"({"kind":"List","items":[
  {"kind":"Node","metadata":{"name":"n1"}},
  {"kind":"CSINode","metadata":{"name":"n1",
    "annotations":{"storage.alpha.kubernetes.io/migrated-plugins":"kubernetes.io/aws-ebs"}},
   "spec":{"drivers":[{"name":"ebs.csi.aws.com","nodeID":"i-1","allocatable":{"count":1}}]}},
  {"kind":"Pod","metadata":{"name":"old","namespace":"default"},"spec":{"nodeName":"n1",
    "containers":[{"name":"c"}],
    "volumes":[{"name":"a","awsElasticBlockStore":{"volumeID":"vol-1"}}]}}
]})";

TEST(CSILimitsTest, MigratedInlineVolumesCountAgainstCSINodeLimit) {
  ClusterState cluster = TestCluster(kMigrated);
  testing::VolumeTestHandle handle(&cluster);
  Status error;
  std::unique_ptr<Plugin> csi = NewNodeVolumeLimits({}, &handle, &error);
  std::unique_ptr<Plugin> ebs = NewEBSLimits({}, &handle, &error);
  Pod same = TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[
      {"name":"a","awsElasticBlockStore":{"volumeID":"vol-1"}}]}})");
  Pod other = TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[
      {"name":"a","awsElasticBlockStore":{"volumeID":"vol-2"}}]}})");
  CycleState state;
  const NodeInfo& n1 = cluster.node_info(0);
  auto* csi_filter = dynamic_cast<FilterPlugin*>(csi.get());
  EXPECT_TRUE(csi_filter->Filter(state, same, n1).IsSuccess());
  EXPECT_EQ(csi_filter->Filter(state, other, n1).Message(), "node(s) exceed max volume count");
  // EBSLimits leaves migrated volumes to NodeVolumeLimits.
  EXPECT_TRUE(dynamic_cast<FilterPlugin*>(ebs.get())->Filter(state, other, n1).IsSuccess());
}

}  // namespace
}  // namespace ksched::framework::plugins
