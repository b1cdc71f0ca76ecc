#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "predicates/check_test_helper.h"
#include "predicates/factories.h"
#include "tests/fixtures.h"

namespace ksched {
namespace no_volume_zone_conflict_test {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::List;
using testing::RunCheck;
using testing::TestCluster;
using testing::TestPod;

constexpr char kReason[] = "node(s) had no available volume zone";
constexpr char kZone[] = "failure-domain.beta.kubernetes.io/zone";
constexpr char kRegion[] = "failure-domain.beta.kubernetes.io/region";

std::string Node(const std::string& name, const std::string& labels) {
  return R"({"kind":"Node","metadata":{"name":")" + name + R"(","labels":)" + labels + "}}";
}

std::string Pv(const std::string& name, const std::string& labels) {
  return R"({"kind":"PersistentVolume","metadata":{"name":")" + name + R"(","labels":)" + labels +
         R"(},"spec":{"capacity":{"storage":"1Gi"},"gcePersistentDisk":{"pdName":")" + name +
         R"("}},"status":{"phase":"Bound"}})";
}

std::string BoundPvc(const std::string& name, const std::string& pv) {
  return R"({"kind":"PersistentVolumeClaim","metadata":{"name":")" + name +
         R"(","namespace":"default","annotations":{"pv.kubernetes.io/bind-completed":"yes"}},)"
         R"("spec":{"volumeName":")" +
         pv + R"(","storageClassName":"standard"}})";
}

std::string UnboundPvc(const std::string& name, const std::string& cls) {
  std::string s = R"({"kind":"PersistentVolumeClaim","metadata":{"name":")" + name +
                  R"(","namespace":"default"},"spec":{)";
  if (!cls.empty()) s += R"("storageClassName":")" + cls + R"(")";
  return s + "}}";
}

std::string Class(const std::string& name, const std::string& mode) {
  return R"({"kind":"StorageClass","apiVersion":"storage.k8s.io/v1","metadata":{"name":")" + name +
         R"("},"provisioner":"kubernetes.io/no-provisioner","volumeBindingMode":")" + mode +
         R"("})";
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

std::string Labels2(const std::string& zone, const std::string& region) {
  std::string s = "{";
  if (!zone.empty()) s += std::string("\"") + kZone + R"(":")" + zone + "\"";
  if (!region.empty()) {
    if (!zone.empty()) s += ",";
    s += std::string("\"") + kRegion + R"(":")" + region + "\"";
  }
  return s + "}";
}

TEST(NoVolumeZoneConflict, ZoneAndRegionMustMatch) {
  ClusterState c = TestCluster(List({
      Node("a", Labels2("us-east1-b", "us-east1")),
      Node("b", Labels2("us-east1-c", "us-east1")),
      Node("c", Labels2("us-east1-b", "us-west1")),
      Pv("pv1", Labels2("us-east1-b", "us-east1")),
      BoundPvc("claim", "pv1"),
  }));
  auto p = NewNoVolumeZoneConflict();
  Pod pod = PodWithClaims({"claim"});
  EXPECT_TRUE(RunCheck(*p, pod, c, "a").fits);
  EXPECT_THAT(RunCheck(*p, pod, c, "b").reasons, ElementsAre(kReason));
  EXPECT_THAT(RunCheck(*p, pod, c, "c").reasons, ElementsAre(kReason));
}

TEST(NoVolumeZoneConflict, MultiZoneLabel) {
  ClusterState c = TestCluster(List({
      Node("b", Labels2("us-east1-b", "")),
      Node("c", Labels2("us-east1-c", "")),
      Node("d", Labels2("us-east1-d", "")),
      Pv("pv1", Labels2("us-east1-b__us-east1-c", "")),
      BoundPvc("claim", "pv1"),
  }));
  auto p = NewNoVolumeZoneConflict();
  Pod pod = PodWithClaims({"claim"});
  EXPECT_TRUE(RunCheck(*p, pod, c, "b").fits);
  EXPECT_TRUE(RunCheck(*p, pod, c, "c").fits);
  EXPECT_THAT(RunCheck(*p, pod, c, "d").reasons, ElementsAre(kReason));
}

TEST(NoVolumeZoneConflict, UnparsableLabelIsIgnored) {
  ClusterState c = TestCluster(List({
      Node("b", Labels2("us-east1-b", "")),
      Pv("pv1", Labels2("us-east1-x____us-east1-y", "")),
      BoundPvc("claim", "pv1"),
  }));
  EXPECT_TRUE(RunCheck(*NewNoVolumeZoneConflict(), PodWithClaims({"claim"}), c, "b").fits);
}

TEST(NoVolumeZoneConflict, NodeWithoutZoneLabelsAlwaysPasses) {
  ClusterState c = TestCluster(List({
      Node("plain", R"({"kubernetes.io/hostname":"plain"})"),
      Node("region-only", Labels2("", "us-east1")),
      Pv("pv1", Labels2("us-east1-b", "us-east1")),
      BoundPvc("claim", "pv1"),
  }));
  auto p = NewNoVolumeZoneConflict();
  Pod pod = PodWithClaims({"claim"});
  EXPECT_TRUE(RunCheck(*p, pod, c, "plain").fits);
  // With only a region label the node's zone counts as "", which no PV zone
  // set contains.
  EXPECT_THAT(RunCheck(*p, pod, c, "region-only").reasons, ElementsAre(kReason));
}

TEST(NoVolumeZoneConflict, PvWithoutZoneLabelsAndNonClaimVolumesPass) {
  ClusterState c = TestCluster(List({
      Node("a", Labels2("us-east1-b", "us-east1")),
      Pv("pv1", R"({"other":"x"})"),
      BoundPvc("claim", "pv1"),
  }));
  auto p = NewNoVolumeZoneConflict();
  EXPECT_TRUE(RunCheck(*p, PodWithClaims({"claim"}), c, "a").fits);
  Pod inline_pod = TestPod(R"({"kind":"Pod","metadata":{"name":"p","namespace":"default"},)"
                           R"("spec":{"containers":[{"name":"c"}],"volumes":[{"name":"g",)"
                           R"("gcePersistentDisk":{"pdName":"x"}}]}})");
  EXPECT_TRUE(RunCheck(*p, inline_pod, c, "a").fits);
}

TEST(NoVolumeZoneConflict, EveryClaimCounts) {
  ClusterState c = TestCluster(List({
      Node("a", Labels2("us-east1-b", "")),
      Pv("pv1", Labels2("us-east1-b", "")),
      Pv("pv2", Labels2("us-east1-c", "")),
      BoundPvc("c1", "pv1"),
      BoundPvc("c2", "pv2"),
  }));
  auto p = NewNoVolumeZoneConflict();
  EXPECT_TRUE(RunCheck(*p, PodWithClaims({"c1"}), c, "a").fits);
  EXPECT_THAT(RunCheck(*p, PodWithClaims({"c1", "c2"}), c, "a").reasons, ElementsAre(kReason));
}

TEST(NoVolumeZoneConflict, UnboundWaitForFirstConsumerClaimIsSkipped) {
  ClusterState c = TestCluster(List({
      Node("a", Labels2("us-east1-b", "")),
      Class("local", "WaitForFirstConsumer"),
      UnboundPvc("claim", "local"),
  }));
  EXPECT_TRUE(RunCheck(*NewNoVolumeZoneConflict(), PodWithClaims({"claim"}), c, "a").fits);
}

TEST(NoVolumeZoneConflict, UnresolvableClaimsAreErrors) {
  ClusterState c = TestCluster(List({
      Node("a", Labels2("us-east1-b", "")),
      Class("standard", "Immediate"),
      UnboundPvc("immediate", "standard"),
      UnboundPvc("noclass", ""),
      UnboundPvc("unknownclass", "nope"),
      BoundPvc("dangling", "missing-pv"),
  }));
  auto p = NewNoVolumeZoneConflict();
  EXPECT_EQ(RunCheck(*p, PodWithClaims({"immediate"}), c, "a").error,
            "PersistentVolumeClaim was not found: \"immediate\"");
  EXPECT_EQ(RunCheck(*p, PodWithClaims({"noclass"}), c, "a").error,
            "PersistentVolumeClaim was not found: \"noclass\"");
  EXPECT_EQ(RunCheck(*p, PodWithClaims({"unknownclass"}), c, "a").error,
            "PersistentVolumeClaim was not found: \"unknownclass\"");
  EXPECT_EQ(RunCheck(*p, PodWithClaims({"dangling"}), c, "a").error,
            "persistentvolume \"missing-pv\" not found");
  EXPECT_THAT(RunCheck(*p, PodWithClaims({"absent"}), c, "a").error, HasSubstr("not found"));
}

TEST(NoVolumeZoneConflict, UnresolvableClaimIsNoErrorWhenNoNodeReachesIt) {
  // No node has zone labels: upstream takes its fast path everywhere.
  ClusterState plain = TestCluster(List({
      Node("a", R"({"x":"y"})"),
      UnboundPvc("noclass", ""),
  }));
  auto p = NewNoVolumeZoneConflict();
  EXPECT_TRUE(RunCheck(*p, PodWithClaims({"noclass"}), plain, "a").fits);

  // Every zoned node already conflicts on an earlier claim.
  ClusterState zoned = TestCluster(List({
      Node("a", Labels2("us-east1-b", "")),
      Node("p", R"({"x":"y"})"),
      Pv("pv1", Labels2("us-east1-c", "")),
      BoundPvc("c1", "pv1"),
      UnboundPvc("noclass", ""),
  }));
  EXPECT_THAT(RunCheck(*p, PodWithClaims({"c1", "noclass"}), zoned, "a").reasons,
              ElementsAre(kReason));
  EXPECT_TRUE(RunCheck(*p, PodWithClaims({"c1", "noclass"}), zoned, "p").fits);
  // In the other order the error comes first.
  EXPECT_EQ(RunCheck(*p, PodWithClaims({"noclass", "c1"}), zoned, "a").error,
            "PersistentVolumeClaim was not found: \"noclass\"");
}

}  // namespace no_volume_zone_conflict_test
}  // namespace ksched
