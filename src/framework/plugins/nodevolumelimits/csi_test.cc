#include <gtest/gtest.h>

#include "config/feature_gates.h"
#include "framework/plugins/registry_factories.h"
#include "framework/plugins/testing/fake_handle.h"
#include "framework/plugins/volumebinding/test_handle.h"
#include "tests/fixtures.h"

namespace ksched::framework::plugins {
namespace csi_test {

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

}  // namespace csi_test
}  // namespace ksched::framework::plugins

namespace ksched::framework::plugins {
namespace csi_test {

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

}  // namespace csi_test
}  // namespace ksched::framework::plugins

namespace ksched::framework::plugins {
namespace csi_test {

// Each release's CSILimits over one cluster. n-alloc limits the EBS driver
// by an allocatable attachable-volumes-csi-* resource only; n-csinode by its
// CSINode's count (no migrated-plugins annotation); n-rbd's CSINode has a
// driver named after the RBD provisioner and lists Portworx as migrated.
// Each node runs a pod with one inline EBS volume.
const char* kReleases = R"({"kind":"List","items":[
  {"kind":"Node","metadata":{"name":"n-alloc"},
   "status":{"allocatable":{"attachable-volumes-csi-ebs.csi.aws.com":"1"}}},
  {"kind":"Node","metadata":{"name":"n-csinode"}},
  {"kind":"Node","metadata":{"name":"n-rbd"}},
  {"kind":"CSINode","metadata":{"name":"n-alloc"}},
  {"kind":"CSINode","metadata":{"name":"n-csinode"},
   "spec":{"drivers":[{"name":"ebs.csi.aws.com","nodeID":"i-1","allocatable":{"count":1}}]}},
  {"kind":"CSINode","metadata":{"name":"n-rbd",
    "annotations":{"storage.alpha.kubernetes.io/migrated-plugins":"kubernetes.io/portworx-volume"}},
   "spec":{"drivers":[{"name":"kubernetes.io/rbd","nodeID":"i-2","allocatable":{"count":0}},
                      {"name":"pxd.portworx.com","nodeID":"i-2","allocatable":{"count":0}}]}},
  {"kind":"Pod","metadata":{"name":"a","namespace":"default"},"spec":{"nodeName":"n-alloc",
    "containers":[{"name":"c"}],"volumes":[{"name":"e","awsElasticBlockStore":{"volumeID":"vol-1"}}]}},
  {"kind":"Pod","metadata":{"name":"b","namespace":"default"},"spec":{"nodeName":"n-csinode",
    "containers":[{"name":"c"}],"volumes":[{"name":"e","awsElasticBlockStore":{"volumeID":"vol-1"}}]}},
  {"kind":"PersistentVolume","metadata":{"name":"pv1"},"spec":{"csi":{"driver":"ebs.csi.aws.com","volumeHandle":"h1"}}},
  {"kind":"PersistentVolumeClaim","metadata":{"name":"c1","namespace":"default"},"spec":{"volumeName":"pv1"}},
  {"kind":"StorageClass","metadata":{"name":"rbd"},"provisioner":"kubernetes.io/rbd"},
  {"kind":"StorageClass","metadata":{"name":"px"},"provisioner":"kubernetes.io/portworx-volume"},
  {"kind":"PersistentVolumeClaim","metadata":{"name":"c-rbd","namespace":"default"},"spec":{"storageClassName":"rbd"}},
  {"kind":"PersistentVolumeClaim","metadata":{"name":"c-px","namespace":"default"},"spec":{"storageClassName":"px"}},
  {"kind":"CSIDriver","metadata":{"name":"ebs.csi.aws.com"},"spec":{}}
]})";

struct Release {
  ClusterState cluster = TestCluster(kReleases);
  testing::VolumeTestHandle handle{&cluster};
  std::unique_ptr<Plugin> plugin;
  explicit Release(config::SchedulerVersion version, bool limit_scaling = false) {
    handle.gates = config::DefaultFeatureGates(version);
    handle.gates.volume_limit_scaling = limit_scaling;
    Status error;
    plugin = NewNodeVolumeLimits({}, &handle, &error);
  }
  Status Filter(const Pod& pod, const char* node) {
    CycleState state;
    return dynamic_cast<FilterPlugin*>(plugin.get())
        ->Filter(state, pod, cluster.node_info(cluster.FindNode(node)));
  }
  Status PreFilter(const Pod& pod) {
    CycleState state;
    PreFilterResult r;
    return dynamic_cast<PreFilterPlugin*>(plugin.get())->PreFilter(&state, pod, &r);
  }
};

constexpr auto kV126 = config::SchedulerVersion::kV126;
constexpr auto kV135 = config::SchedulerVersion::kV135;

Pod Inline(const char* source) {
  return TestPod(std::string(R"({"kind":"Pod","metadata":{"name":"p","namespace":"default"},
      "spec":{"volumes":[{"name":"v",)") +
                 source + "}]}}");
}

// v1.26 reads the limit from the node's allocatable too; v1.35 from the
// CSINode alone. v1.26 counts inline EBS volumes only where the CSINode's
// annotation lists the plugin; v1.35 wherever the node has a CSINode.
TEST(CSILimitsReleaseTest, LimitsAndMigrationByRelease) {
  Pod claim = WithClaim("c1");
  claim.meta.ns = Intern("default");
  Release v126(kV126), v135(kV135);
  // n-alloc: the pod's old inline volume counts in neither release (not
  // migrated there in v1.26; no CSINode limit in v1.35) ...
  EXPECT_TRUE(v126.Filter(claim, "n-alloc").IsSuccess());
  EXPECT_TRUE(v135.Filter(claim, "n-alloc").IsSuccess());
  // ... and v1.26's allocatable limit of 1 holds a second claim back.
  Pod two = TestPod(R"({"kind":"Pod","metadata":{"name":"p","namespace":"default"},"spec":{
      "volumes":[{"name":"v","persistentVolumeClaim":{"claimName":"c1"}},
                 {"name":"w","awsElasticBlockStore":{"volumeID":"vol-2"}}]}})");
  EXPECT_TRUE(v126.Filter(two, "n-alloc").IsSuccess());  // vol-2 not migrated
  // n-csinode: v1.35 counts the old inline EBS volume against the CSINode's 1.
  EXPECT_TRUE(v126.Filter(claim, "n-csinode").IsSuccess());
  Status s = v135.Filter(claim, "n-csinode");
  EXPECT_EQ(s.code(), Code::kUnschedulable);
  EXPECT_EQ(s.Message(), "node(s) exceed max volume count");
  // The same inline volume is already attached: nothing new.
  EXPECT_TRUE(v135.Filter(Inline(R"("awsElasticBlockStore":{"volumeID":"vol-1"})"), "n-csinode")
                  .IsSuccess());
}

TEST(CSILimitsReleaseTest, AllocatableLimitOnlyInV126) {
  Release v126(kV126), v135(kV135);
  Pod two = TestPod(R"({"kind":"Pod","metadata":{"name":"p","namespace":"default"},"spec":{
      "volumes":[{"name":"v","persistentVolumeClaim":{"claimName":"c1"}}]}})");
  // n-alloc runs nothing of the driver (its inline volume is not migrated in
  // v1.26): one new volume fits the allocatable 1 in v1.26; v1.35 has no limit.
  EXPECT_TRUE(v126.Filter(two, "n-alloc").IsSuccess());
  EXPECT_TRUE(v135.Filter(two, "n-alloc").IsSuccess());
  Pod pv_and_migrated = TestPod(R"({"kind":"Pod","metadata":{"name":"p","namespace":"default"},
      "spec":{"volumes":[{"name":"v","persistentVolumeClaim":{"claimName":"c1"}},
                         {"name":"w","csi":{"driver":"ebs.csi.aws.com"}}]}})");
  EXPECT_TRUE(v135.Filter(pv_and_migrated, "n-alloc").IsSuccess());
}

TEST(CSILimitsReleaseTest, MissingClaimByRelease) {
  Pod missing = WithClaim("gone");
  missing.meta.ns = Intern("default");
  Status v126 = Release(kV126).Filter(missing, "n-csinode");
  EXPECT_EQ(v126.code(), Code::kError);
  Status v135 = Release(kV135).Filter(missing, "n-csinode");
  EXPECT_EQ(v135.code(), Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(v135.Message(),
            "looking up PVC default/gone: persistentvolumeclaim \"gone\" not found");
  EXPECT_EQ(v126.Message(), v135.Message());
}

// An Azure Disk without kind: "Managed" cannot be translated; v1.35 tries
// (the plugin counts as migrated on any node with a CSINode), v1.26 does not
// without the annotation.
TEST(CSILimitsReleaseTest, UntranslatableInlineVolumeByRelease) {
  Pod azure = Inline(R"("azureDisk":{"diskName":"d","diskURI":"u"})");
  EXPECT_TRUE(Release(kV126).Filter(azure, "n-csinode").IsSuccess());
  Status s = Release(kV135).Filter(azure, "n-csinode");
  EXPECT_EQ(s.code(), Code::kError);
  EXPECT_EQ(s.Message(),
            "converting volume(v) from inline to csi: kind(Shared) is not supported "
            "in csi migration");
}

// v1.35's library has no RBD translation, so an RBD class's claims count
// against a driver named after the provisioner; Portworx is migrated where
// the annotation lists it. v1.26 counts neither.
TEST(CSILimitsReleaseTest, RbdAndPortworxByRelease) {
  Pod rbd = WithClaim("c-rbd");
  rbd.meta.ns = Intern("default");
  Pod px = WithClaim("c-px");
  px.meta.ns = Intern("default");
  Release v126(kV126), v135(kV135);
  EXPECT_TRUE(v126.Filter(rbd, "n-rbd").IsSuccess());
  EXPECT_TRUE(v126.Filter(px, "n-rbd").IsSuccess());
  EXPECT_EQ(v135.Filter(rbd, "n-rbd").Message(), "node(s) exceed max volume count");
  EXPECT_EQ(v135.Filter(px, "n-rbd").Message(), "node(s) exceed max volume count");
}

TEST(CSILimitsReleaseTest, PreFilterSkipOnlyInV135) {
  Release v126(kV126), v135(kV135);
  EXPECT_FALSE(v126.plugin->ExtendsPreFilter());
  EXPECT_TRUE(v135.plugin->ExtendsPreFilter());
  EXPECT_TRUE(v135.PreFilter(Inline(R"("emptyDir":{})")).IsSkip());
  EXPECT_TRUE(v135.PreFilter(Inline(R"("rbd":{"monitors":["m"],"image":"i"})")).IsSkip());
  EXPECT_TRUE(v135.PreFilter(Inline(R"("awsElasticBlockStore":{"volumeID":"vol-9"})")).IsSuccess());
  EXPECT_TRUE(v135.PreFilter(Inline(R"("ephemeral":{})")).IsSuccess());
  EXPECT_TRUE(v135.PreFilter(WithClaim("c1")).IsSuccess());
}

// VolumeLimitScaling (alpha): a driver with a CSIDriver object must be on
// the node's CSINode.
TEST(CSILimitsReleaseTest, VolumeLimitScaling) {
  Pod claim = WithClaim("c1");
  claim.meta.ns = Intern("default");
  EXPECT_TRUE(Release(kV135).Filter(claim, "n-rbd").IsSuccess());
  Status s = Release(kV135, true).Filter(claim, "n-rbd");
  EXPECT_EQ(s.code(), Code::kUnschedulable);
  EXPECT_EQ(s.Message(), "ebs.csi.aws.com CSI driver is not installed on the node");
}

}  // namespace csi_test
}  // namespace ksched::framework::plugins
