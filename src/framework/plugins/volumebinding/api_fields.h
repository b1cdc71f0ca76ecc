// API fields the volume plugins of v1.26 read but ksched's decoder does not
// keep yet; each accessor returns what the field's absence means, so the
// plugins behave as upstream does for objects that leave them unset.
//
//  - metadata.resourceVersion: absent, so assuming a PV or PVC in Reserve
//    fails as upstream's assume cache fails for "" (the reference vectors'
//    objects have none either);
//  - spec.volumeMode of PVs and PVCs: absent means Filesystem;
//  - azureDisk diskURI and kind: absent (kind defaults to Shared, which CSI
//    migration rejects);
//  - StorageClass allowedTopologies: absent, every node.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/types.h"

namespace ksched::framework::volumefields {

inline std::string_view ResourceVersion(const ObjectMeta&) { return {}; }
inline std::string_view VolumeMode(const PersistentVolume&) { return {}; }
inline std::string_view VolumeMode(const PersistentVolumeClaim&) { return {}; }
inline std::string_view AzureDiskURI(const PersistentVolume&) { return {}; }
inline std::string_view AzureDiskURI(const Volume&) { return {}; }
inline std::optional<std::string> AzureKind(const PersistentVolume&) { return std::nullopt; }
inline std::optional<std::string> AzureKind(const Volume&) { return std::nullopt; }

// One requirement of a TopologySelectorTerm.
struct TopologyRequirement {
  std::string key;
  std::vector<std::string> values;
};
using TopologyTerms = std::vector<std::vector<TopologyRequirement>>;
inline TopologyTerms AllowedTopologies(const StorageClass&) { return {}; }

}  // namespace ksched::framework::volumefields
