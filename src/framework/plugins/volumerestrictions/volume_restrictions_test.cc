#include <gtest/gtest.h>

#include "config/feature_gates.h"
#include "framework/plugins/registry_factories.h"
#include "framework/plugins/testing/fake_handle.h"
#include "framework/plugins/volumebinding/test_handle.h"
#include "tests/fixtures.h"

namespace ksched::framework::plugins {
namespace volume_restrictions_test {

using ksched::testing::TestCluster;
using ksched::testing::TestPod;

// n1 runs a pod mounting GCE PD "pd-a" read-write and claim "rwop".
const char* kCluster = R"({"kind":"List","items":[
  {"kind":"Node","metadata":{"name":"n1"}},
  {"kind":"Node","metadata":{"name":"n2"}},
  {"kind":"Pod","metadata":{"name":"old","namespace":"default"},"spec":{"nodeName":"n1",
    "containers":[{"name":"c"}],
    "volumes":[{"name":"d","gcePersistentDisk":{"pdName":"pd-a"}},
               {"name":"c","persistentVolumeClaim":{"claimName":"rwop"}}]}},
  {"kind":"PersistentVolumeClaim","metadata":{"name":"rwop","namespace":"default"},
   "spec":{"accessModes":["ReadWriteOncePod"]}},
  {"kind":"PersistentVolumeClaim","metadata":{"name":"rwo","namespace":"default"},
   "spec":{"accessModes":["ReadWriteOnce"]}}
]})";

struct Fixture {
  ClusterState cluster = TestCluster(kCluster);
  testing::VolumeTestHandle handle{&cluster};
  std::unique_ptr<Plugin> plugin;
  CycleState state;  // the last PreFilter's

  explicit Fixture(bool rwop = false,
                   config::SchedulerVersion version = config::SchedulerVersion::kV126) {
    if (version != config::SchedulerVersion::kV126)
      handle.gates = config::DefaultFeatureGates(version);
    handle.gates.read_write_once_pod = rwop;
    Status error;
    plugin = NewVolumeRestrictions({}, &handle, &error);
  }
  static Fixture V135() { return Fixture(true, config::SchedulerVersion::kV135); }
  Status Filter(const Pod& pod, const char* node) {
    return dynamic_cast<FilterPlugin*>(plugin.get())
        ->Filter(state, pod, cluster.node_info(cluster.FindNode(node)));
  }
  Status PreFilter(const Pod& pod) {
    state = CycleState();
    PreFilterResult r;
    return dynamic_cast<PreFilterPlugin*>(plugin.get())->PreFilter(&state, pod, &r);
  }
  PreFilterExtensions* Extensions() {
    return dynamic_cast<PreFilterPlugin*>(plugin.get())->Extensions();
  }
  const PodInfo& RunningPod(const char* node) {
    return cluster.pod(cluster.node_info(cluster.FindNode(node)).pods.at(0));
  }
};

TEST(VolumeRestrictionsTest, PassesEveryNodeOnlyWithoutVolumes) {
  Fixture f;
  framework::testing::ExpectPassesEveryNodeOnlyWithoutVolumes(
      f.plugin, f.cluster, TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[
      {"name":"x","gcePersistentDisk":{"pdName":"pd-a"}}]}})"));
}

TEST(VolumeRestrictionsTest, SameGcePdConflictsUnlessBothReadOnly) {
  Fixture f;
  Pod rw = TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[
      {"name":"x","gcePersistentDisk":{"pdName":"pd-a","readOnly":true}}]}})");
  Status s = f.Filter(rw, "n1");
  EXPECT_EQ(s.code(), Code::kUnschedulable);
  EXPECT_EQ(s.reasons(), std::vector<std::string>{"node(s) had no available disk"});
  EXPECT_TRUE(f.Filter(rw, "n2").IsSuccess());
  Pod other = TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[
      {"name":"x","gcePersistentDisk":{"pdName":"pd-b"}}]}})");
  EXPECT_TRUE(f.Filter(other, "n1").IsSuccess());
}

TEST(VolumeRestrictionsTest, ReadWriteOncePodOnlyBehindTheGate) {
  Pod pod = TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[
      {"name":"x","persistentVolumeClaim":{"claimName":"rwop"}}]}})");
  EXPECT_TRUE(Fixture(false).PreFilter(pod).IsSuccess());
  Status s = Fixture(true).PreFilter(pod);
  EXPECT_EQ(s.code(), Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(s.Message(),
            "node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod "
            "access mode");
  Pod rwo = TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[
      {"name":"x","persistentVolumeClaim":{"claimName":"rwo"}}]}})");
  EXPECT_TRUE(Fixture(true).PreFilter(rwo).IsSuccess());
  Pod missing = TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[
      {"name":"x","persistentVolumeClaim":{"claimName":"nope"}}]}})");
  EXPECT_EQ(Fixture(true).PreFilter(missing).Message(), "persistentvolumeclaim \"nope\" not found");
}

Pod WithRwopClaim() {
  return TestPod(R"({"kind":"Pod","metadata":{"name":"p","namespace":"default"},"spec":{
      "volumes":[{"name":"x","persistentVolumeClaim":{"claimName":"rwop"}}]}})");
}

// v1.35 (ReadWriteOncePod GA): the claim in use is a Filter verdict on every
// node, Unschedulable, where v1.26 with the gate rejected the pod in
// PreFilter and without it did not look.
TEST(VolumeRestrictionsTest, ReadWriteOncePodInUseByRelease) {
  const Pod pod = WithRwopClaim();
  Fixture v126_off(false);
  EXPECT_TRUE(v126_off.PreFilter(pod).IsSuccess());
  EXPECT_TRUE(v126_off.Filter(pod, "n1").IsSuccess());
  EXPECT_TRUE(v126_off.Filter(pod, "n2").IsSuccess());
  EXPECT_EQ(v126_off.Extensions(), nullptr);

  Fixture v135 = Fixture::V135();
  EXPECT_TRUE(v135.PreFilter(pod).IsSuccess());
  EXPECT_NE(v135.Extensions(), nullptr);
  for (const char* node : {"n1", "n2"}) {
    Status s = v135.Filter(pod, node);
    EXPECT_EQ(s.code(), Code::kUnschedulable) << node;
    EXPECT_EQ(s.Message(),
              "node(s) unavailable due to PersistentVolumeClaim with ReadWriteOncePod access mode "
              "already in-use by another pod");
  }
}

TEST(VolumeRestrictionsTest, MissingClaimByRelease) {
  Pod missing = TestPod(R"({"kind":"Pod","metadata":{"name":"p","namespace":"default"},"spec":{
      "volumes":[{"name":"x","persistentVolumeClaim":{"claimName":"nope"}}]}})");
  EXPECT_TRUE(Fixture(false).PreFilter(missing).IsSuccess());
  Status s = Fixture::V135().PreFilter(missing);
  EXPECT_EQ(s.code(), Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(s.Message(), "persistentvolumeclaim \"nope\" not found");
}

// v1.35's PreFilter skips a pod without disks to check and without a claim
// in use; v1.26 never skips.
TEST(VolumeRestrictionsTest, PreFilterSkipByRelease) {
  Pod unused = TestPod(R"({"kind":"Pod","metadata":{"name":"p","namespace":"default"},"spec":{
      "volumes":[{"name":"x","persistentVolumeClaim":{"claimName":"rwo"}},
                 {"name":"y","emptyDir":{}}]}})");
  Pod disk = TestPod(R"({"kind":"Pod","metadata":{"name":"p","namespace":"default"},"spec":{
      "volumes":[{"name":"x","gcePersistentDisk":{"pdName":"pd-z"}}]}})");
  Pod none = TestPod(R"({"kind":"Pod","metadata":{"name":"p","namespace":"default"}})");
  Fixture v135 = Fixture::V135();
  EXPECT_TRUE(v135.PreFilter(unused).IsSkip());
  EXPECT_TRUE(v135.PreFilter(none).IsSkip());
  EXPECT_TRUE(v135.PreFilter(disk).IsSuccess());
  EXPECT_TRUE(v135.Filter(disk, "n1").IsSuccess());  // state written, count 0
  Fixture v126(true);
  EXPECT_TRUE(v126.PreFilter(unused).IsSuccess());
  EXPECT_TRUE(v126.PreFilter(none).IsSuccess());
}

// AddPod / RemovePod move the count: removing the pod that holds the claim
// (a preemption victim) frees every node; adding one (a nominated pod) takes
// them all again. Upstream matches the other pod's claims by name only.
TEST(VolumeRestrictionsTest, AddAndRemovePodAdjustTheCount) {
  Fixture f = Fixture::V135();
  const Pod pod = WithRwopClaim();
  ASSERT_TRUE(f.PreFilter(pod).IsSuccess());
  const NodeInfo& n1 = f.cluster.node_info(f.cluster.FindNode("n1"));
  const PodInfo& old = f.RunningPod("n1");
  ASSERT_TRUE(f.Extensions()->RemovePod(&f.state, pod, old, n1).IsSuccess());
  EXPECT_TRUE(f.Filter(pod, "n1").IsSuccess());
  EXPECT_TRUE(f.Filter(pod, "n2").IsSuccess());
  PodInfo other = old;
  other.pod.meta.ns = Intern("elsewhere");
  ASSERT_TRUE(f.Extensions()->AddPod(&f.state, pod, other, n1).IsSuccess());
  EXPECT_EQ(f.Filter(pod, "n2").code(), Code::kUnschedulable);
  // A clone keeps its own count.
  CycleState clone = f.state.Clone();
  ASSERT_TRUE(f.Extensions()->RemovePod(&clone, pod, other, n1).IsSuccess());
  EXPECT_EQ(f.Filter(pod, "n2").code(), Code::kUnschedulable);
}

}  // namespace volume_restrictions_test
}  // namespace ksched::framework::plugins
