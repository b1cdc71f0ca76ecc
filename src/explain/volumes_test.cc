#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "explain/explain_test_util.h"

namespace ksched::explain {
namespace volumes_test {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::List;
using testing::ScheduleAndExplain;

std::string PodWithVolumes(const std::string& name, const std::string& volumes,
                           const std::string& node) {
  std::string s =
      R"({"kind":"Pod","metadata":{"name":")" + name + R"(","namespace":"default"},"spec":{)";
  if (!node.empty()) s += R"("nodeName":")" + node + R"(",)";
  return s + R"("volumes":)" + volumes + R"(,"containers":[{"name":"c"}]}})";
}

TEST(ExplainVolumes, DiskConflictNamesTheVolumeAndThePod) {
  const char* node =
      R"({"kind":"Node","metadata":{"name":"n1"},"status":{"allocatable":{"pods":"10"}}})";
  const std::string disk = R"([{"name":"data","gcePersistentDisk":{"pdName":"pd-1"}}])";
  auto e = ScheduleAndExplain(List({node, PodWithVolumes("old", disk, "n1")}),
                              PodWithVolumes("new", disk, ""));
  EXPECT_THAT(e.reasons["n1"], ElementsAre("node(s) had no available disk"));
  EXPECT_THAT(e.Messages("n1"), ElementsAre("volume data (GCE PD pd-1) is already mounted by "
                                            "default/old (only read-only mounts can share it)"));
}

TEST(ExplainVolumes, VolumeCountNamesTheLimit) {
  const char* node = R"({"kind":"Node","metadata":{"name":"n1"},"status":{"allocatable":{
      "attachable-volumes-gce-pd":"2","pods":"10"}}})";
  auto e = ScheduleAndExplain(
      List({node, PodWithVolumes("old",
                                 R"([{"name":"a","gcePersistentDisk":{"pdName":"pd-a"}},
                                     {"name":"b","gcePersistentDisk":{"pdName":"pd-b"}}])",
                                 "n1")}),
      PodWithVolumes("new", R"([{"name":"c","gcePersistentDisk":{"pdName":"pd-c"}}])", ""));
  EXPECT_THAT(e.reasons["n1"], ElementsAre("node(s) exceed max volume count"));
  EXPECT_THAT(e.Messages("n1"),
              ElementsAre("GCE PD volumes: the node allows 2 (allocatable "
                          "attachable-volumes-gce-pd), its pods use 2, the pod adds 1"));
  EXPECT_EQ(e.causes["n1"][0].details["limit"], 2);
}

TEST(ExplainVolumes, CsiVolumeCountNamesTheDriversLimit) {
  const char* node = R"({"kind":"Node","metadata":{"name":"n1"},"status":{"allocatable":{
      "attachable-volumes-csi-ebs.csi.aws.com":"1","pods":"10"}}})";
  auto pv = [](const std::string& name) {
    return R"({"kind":"PersistentVolume","metadata":{"name":")" + name +
           R"("},"spec":{"capacity":{"storage":"1Gi"},"csi":{"driver":"ebs.csi.aws.com",
           "volumeHandle":")" +
           name + R"("}},"status":{"phase":"Bound"}})";
  };
  auto pvc = [](const std::string& name, const std::string& volume) {
    return R"({"kind":"PersistentVolumeClaim","metadata":{"name":")" + name +
           R"(","namespace":"default","annotations":{"pv.kubernetes.io/bind-completed":"yes"}},
           "spec":{"volumeName":")" +
           volume + R"("},"status":{"phase":"Bound"}})";
  };
  auto e = ScheduleAndExplain(
      List({node, pv("vol-a"), pv("vol-b"), pvc("a", "vol-a"), pvc("b", "vol-b"),
            PodWithVolumes("old", R"([{"name":"d","persistentVolumeClaim":{"claimName":"a"}}])",
                           "n1")}),
      PodWithVolumes("new", R"([{"name":"d","persistentVolumeClaim":{"claimName":"b"}}])", ""));
  EXPECT_THAT(e.reasons["n1"], ElementsAre("node(s) exceed max volume count"));
  EXPECT_THAT(e.Messages("n1"),
              ElementsAre("CSI driver ebs.csi.aws.com volumes: the node allows 1 (allocatable "
                          "attachable-volumes-csi-ebs.csi.aws.com), its pods use 1, the pod "
                          "adds 1"));
}

TEST(ExplainVolumes, ZoneConflictNamesThePersistentVolume) {
  const char* node = R"({"kind":"Node","metadata":{"name":"n1","labels":{
      "failure-domain.beta.kubernetes.io/zone":"us-1a"}},"status":{"allocatable":{"pods":"10"}}})";
  const char* pv = R"({"kind":"PersistentVolume","metadata":{"name":"pv-1","labels":{
      "failure-domain.beta.kubernetes.io/zone":"us-1b"}},"spec":{"capacity":{"storage":"1Gi"},
      "gcePersistentDisk":{"pdName":"pv-1"}},"status":{"phase":"Bound"}})";
  const char* pvc = R"({"kind":"PersistentVolumeClaim","metadata":{"name":"data",
      "namespace":"default","annotations":{"pv.kubernetes.io/bind-completed":"yes"}},
      "spec":{"volumeName":"pv-1","storageClassName":"standard"}})";
  auto e = ScheduleAndExplain(
      List({node, pv, pvc}),
      PodWithVolumes("new", R"([{"name":"d","persistentVolumeClaim":{"claimName":"data"}}])", ""));
  EXPECT_THAT(e.reasons["n1"], ElementsAre("node(s) had no available volume zone"));
  EXPECT_THAT(e.Messages("n1"),
              ElementsAre("volume d (claim data): PersistentVolume pv-1 has "
                          "failure-domain.beta.kubernetes.io/zone=us-1b, node has "
                          "failure-domain.beta.kubernetes.io/zone=us-1a"));
}

TEST(ExplainVolumes, VolumeNodeAffinityConflictNamesTheRequirement) {
  const char* node =
      R"({"kind":"Node","metadata":{"name":"n1","labels":{"rack":"r1"}},"status":{"allocatable":{"pods":"10"}}})";
  const char* pv = R"({"kind":"PersistentVolume","metadata":{"name":"local-1"},"spec":{
      "capacity":{"storage":"1Gi"},"local":{"path":"/mnt"},"storageClassName":"local",
      "nodeAffinity":{"required":{"nodeSelectorTerms":[{"matchExpressions":[
        {"key":"rack","operator":"In","values":["r2"]}]}]}},
      "claimRef":{"namespace":"default","name":"data"}},"status":{"phase":"Bound"}})";
  const char* pvc = R"({"kind":"PersistentVolumeClaim","metadata":{"name":"data",
      "namespace":"default","annotations":{"pv.kubernetes.io/bind-completed":"yes"}},
      "spec":{"volumeName":"local-1","storageClassName":"local"},"status":{"phase":"Bound"}})";
  auto e = ScheduleAndExplain(
      List({node, pv, pvc}),
      PodWithVolumes("new", R"([{"name":"d","persistentVolumeClaim":{"claimName":"data"}}])", ""));
  EXPECT_THAT(e.reasons["n1"], ElementsAre("node(s) had volume node affinity conflict"));
  ASSERT_EQ(e.causes["n1"].size(), 1u);
  EXPECT_THAT(e.causes["n1"][0].message,
              HasSubstr("PersistentVolume local-1 requires nodes matching rack In (r2) "
                        "[node has rack=r1]"));
}

TEST(ExplainVolumes, NoVolumeToBindNamesTheClaim) {
  const char* node = R"({"kind":"Node","metadata":{"name":"n1"},
      "status":{"allocatable":{"pods":"10"}}})";
  const char* sc = R"({"kind":"StorageClass","apiVersion":"storage.k8s.io/v1",
      "metadata":{"name":"local"},"provisioner":"kubernetes.io/no-provisioner",
      "volumeBindingMode":"WaitForFirstConsumer"})";
  const char* pvc = R"({"kind":"PersistentVolumeClaim","metadata":{"name":"data",
      "namespace":"default"},"spec":{"storageClassName":"local",
      "resources":{"requests":{"storage":"5Gi"}}}})";
  auto e = ScheduleAndExplain(
      List({node, sc, pvc}),
      PodWithVolumes("new", R"([{"name":"d","persistentVolumeClaim":{"claimName":"data"}}])", ""));
  EXPECT_THAT(e.reasons["n1"],
              ElementsAre("node(s) didn't find available persistent volumes to bind"));
  EXPECT_THAT(e.Messages("n1"),
              ElementsAre("volume d: claim default/data (storageClass local, requests 5Gi) has no "
                          "Available PersistentVolume this node can use (matching class, size, "
                          "access modes and node affinity)"));
}

}  // namespace volumes_test
}  // namespace ksched::explain
