#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "predicates/check_test_helper.h"
#include "predicates/factories.h"
#include "tests/fixtures.h"

namespace ksched {
namespace csi_volume_count_test {

using ::testing::ElementsAre;
using testing::List;
using testing::RunCheck;
using testing::TestCluster;
using testing::TestPod;

constexpr char kReason[] = "node(s) exceed max volume count";
constexpr char kEbsKey[] = "attachable-volumes-csi-ebs.csi.aws.com";

std::string Node(const std::string& name, const std::string& allocatable) {
  return R"({"kind":"Node","metadata":{"name":")" + name + R"("},"status":{"allocatable":)" +
         allocatable + "}}";
}

std::string PodWith(const std::string& name, const std::vector<std::string>& claims,
                    const std::string& node = "") {
  std::string vols;
  for (size_t i = 0; i < claims.size(); ++i) {
    if (i > 0) vols += ",";
    vols += R"({"name":"v)" + std::to_string(i) + R"(","persistentVolumeClaim":{"claimName":")" +
            claims[i] + R"("}})";
  }
  std::string s =
      R"({"kind":"Pod","metadata":{"name":")" + name + R"(","namespace":"default"},"spec":{)";
  if (!node.empty()) s += R"("nodeName":")" + node + R"(",)";
  return s + R"("containers":[{"name":"c"}],"volumes":[)" + vols + "]}}";
}

std::string CsiPv(const std::string& name, const std::string& driver, const std::string& handle) {
  return R"({"kind":"PersistentVolume","metadata":{"name":")" + name +
         R"("},"spec":{"csi":{"driver":")" + driver + R"(","volumeHandle":")" + handle + R"("}}})";
}
std::string Pvc(const std::string& name, const std::string& volume_name,
                const std::string& cls = "") {
  std::string s = R"({"kind":"PersistentVolumeClaim","metadata":{"name":")" + name +
                  R"(","namespace":"default"},"spec":{"volumeName":")" + volume_name + "\"";
  if (!cls.empty()) s += R"(,"storageClassName":")" + cls + "\"";
  return s + "}}";
}
std::string Class(const std::string& name, const std::string& provisioner) {
  return R"({"kind":"StorageClass","apiVersion":"storage.k8s.io/v1","metadata":{"name":")" + name +
         R"("},"provisioner":")" + provisioner + R"("})";
}

// Claims c0..c4 bound to EBS CSI PVs with handles h0..h4, one claim on a GCE
// CSI driver, and assorted unresolvable claims.
std::vector<std::string> Storage() {
  std::vector<std::string> v;
  for (int i = 0; i < 5; ++i) {
    std::string s = std::to_string(i);
    v.push_back(CsiPv("pv" + s, "ebs.csi.aws.com", "h" + s));
    v.push_back(Pvc("c" + s, "pv" + s, "csi-sc"));
  }
  v.push_back(CsiPv("pv-gce", "pd.csi.storage.gke.io", "g0"));
  v.push_back(Pvc("cg", "pv-gce"));
  v.push_back(Class("csi-sc", "ebs.csi.aws.com"));
  v.push_back(Class("no-prov", ""));
  v.push_back(Pvc("unbound", "", "csi-sc"));
  v.push_back(Pvc("unbound2", "", "csi-sc"));
  v.push_back(Pvc("dangling", "no-such-pv", "csi-sc"));
  v.push_back(Pvc("unbound-noclass", ""));
  v.push_back(Pvc("unbound-unknown", "", "nope"));
  v.push_back(Pvc("unbound-noprov", "", "no-prov"));
  v.push_back(R"({"kind":"PersistentVolume","metadata":{"name":"pv-ebs"},)"
              R"("spec":{"awsElasticBlockStore":{"volumeID":"vol-1"}}})");
  v.push_back(Pvc("intree", "pv-ebs", "csi-sc"));
  return v;
}

ClusterState Cluster(std::vector<std::string> extra) {
  std::vector<std::string> items = Storage();
  items.insert(items.end(), extra.begin(), extra.end());
  return TestCluster(List(items));
}

TEST(MaxCSIVolumeCount, LimitPerDriverFromAllocatable) {
  ClusterState c = Cluster(
      {Node("n", std::string(R"({")") + kEbsKey + R"(":"2"})"), PodWith("old", {"c0", "c1"}, "n")});
  auto p = NewMaxCSIVolumeCount();
  EXPECT_THAT(RunCheck(*p, TestPod(PodWith("new", {"c2"})), c, "n").reasons, ElementsAre(kReason));
  // Already attached volumes are not new.
  EXPECT_TRUE(RunCheck(*p, TestPod(PodWith("new", {"c1", "c0"})), c, "n").fits);
  // Another driver has no limit on this node.
  EXPECT_TRUE(RunCheck(*p, TestPod(PodWith("new", {"cg"})), c, "n").fits);
  // In-tree PVs do not count here.
  EXPECT_TRUE(RunCheck(*p, TestPod(PodWith("new", {"intree"})), c, "n").fits);
}

TEST(MaxCSIVolumeCount, NoLimitsMeansNoCheck) {
  ClusterState c = Cluster(
      {Node("none", "{}"), Node("ebs-only", R"({"attachable-volumes-aws-ebs":"0"})"),
       PodWith("a", {"c0", "c1", "c2"}, "none"), PodWith("b", {"c0", "c1", "c2"}, "ebs-only")});
  auto p = NewMaxCSIVolumeCount();
  Pod pod = TestPod(PodWith("new", {"c3", "c4"}));
  EXPECT_TRUE(RunCheck(*p, pod, c, "none").fits);
  EXPECT_TRUE(RunCheck(*p, pod, c, "ebs-only").fits);
}

TEST(MaxCSIVolumeCount, NewVolumesAloneCanExceed) {
  ClusterState c = Cluster({Node("n", std::string(R"({")") + kEbsKey + R"(":"1"})")});
  auto p = NewMaxCSIVolumeCount();
  EXPECT_TRUE(RunCheck(*p, TestPod(PodWith("new", {"c0"})), c, "n").fits);
  EXPECT_THAT(RunCheck(*p, TestPod(PodWith("new", {"c0", "c1"})), c, "n").reasons,
              ElementsAre(kReason));
  // The same claim twice is one volume.
  EXPECT_TRUE(RunCheck(*p, TestPod(PodWith("new", {"c0", "c0"})), c, "n").fits);
}

TEST(MaxCSIVolumeCount, UnboundClaimsCountThroughTheirClass) {
  ClusterState c = Cluster(
      {Node("n", std::string(R"({")") + kEbsKey + R"(":"2"})"), PodWith("old", {"c0"}, "n")});
  auto p = NewMaxCSIVolumeCount();
  // Unbound and dangling claims of class csi-sc count for its provisioner.
  EXPECT_TRUE(RunCheck(*p, TestPod(PodWith("new", {"unbound"})), c, "n").fits);
  EXPECT_THAT(RunCheck(*p, TestPod(PodWith("new", {"unbound", "dangling"})), c, "n").reasons,
              ElementsAre(kReason));
  EXPECT_THAT(RunCheck(*p, TestPod(PodWith("new", {"unbound", "unbound2"})), c, "n").reasons,
              ElementsAre(kReason));
  // Without a usable class they are ignored.
  EXPECT_TRUE(RunCheck(*p,
                       TestPod(PodWith(
                           "new", {"c1", "unbound-noclass", "unbound-unknown", "unbound-noprov"})),
                       c, "n")
                  .fits);
}

TEST(MaxCSIVolumeCount, ExistingUnresolvableClaims) {
  ClusterState c = Cluster({Node("n", std::string(R"({")") + kEbsKey + R"(":"2"})"),
                            // "missing" has no PVC object: ignored. "unbound"
                            // counts through its class.
                            PodWith("old", {"missing", "unbound"}, "n")});
  auto p = NewMaxCSIVolumeCount();
  EXPECT_TRUE(RunCheck(*p, TestPod(PodWith("new", {"c0"})), c, "n").fits);
  EXPECT_TRUE(RunCheck(*p, TestPod(PodWith("new", {"c0", "unbound"})), c, "n").fits);
  EXPECT_THAT(RunCheck(*p, TestPod(PodWith("new", {"c0", "c1"})), c, "n").reasons,
              ElementsAre(kReason));
}

TEST(MaxCSIVolumeCount, DriversAreCountedSeparately) {
  ClusterState c =
      Cluster({Node("n", std::string(R"({")") + kEbsKey +
                             R"(":"1","attachable-volumes-csi-pd.csi.storage.gke.io":"1"})"),
               PodWith("old", {"c0"}, "n")});
  auto p = NewMaxCSIVolumeCount();
  EXPECT_TRUE(RunCheck(*p, TestPod(PodWith("new", {"cg"})), c, "n").fits);
  EXPECT_THAT(RunCheck(*p, TestPod(PodWith("new", {"cg", "c1"})), c, "n").reasons,
              ElementsAre(kReason));
}

TEST(MaxCSIVolumeCount, PodWithoutClaimsPasses) {
  ClusterState c = Cluster(
      {Node("n", std::string(R"({")") + kEbsKey + R"(":"0"})"), PodWith("old", {"c0", "c1"}, "n")});
  auto p = NewMaxCSIVolumeCount();
  EXPECT_TRUE(RunCheck(*p, TestPod(PodWith("new", {})), c, "n").fits);
  EXPECT_THAT(RunCheck(*p, TestPod(PodWith("new", {"c2"})), c, "n").reasons, ElementsAre(kReason));
}

}  // namespace csi_volume_count_test
}  // namespace ksched
