#include <gtest/gtest.h>

#include "framework/plugins/registry_factories.h"
#include "framework/plugins/testing/fake_handle.h"
#include "framework/plugins/volumebinding/test_handle.h"
#include "tests/fixtures.h"

namespace ksched::framework::plugins {
namespace non_csi_test {

using ksched::testing::TestCluster;
using ksched::testing::TestPod;

// n1 allows 2 EBS volumes and already has vol-1 (inline) and pv-ebs (via a claim).
const char* kCluster = R"({"kind":"List","items":[
  {"kind":"Node","metadata":{"name":"n1"},"status":{"allocatable":{"attachable-volumes-aws-ebs":"2"}}},
  {"kind":"Node","metadata":{"name":"n2"}},
  {"kind":"Pod","metadata":{"name":"old","namespace":"default"},"spec":{"nodeName":"n1",
    "containers":[{"name":"c"}],
    "volumes":[{"name":"a","awsElasticBlockStore":{"volumeID":"vol-1"}},
               {"name":"b","persistentVolumeClaim":{"claimName":"bound"}}]}},
  {"kind":"PersistentVolume","metadata":{"name":"pv-ebs"},
   "spec":{"awsElasticBlockStore":{"volumeID":"vol-2"}}},
  {"kind":"PersistentVolumeClaim","metadata":{"name":"bound","namespace":"default"},
   "spec":{"volumeName":"pv-ebs"}},
  {"kind":"PersistentVolumeClaim","metadata":{"name":"unbound","namespace":"default"},
   "spec":{"storageClassName":"ebs"}},
  {"kind":"StorageClass","metadata":{"name":"ebs"},"provisioner":"kubernetes.io/aws-ebs"}
]})";

struct Fixture {
  ClusterState cluster = TestCluster(kCluster);
  testing::VolumeTestHandle handle{&cluster};
  std::unique_ptr<Plugin> plugin;
  Fixture() {
    Status error;
    plugin = NewEBSLimits({}, &handle, &error);
  }
  Status Filter(const Pod& pod, const char* node) {
    CycleState state;
    return dynamic_cast<FilterPlugin*>(plugin.get())
        ->Filter(state, pod, cluster.node_info(cluster.FindNode(node)));
  }
};

TEST(NonCSILimitsTest, PassesEveryNodeOnlyWithoutVolumes) {
  Fixture f;
  framework::testing::ExpectPassesEveryNodeOnlyWithoutVolumes(
      f.plugin, f.cluster, TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[
      {"name":"a","awsElasticBlockStore":{"volumeID":"vol-3"}}]}})"));
}

TEST(NonCSILimitsTest, CountsUniqueVolumesAgainstAllocatable) {
  Fixture f;
  EXPECT_EQ(f.plugin->Name(), "EBSLimits");
  // Both of the pod's volumes are on n1 already: nothing new.
  Pod same = TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[
      {"name":"a","awsElasticBlockStore":{"volumeID":"vol-2"}},
      {"name":"b","persistentVolumeClaim":{"claimName":"bound"}}]}})");
  EXPECT_TRUE(f.Filter(same, "n1").IsSuccess());
  Pod more = TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[
      {"name":"a","awsElasticBlockStore":{"volumeID":"vol-3"}}]}})");
  Status s = f.Filter(more, "n1");
  EXPECT_EQ(s.code(), Code::kUnschedulable);
  EXPECT_EQ(s.Message(), "node(s) exceed max volume count");
  EXPECT_TRUE(f.Filter(more, "n2").IsSuccess());  // default limit 39
}

TEST(NonCSILimitsTest, UnboundClaimCountsWhenItsClassIsTheType) {
  Fixture f;
  Pod pod = TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[
      {"name":"a","persistentVolumeClaim":{"claimName":"unbound"}}]}})");
  EXPECT_FALSE(f.Filter(pod, "n1").IsSuccess());
  Pod missing = TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[
      {"name":"a","persistentVolumeClaim":{"claimName":"nope"}}]}})");
  Status s = f.Filter(missing, "n1");
  EXPECT_TRUE(s.IsError());
  EXPECT_EQ(s.Message(), "looking up PVC default/nope: persistentvolumeclaim \"nope\" not found");
}

}  // namespace non_csi_test
}  // namespace ksched::framework::plugins
