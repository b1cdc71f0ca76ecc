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
  {"kind":"Node","metadata":{"name":"a","labels":{"topology.kubernetes.io/zone":"z1"}}},
  {"kind":"Node","metadata":{"name":"b","labels":{"failure-domain.beta.kubernetes.io/zone":"z2"}}},
  {"kind":"Node","metadata":{"name":"plain"}},
  {"kind":"PersistentVolume","metadata":{"name":"pv-ga","labels":{"topology.kubernetes.io/zone":"z1__z3"}},
   "spec":{"capacity":{"storage":"1Gi"}}},
  {"kind":"PersistentVolume","metadata":{"name":"pv-beta","labels":{"failure-domain.beta.kubernetes.io/zone":"z2"}},
   "spec":{"capacity":{"storage":"1Gi"}}},
  {"kind":"PersistentVolumeClaim","metadata":{"name":"c-ga","namespace":"default"},"spec":{"volumeName":"pv-ga"}},
  {"kind":"PersistentVolumeClaim","metadata":{"name":"c-beta","namespace":"default"},"spec":{"volumeName":"pv-beta"}},
  {"kind":"PersistentVolumeClaim","metadata":{"name":"c-wait","namespace":"default"},"spec":{"storageClassName":"wait"}},
  {"kind":"PersistentVolumeClaim","metadata":{"name":"c-now","namespace":"default"},"spec":{"storageClassName":"now"}},
  {"kind":"StorageClass","metadata":{"name":"wait"},"provisioner":"x","volumeBindingMode":"WaitForFirstConsumer"},
  {"kind":"StorageClass","metadata":{"name":"now"},"provisioner":"x"}
]})";

Pod WithClaim(const std::string& claim) {
  return TestPod(
      R"({"kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","persistentVolumeClaim":{"claimName":")" +
      claim + R"("}}]}})");
}

struct Fixture {
  ClusterState cluster = TestCluster(kCluster);
  testing::VolumeTestHandle handle{&cluster};
  std::unique_ptr<Plugin> plugin;
  Fixture() {
    Status error;
    plugin = NewVolumeZone({}, &handle, &error);
  }
  Status Filter(const Pod& pod, const char* node) {
    CycleState state;
    return dynamic_cast<FilterPlugin*>(plugin.get())
        ->Filter(state, pod, cluster.node_info(cluster.FindNode(node)));
  }
};

TEST(VolumeZoneTest, PassesEveryNodeOnlyWithoutVolumes) {
  Fixture f;
  framework::testing::ExpectPassesEveryNodeOnlyWithoutVolumes(f.plugin, f.cluster,
                                                              WithClaim("c-ga"));
}

TEST(VolumeZoneTest, BothLabelGenerations) {
  Fixture f;
  EXPECT_TRUE(f.Filter(WithClaim("c-ga"), "a").IsSuccess());
  Status s = f.Filter(WithClaim("c-ga"), "b");
  EXPECT_EQ(s.code(), Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(s.Message(), "node(s) had no available volume zone");
  EXPECT_TRUE(f.Filter(WithClaim("c-beta"), "b").IsSuccess());
  EXPECT_FALSE(f.Filter(WithClaim("c-beta"), "a").IsSuccess());
  // A node without zone labels takes everything.
  EXPECT_TRUE(f.Filter(WithClaim("c-beta"), "plain").IsSuccess());
}

TEST(VolumeZoneTest, UnboundClaims) {
  Fixture f;
  EXPECT_TRUE(f.Filter(WithClaim("c-wait"), "a").IsSuccess());
  EXPECT_EQ(f.Filter(WithClaim("c-now"), "a").Message(), "PersistentVolume had no name");
  EXPECT_EQ(f.Filter(WithClaim("gone"), "a").Message(), "persistentvolumeclaim \"gone\" not found");
  EXPECT_TRUE(f.Filter(WithClaim("gone"), "plain").IsSuccess());
}

}  // namespace
}  // namespace ksched::framework::plugins
