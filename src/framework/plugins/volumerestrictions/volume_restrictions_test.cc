#include <gtest/gtest.h>

#include "framework/plugins/registry_factories.h"
#include "framework/plugins/testing/fake_handle.h"
#include "framework/plugins/volumebinding/test_handle.h"
#include "tests/fixtures.h"

namespace ksched::framework::plugins {
namespace {

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

  explicit Fixture(bool rwop = false) {
    handle.gates.read_write_once_pod = rwop;
    Status error;
    plugin = NewVolumeRestrictions({}, &handle, &error);
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

}  // namespace
}  // namespace ksched::framework::plugins
