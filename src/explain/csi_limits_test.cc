#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "explain/framework_test_util.h"

namespace ksched::explain {
namespace csi_limits_test {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::ScheduleAndExplainV126;

// n1's CSINode lets the EBS driver attach one volume; a pod there uses pv1.
const char* kCluster = R"({"kind":"List","items":[
  {"kind":"Node","metadata":{"name":"n1"},"status":{"allocatable":{"pods":"10"}}},
  {"kind":"CSINode","metadata":{"name":"n1"},
   "spec":{"drivers":[{"name":"ebs.csi.aws.com","nodeID":"i-1","allocatable":{"count":1}}]}},
  {"kind":"Pod","metadata":{"name":"old","namespace":"default"},"spec":{"nodeName":"n1",
    "containers":[{"name":"c"}],"volumes":[{"name":"a","persistentVolumeClaim":{"claimName":"c1"}}]}},
  {"kind":"PersistentVolume","metadata":{"name":"pv1"},"spec":{"csi":{"driver":"ebs.csi.aws.com","volumeHandle":"h1"}}},
  {"kind":"PersistentVolume","metadata":{"name":"pv2"},"spec":{"csi":{"driver":"ebs.csi.aws.com","volumeHandle":"h2"}}},
  {"kind":"PersistentVolumeClaim","metadata":{"name":"c1","namespace":"default","annotations":{"pv.kubernetes.io/bind-completed":"yes"}},"spec":{"volumeName":"pv1"}},
  {"kind":"PersistentVolumeClaim","metadata":{"name":"c2","namespace":"default","annotations":{"pv.kubernetes.io/bind-completed":"yes"}},"spec":{"volumeName":"pv2"}}
]})";

TEST(ExplainCsiLimits, DriverLimitFromCSINode) {
  auto e = ScheduleAndExplainV126(kCluster,
                                  R"({"kind":"Pod","metadata":{"name":"p","namespace":"default"},
    "spec":{"containers":[{"name":"c"}],"volumes":[{"name":"data","persistentVolumeClaim":{"claimName":"c2"}}]}})");
  EXPECT_EQ(e.plugins["n1"], "NodeVolumeLimits");
  EXPECT_THAT(e.reasons["n1"], ElementsAre("node(s) exceed max volume count"));
  EXPECT_THAT(e.Messages("n1"),
              ElementsAre("CSI driver ebs.csi.aws.com: the node attaches at most 1 of its volumes "
                          "(CSINode n1 drivers[ebs.csi.aws.com].allocatable.count); its pods "
                          "attach 1, the pod adds 1: data (claim default/c2, PV pv2)"));
  ASSERT_EQ(e.causes["n1"].size(), 1u);
  const Cause& c = e.causes["n1"][0];
  EXPECT_EQ(c.details["driver"], "ebs.csi.aws.com");
  EXPECT_EQ(c.details["limit"], 1);
  EXPECT_EQ(c.details["inUse"], 1);
  EXPECT_EQ(c.details["added"], 1);
}

// v1.35 counts an inline EBS volume as migrated on any node with a CSINode
// (no annotation needed) and reads the limit from the CSINode alone.
TEST(ExplainCsiLimits, InlineVolumeMigratedWithoutAnnotationInV135) {
  const char* cluster = R"({"kind":"List","items":[
    {"kind":"Node","metadata":{"name":"n1"},"status":{"allocatable":{"pods":"10"}}},
    {"kind":"CSINode","metadata":{"name":"n1"},
     "spec":{"drivers":[{"name":"ebs.csi.aws.com","nodeID":"i-1","allocatable":{"count":1}}]}},
    {"kind":"Pod","metadata":{"name":"old","namespace":"default"},"spec":{"nodeName":"n1",
      "containers":[{"name":"c"}],"volumes":[{"name":"a","awsElasticBlockStore":{"volumeID":"vol-1"}}]}}]})";
  const char* pod = R"({"kind":"Pod","metadata":{"name":"p","namespace":"default"},
    "spec":{"containers":[{"name":"c"}],"volumes":[{"name":"e","awsElasticBlockStore":{"volumeID":"vol-2"}}]}})";
  auto v126 = ScheduleAndExplainV126(cluster, pod);
  EXPECT_EQ(v126.chosen, "n1");
  auto v135 = ScheduleAndExplainV126(cluster, pod, "", "", config::SchedulerVersion::kV135);
  EXPECT_EQ(v135.plugins["n1"], "NodeVolumeLimits");
  EXPECT_THAT(v135.Messages("n1"),
              ElementsAre("CSI driver ebs.csi.aws.com: the node attaches at most 1 of its volumes "
                          "(CSINode n1 drivers[ebs.csi.aws.com].allocatable.count); its pods "
                          "attach 1, the pod adds 1: e (inline, migrated to CSI)"));
}

}  // namespace csi_limits_test
}  // namespace ksched::explain
