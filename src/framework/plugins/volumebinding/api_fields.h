// The API fields the volume plugins of v1.26 read beyond what v1.15's
// predicates need, in one place, each with what its absence means:
//
//  - metadata.resourceVersion: "" when absent, and then assuming a PV or
//    PVC in Reserve fails as upstream's assume cache fails to parse "" (the
//    reference vectors' objects carry none; a kubectl snapshot's do);
//  - spec.volumeMode of PVs and PVCs: absent means Filesystem;
//  - azureDisk diskURI and kind: absent kind is the API default (Shared,
//    which CSI migration rejects);
//  - StorageClass allowedTopologies: absent, every node.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/types.h"

namespace ksched::framework::volumefields {

inline std::string_view ResourceVersion(const ObjectMeta& m) { return m.resource_version; }
inline std::string_view VolumeMode(const PersistentVolume& pv) { return pv.volume_mode; }
inline std::string_view VolumeMode(const PersistentVolumeClaim& pvc) { return pvc.volume_mode; }
inline std::string_view AzureDiskURI(const PersistentVolume& pv) { return pv.azure_disk_uri; }
inline std::string_view AzureDiskURI(const Volume& v) { return v.azure_disk_uri; }
inline const std::optional<std::string>& AzureKind(const PersistentVolume& pv) {
  return pv.azure_kind;
}
inline const std::optional<std::string>& AzureKind(const Volume& v) { return v.azure_kind; }

// StorageClass.allowedTopologies: terms ORed, each a list of requirements
// ANDed.
using TopologyRequirement = TopologySelectorRequirement;
using TopologyTerms = std::vector<std::vector<TopologyRequirement>>;
inline const TopologyTerms& AllowedTopologies(const StorageClass& sc) {
  return sc.allowed_topologies;
}

}  // namespace ksched::framework::volumefields
