#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "explain/framework_test_util.h"

namespace ksched::explain {
namespace volume_claims_test {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::ScheduleAndExplainV126;

std::string PodWithClaim(const std::string& claim) {
  return R"({"kind":"Pod","metadata":{"name":"p","namespace":"default"},"spec":{
    "containers":[{"name":"c"}],"volumes":[{"name":"data","persistentVolumeClaim":{"claimName":")" +
         claim + R"("}}]}})";
}

TEST(ExplainVolumeClaims, ReadWriteOncePodNamesThePodUsingTheClaim) {
  const char* cluster = R"({"kind":"List","items":[
    {"kind":"Node","metadata":{"name":"n1"},"status":{"allocatable":{"pods":"10"}}},
    {"kind":"PersistentVolume","metadata":{"name":"pv1"},"spec":{"accessModes":["ReadWriteOncePod"],
      "csi":{"driver":"d","volumeHandle":"h1"}}},
    {"kind":"PersistentVolumeClaim","metadata":{"name":"solo","namespace":"default",
     "annotations":{"pv.kubernetes.io/bind-completed":"yes"}},
     "spec":{"volumeName":"pv1","accessModes":["ReadWriteOncePod"]}},
    {"kind":"Pod","metadata":{"name":"owner","namespace":"default"},"spec":{"nodeName":"n1",
      "containers":[{"name":"c"}],"volumes":[{"name":"v","persistentVolumeClaim":{"claimName":"solo"}}]}}]})";
  auto e = ScheduleAndExplainV126(cluster, PodWithClaim("solo"), "", "ReadWriteOncePod=true");
  EXPECT_EQ(e.pre_filter_plugin, "VolumeRestrictions");
  ASSERT_EQ(e.pre_filter_causes.size(), 1u);
  EXPECT_EQ(e.pre_filter_causes[0].message,
            "volume data: claim default/solo has access mode ReadWriteOncePod and is already used "
            "by default/owner (on n1); only one pod at a time may use it");
  EXPECT_THAT(e.pre_filter_causes[0].details["pods"].get<std::vector<std::string>>(),
              ElementsAre("default/owner (on n1)"));
}

TEST(ExplainVolumeClaims, MissingClaim) {
  const char* cluster = R"({"kind":"List","items":[
    {"kind":"Node","metadata":{"name":"n1"},"status":{"allocatable":{"pods":"10"}}}]})";
  auto e = ScheduleAndExplainV126(cluster, PodWithClaim("gone"));
  EXPECT_EQ(e.pre_filter_plugin, "VolumeBinding");
  EXPECT_EQ(e.pre_filter_msg, "persistentvolumeclaim \"gone\" not found");
  ASSERT_EQ(e.pre_filter_causes.size(), 1u);
  EXPECT_THAT(e.pre_filter_causes[0].message,
              HasSubstr("claim default/gone is not in the cluster"));
}

TEST(ExplainVolumeClaims, UnboundImmediateClaim) {
  const char* cluster = R"({"kind":"List","items":[
    {"kind":"Node","metadata":{"name":"n1"},"status":{"allocatable":{"pods":"10"}}},
    {"kind":"StorageClass","metadata":{"name":"fast"},"provisioner":"ebs.csi.aws.com"},
    {"kind":"PersistentVolumeClaim","metadata":{"name":"wait","namespace":"default"},
     "spec":{"storageClassName":"fast","resources":{"requests":{"storage":"1Gi"}}}}]})";
  auto e = ScheduleAndExplainV126(cluster, PodWithClaim("wait"));
  EXPECT_EQ(e.pre_filter_plugin, "VolumeBinding");
  EXPECT_EQ(e.pre_filter_msg, "pod has unbound immediate PersistentVolumeClaims");
  ASSERT_EQ(e.pre_filter_causes.size(), 1u);
  EXPECT_THAT(e.pre_filter_causes[0].message,
              HasSubstr("claim default/wait is not bound and its storageClass fast binds "
                        "immediately"));
}

TEST(ExplainVolumeClaims, ClaimWhoseBindingIsNotComplete) {
  const char* cluster = R"({"kind":"List","items":[
    {"kind":"Node","metadata":{"name":"n1"},"status":{"allocatable":{"pods":"10"}}},
    {"kind":"PersistentVolume","metadata":{"name":"pv1"},"spec":{"csi":{"driver":"d","volumeHandle":"h1"}}},
    {"kind":"PersistentVolumeClaim","metadata":{"name":"half","namespace":"default"},
     "spec":{"volumeName":"pv1"}}]})";
  auto e = ScheduleAndExplainV126(cluster, PodWithClaim("half"));
  EXPECT_EQ(e.pre_filter_msg, "pod has unbound immediate PersistentVolumeClaims");
  ASSERT_EQ(e.pre_filter_causes.size(), 1u);
  EXPECT_THAT(e.pre_filter_causes[0].message,
              HasSubstr("claim default/half names PersistentVolume pv1 but has no "
                        "pv.kubernetes.io/bind-completed annotation"));
}

TEST(ExplainVolumeClaims, ClaimBoundToAMissingVolume) {
  const char* cluster = R"({"kind":"List","items":[
    {"kind":"Node","metadata":{"name":"n1"},"status":{"allocatable":{"pods":"10"}}},
    {"kind":"PersistentVolumeClaim","metadata":{"name":"data","namespace":"default",
     "annotations":{"pv.kubernetes.io/bind-completed":"yes"}},
     "spec":{"volumeName":"pv-gone"},"status":{"phase":"Bound"}}]})";
  auto e = ScheduleAndExplainV126(cluster, PodWithClaim("data"));
  EXPECT_EQ(e.plugins["n1"], "VolumeBinding");
  EXPECT_THAT(e.reasons["n1"],
              ElementsAre("node(s) unavailable due to one or more pvc(s) bound to non-existent "
                          "pv(s)"));
  EXPECT_THAT(e.Messages("n1"),
              ElementsAre("volume data: claim default/data is bound to PersistentVolume pv-gone, "
                          "which is not in the cluster"));
}

// v1.35: the claim in use rejects every node (Filter, Unschedulable); each
// node's cause names the pod holding it.
TEST(ExplainVolumeClaims, ReadWriteOncePodOnEveryNodeInV135) {
  const char* cluster = R"({"kind":"List","items":[
    {"kind":"Node","metadata":{"name":"n1"},"status":{"allocatable":{"pods":"10"}}},
    {"kind":"Node","metadata":{"name":"n2"},"status":{"allocatable":{"pods":"10"}}},
    {"kind":"PersistentVolume","metadata":{"name":"pv1"},"spec":{"accessModes":["ReadWriteOncePod"],
      "csi":{"driver":"d","volumeHandle":"h1"}}},
    {"kind":"PersistentVolumeClaim","metadata":{"name":"solo","namespace":"default",
     "annotations":{"pv.kubernetes.io/bind-completed":"yes"}},
     "spec":{"volumeName":"pv1","accessModes":["ReadWriteOncePod"]}},
    {"kind":"Pod","metadata":{"name":"owner","namespace":"default"},"spec":{"nodeName":"n1",
      "containers":[{"name":"c"}],"volumes":[{"name":"v","persistentVolumeClaim":{"claimName":"solo"}}]}}]})";
  auto e = ScheduleAndExplainV126(cluster, PodWithClaim("solo"), "", "",
                                  config::SchedulerVersion::kV135);
  EXPECT_EQ(e.pre_filter_plugin, "");
  for (const char* n : {"n1", "n2"}) {
    EXPECT_EQ(e.plugins[n], "VolumeRestrictions");
    EXPECT_THAT(
        e.reasons[n],
        ElementsAre("node(s) unavailable due to PersistentVolumeClaim with ReadWriteOncePod "
                    "access mode already in-use by another pod"));
    EXPECT_THAT(e.Messages(n),
                ElementsAre("volume data: claim default/solo has access mode ReadWriteOncePod and "
                            "is already used by default/owner (on n1); only one pod at a time may "
                            "use it"));
  }
}

// v1.35's VolumeZone rejects a claim bound to a missing PV in PreFilter.
TEST(ExplainVolumeClaims, ClaimBoundToAMissingVolumeInV135PreFilter) {
  const char* cluster = R"({"kind":"List","items":[
    {"kind":"Node","metadata":{"name":"n1"},"status":{"allocatable":{"pods":"10"}}},
    {"kind":"PersistentVolumeClaim","metadata":{"name":"lost","namespace":"default",
     "annotations":{"pv.kubernetes.io/bind-completed":"yes"}},"spec":{"volumeName":"pv-gone"}}]})";
  auto e = ScheduleAndExplainV126(cluster, PodWithClaim("lost"), "", "",
                                  config::SchedulerVersion::kV135);
  EXPECT_EQ(e.pre_filter_plugin, "VolumeZone");
  EXPECT_EQ(e.pre_filter_msg, "persistentvolume \"pv-gone\" not found");
  ASSERT_EQ(e.pre_filter_causes.size(), 1u);
  EXPECT_EQ(e.pre_filter_causes[0].message,
            "volume data: claim default/lost is bound to PersistentVolume pv-gone, which is not in "
            "the cluster");
}

// v1.35's VolumeZone reads the node's GA label for a beta PV label.
TEST(ExplainVolumeClaims, VolumeZoneGAFallbackInV135) {
  const char* cluster = R"({"kind":"List","items":[
    {"kind":"Node","metadata":{"name":"n1","labels":{"topology.kubernetes.io/zone":"z2"}},
     "status":{"allocatable":{"pods":"10"}}},
    {"kind":"Node","metadata":{"name":"n2","labels":{"topology.kubernetes.io/zone":"z1"}},
     "status":{"allocatable":{"pods":"10"}}},
    {"kind":"PersistentVolume","metadata":{"name":"pv1",
      "labels":{"failure-domain.beta.kubernetes.io/zone":"z1"}},
     "spec":{"csi":{"driver":"d","volumeHandle":"h1"}}},
    {"kind":"PersistentVolumeClaim","metadata":{"name":"c","namespace":"default",
     "annotations":{"pv.kubernetes.io/bind-completed":"yes"}},"spec":{"volumeName":"pv1"}}]})";
  auto e =
      ScheduleAndExplainV126(cluster, PodWithClaim("c"), "", "", config::SchedulerVersion::kV135);
  EXPECT_EQ(e.chosen, "n2");
  EXPECT_EQ(e.plugins["n1"], "VolumeZone");
  EXPECT_THAT(e.Messages("n1"), ElementsAre("volume data (claim c): PersistentVolume pv1 has "
                                            "failure-domain.beta.kubernetes.io/zone=z1, node has "
                                            "topology.kubernetes.io/zone=z2"));
}

}  // namespace volume_claims_test
}  // namespace ksched::explain
