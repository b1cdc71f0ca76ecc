#include "framework/plugins/nodevolumelimits/csi_translation.h"

#include <gtest/gtest.h>

namespace ksched::framework::csi {
namespace csi_translation_test {

PersistentVolume Gce(std::string zone_label) {
  PersistentVolume pv;
  pv.meta.name = "pv";
  pv.kind = VolumeKind::kGCEPersistentDisk;
  pv.volume_id = "disk";
  if (!zone_label.empty())
    pv.meta.labels = Labels({{Intern("topology.kubernetes.io/zone"), Intern(zone_label)}});
  return pv;
}

TEST(CSITranslationTest, GcePdHandleAndTopology) {
  TranslatedVolume t;
  std::string error;
  ASSERT_TRUE(TranslatePV(Gce("us-central1-a"), &t, &error));
  EXPECT_EQ(t.driver, "pd.csi.storage.gke.io");
  EXPECT_EQ(t.volume_handle, "projects/UNSPECIFIED/zones/us-central1-a/disks/disk");
  ASSERT_TRUE(t.node_affinity.has_value());
  ASSERT_EQ(t.node_affinity->terms.size(), 1u);
  EXPECT_EQ(t.node_affinity->terms[0].match_expressions[0].key, "topology.gke.io/zone");

  ASSERT_TRUE(TranslatePV(Gce("us-central1-a__us-central1-b"), &t, &error));
  EXPECT_EQ(t.volume_handle, "projects/UNSPECIFIED/regions/us-central1/disks/disk");
  EXPECT_FALSE(TranslatePV(Gce("a__b"), &t, &error));
  EXPECT_EQ(error,
            "failed to get region from zones: zone in unexpected format, expected: "
            "{locale}-{region}-{zone}, got: a");
}

TEST(CSITranslationTest, AzureDiskOfTheDefaultKindDoesNotTranslate) {
  PersistentVolume pv;
  pv.kind = VolumeKind::kAzureDisk;
  TranslatedVolume t;
  std::string error;
  EXPECT_FALSE(TranslatePV(pv, &t, &error));
  EXPECT_EQ(error, "kind(Shared) is not supported in csi migration");
}

TEST(CSITranslationTest, MigrationNeedsGateAndAnnotation) {
  CSINode node;
  node.migrated_plugins = {"kubernetes.io/aws-ebs", "kubernetes.io/rbd"};
  EXPECT_TRUE(CSIMigrationOn(&node, kAWSEBSInTreePluginName));
  EXPECT_FALSE(CSIMigrationOn(&node, kRBDInTreePluginName));  // gate off in v1.26
  EXPECT_FALSE(CSIMigrationOn(&node, kGCEPDInTreePluginName));
  EXPECT_FALSE(CSIMigrationOn(nullptr, kAWSEBSInTreePluginName));
}

}  // namespace csi_translation_test
}  // namespace ksched::framework::csi
