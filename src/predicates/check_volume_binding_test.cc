#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "predicates/check_test_helper.h"
#include "predicates/factories.h"
#include "tests/fixtures.h"

namespace ksched {
namespace check_volume_binding_test {

using ::testing::ElementsAre;
using testing::List;
using testing::RunCheck;
using testing::TestCluster;
using testing::TestPod;

constexpr char kNodeConflict[] = "node(s) had volume node affinity conflict";
constexpr char kBindConflict[] = "node(s) didn't find available persistent volumes to bind";
constexpr char kImmediate[] = "pod has unbound immediate PersistentVolumeClaims";

std::string Node(const std::string& name, const std::string& rack) {
  return R"({"kind":"Node","metadata":{"name":")" + name + R"(","labels":{"rack":")" + rack +
         R"("}}})";
}

// Required node affinity "rack In (racks...)" (a JSON array), or none if empty.
std::string RackAffinity(const std::string& racks) {
  if (racks.empty()) return "";
  return R"(,"nodeAffinity":{"required":{"nodeSelectorTerms":[{"matchExpressions":[)"
         R"({"key":"rack","operator":"In","values":)" +
         racks + "}]}]}}";
}

struct PvSpec {
  std::string name = "";
  std::string cls = "local";
  std::string size = "10Gi";
  std::string modes = R"(["ReadWriteOnce"])";
  std::string racks = "";  // JSON array for RackAffinity, "" for no affinity
  std::string phase = "Available";
  std::string claim_ref = "";  // JSON object, "" for none
  std::string labels = "{}";
  std::string extra_meta = "";  // e.g. deletionTimestamp
};

std::string Pv(const PvSpec& s) {
  std::string j = R"({"kind":"PersistentVolume","metadata":{"name":")" + s.name + R"(","labels":)" +
                  s.labels + s.extra_meta + R"(},"spec":{"capacity":{"storage":")" + s.size +
                  R"("},"accessModes":)" + s.modes + R"(,"storageClassName":")" + s.cls + "\"" +
                  RackAffinity(s.racks);
  if (!s.claim_ref.empty()) j += R"(,"claimRef":)" + s.claim_ref;
  j += R"(,"hostPath":{"path":"/x"}},"status":{"phase":")" + s.phase + R"("}})";
  return j;
}

struct PvcSpec {
  std::string name = "";
  std::string cls = "local";
  std::string size = "1Gi";
  std::string modes = R"(["ReadWriteOnce"])";
  std::string volume_name = "";
  bool bind_completed = false;
  std::string selected_node = "";
  std::string selector = "";  // JSON, "" for none
};

std::string Pvc(const PvcSpec& s) {
  std::string annotations = "{";
  if (s.bind_completed) annotations += R"("pv.kubernetes.io/bind-completed":"yes")";
  if (!s.selected_node.empty()) {
    if (s.bind_completed) annotations += ",";
    annotations += R"("volume.kubernetes.io/selected-node":")" + s.selected_node + "\"";
  }
  annotations += "}";
  std::string j = R"({"kind":"PersistentVolumeClaim","metadata":{"name":")" + s.name +
                  R"(","namespace":"default","uid":"uid-)" + s.name + R"(","annotations":)" +
                  annotations + R"(},"spec":{"accessModes":)" + s.modes +
                  R"(,"resources":{"requests":{"storage":")" + s.size + R"("}})";
  if (!s.cls.empty()) j += R"(,"storageClassName":")" + s.cls + "\"";
  if (!s.volume_name.empty()) j += R"(,"volumeName":")" + s.volume_name + "\"";
  if (!s.selector.empty()) j += R"(,"selector":)" + s.selector;
  return j + "}}";
}

std::string Class(const std::string& name, const std::string& mode,
                  const std::string& provisioner = "kubernetes.io/no-provisioner") {
  return R"({"kind":"StorageClass","apiVersion":"storage.k8s.io/v1","metadata":{"name":")" + name +
         R"("},"provisioner":")" + provisioner + R"(","volumeBindingMode":")" + mode + R"("})";
}

Pod PodWithClaims(const std::vector<std::string>& claims) {
  std::string vols;
  for (size_t i = 0; i < claims.size(); ++i) {
    if (i > 0) vols += ",";
    vols += R"({"name":"v)" + std::to_string(i) + R"(","persistentVolumeClaim":{"claimName":")" +
            claims[i] + R"("}})";
  }
  return TestPod(R"({"kind":"Pod","metadata":{"name":"p","namespace":"default"},)"
                 R"("spec":{"containers":[{"name":"c"}],"volumes":[)" +
                 vols + "]}}");
}

// Nodes r1 and r2 (rack label = name) and the usual classes, plus `items`.
ClusterState Cluster(std::vector<std::string> items) {
  items.push_back(Node("r1", "r1"));
  items.push_back(Node("r2", "r2"));
  items.push_back(Class("local", "WaitForFirstConsumer"));
  items.push_back(Class("standard", "Immediate", "kubernetes.io/gce-pd"));
  items.push_back(Class("dynamic", "WaitForFirstConsumer", "kubernetes.io/gce-pd"));
  return TestCluster(List(items));
}

TEST(CheckVolumeBinding, PodWithoutClaimsPasses) {
  ClusterState c = Cluster({});
  Pod pod =
      TestPod(R"({"kind":"Pod","metadata":{"name":"p","namespace":"default"},)"
              R"("spec":{"containers":[{"name":"c"}],"volumes":[{"name":"e","emptyDir":{}}]}})");
  EXPECT_TRUE(RunCheck(*NewCheckVolumeBinding(), pod, c, "r1").fits);
}

TEST(CheckVolumeBinding, BoundClaimNeedsPvNodeAffinity) {
  ClusterState c = Cluster({
      Pv({.name = "pv1", .cls = "standard", .racks = R"(["r1"])", .phase = "Bound"}),
      Pv({.name = "pv-any", .cls = "standard", .phase = "Bound"}),
      Pvc({.name = "bound", .cls = "standard", .volume_name = "pv1", .bind_completed = true}),
      Pvc({.name = "bound-any",
           .cls = "standard",
           .volume_name = "pv-any",
           .bind_completed = true}),
  });
  auto p = NewCheckVolumeBinding();
  EXPECT_TRUE(RunCheck(*p, PodWithClaims({"bound"}), c, "r1").fits);
  EXPECT_THAT(RunCheck(*p, PodWithClaims({"bound"}), c, "r2").reasons, ElementsAre(kNodeConflict));
  EXPECT_TRUE(RunCheck(*p, PodWithClaims({"bound-any"}), c, "r2").fits);
}

TEST(CheckVolumeBinding, PvMatchFieldsSeeNoNodeName) {
  // Upstream checks PV affinity against node labels only: metadata.name is ""
  // there, so "In (r1)" never matches and "NotIn (r1)" always does.
  auto pv = [](const std::string& name, const std::string& op) {
    return R"({"kind":"PersistentVolume","metadata":{"name":")" + name +
           R"("},"spec":{"storageClassName":"standard","nodeAffinity":{"required":{)"
           R"("nodeSelectorTerms":[{"matchFields":[{"key":"metadata.name","operator":")" +
           op + R"(","values":["r1"]}]}]}}},"status":{"phase":"Bound"}})";
  };
  ClusterState c = Cluster({
      pv("pv-in", "In"),
      pv("pv-notin", "NotIn"),
      Pvc({.name = "in", .cls = "standard", .volume_name = "pv-in", .bind_completed = true}),
      Pvc({.name = "notin", .cls = "standard", .volume_name = "pv-notin", .bind_completed = true}),
  });
  auto p = NewCheckVolumeBinding();
  EXPECT_THAT(RunCheck(*p, PodWithClaims({"in"}), c, "r1").reasons, ElementsAre(kNodeConflict));
  EXPECT_TRUE(RunCheck(*p, PodWithClaims({"notin"}), c, "r1").fits);
}

TEST(CheckVolumeBinding, ClaimWithoutBindCompletedIsImmediate) {
  ClusterState c = Cluster({
      Pv({.name = "pv1", .racks = R"(["r1"])", .phase = "Bound"}),
      // volumeName set but no bind-completed annotation, even with a
      // WaitForFirstConsumer class.
      Pvc({.name = "half", .volume_name = "pv1"}),
      Pvc({.name = "imm", .cls = "standard"}),
      Pvc({.name = "noclass", .cls = ""}),
      Pvc({.name = "unknownclass", .cls = "nope"}),
  });
  auto p = NewCheckVolumeBinding();
  for (const char* claim : {"half", "imm", "noclass", "unknownclass"}) {
    EXPECT_EQ(RunCheck(*p, PodWithClaims({claim}), c, "r1").error, kImmediate) << claim;
  }
}

TEST(CheckVolumeBinding, BoundClaimWithMissingPvIsAnError) {
  ClusterState c = Cluster({
      Pv({.name = "pv1", .cls = "standard", .racks = R"(["r9"])", .phase = "Bound"}),
      Pvc({.name = "gone", .cls = "standard", .volume_name = "nope", .bind_completed = true}),
      Pvc({.name = "nowhere", .cls = "standard", .volume_name = "pv1", .bind_completed = true}),
  });
  auto p = NewCheckVolumeBinding();
  EXPECT_EQ(RunCheck(*p, PodWithClaims({"gone"}), c, "r1").error,
            "could not find v1.PersistentVolume \"nope\"");
  // A bound PV before it that matches no node means no node gets that far.
  EXPECT_THAT(RunCheck(*p, PodWithClaims({"nowhere", "gone"}), c, "r1").reasons,
              ElementsAre(kNodeConflict));
}

TEST(CheckVolumeBinding, WaitForFirstConsumerMatchesAvailablePvs) {
  ClusterState c = Cluster({
      Pv({.name = "pv-r1", .racks = R"(["r1"])"}),
      Pvc({.name = "claim"}),
  });
  auto p = NewCheckVolumeBinding();
  EXPECT_TRUE(RunCheck(*p, PodWithClaims({"claim"}), c, "r1").fits);
  EXPECT_THAT(RunCheck(*p, PodWithClaims({"claim"}), c, "r2").reasons, ElementsAre(kBindConflict));
}

TEST(CheckVolumeBinding, StaticFiltersOnCandidatePvs) {
  // Each PV fails exactly one filter; only "ok" is usable, on r1.
  ClusterState c = Cluster({
      Pv({.name = "small", .size = "1Gi", .racks = R"(["r2"])"}),
      Pv({.name = "rox-only", .modes = R"(["ReadOnlyMany"])", .racks = R"(["r2"])"}),
      Pv({.name = "other-class", .cls = "standard", .racks = R"(["r2"])"}),
      Pv({.name = "released", .racks = R"(["r2"])", .phase = "Released"}),
      Pv({.name = "no-phase", .racks = R"(["r2"])", .phase = ""}),
      Pv({.name = "claimed",
          .racks = R"(["r2"])",
          .claim_ref = R"({"namespace":"default","name":"someone-else"})"}),
      Pv({.name = "deleting",
          .racks = R"(["r2"])",
          .extra_meta = R"(,"deletionTimestamp":"2020-01-01T00:00:00Z")"}),
      Pv({.name = "ok", .racks = R"(["r1"])"}),
      Pvc({.name = "claim", .size = "2Gi"}),
  });
  auto p = NewCheckVolumeBinding();
  EXPECT_THAT(RunCheck(*p, PodWithClaims({"claim"}), c, "r2").reasons, ElementsAre(kBindConflict));
  EXPECT_TRUE(RunCheck(*p, PodWithClaims({"claim"}), c, "r1").fits);
  // The PV's access modes must include all of the claim's; the capacity may
  // equal the request.
  ClusterState c2 = Cluster({
      Pv({.name = "ok",
          .modes = R"(["ReadWriteOnce","ReadOnlyMany","ReadWriteMany"])",
          .racks = R"(["r1"])"}),
      Pvc({.name = "claim", .size = "10Gi", .modes = R"(["ReadWriteOnce","ReadOnlyMany"])"}),
      Pvc({.name = "too-big", .size = "11Gi"}),
      Pvc({.name = "rwop", .modes = R"(["ReadWriteOnce","ReadWriteOncePod"])"}),
  });
  EXPECT_TRUE(RunCheck(*p, PodWithClaims({"claim"}), c2, "r1").fits);
  EXPECT_THAT(RunCheck(*p, PodWithClaims({"too-big"}), c2, "r1").reasons,
              ElementsAre(kBindConflict));
  EXPECT_THAT(RunCheck(*p, PodWithClaims({"rwop"}), c2, "r1").reasons, ElementsAre(kBindConflict));
}

TEST(CheckVolumeBinding, ClaimSelectorFiltersPvs) {
  ClusterState c = Cluster({
      Pv({.name = "fast", .racks = R"(["r1"])", .labels = R"({"tier":"fast"})"}),
      Pv({.name = "slow", .racks = R"(["r2"])", .labels = R"({"tier":"slow"})"}),
      Pvc({.name = "claim", .selector = R"({"matchLabels":{"tier":"fast"}})"}),
      Pvc({.name = "bad",
           .selector = R"({"matchExpressions":[{"key":"tier","operator":"Gt",)"
                       R"("values":["1"]}]})"}),
  });
  auto p = NewCheckVolumeBinding();
  EXPECT_TRUE(RunCheck(*p, PodWithClaims({"claim"}), c, "r1").fits);
  EXPECT_THAT(RunCheck(*p, PodWithClaims({"claim"}), c, "r2").reasons, ElementsAre(kBindConflict));
  EXPECT_THAT(RunCheck(*p, PodWithClaims({"bad"}), c, "r1").error,
              ::testing::StartsWith("error creating internal label selector for claim: "
                                    "default/bad: "));
}

TEST(CheckVolumeBinding, OnePvCannotServeTwoClaims) {
  ClusterState c = Cluster({
      Pv({.name = "only", .racks = R"(["r1","r2"])"}),
      Pv({.name = "second", .racks = R"(["r1"])"}),
      Pvc({.name = "a"}),
      Pvc({.name = "b"}),
  });
  auto p = NewCheckVolumeBinding();
  EXPECT_TRUE(RunCheck(*p, PodWithClaims({"a", "b"}), c, "r1").fits);
  EXPECT_THAT(RunCheck(*p, PodWithClaims({"a", "b"}), c, "r2").reasons, ElementsAre(kBindConflict));
  EXPECT_TRUE(RunCheck(*p, PodWithClaims({"a"}), c, "r2").fits);
}

TEST(CheckVolumeBinding, SmallestClaimPicksFirstAndTakesTheSmallestPv) {
  // "big" needs RWX, which only pv-5 has. Claims are matched smallest request
  // first, so "small" takes pv-5 (the smallest PV that fits it) and "big" is
  // left without a volume, even though the pod lists "big" first.
  ClusterState c = Cluster({
      Pv({.name = "pv-5",
          .size = "5Gi",
          .modes = R"(["ReadWriteOnce","ReadWriteMany"])",
          .racks = R"(["r1"])"}),
      Pv({.name = "pv-10", .size = "10Gi", .racks = R"(["r1"])"}),
      Pvc({.name = "big", .size = "5Gi", .modes = R"(["ReadWriteMany"])"}),
      Pvc({.name = "small", .size = "1Gi"}),
  });
  auto p = NewCheckVolumeBinding();
  EXPECT_THAT(RunCheck(*p, PodWithClaims({"big", "small"}), c, "r1").reasons,
              ElementsAre(kBindConflict));
  EXPECT_TRUE(RunCheck(*p, PodWithClaims({"big"}), c, "r1").fits);
}

TEST(CheckVolumeBinding, PreboundPvWinsOrBlocks) {
  const std::string ref = R"({"namespace":"default","name":"claim","uid":"uid-claim"})";
  ClusterState c = Cluster({
      // Pre-bound to the claim (its phase does not matter), but only on r2.
      Pv({.name = "prebound", .racks = R"(["r2"])", .phase = "Pending", .claim_ref = ref}),
      Pv({.name = "free", .racks = R"(["r1","r2"])"}),
      Pvc({.name = "claim"}),
  });
  auto p = NewCheckVolumeBinding();
  EXPECT_TRUE(RunCheck(*p, PodWithClaims({"claim"}), c, "r2").fits);
  // On r1 the pre-bound PV's affinity fails, and upstream then stops looking.
  EXPECT_THAT(RunCheck(*p, PodWithClaims({"claim"}), c, "r1").reasons, ElementsAre(kBindConflict));

  // A claimRef with another uid is someone else's; a too-small pre-bound PV is
  // skipped.
  ClusterState c2 = Cluster({
      Pv({.name = "stale",
          .racks = R"(["r2"])",
          .claim_ref = R"({"namespace":"default","name":"claim","uid":"old"})"}),
      Pv({.name = "tiny", .size = "1Mi", .racks = R"(["r2"])", .claim_ref = ref}),
      Pv({.name = "free", .racks = R"(["r1"])"}),
      Pvc({.name = "claim"}),
  });
  EXPECT_TRUE(RunCheck(*p, PodWithClaims({"claim"}), c2, "r1").fits);
  EXPECT_THAT(RunCheck(*p, PodWithClaims({"claim"}), c2, "r2").reasons, ElementsAre(kBindConflict));
}

TEST(CheckVolumeBinding, BothReasonsTogether) {
  ClusterState c = Cluster({
      Pv({.name = "pv-bound", .cls = "standard", .racks = R"(["r1"])", .phase = "Bound"}),
      Pv({.name = "pv-free", .racks = R"(["r1"])"}),
      Pvc({.name = "bound", .cls = "standard", .volume_name = "pv-bound", .bind_completed = true}),
      Pvc({.name = "unbound"}),
  });
  auto p = NewCheckVolumeBinding();
  EXPECT_TRUE(RunCheck(*p, PodWithClaims({"unbound", "bound"}), c, "r1").fits);
  EXPECT_THAT(RunCheck(*p, PodWithClaims({"unbound", "bound"}), c, "r2").reasons,
              ElementsAre(kNodeConflict, kBindConflict));
}

TEST(CheckVolumeBinding, DynamicProvisioningSatisfiesUnmatchedClaims) {
  ClusterState c = Cluster({
      Pvc({.name = "dyn", .cls = "dynamic"}),
      Pvc({.name = "local"}),
  });
  auto p = NewCheckVolumeBinding();
  EXPECT_TRUE(RunCheck(*p, PodWithClaims({"dyn"}), c, "r1").fits);
  // kubernetes.io/no-provisioner cannot provision.
  EXPECT_THAT(RunCheck(*p, PodWithClaims({"dyn", "local"}), c, "r1").reasons,
              ElementsAre(kBindConflict));
}

TEST(CheckVolumeBinding, SelectedNodeClaimsOnlyFitThatNode) {
  ClusterState c = Cluster({
      Pv({.name = "pv", .racks = R"(["r1","r2"])"}),
      Pvc({.name = "sel-dyn", .cls = "dynamic", .selected_node = "r1"}),
      Pvc({.name = "sel-local", .selected_node = "r1"}),
      Pvc({.name = "sel-gone", .cls = "dynamic", .selected_node = "nope"}),
      Pvc({.name = "sel-r2", .cls = "dynamic", .selected_node = "r2"}),
  });
  auto p = NewCheckVolumeBinding();
  EXPECT_TRUE(RunCheck(*p, PodWithClaims({"sel-dyn"}), c, "r1").fits);
  EXPECT_THAT(RunCheck(*p, PodWithClaims({"sel-dyn"}), c, "r2").reasons,
              ElementsAre(kBindConflict));
  // It goes to provisioning even though a PV would match.
  EXPECT_THAT(RunCheck(*p, PodWithClaims({"sel-local"}), c, "r1").reasons,
              ElementsAre(kBindConflict));
  EXPECT_THAT(RunCheck(*p, PodWithClaims({"sel-gone"}), c, "r1").reasons,
              ElementsAre(kBindConflict));
  EXPECT_THAT(RunCheck(*p, PodWithClaims({"sel-dyn", "sel-r2"}), c, "r1").reasons,
              ElementsAre(kBindConflict));
}

TEST(CheckVolumeBinding, BetaClassAnnotationDecidesClassButNotTheListing) {
  // The binder lists PVs by spec.storageClassName, then compares the
  // annotation-first classes of claim and PV.
  ClusterState c = Cluster({
      R"({"kind":"PersistentVolumeClaim","metadata":{"name":"claim","namespace":"default",)"
      R"("annotations":{"volume.beta.kubernetes.io/storage-class":"local"}},)"
      R"("spec":{"accessModes":["ReadWriteOnce"],"storageClassName":"local",)"
      R"("resources":{"requests":{"storage":"1Gi"}}}})",
      R"({"kind":"PersistentVolume","metadata":{"name":"pv-anno",)"
      R"("annotations":{"volume.beta.kubernetes.io/storage-class":"other"}},)"
      R"("spec":{"capacity":{"storage":"1Gi"},"accessModes":["ReadWriteOnce"],)"
      R"("storageClassName":"local"},"status":{"phase":"Available"}})",
  });
  auto p = NewCheckVolumeBinding();
  EXPECT_THAT(RunCheck(*p, PodWithClaims({"claim"}), c, "r1").reasons, ElementsAre(kBindConflict));
}

}  // namespace check_volume_binding_test
}  // namespace ksched
