#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "predicates/check_test_helper.h"
#include "predicates/factories.h"
#include "tests/fixtures.h"

namespace ksched {
namespace max_pd_volume_count_test {

using ::testing::ElementsAre;
using testing::List;
using testing::RunCheck;
using testing::TestCluster;
using testing::TestPod;

constexpr char kReason[] = "node(s) exceed max volume count";

std::string Node(const std::string& name, const std::string& labels = "{}",
                 const std::string& allocatable = "{}") {
  return R"({"kind":"Node","metadata":{"name":")" + name + R"(","labels":)" + labels +
         R"(},"status":{"allocatable":)" + allocatable + "}}";
}

std::string PodWith(const std::string& name, const std::vector<std::string>& volumes,
                    const std::string& node = "", const std::string& ns = "default") {
  std::string vols;
  for (size_t i = 0; i < volumes.size(); ++i) {
    if (i > 0) vols += ",";
    vols += volumes[i];
  }
  std::string s =
      R"({"kind":"Pod","metadata":{"name":")" + name + R"(","namespace":")" + ns + R"("},"spec":{)";
  if (!node.empty()) s += R"("nodeName":")" + node + R"(",)";
  return s + R"("containers":[{"name":"c"}],"volumes":[)" + vols + "]}}";
}

std::string Ebs(const std::string& id) {
  return R"({"name":"e","awsElasticBlockStore":{"volumeID":")" + id + R"("}})";
}
std::string Gce(const std::string& id) {
  return R"({"name":"g","gcePersistentDisk":{"pdName":")" + id + R"("}})";
}
std::string Azure(const std::string& id) {
  return R"({"name":"a","azureDisk":{"diskName":")" + id + R"(","diskURI":"u"}})";
}
std::string Cinder(const std::string& id) {
  return R"({"name":"o","cinder":{"volumeID":")" + id + R"("}})";
}
std::string Claim(const std::string& name) {
  return R"({"name":"p","persistentVolumeClaim":{"claimName":")" + name + R"("}})";
}

std::vector<std::string> EbsVolumes(int n, const std::string& prefix = "vol-") {
  std::vector<std::string> v;
  for (int i = 0; i < n; ++i) v.push_back(Ebs(prefix + std::to_string(i)));
  return v;
}

std::string EbsPv(const std::string& name, const std::string& id) {
  return R"({"kind":"PersistentVolume","metadata":{"name":")" + name +
         R"("},"spec":{"awsElasticBlockStore":{"volumeID":")" + id + R"("}}})";
}
std::string GcePv(const std::string& name, const std::string& id) {
  return R"({"kind":"PersistentVolume","metadata":{"name":")" + name +
         R"("},"spec":{"gcePersistentDisk":{"pdName":")" + id + R"("}}})";
}
std::string Pvc(const std::string& name, const std::string& volume_name,
                const std::string& ns = "default") {
  return R"({"kind":"PersistentVolumeClaim","metadata":{"name":")" + name + R"(","namespace":")" +
         ns + R"("},"spec":{"volumeName":")" + volume_name + R"("}})";
}

TEST(MaxEBSVolumeCount, DefaultLimitIs39) {
  ClusterState c = TestCluster(List({Node("n38"), Node("n39"), PodWith("a", EbsVolumes(38), "n38"),
                                     PodWith("b", EbsVolumes(39), "n39")}));
  auto p = NewMaxEBSVolumeCount();
  Pod pod = TestPod(PodWith("new", {Ebs("fresh")}));
  EXPECT_TRUE(RunCheck(*p, pod, c, "n38").fits);
  EXPECT_THAT(RunCheck(*p, pod, c, "n39").reasons, ElementsAre(kReason));
  // A volume the node already has is not new.
  EXPECT_TRUE(RunCheck(*p, TestPod(PodWith("new", {Ebs("vol-3")})), c, "n39").fits);
}

TEST(MaxEBSVolumeCount, NitroInstanceTypesDefaultTo25) {
  ClusterState c = TestCluster(List({
      Node("m5", R"({"beta.kubernetes.io/instance-type":"m5.large"})"),
      Node("t3", R"({"beta.kubernetes.io/instance-type":"t3.small"})"),
      Node("m4", R"({"beta.kubernetes.io/instance-type":"m4.large"})"),
      PodWith("a", EbsVolumes(25), "m5"),
      PodWith("b", EbsVolumes(24), "t3"),
      PodWith("c", EbsVolumes(25), "m4"),
  }));
  auto p = NewMaxEBSVolumeCount();
  Pod pod = TestPod(PodWith("new", {Ebs("fresh")}));
  EXPECT_THAT(RunCheck(*p, pod, c, "m5").reasons, ElementsAre(kReason));
  EXPECT_TRUE(RunCheck(*p, pod, c, "t3").fits);
  EXPECT_TRUE(RunCheck(*p, pod, c, "m4").fits);
}

TEST(MaxEBSVolumeCount, AllocatableOverridesDefaults) {
  ClusterState c = TestCluster(List({
      Node("two", R"({"beta.kubernetes.io/instance-type":"m5.large"})",
           R"({"attachable-volumes-aws-ebs":"2"})"),
      Node("fifty", R"({"beta.kubernetes.io/instance-type":"m5.large"})",
           R"({"attachable-volumes-aws-ebs":"50"})"),
      Node("zero", "{}", R"({"attachable-volumes-aws-ebs":"0"})"),
      Node("other-key", "{}", R"({"attachable-volumes-gce-pd":"1"})"),
      PodWith("a", EbsVolumes(1), "two"),
      PodWith("b", EbsVolumes(40), "fifty"),
      PodWith("c", EbsVolumes(1), "other-key"),
  }));
  auto p = NewMaxEBSVolumeCount();
  EXPECT_TRUE(RunCheck(*p, TestPod(PodWith("new", {Ebs("x")})), c, "two").fits);
  EXPECT_THAT(RunCheck(*p, TestPod(PodWith("new", {Ebs("x"), Ebs("y")})), c, "two").reasons,
              ElementsAre(kReason));
  EXPECT_TRUE(RunCheck(*p, TestPod(PodWith("new", {Ebs("x")})), c, "fifty").fits);
  EXPECT_THAT(RunCheck(*p, TestPod(PodWith("new", {Ebs("x")})), c, "zero").reasons,
              ElementsAre(kReason));
  // The GCE key does not limit EBS volumes.
  EXPECT_TRUE(RunCheck(*p, TestPod(PodWith("new", {Ebs("x"), Ebs("y")})), c, "other-key").fits);
}

TEST(MaxEBSVolumeCount, CountsUniqueIdsAcrossPods) {
  ClusterState c = TestCluster(List({
      Node("n", "{}", R"({"attachable-volumes-aws-ebs":"3"})"),
      PodWith("a", {Ebs("v1"), Ebs("v2")}, "n"),
      PodWith("b", {Ebs("v2"), Ebs("v1")}, "n"),  // same two volumes
  }));
  auto p = NewMaxEBSVolumeCount();
  EXPECT_TRUE(RunCheck(*p, TestPod(PodWith("new", {Ebs("v3"), Ebs("v1")})), c, "n").fits);
  // The pod's own duplicates count once too.
  EXPECT_TRUE(RunCheck(*p, TestPod(PodWith("new", {Ebs("v3"), Ebs("v3")})), c, "n").fits);
  EXPECT_THAT(RunCheck(*p, TestPod(PodWith("new", {Ebs("v3"), Ebs("v4")})), c, "n").reasons,
              ElementsAre(kReason));
}

TEST(MaxEBSVolumeCount, PodWithoutEbsVolumesPassesAnOverfullNode) {
  ClusterState c = TestCluster(List({
      Node("n", "{}", R"({"attachable-volumes-aws-ebs":"1"})"),
      PodWith("a", EbsVolumes(5), "n"),
  }));
  auto p = NewMaxEBSVolumeCount();
  EXPECT_TRUE(RunCheck(*p, TestPod(PodWith("new", {})), c, "n").fits);
  EXPECT_TRUE(RunCheck(*p, TestPod(PodWith("new", {Gce("g")})), c, "n").fits);
  // Re-using a volume already there adds nothing, but the node is over its
  // limit already: existing + 0 > 1 still fails.
  EXPECT_THAT(RunCheck(*p, TestPod(PodWith("new", {Ebs("vol-0")})), c, "n").reasons,
              ElementsAre(kReason));
}

TEST(MaxEBSVolumeCount, ClaimsResolveToTheirPv) {
  ClusterState c = TestCluster(List({
      Node("n", "{}", R"({"attachable-volumes-aws-ebs":"2"})"),
      EbsPv("pv-a", "vol-a"),
      EbsPv("pv-b", "vol-b"),
      GcePv("pv-g", "disk-g"),
      Pvc("ca", "pv-a"),
      Pvc("cb", "pv-b"),
      Pvc("cg", "pv-g"),
      PodWith("old", {Ebs("vol-a"), Claim("cb")}, "n"),
  }));
  auto p = NewMaxEBSVolumeCount();
  // The claim's PV is the in-line volume already on the node.
  EXPECT_TRUE(RunCheck(*p, TestPod(PodWith("new", {Claim("ca")})), c, "n").fits);
  EXPECT_TRUE(RunCheck(*p, TestPod(PodWith("new", {Claim("cb"), Ebs("vol-b")})), c, "n").fits);
  // A GCE PV is not an EBS volume.
  EXPECT_TRUE(RunCheck(*p, TestPod(PodWith("new", {Claim("cg")})), c, "n").fits);
  EXPECT_THAT(RunCheck(*p, TestPod(PodWith("new", {Ebs("vol-c")})), c, "n").reasons,
              ElementsAre(kReason));
}

TEST(MaxVolumeCount, UnresolvableClaimsCountAgainstEveryType) {
  ClusterState c = TestCluster(List({
      Node("n", "{}",
           R"({"attachable-volumes-aws-ebs":"1","attachable-volumes-gce-pd":"1",)"
           R"("attachable-volumes-azure-disk":"1","attachable-volumes-cinder":"1"})"),
      Node("empty", "{}", R"({"attachable-volumes-aws-ebs":"1","attachable-volumes-gce-pd":"1"})"),
      Pvc("unbound", ""),
      Pvc("dangling", "no-such-pv"),
      // "missing" has no PVC object at all (only an existing pod can have that).
      PodWith("old", {Claim("missing")}, "n"),
  }));
  for (auto& p : {NewMaxEBSVolumeCount(), NewMaxGCEPDVolumeCount(), NewMaxAzureDiskVolumeCount(),
                  NewMaxCinderVolumeCount()}) {
    // The node's one slot is taken by the unresolvable claim of "old".
    EXPECT_THAT(RunCheck(*p, TestPod(PodWith("new", {Claim("unbound")})), c, "n").reasons,
                ElementsAre(kReason));
    EXPECT_THAT(RunCheck(*p, TestPod(PodWith("new", {Claim("dangling")})), c, "n").reasons,
                ElementsAre(kReason));
  }
  auto ebs = NewMaxEBSVolumeCount();
  // The same claim (same namespace and name) is one volume.
  EXPECT_TRUE(RunCheck(*ebs, TestPod(PodWith("new", {Claim("missing")})), c, "n").fits);
  // One unresolvable claim fits an empty node with limit 1, two do not.
  EXPECT_TRUE(RunCheck(*ebs, TestPod(PodWith("new", {Claim("unbound")})), c, "empty").fits);
  EXPECT_THAT(
      RunCheck(*ebs, TestPod(PodWith("new", {Claim("unbound"), Claim("dangling")})), c, "empty")
          .reasons,
      ElementsAre(kReason));
}

TEST(MaxVolumeCount, UnresolvableClaimsAreKeyedByNamespace) {
  ClusterState c = TestCluster(List({
      Node("n", "{}", R"({"attachable-volumes-aws-ebs":"1"})"),
      PodWith("old", {Claim("missing")}, "n", "other"),
  }));
  auto ebs = NewMaxEBSVolumeCount();
  EXPECT_TRUE(
      RunCheck(*ebs, TestPod(PodWith("new", {Claim("missing")}, "", "other")), c, "n").fits);
  EXPECT_THAT(RunCheck(*ebs, TestPod(PodWith("new", {Claim("missing")})), c, "n").reasons,
              ElementsAre(kReason));
}

TEST(MaxVolumeCount, OtherTypesDefaults) {
  std::vector<std::string> gce, azure, cinder;
  for (int i = 0; i < 16; ++i) {
    gce.push_back(Gce("g" + std::to_string(i)));
    azure.push_back(Azure("a" + std::to_string(i)));
  }
  for (int i = 0; i < 256; ++i) cinder.push_back(Cinder("c" + std::to_string(i)));
  ClusterState c = TestCluster(List({
      Node("g16"),
      Node("a16"),
      Node("c256"),
      Node("g15"),
      PodWith("g", gce, "g16"),
      PodWith("a", azure, "a16"),
      PodWith("c", cinder, "c256"),
      PodWith("g15", std::vector<std::string>(gce.begin(), gce.end() - 1), "g15"),
  }));
  EXPECT_THAT(
      RunCheck(*NewMaxGCEPDVolumeCount(), TestPod(PodWith("new", {Gce("x")})), c, "g16").reasons,
      ElementsAre(kReason));
  EXPECT_TRUE(
      RunCheck(*NewMaxGCEPDVolumeCount(), TestPod(PodWith("new", {Gce("x")})), c, "g15").fits);
  EXPECT_THAT(
      RunCheck(*NewMaxAzureDiskVolumeCount(), TestPod(PodWith("new", {Azure("x")})), c, "a16")
          .reasons,
      ElementsAre(kReason));
  EXPECT_THAT(
      RunCheck(*NewMaxCinderVolumeCount(), TestPod(PodWith("new", {Cinder("x")})), c, "c256")
          .reasons,
      ElementsAre(kReason));
  // Each counts only its own type.
  EXPECT_TRUE(
      RunCheck(*NewMaxEBSVolumeCount(), TestPod(PodWith("new", {Ebs("x")})), c, "c256").fits);
  EXPECT_TRUE(
      RunCheck(*NewMaxGCEPDVolumeCount(), TestPod(PodWith("new", {Gce("x")})), c, "a16").fits);
}

TEST(MaxVolumeCount, AllocatableOverrideForGce) {
  ClusterState c = TestCluster(List({
      Node("n", "{}", R"({"attachable-volumes-gce-pd":"20"})"),
      PodWith(
          "g",
          [] {
            std::vector<std::string> v;
            for (int i = 0; i < 19; ++i) v.push_back(Gce("g" + std::to_string(i)));
            return v;
          }(),
          "n"),
  }));
  auto p = NewMaxGCEPDVolumeCount();
  EXPECT_TRUE(RunCheck(*p, TestPod(PodWith("new", {Gce("x")})), c, "n").fits);
  EXPECT_THAT(RunCheck(*p, TestPod(PodWith("new", {Gce("x"), Gce("y")})), c, "n").reasons,
              ElementsAre(kReason));
}

}  // namespace max_pd_volume_count_test
}  // namespace ksched
