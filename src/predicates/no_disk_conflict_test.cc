#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "predicates/check_test_helper.h"
#include "predicates/factories.h"
#include "tests/fixtures.h"

namespace ksched {
namespace no_disk_conflict_test {

using ::testing::ElementsAre;
using testing::List;
using testing::RunCheck;
using testing::TestCluster;
using testing::TestPod;

constexpr char kReason[] = "node(s) had no available disk";

std::string Node(const std::string& name) {
  return R"({"kind":"Node","metadata":{"name":")" + name + R"("}})";
}

// A pod with the given volumes (a JSON array), on `node` when non-empty.
std::string PodWith(const std::string& name, const std::string& volumes,
                    const std::string& node = "") {
  std::string s =
      R"({"kind":"Pod","metadata":{"name":")" + name + R"(","namespace":"default"},"spec":{)";
  if (!node.empty()) s += R"("nodeName":")" + node + R"(",)";
  return s + R"("containers":[{"name":"c"}],"volumes":)" + volumes + "}}";
}

std::string Gce(const std::string& pd, bool ro) {
  return R"({"name":"v","gcePersistentDisk":{"pdName":")" + pd + R"(","readOnly":)" +
         (ro ? "true" : "false") + "}}";
}
std::string Ebs(const std::string& id, bool ro) {
  return R"({"name":"v","awsElasticBlockStore":{"volumeID":")" + id + R"(","readOnly":)" +
         (ro ? "true" : "false") + "}}";
}
std::string Rbd(const std::string& monitors, const std::string& pool, const std::string& image,
                bool ro) {
  return R"({"name":"v","rbd":{"monitors":)" + monitors + R"(,"pool":")" + pool + R"(","image":")" +
         image + R"(","readOnly":)" + (ro ? "true" : "false") + "}}";
}
std::string Iscsi(const std::string& portal, const std::string& iqn, int lun, bool ro) {
  return R"({"name":"v","iscsi":{"targetPortal":")" + portal + R"(","iqn":")" + iqn +
         R"(","lun":)" + std::to_string(lun) + R"(,"readOnly":)" + (ro ? "true" : "false") + "}}";
}

// Runs NoDiskConflict for a pod with volume `mine` against a node whose only
// pod has volume `theirs`. The pod is run twice: alone, and padded with 20
// unrelated disks of every checked kind, which makes the predicate index the
// pod's volumes; both must give the same outcome.
testing::CheckOutcome RunPair(const std::string& mine, const std::string& theirs) {
  ClusterState c = TestCluster(List({Node("n1"), PodWith("old", "[" + theirs + "]", "n1")}));
  testing::CheckOutcome plain =
      RunCheck(*NewNoDiskConflict(), TestPod(PodWith("new", "[" + mine + "]")), c, "n1");
  std::string padded = "[";
  for (int i = 0; i < 5; ++i) {
    std::string n = "pad" + std::to_string(i);
    padded += Gce(n, false) + "," + Ebs(n, false) + "," +
              Rbd(R"(["10.9.9.9:6789"])", "kube", n, false) + "," +
              Iscsi("10.9.9.9:3260", "iqn." + n, 0, false) + ",";
  }
  padded += mine + "]";
  testing::CheckOutcome indexed =
      RunCheck(*NewNoDiskConflict(), TestPod(PodWith("new", padded)), c, "n1");
  EXPECT_EQ(indexed.fits, plain.fits) << mine << " vs " << theirs;
  EXPECT_EQ(indexed.reasons, plain.reasons) << mine << " vs " << theirs;
  return plain;
}

TEST(NoDiskConflict, GcePdConflictsUnlessBothReadOnly) {
  EXPECT_THAT(RunPair(Gce("d1", false), Gce("d1", false)).reasons, ElementsAre(kReason));
  EXPECT_THAT(RunPair(Gce("d1", true), Gce("d1", false)).reasons, ElementsAre(kReason));
  EXPECT_THAT(RunPair(Gce("d1", false), Gce("d1", true)).reasons, ElementsAre(kReason));
  EXPECT_TRUE(RunPair(Gce("d1", true), Gce("d1", true)).fits);
  EXPECT_TRUE(RunPair(Gce("d1", false), Gce("d2", false)).fits);
}

TEST(NoDiskConflict, EbsConflictsEvenReadOnly) {
  EXPECT_THAT(RunPair(Ebs("vol-1", true), Ebs("vol-1", true)).reasons, ElementsAre(kReason));
  EXPECT_THAT(RunPair(Ebs("vol-1", false), Ebs("vol-1", false)).reasons, ElementsAre(kReason));
  EXPECT_TRUE(RunPair(Ebs("vol-1", false), Ebs("vol-2", false)).fits);
}

TEST(NoDiskConflict, RbdNeedsMonitorOverlapPoolAndImage) {
  const std::string m12 = R"(["10.0.0.1:6789","10.0.0.2:6789"])";
  const std::string m2 = R"(["10.0.0.2:6789"])";
  const std::string m3 = R"(["10.0.0.3:6789"])";
  EXPECT_THAT(RunPair(Rbd(m12, "kube", "img", false), Rbd(m2, "kube", "img", false)).reasons,
              ElementsAre(kReason));
  EXPECT_THAT(RunPair(Rbd(m12, "kube", "img", true), Rbd(m12, "kube", "img", false)).reasons,
              ElementsAre(kReason));
  EXPECT_TRUE(RunPair(Rbd(m12, "kube", "img", true), Rbd(m2, "kube", "img", true)).fits);
  EXPECT_TRUE(RunPair(Rbd(m12, "kube", "img", false), Rbd(m3, "kube", "img", false)).fits);
  EXPECT_TRUE(RunPair(Rbd(m12, "kube", "img", false), Rbd(m12, "rbd", "img", false)).fits);
  EXPECT_TRUE(RunPair(Rbd(m12, "kube", "img", false), Rbd(m12, "kube", "img2", false)).fits);
}

TEST(NoDiskConflict, IscsiComparesOnlyTheIqn) {
  const std::string iqn = "iqn.2001-04.com.example:storage.disk0";
  EXPECT_THAT(
      RunPair(Iscsi("10.0.2.15:3260", iqn, 0, false), Iscsi("10.0.2.16:3260", iqn, 1, false))
          .reasons,
      ElementsAre(kReason));
  EXPECT_THAT(RunPair(Iscsi("10.0.2.15:3260", iqn, 0, false), Iscsi("10.0.2.15:3260", iqn, 0, true))
                  .reasons,
              ElementsAre(kReason));
  EXPECT_TRUE(
      RunPair(Iscsi("10.0.2.15:3260", iqn, 0, true), Iscsi("10.0.2.15:3260", iqn, 0, true)).fits);
  EXPECT_TRUE(
      RunPair(Iscsi("10.0.2.15:3260", iqn, 0, false), Iscsi("10.0.2.15:3260", iqn + "x", 0, false))
          .fits);
}

TEST(NoDiskConflict, DifferentKindsWithTheSameIdNeverConflict) {
  EXPECT_TRUE(RunPair(Gce("x", false), Ebs("x", false)).fits);
  EXPECT_TRUE(
      RunPair(Ebs("x", false), R"({"name":"v","azureDisk":{"diskName":"x","diskURI":"u"}})").fits);
}

TEST(NoDiskConflict, OtherNodesAndPodsWithoutVolumes) {
  ClusterState c = TestCluster(
      List({Node("n1"), Node("n2"), PodWith("old", "[" + Ebs("vol-1", false) + "]", "n1"),
            PodWith("other", "[]", "n2")}));
  auto p = NewNoDiskConflict();
  Pod pod = TestPod(PodWith("new", "[" + Ebs("vol-1", false) + "]"));
  EXPECT_THAT(RunCheck(*p, pod, c, "n1").reasons, ElementsAre(kReason));
  EXPECT_TRUE(RunCheck(*p, pod, c, "n2").fits);
  // A pod without disks fits anywhere.
  EXPECT_TRUE(
      RunCheck(*p, TestPod(PodWith("new", R"([{"name":"e","emptyDir":{}}])")), c, "n1").fits);
}

TEST(NoDiskConflict, OneReasonForSeveralConflicts) {
  ClusterState c = TestCluster(List(
      {Node("n1"), PodWith("a", "[" + Ebs("vol-1", false) + "," + Gce("d", false) + "]", "n1")}));
  auto r = RunCheck(
      *NewNoDiskConflict(),
      TestPod(PodWith("new", "[" + Ebs("vol-1", false) + "," + Gce("d", false) + "]")), c, "n1");
  EXPECT_THAT(r.reasons, ElementsAre(kReason));
}

}  // namespace no_disk_conflict_test
}  // namespace ksched
