#include <gtest/gtest.h>

#include "config/feature_gates.h"
#include "framework/plugins/registry_factories.h"
#include "framework/plugins/volumebinding/prebind.h"
#include "framework/plugins/volumebinding/test_handle.h"
#include "framework/prebind.h"
#include "tests/fixtures.h"

namespace ksched::framework::plugins {
namespace volume_binding_test {

using ksched::testing::TestCluster;
using ksched::testing::TestPod;

// Local PVs on n1 (5Gi and 10Gi) and n2 (10Gi, with a resourceVersion);
// "fast" is WaitForFirstConsumer without a provisioner.
const char* kCluster = R"({"kind":"List","items":[
  {"kind":"Node","metadata":{"name":"n1","labels":{"kubernetes.io/hostname":"n1"}}},
  {"kind":"Node","metadata":{"name":"n2","labels":{"kubernetes.io/hostname":"n2"}}},
  {"kind":"Node","metadata":{"name":"n3","labels":{"kubernetes.io/hostname":"n3"}}},
  {"kind":"StorageClass","metadata":{"name":"local"},"provisioner":"kubernetes.io/no-provisioner",
   "volumeBindingMode":"WaitForFirstConsumer"},
  {"kind":"StorageClass","metadata":{"name":"std"},"provisioner":"kubernetes.io/gce-pd"},
  {"kind":"PersistentVolume","metadata":{"name":"big-1"},"spec":{"storageClassName":"local",
   "capacity":{"storage":"10Gi"},"accessModes":["ReadWriteOnce"],
   "nodeAffinity":{"required":{"nodeSelectorTerms":[{"matchExpressions":[
     {"key":"kubernetes.io/hostname","operator":"In","values":["n1"]}]}]}}},"status":{"phase":"Available"}},
  {"kind":"PersistentVolume","metadata":{"name":"small-1"},"spec":{"storageClassName":"local",
   "capacity":{"storage":"5Gi"},"accessModes":["ReadWriteOnce"],
   "nodeAffinity":{"required":{"nodeSelectorTerms":[{"matchExpressions":[
     {"key":"kubernetes.io/hostname","operator":"In","values":["n1"]}]}]}}},"status":{"phase":"Available"}},
  {"kind":"PersistentVolume","metadata":{"name":"pv-2","resourceVersion":"7"},"spec":{"storageClassName":"local",
   "capacity":{"storage":"10Gi"},"accessModes":["ReadWriteOnce"],
   "nodeAffinity":{"required":{"nodeSelectorTerms":[{"matchExpressions":[
     {"key":"kubernetes.io/hostname","operator":"In","values":["n2"]}]}]}}},"status":{"phase":"Available"}},
  {"kind":"PersistentVolume","metadata":{"name":"bound-pv"},"spec":{"storageClassName":"std",
   "capacity":{"storage":"1Gi"},"claimRef":{"namespace":"default","name":"bound"},
   "nodeAffinity":{"required":{"nodeSelectorTerms":[{"matchExpressions":[
     {"key":"kubernetes.io/hostname","operator":"In","values":["n3"]}]}]}}},"status":{"phase":"Bound"}},
  {"kind":"PersistentVolumeClaim","metadata":{"name":"bound","namespace":"default",
   "annotations":{"pv.kubernetes.io/bind-completed":"yes"}},
   "spec":{"volumeName":"bound-pv","storageClassName":"std"}},
  {"kind":"PersistentVolumeClaim","metadata":{"name":"wait-a","namespace":"default","uid":"ua"},
   "spec":{"storageClassName":"local","accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}}}},
  {"kind":"PersistentVolumeClaim","metadata":{"name":"wait-b","namespace":"default","uid":"ub"},
   "spec":{"storageClassName":"local","accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}}}},
  {"kind":"PersistentVolumeClaim","metadata":{"name":"now","namespace":"default"},
   "spec":{"storageClassName":"std"}}
]})";

Pod WithClaims(std::initializer_list<const char*> claims) {
  std::string vols;
  int i = 0;
  for (const char* c : claims) {
    if (!vols.empty()) vols += ",";
    vols += R"({"name":"v)" + std::to_string(i++) + R"(","persistentVolumeClaim":{"claimName":")" +
            c + R"("}})";
  }
  return TestPod(
      R"({"kind":"Pod","metadata":{"name":"p","namespace":"default"},"spec":{"volumes":[)" + vols +
      "]}}");
}

struct Fixture {
  ClusterState cluster;
  testing::VolumeTestHandle handle{&cluster};
  std::unique_ptr<Plugin> plugin;
  explicit Fixture(config::SchedulerVersion version = config::SchedulerVersion::kV126,
                   const char* objects = kCluster, config::VolumeBindingArgs args = {},
                   bool storage_capacity_scoring = false, bool vac = true)
      : cluster(TestCluster(objects)) {
    if (version != config::SchedulerVersion::kV126) {
      handle.gates = config::DefaultFeatureGates(version);
      handle.gates.storage_capacity_scoring = storage_capacity_scoring;
      handle.gates.volume_attributes_class = vac;
    }
    Status error;
    plugin = NewVolumeBinding(args, &handle, &error);
  }
  PreScorePlugin* pre_score() { return dynamic_cast<PreScorePlugin*>(plugin.get()); }
  ScorePlugin* score() { return dynamic_cast<ScorePlugin*>(plugin.get()); }
  PreFilterPlugin* pre() { return dynamic_cast<PreFilterPlugin*>(plugin.get()); }
  FilterPlugin* filter() { return dynamic_cast<FilterPlugin*>(plugin.get()); }
  ReservePlugin* reserve() { return dynamic_cast<ReservePlugin*>(plugin.get()); }
  PlannedPreBindPlugin* pre_bind() { return dynamic_cast<PlannedPreBindPlugin*>(plugin.get()); }
  const NodeInfo& node(const char* name) { return cluster.node_info(cluster.FindNode(name)); }
};

TEST(VolumeBindingTest, PreFilterErrors) {
  Fixture f;
  CycleState state;
  PreFilterResult r;
  Status s = f.pre()->PreFilter(&state, WithClaims({"nope"}), &r);
  EXPECT_EQ(s.code(), Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(s.Message(), "persistentvolumeclaim \"nope\" not found");
  s = f.pre()->PreFilter(&state, WithClaims({"now"}), &r);
  EXPECT_EQ(s.code(), Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(s.Message(), "pod has unbound immediate PersistentVolumeClaims");
}

TEST(VolumeBindingTest, BoundClaimFollowsPvNodeAffinity) {
  Fixture f;
  CycleState state;
  PreFilterResult r;
  Pod pod = WithClaims({"bound"});
  ASSERT_TRUE(f.pre()->PreFilter(&state, pod, &r).IsSuccess());
  EXPECT_TRUE(f.filter()->Filter(state, pod, f.node("n3")).IsSuccess());
  Status s = f.filter()->Filter(state, pod, f.node("n1"));
  EXPECT_EQ(s.code(), Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(s.Message(), "node(s) had volume node affinity conflict");
}

TEST(VolumeBindingTest, DelayedClaimsNeedAvailablePvs) {
  Fixture f;
  CycleState state;
  PreFilterResult r;
  Pod pod = WithClaims({"wait-a", "wait-b"});
  ASSERT_TRUE(f.pre()->PreFilter(&state, pod, &r).IsSuccess());
  EXPECT_TRUE(f.filter()->Filter(state, pod, f.node("n1")).IsSuccess());
  // n2 has one PV for two claims; n3 none.
  EXPECT_EQ(f.filter()->Filter(state, pod, f.node("n2")).Message(),
            "node(s) didn't find available persistent volumes to bind");
  EXPECT_FALSE(f.filter()->Filter(state, pod, f.node("n3")).IsSuccess());
  // Reserve on n1 needs both PVs' resourceVersions: they have none.
  Status s = f.reserve()->Reserve(&state, pod, f.cluster.FindNode("n1"));
  EXPECT_TRUE(s.IsError());
  EXPECT_EQ(s.Message(),
            "error parsing ResourceVersion \"\" for v1.PersistentVolume \"small-1\": "
            "strconv.ParseInt: parsing \"\": invalid syntax");
  f.reserve()->Unreserve(&state, pod, f.cluster.FindNode("n1"));
}

// PreBind's plan after Reserve: the PV the claim was matched with gets the
// claim as claimRef (with the bound-by-controller annotation), under the
// resourceVersion the scheduler saw; Unreserve gives the PV back.
TEST(VolumeBindingTest, PlanPreBindWritesTheReservedBinding) {
  Fixture f;
  CycleState state;
  PreFilterResult r;
  Pod pod = WithClaims({"wait-a"});
  const NodeId n2 = f.cluster.FindNode("n2");
  ASSERT_TRUE(f.pre()->PreFilter(&state, pod, &r).IsSuccess());
  ASSERT_TRUE(f.filter()->Filter(state, pod, f.node("n2")).IsSuccess());
  ASSERT_TRUE(f.reserve()->Reserve(&state, pod, n2).IsSuccess());
  std::unique_ptr<PreBindJob> job;
  ASSERT_TRUE(f.pre_bind()->PlanPreBind(&state, pod, n2, &job).IsSuccess());
  auto* vb = dynamic_cast<volumebinding::VolumeBindingJob*>(job.get());
  ASSERT_NE(vb, nullptr);
  EXPECT_EQ(vb->pod_ns, "default");
  EXPECT_EQ(vb->pod_name, "p");
  EXPECT_EQ(vb->node_name, "n2");
  EXPECT_EQ(vb->timeout, std::chrono::seconds(600));
  ASSERT_EQ(vb->bindings.size(), 1u);
  const auto& b = vb->bindings[0];
  EXPECT_EQ(b.pv_name, "pv-2");
  EXPECT_EQ(b.pv_resource_version, "7");
  ASSERT_TRUE(b.claim_ref.has_value());
  EXPECT_EQ(b.claim_ref->ns, "default");
  EXPECT_EQ(b.claim_ref->name, "wait-a");
  EXPECT_EQ(b.claim_ref->uid, "ua");
  EXPECT_TRUE(b.bound_by_controller);
  EXPECT_TRUE(vb->provisionings.empty());

  // pv-2 is taken while reserved; free again after Unreserve.
  Pod other = WithClaims({"wait-b"});
  other.meta.name = "q";
  CycleState state2;
  ASSERT_TRUE(f.pre()->PreFilter(&state2, other, &r).IsSuccess());
  EXPECT_FALSE(f.filter()->Filter(state2, other, f.node("n2")).IsSuccess());
  f.reserve()->Unreserve(&state, pod, n2);
  CycleState state3;
  ASSERT_TRUE(f.pre()->PreFilter(&state3, other, &r).IsSuccess());
  EXPECT_TRUE(f.filter()->Filter(state3, other, f.node("n2")).IsSuccess());
}

TEST(VolumeBindingTest, PlanPreBindHasNothingToDoForBoundClaims) {
  Fixture f;
  CycleState state;
  PreFilterResult r;
  Pod pod = WithClaims({"bound"});
  const NodeId n3 = f.cluster.FindNode("n3");
  ASSERT_TRUE(f.pre()->PreFilter(&state, pod, &r).IsSuccess());
  ASSERT_TRUE(f.filter()->Filter(state, pod, f.node("n3")).IsSuccess());
  ASSERT_TRUE(f.reserve()->Reserve(&state, pod, n3).IsSuccess());
  std::unique_ptr<PreBindJob> job;
  ASSERT_TRUE(f.pre_bind()->PlanPreBind(&state, pod, n3, &job).IsSuccess());
  EXPECT_EQ(job, nullptr);
}

TEST(VolumeBindingTest, ScoreIsZeroWithoutCapacityPriority) {
  Fixture f;
  CycleState state;
  PreFilterResult r;
  Pod pod = WithClaims({"wait-a"});
  ASSERT_TRUE(f.pre()->PreFilter(&state, pod, &r).IsSuccess());
  ASSERT_TRUE(f.filter()->Filter(state, pod, f.node("n1")).IsSuccess());
  int64_t score = -1;
  ASSERT_TRUE(dynamic_cast<ScorePlugin*>(f.plugin.get())
                  ->Score(state, pod, f.node("n1"), &score)
                  .IsSuccess());
  EXPECT_EQ(score, 0);
}

// A driver that tracks capacity: a claim to provision fits where a
// CSIStorageCapacity of its class selects the node and holds the request
// (maximumVolumeSize before capacity), as upstream's hasEnoughCapacity.
TEST(VolumeBindingTest, ProvisioningFollowsCSIStorageCapacity) {
  ClusterState cluster = TestCluster(R"({"kind":"List","items":[
    {"kind":"Node","metadata":{"name":"n1","labels":{"zone":"a"}}},
    {"kind":"Node","metadata":{"name":"n2","labels":{"zone":"b"}}},
    {"kind":"Node","metadata":{"name":"n3","labels":{"zone":"c"}}},
    {"kind":"CSIDriver","metadata":{"name":"topo.csi"},"spec":{"storageCapacity":true}},
    {"kind":"StorageClass","metadata":{"name":"topo"},"provisioner":"topo.csi",
     "volumeBindingMode":"WaitForFirstConsumer"},
    {"kind":"CSIStorageCapacity","metadata":{"name":"a","namespace":"kube-system"},
     "storageClassName":"topo","capacity":"10Gi","nodeTopology":{"matchLabels":{"zone":"a"}}},
    {"kind":"CSIStorageCapacity","metadata":{"name":"b","namespace":"kube-system"},
     "storageClassName":"topo","capacity":"100Gi","maximumVolumeSize":"2Gi",
     "nodeTopology":{"matchLabels":{"zone":"b"}}},
    {"kind":"CSIStorageCapacity","metadata":{"name":"c","namespace":"kube-system"},
     "storageClassName":"other","capacity":"100Gi","nodeTopology":{"matchLabels":{"zone":"c"}}},
    {"kind":"PersistentVolumeClaim","metadata":{"name":"dyn","namespace":"default"},
     "spec":{"storageClassName":"topo","accessModes":["ReadWriteOnce"],
             "resources":{"requests":{"storage":"5Gi"}}}}
  ]})");
  testing::VolumeTestHandle handle{&cluster};
  Status error;
  std::unique_ptr<Plugin> plugin = NewVolumeBinding(config::VolumeBindingArgs{}, &handle, &error);
  ASSERT_TRUE(plugin);
  auto* pre = dynamic_cast<PreFilterPlugin*>(plugin.get());
  auto* filter = dynamic_cast<FilterPlugin*>(plugin.get());
  CycleState state;
  PreFilterResult r;
  Pod pod = WithClaims({"dyn"});
  ASSERT_TRUE(pre->PreFilter(&state, pod, &r).IsSuccess());
  auto node = [&](const char* name) -> const NodeInfo& {
    return cluster.node_info(cluster.FindNode(name));
  };
  EXPECT_TRUE(filter->Filter(state, pod, node("n1")).IsSuccess());
  EXPECT_EQ(filter->Filter(state, pod, node("n2")).Message(),
            "node(s) did not have enough free storage");  // 2Gi at most per volume
  EXPECT_EQ(filter->Filter(state, pod, node("n3")).Message(),
            "node(s) did not have enough free storage");  // another class's capacity
}

constexpr auto kV135 = config::SchedulerVersion::kV135;

TEST(VolumeBindingTest, NodeAffinityReasonByRelease) {
  for (auto version : {config::SchedulerVersion::kV126, kV135}) {
    Fixture f(version);
    CycleState state;
    PreFilterResult r;
    Pod pod = WithClaims({"bound"});
    ASSERT_TRUE(f.pre()->PreFilter(&state, pod, &r).IsSuccess());
    Status s = f.filter()->Filter(state, pod, f.node("n1"));
    EXPECT_EQ(s.code(), Code::kUnschedulableAndUnresolvable);
    EXPECT_EQ(s.Message(), version == kV135
                               ? "node(s) didn't match PersistentVolume's node affinity"
                               : "node(s) had volume node affinity conflict");
  }
}

// v1.35 skips Filter for a pod without claims (PreFilter's Skip) and never
// lists the plugin's score without StorageCapacityScoring (PreScore's Skip);
// v1.26 has no PreScore at all.
TEST(VolumeBindingTest, SkipsByRelease) {
  Pod none = TestPod(R"({"kind":"Pod","metadata":{"name":"p","namespace":"default"},
      "spec":{"volumes":[{"name":"x","emptyDir":{}}]}})");
  Pod claim = WithClaims({"wait-a"});
  PreFilterResult r;
  Fixture v126;
  CycleState s126;
  EXPECT_TRUE(v126.pre()->PreFilter(&s126, none, &r).IsSuccess());
  EXPECT_FALSE(v126.plugin->ExtendsPreScore());
  Fixture v135(kV135);
  CycleState s135;
  EXPECT_TRUE(v135.pre()->PreFilter(&s135, none, &r).IsSkip());
  ASSERT_TRUE(v135.pre()->PreFilter(&s135, claim, &r).IsSuccess());
  EXPECT_TRUE(v135.plugin->ExtendsPreScore());
  EXPECT_TRUE(v135.pre_score()->PreScore(&s135, claim, {}).IsSkip());
  Fixture gate(kV135, kCluster, {}, /*storage_capacity_scoring=*/true);
  CycleState sg;
  ASSERT_TRUE(gate.pre()->PreFilter(&sg, claim, &r).IsSuccess());
  EXPECT_TRUE(gate.pre_score()->PreScore(&sg, claim, {}).IsSuccess());
}

TEST(VolumeBindingTest, PlanPreBindErrorByRelease) {
  for (auto version : {config::SchedulerVersion::kV126, kV135}) {
    Fixture f(version);
    CycleState state;
    PreFilterResult r;
    Pod pod = WithClaims({"wait-a"});
    ASSERT_TRUE(f.pre()->PreFilter(&state, pod, &r).IsSuccess());
    std::unique_ptr<PreBindJob> job;
    Status s = f.pre_bind()->PlanPreBind(&state, pod, f.cluster.FindNode("n3"), &job);
    EXPECT_EQ(s.Message(), version == kV135 ? "no pod volume found for node \"n3\""
                                            : "no pod volumes found for node \"n3\"");
  }
}

// StorageCapacityScoring (v1.35, alpha): a node's static bindings scored by
// the shape (the v1.35 default shape, 10 at 0 % down to 0 at 100 %), else
// its dynamic provisions against the capacity that holds them.
const char* kCapacity = R"({"kind":"List","items":[
  {"kind":"Node","metadata":{"name":"n1","labels":{"kubernetes.io/hostname":"n1","zone":"a"}}},
  {"kind":"Node","metadata":{"name":"n2","labels":{"kubernetes.io/hostname":"n2","zone":"b"}}},
  {"kind":"Node","metadata":{"name":"n3","labels":{"kubernetes.io/hostname":"n3","zone":"c"}}},
  {"kind":"StorageClass","metadata":{"name":"local"},"provisioner":"kubernetes.io/no-provisioner",
   "volumeBindingMode":"WaitForFirstConsumer"},
  {"kind":"PersistentVolume","metadata":{"name":"pv-n1"},"spec":{"storageClassName":"local",
   "capacity":{"storage":"10Gi"},"accessModes":["ReadWriteOnce"],
   "nodeAffinity":{"required":{"nodeSelectorTerms":[{"matchExpressions":[
     {"key":"kubernetes.io/hostname","operator":"In","values":["n1"]}]}]}}},"status":{"phase":"Available"}},
  {"kind":"PersistentVolume","metadata":{"name":"pv-n2"},"spec":{"storageClassName":"local",
   "capacity":{"storage":"3Gi"},"accessModes":["ReadWriteOnce"],
   "nodeAffinity":{"required":{"nodeSelectorTerms":[{"matchExpressions":[
     {"key":"kubernetes.io/hostname","operator":"In","values":["n2"]}]}]}}},"status":{"phase":"Available"}},
  {"kind":"PersistentVolumeClaim","metadata":{"name":"c1","namespace":"default"},
   "spec":{"storageClassName":"local","accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}}}},
  {"kind":"CSIDriver","metadata":{"name":"topo.csi"},"spec":{"storageCapacity":true}},
  {"kind":"StorageClass","metadata":{"name":"topo"},"provisioner":"topo.csi",
   "volumeBindingMode":"WaitForFirstConsumer"},
  {"kind":"CSIStorageCapacity","metadata":{"name":"a","namespace":"kube-system"},
   "storageClassName":"topo","capacity":"4Gi","nodeTopology":{"matchLabels":{"zone":"a"}}},
  {"kind":"CSIStorageCapacity","metadata":{"name":"b","namespace":"kube-system"},
   "storageClassName":"topo","capacity":"40Gi","nodeTopology":{"matchLabels":{"zone":"b"}}},
  {"kind":"PersistentVolumeClaim","metadata":{"name":"dyn","namespace":"default"},
   "spec":{"storageClassName":"topo","accessModes":["ReadWriteOnce"],
           "resources":{"requests":{"storage":"2Gi"}}}}
]})";

TEST(VolumeBindingTest, StorageCapacityScoringInV135) {
  config::VolumeBindingArgs args;
  args.shape = {{0, 10}, {100, 0}};
  Fixture f(kV135, kCapacity, args, /*storage_capacity_scoring=*/true);
  auto scores = [&](const Pod& pod) {
    CycleState state;
    PreFilterResult r;
    EXPECT_TRUE(f.pre()->PreFilter(&state, pod, &r).IsSuccess());
    std::vector<int64_t> out;
    for (const char* n : {"n1", "n2", "n3"}) {
      int64_t score = -1;
      if (f.filter()->Filter(state, pod, f.node(n)).IsSuccess())
        EXPECT_TRUE(f.score()->Score(state, pod, f.node(n), &score).IsSuccess());
      out.push_back(score);
    }
    return out;
  };
  // Static: 1Gi of 10Gi -> 90, 1Gi of 3Gi (33 %) -> 67; n3 has no PV.
  EXPECT_EQ(scores(WithClaims({"c1"})), (std::vector<int64_t>{90, 67, -1}));
  // Dynamic: 2Gi of 4Gi -> 50, 2Gi of 40Gi -> 95; n3 has no capacity.
  EXPECT_EQ(scores(WithClaims({"dyn"})), (std::vector<int64_t>{50, 95, -1}));
  // Without the gate v1.35 scores nothing (and PreScore skips).
  Fixture off(kV135, kCapacity, args);
  CycleState state;
  PreFilterResult r;
  Pod pod = WithClaims({"c1"});
  ASSERT_TRUE(off.pre()->PreFilter(&state, pod, &r).IsSuccess());
  ASSERT_TRUE(off.filter()->Filter(state, pod, off.node("n1")).IsSuccess());
  int64_t score = -1;
  ASSERT_TRUE(off.score()->Score(state, pod, off.node("n1"), &score).IsSuccess());
  EXPECT_EQ(score, 0);
}

// volumeAttributesClassName: v1.26 does not look at it; v1.35 matches a
// claim only to PVs of its class (none equal to ""), and with the
// VolumeAttributesClass gate off refuses a claim naming one and passes over
// PVs naming one.
const char* kAttributes = R"({"kind":"List","items":[
  {"kind":"Node","metadata":{"name":"n1","labels":{"kubernetes.io/hostname":"n1"}}},
  {"kind":"StorageClass","metadata":{"name":"local"},"provisioner":"kubernetes.io/no-provisioner",
   "volumeBindingMode":"WaitForFirstConsumer"},
  {"kind":"PersistentVolume","metadata":{"name":"pv-gold"},"spec":{"storageClassName":"local",
   "volumeAttributesClassName":"gold","capacity":{"storage":"1Gi"},"accessModes":["ReadWriteOnce"]},
   "status":{"phase":"Available"}},
  {"kind":"PersistentVolumeClaim","metadata":{"name":"plain","namespace":"default"},
   "spec":{"storageClassName":"local","accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}}}},
  {"kind":"PersistentVolumeClaim","metadata":{"name":"gold","namespace":"default"},
   "spec":{"storageClassName":"local","volumeAttributesClassName":"gold","accessModes":["ReadWriteOnce"],
           "resources":{"requests":{"storage":"1Gi"}}}}
]})";

// v1.26's assume cache parses the resourceVersion (the PVs here have none);
// v1.35's passive one compares it with the API object's and takes them.
TEST(VolumeBindingTest, ReserveWithoutResourceVersionByRelease) {
  for (auto version : {config::SchedulerVersion::kV126, kV135}) {
    Fixture f(version);
    CycleState state;
    PreFilterResult r;
    Pod pod = WithClaims({"wait-a"});
    ASSERT_TRUE(f.pre()->PreFilter(&state, pod, &r).IsSuccess());
    ASSERT_TRUE(f.filter()->Filter(state, pod, f.node("n1")).IsSuccess());
    Status s = f.reserve()->Reserve(&state, pod, f.cluster.FindNode("n1"));
    if (version == kV135) {
      EXPECT_TRUE(s.IsSuccess()) << s.Message();
      // small-1 is taken until Unreserve.
      Pod other = WithClaims({"wait-b"});
      other.meta.name = "q";
      CycleState state2;
      ASSERT_TRUE(f.pre()->PreFilter(&state2, other, &r).IsSuccess());
      ASSERT_TRUE(f.filter()->Filter(state2, other, f.node("n1")).IsSuccess());  // big-1
      f.reserve()->Unreserve(&state, pod, f.cluster.FindNode("n1"));
    } else {
      EXPECT_EQ(s.Message(),
                "error parsing ResourceVersion \"\" for v1.PersistentVolume \"small-1\": "
                "strconv.ParseInt: parsing \"\": invalid syntax");
    }
  }
}

TEST(VolumeBindingTest, VolumeAttributesClassByRelease) {
  auto filter = [](Fixture& f, const char* claim) {
    CycleState state;
    PreFilterResult r;
    Pod pod = WithClaims({claim});
    EXPECT_TRUE(f.pre()->PreFilter(&state, pod, &r).IsSuccess());
    return f.filter()->Filter(state, pod, f.node("n1"));
  };
  const std::string no_pv = "node(s) didn't find available persistent volumes to bind";
  Fixture v126(config::SchedulerVersion::kV126, kAttributes);
  EXPECT_TRUE(filter(v126, "plain").IsSuccess());
  EXPECT_TRUE(filter(v126, "gold").IsSuccess());
  Fixture on(kV135, kAttributes);
  EXPECT_EQ(filter(on, "plain").Message(), no_pv);
  EXPECT_TRUE(filter(on, "gold").IsSuccess());
  Fixture off(kV135, kAttributes, {}, false, /*vac=*/false);
  EXPECT_EQ(filter(off, "plain").Message(), no_pv);
  Status s = filter(off, "gold");
  EXPECT_EQ(s.code(), Code::kError);
  EXPECT_EQ(s.Message(),
            "unsupported volumeAttributesClassName is set on claim default/gold when the "
            "feature-gate VolumeAttributesClass is disabled");
}

}  // namespace volume_binding_test
}  // namespace ksched::framework::plugins
