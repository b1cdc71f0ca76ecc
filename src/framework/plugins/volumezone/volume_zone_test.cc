#include <gtest/gtest.h>

#include "config/feature_gates.h"
#include "framework/plugins/registry_factories.h"
#include "framework/plugins/testing/fake_handle.h"
#include "framework/plugins/volumebinding/test_handle.h"
#include "tests/fixtures.h"

namespace ksched::framework::plugins {
namespace volume_zone_test {

using ksched::testing::TestCluster;
using ksched::testing::TestPod;

const char* kCluster = R"({"kind":"List","items":[
  {"kind":"Node","metadata":{"name":"a","labels":{"topology.kubernetes.io/zone":"z1"}}},
  {"kind":"Node","metadata":{"name":"b","labels":{"failure-domain.beta.kubernetes.io/zone":"z2"}}},
  {"kind":"Node","metadata":{"name":"plain"}},
  {"kind":"Node","metadata":{"name":"c","labels":{"topology.kubernetes.io/zone":"z2"}}},
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
  CycleState state;  // the last PreFilter's (v1.35)
  explicit Fixture(config::SchedulerVersion version = config::SchedulerVersion::kV126) {
    if (version != config::SchedulerVersion::kV126)
      handle.gates = config::DefaultFeatureGates(version);
    Status error;
    plugin = NewVolumeZone({}, &handle, &error);
  }
  Status PreFilter(const Pod& pod) {
    state = CycleState();
    PreFilterResult r;
    return dynamic_cast<PreFilterPlugin*>(plugin.get())->PreFilter(&state, pod, &r);
  }
  Status Filter(const Pod& pod, const char* node) {
    return dynamic_cast<FilterPlugin*>(plugin.get())
        ->Filter(state, pod, cluster.node_info(cluster.FindNode(node)));
  }
  // PreFilter, then Filter when PreFilter passed.
  Status Cycle(const Pod& pod, const char* node) {
    Status s = PreFilter(pod);
    return s.IsSuccess() ? Filter(pod, node) : s;
  }
};

constexpr auto kV135 = config::SchedulerVersion::kV135;

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

// v1.35 compares a beta PV label with the node's GA label when the node has
// no beta one; v1.26 compares the same key only. Never GA -> beta.
TEST(VolumeZoneTest, BetaLabelFallsBackToGAInV135) {
  Fixture v126, v135(kV135);
  // pv-beta (beta zone z2) on c (GA zone z2 only).
  EXPECT_FALSE(v126.Filter(WithClaim("c-beta"), "c").IsSuccess());
  EXPECT_TRUE(v135.Cycle(WithClaim("c-beta"), "c").IsSuccess());
  EXPECT_TRUE(v135.Cycle(WithClaim("c-beta"), "b").IsSuccess());
  EXPECT_FALSE(v135.Cycle(WithClaim("c-beta"), "a").IsSuccess());  // GA z1
  // pv-ga on the node with only the beta label: no fallback that way.
  Status s = v135.Cycle(WithClaim("c-ga"), "b");
  EXPECT_EQ(s.code(), Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(s.Message(), "node(s) had no available volume zone");
  EXPECT_TRUE(v135.Cycle(WithClaim("c-ga"), "a").IsSuccess());
  EXPECT_TRUE(v135.Cycle(WithClaim("c-beta"), "plain").IsSuccess());
}

// v1.26 finds a missing claim or PV per node, and only on nodes with zone
// labels; v1.35's PreFilter rejects the pod whatever the node.
TEST(VolumeZoneTest, ErrorsMoveToPreFilterInV135) {
  Fixture v126, v135(kV135);
  EXPECT_TRUE(v126.Filter(WithClaim("gone"), "plain").IsSuccess());
  Status s = v135.PreFilter(WithClaim("gone"));
  EXPECT_EQ(s.code(), Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(s.Message(), "persistentvolumeclaim \"gone\" not found");
  EXPECT_EQ(v135.PreFilter(WithClaim("c-now")).Message(), "PersistentVolume had no name");
  EXPECT_FALSE(v126.plugin->ExtendsPreFilter());
  EXPECT_TRUE(v135.plugin->ExtendsPreFilter());
}

TEST(VolumeZoneTest, PreFilterSkipsWithoutTopologiesInV135) {
  Fixture v135(kV135);
  EXPECT_TRUE(v135.PreFilter(WithClaim("c-wait")).IsSkip());
  EXPECT_TRUE(v135.PreFilter(TestPod(R"({"kind":"Pod","metadata":{"name":"p"}})")).IsSkip());
  EXPECT_TRUE(v135.PreFilter(WithClaim("c-ga")).IsSuccess());
}

}  // namespace volume_zone_test
}  // namespace ksched::framework::plugins
