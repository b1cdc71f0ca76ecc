// In-tree volume -> CSI migration as the scheduler plugins see it (the
// parts of k8s.io/csi-translation-lib that NodeVolumeLimits, the non-CSI
// limits and VolumeBinding use), shared by those plugins.
//
// Of the in-tree plugins ksched decodes, GCE PD, AWS EBS, Azure Disk and
// Cinder have their migration on in v1.26 (the first three are GA, Cinder is
// always on); RBD and Portworx are off by default, so their volumes are
// never translated. A plugin counts as migrated on a node when the node's
// CSINode lists it in the storage.alpha.kubernetes.io/migrated-plugins
// annotation.
//
// v1.35: the library has no RBD translation any more (the in-tree RBD
// plugin was removed), Portworx migration is on (CSIMigrationPortworx; ksched
// decodes no portworxVolume source, so only a StorageClass provisioner can
// name it), and NodeVolumeLimits counts the four GA plugins as migrated on
// every node that has a CSINode, without reading the annotation
// (NodeVolumeLimitsMigrationOn).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "api/types.h"
#include "cache/cluster_state.h"
#include "cache/node_info.h"

namespace ksched::framework::csi {

inline constexpr std::string_view kAWSEBSInTreePluginName = "kubernetes.io/aws-ebs";
inline constexpr std::string_view kGCEPDInTreePluginName = "kubernetes.io/gce-pd";
inline constexpr std::string_view kAzureDiskInTreePluginName = "kubernetes.io/azure-disk";
inline constexpr std::string_view kCinderInTreePluginName = "kubernetes.io/cinder";
inline constexpr std::string_view kRBDInTreePluginName = "kubernetes.io/rbd";
inline constexpr std::string_view kPortworxInTreePluginName = "kubernetes.io/portworx-volume";

inline constexpr std::string_view kAWSEBSDriverName = "ebs.csi.aws.com";
inline constexpr std::string_view kGCEPDDriverName = "pd.csi.storage.gke.io";
inline constexpr std::string_view kAzureDiskDriverName = "disk.csi.azure.com";
inline constexpr std::string_view kCinderDriverName = "cinder.csi.openstack.org";

// The CSINode of a node, or nullptr when it has none.
const CSINode* CSINodeOf(const ClusterState& cluster, const NodeInfo& node);

// The in-tree plugin that serves a PV or inline volume of this kind; "" when
// the kind has no CSI translation (upstream's IsPVMigratable false).
std::string_view InTreePluginName(VolumeKind kind);
// The CSI driver an in-tree plugin migrates to ("" when none).
std::string_view CSIDriverName(std::string_view in_tree_plugin);
// Whether `in_tree_plugin` names a plugin the library translates
// (IsMigratableIntreePluginByName); v1.35's library has no RBD.
bool IsMigratableInTreePlugin(std::string_view in_tree_plugin, bool v135 = false);
// IsInlineMigratable for a volume of this kind.
bool IsInlineMigratable(VolumeKind kind, bool v135);

// Whether v1.26's feature gates enable the migration of this plugin.
bool MigrationGateOn(std::string_view in_tree_plugin);
// Whether the node's CSINode lists the plugin as migrated.
bool MigratedOnNode(const CSINode* csi_node, std::string_view in_tree_plugin);
// nodevolumelimits' isCSIMigrationOn in v1.26: both of the above.
inline bool CSIMigrationOn(const CSINode* csi_node, std::string_view in_tree_plugin) {
  return csi_node != nullptr && MigrationGateOn(in_tree_plugin) &&
         MigratedOnNode(csi_node, in_tree_plugin);
}
// nodevolumelimits' isCSIMigrationOn of the release: v1.35 takes AWS EBS,
// GCE PD, Azure Disk and Cinder as migrated wherever the node has a CSINode
// (their gates are gone) and reads the annotation only for Portworx.
bool NodeVolumeLimitsMigrationOn(const CSINode* csi_node, std::string_view in_tree_plugin,
                                 bool v135);

// What a translated volume looks like to the scheduler.
struct TranslatedVolume {
  std::string driver;
  std::string volume_handle;
  // The PV's node affinity after topology translation (PVs only).
  std::optional<NodeSelector> node_affinity;
};

// TranslateInTreePVToCSI; an error message when the PV cannot be translated.
// Only for PVs whose InTreePluginName(kind) is not "".
bool TranslatePV(const PersistentVolume& pv, TranslatedVolume* out, std::string* error);
// TranslateInTreeInlineVolumeToCSI (driver and handle only).
bool TranslateInlineVolume(const Volume& vol, TranslatedVolume* out, std::string* error);

}  // namespace ksched::framework::csi
