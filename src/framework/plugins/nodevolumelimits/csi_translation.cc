#include "framework/plugins/nodevolumelimits/csi_translation.h"

#include <algorithm>
#include <set>
#include <vector>

#include "framework/plugins/volumebinding/api_fields.h"
#include "predicates/volume_util.h"

namespace ksched::framework::csi {
namespace {

constexpr std::string_view kBetaZone = "failure-domain.beta.kubernetes.io/zone";
constexpr std::string_view kBetaRegion = "failure-domain.beta.kubernetes.io/region";
constexpr std::string_view kZone = "topology.kubernetes.io/zone";
constexpr std::string_view kRegion = "topology.kubernetes.io/region";
constexpr std::string_view kMultiZoneDelimiter = "__";
constexpr std::string_view kUnspecified = "UNSPECIFIED";

std::vector<std::string> Split(std::string_view s, std::string_view sep) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    size_t end = s.find(sep, start);
    if (end == std::string_view::npos) {
      out.emplace_back(s.substr(start));
      return out;
    }
    out.emplace_back(s.substr(start, end - start));
    start = end + sep.size();
  }
}

std::string_view TrimSpace(std::string_view s) {
  auto space = [](char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
  };
  while (!s.empty() && space(s.front())) s.remove_prefix(1);
  while (!s.empty() && space(s.back())) s.remove_suffix(1);
  return s;
}

const std::string* PvLabel(const PersistentVolume& pv, std::string_view key) {
  static thread_local std::string value;
  const std::optional<StrId> v = pv.meta.labels.Get(Intern(key));
  if (!v) return nullptr;
  value = std::string(Str(*v));
  return &value;
}

bool KeyInAffinity(const std::optional<NodeSelector>& affinity, std::string_view key) {
  if (!affinity) return false;
  for (const NodeSelectorTerm& t : affinity->terms)
    for (const SelectorRequirement& r : t.match_expressions)
      if (r.key == key) return true;
  return false;
}

// getTopologyValues: the values of `key` across all terms, sorted, unique.
std::vector<std::string> TopologyValues(const std::optional<NodeSelector>& affinity,
                                        std::string_view key) {
  std::set<std::string> values;
  if (affinity) {
    for (const NodeSelectorTerm& t : affinity->terms)
      for (const SelectorRequirement& r : t.match_expressions)
        if (r.key == key) values.insert(r.values.begin(), r.values.end());
  }
  return {values.begin(), values.end()};
}

void ReplaceTopology(std::optional<NodeSelector>* affinity, std::string_view from,
                     std::string_view to) {
  if (!*affinity) return;
  for (NodeSelectorTerm& t : (*affinity)->terms)
    for (SelectorRequirement& r : t.match_expressions)
      if (r.key == from) r.key = std::string(to);
}

void AddTopology(std::optional<NodeSelector>* affinity, std::string_view key,
                 const std::vector<std::string>& zones) {
  std::set<std::string> filtered;
  for (const std::string& z : zones) {
    std::string_view t = TrimSpace(z);
    if (!t.empty()) filtered.emplace(t);
  }
  if (filtered.empty()) return;  // upstream returns an error that callers ignore
  if (!*affinity) *affinity = NodeSelector{};
  if ((*affinity)->terms.empty()) (*affinity)->terms.resize(1);
  SelectorRequirement req{std::string(key), "In", {filtered.begin(), filtered.end()}};
  for (NodeSelectorTerm& t : (*affinity)->terms) t.match_expressions.push_back(req);
}

// translateTopologyFromInTreeToCSI.
void TranslateTopology(const PersistentVolume& pv, std::string_view csi_key,
                       std::optional<NodeSelector>* affinity) {
  std::string_view zone_label = kZone, region_label = kRegion;
  if (KeyInAffinity(*affinity, kZone)) {
  } else if (KeyInAffinity(*affinity, kBetaZone)) {
    zone_label = kBetaZone;
    region_label = kBetaRegion;
  } else if (PvLabel(pv, kZone) != nullptr) {
  } else if (PvLabel(pv, kBetaZone) != nullptr) {
    zone_label = kBetaZone;
    region_label = kBetaRegion;
  }
  if (!TopologyValues(*affinity, zone_label).empty()) {
    ReplaceTopology(affinity, zone_label, csi_key);
  } else if (const std::string* label = PvLabel(pv, zone_label)) {
    AddTopology(affinity, csi_key, Split(*label, kMultiZoneDelimiter));
  }
  if (region_label == kBetaRegion && !TopologyValues(*affinity, kBetaRegion).empty())
    ReplaceTopology(affinity, kBetaRegion, kRegion);
}

// Go's fmt %v of a sets.String: "map[a:{} b:{}]".
std::string SetString(const std::set<std::string>& s) {
  std::string out = "map[";
  bool first = true;
  for (const std::string& x : s) {
    if (!first) out += ' ';
    first = false;
    out += x;
    out += ":{}";
  }
  return out + "]";
}

// gceGetRegionFromZones.
bool GceRegionFromZones(const std::vector<std::string>& zones, std::string* region,
                        std::string* error) {
  std::set<std::string> regions;
  for (const std::string& zone : zones) {
    std::vector<std::string> parts = Split(zone, "-");
    if (parts.size() != 3) {
      *error = "zone in unexpected format, expected: {locale}-{region}-{zone}, got: " + zone;
      return false;
    }
    regions.insert(parts[0] + "-" + parts[1]);
  }
  if (regions.size() != 1) {
    *error = "multiple or no regions gotten from zones, got: " + SetString(regions);
    return false;
  }
  *region = *regions.begin();
  return true;
}

// KubernetesVolumeIDToEBSVolumeID.
bool EbsVolumeId(const std::string& id, std::string* out, std::string* error) {
  constexpr std::string_view kPrefix = "aws://";
  if (id.compare(0, kPrefix.size(), kPrefix) != 0) {
    *out = id;
    return true;
  }
  std::string_view rest = std::string_view(id).substr(kPrefix.size());
  size_t slash = rest.find('/');
  std::string_view path = slash == std::string_view::npos ? std::string_view() : rest.substr(slash);
  while (!path.empty() && path.front() == '/') path.remove_prefix(1);
  while (!path.empty() && path.back() == '/') path.remove_suffix(1);
  if (path.substr(0, 4) != "vol-" || path.find('/') != std::string_view::npos) {
    *error = "Invalid format for AWS volume (" + id + ")";
    return false;
  }
  *out = std::string(path);
  return true;
}

// The API server defaults azureDisk.kind to "Shared".
bool AzureKindManaged(const std::optional<std::string>& kind, std::string* error) {
  const std::string k = kind.value_or("Shared");
  std::string lower;
  for (char c : k) lower += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  if (lower == "managed") return true;
  *error = "kind(" + k + ") is not supported in csi migration";
  return false;
}

}  // namespace

const CSINode* CSINodeOf(const ClusterState& cluster, const NodeInfo& node) {
  return cluster.CSINodeOf(node.id);
}

std::string_view InTreePluginName(VolumeKind kind) {
  switch (kind) {
    case VolumeKind::kGCEPersistentDisk:
      return kGCEPDInTreePluginName;
    case VolumeKind::kAWSElasticBlockStore:
      return kAWSEBSInTreePluginName;
    case VolumeKind::kAzureDisk:
      return kAzureDiskInTreePluginName;
    case VolumeKind::kCinder:
      return kCinderInTreePluginName;
    case VolumeKind::kRBD:
      return kRBDInTreePluginName;
    default:
      return {};
  }
}

std::string_view CSIDriverName(std::string_view plugin) {
  if (plugin == kGCEPDInTreePluginName) return kGCEPDDriverName;
  if (plugin == kAWSEBSInTreePluginName) return kAWSEBSDriverName;
  if (plugin == kAzureDiskInTreePluginName) return kAzureDiskDriverName;
  if (plugin == kCinderInTreePluginName) return kCinderDriverName;
  if (plugin == kRBDInTreePluginName) return "rbd.csi.ceph.com";
  if (plugin == "kubernetes.io/azure-file") return "file.csi.azure.com";
  if (plugin == "kubernetes.io/vsphere-volume") return "csi.vsphere.vmware.com";
  if (plugin == kPortworxInTreePluginName) return "pxd.portworx.com";
  return {};
}

bool IsMigratableInTreePlugin(std::string_view plugin, bool v135) {
  if (v135 && plugin == kRBDInTreePluginName) return false;
  return !CSIDriverName(plugin).empty();
}

bool IsInlineMigratable(VolumeKind kind, bool v135) {
  if (v135 && kind == VolumeKind::kRBD) return false;
  return !InTreePluginName(kind).empty();
}

bool NodeVolumeLimitsMigrationOn(const CSINode* csi_node, std::string_view plugin, bool v135) {
  if (!v135) return CSIMigrationOn(csi_node, plugin);
  if (csi_node == nullptr || plugin.empty()) return false;
  // The migrations whose gates were removed after GA no longer look at the
  // node's annotation; Portworx (CSIMigrationPortworx, on since v1.33) does.
  if (plugin == kAWSEBSInTreePluginName || plugin == kGCEPDInTreePluginName ||
      plugin == kAzureDiskInTreePluginName || plugin == kCinderInTreePluginName)
    return true;
  return plugin == kPortworxInTreePluginName && MigratedOnNode(csi_node, plugin);
}

bool MigrationGateOn(std::string_view plugin) {
  // CSIMigrationAWS, CSIMigrationGCE, CSIMigrationAzureDisk: GA in v1.26;
  // Cinder has no gate; Portworx and RBD are off by default.
  return plugin == kAWSEBSInTreePluginName || plugin == kGCEPDInTreePluginName ||
         plugin == kAzureDiskInTreePluginName || plugin == kCinderInTreePluginName;
}

bool MigratedOnNode(const CSINode* csi_node, std::string_view plugin) {
  if (csi_node == nullptr) return false;
  for (const std::string& p : csi_node->migrated_plugins)
    if (p == plugin) return true;
  return false;
}

bool TranslatePV(const PersistentVolume& pv, TranslatedVolume* out, std::string* error) {
  out->node_affinity = pv.node_affinity;
  switch (pv.kind) {
    case VolumeKind::kGCEPersistentDisk: {
      out->driver = std::string(kGCEPDDriverName);
      const std::string* zl = PvLabel(pv, kBetaZone);
      std::string zones_label = zl ? *zl : std::string();
      if (zones_label.empty()) {
        const std::string* ga = PvLabel(pv, kZone);
        zones_label = ga ? *ga : std::string();
      }
      std::vector<std::string> zones = Split(zones_label, kMultiZoneDelimiter);
      const std::string& pd = pv.volume_id;
      if (zones.size() == 1 && !zones[0].empty()) {
        out->volume_handle = "projects/UNSPECIFIED/zones/" + zones[0] + "/disks/" + pd;
      } else if (zones.size() > 1) {
        std::string region, err;
        if (!GceRegionFromZones(zones, &region, &err)) {
          *error = "failed to get region from zones: " + err;
          return false;
        }
        out->volume_handle = "projects/UNSPECIFIED/regions/" + region + "/disks/" + pd;
      } else {
        out->volume_handle = "projects/UNSPECIFIED/zones/UNSPECIFIED/disks/" + pd;
      }
      TranslateTopology(pv, "topology.gke.io/zone", &out->node_affinity);
      return true;
    }
    case VolumeKind::kAWSElasticBlockStore: {
      out->driver = std::string(kAWSEBSDriverName);
      if (!EbsVolumeId(pv.volume_id, &out->volume_handle, error)) {
        *error = "failed to translate Kubernetes ID to EBS Volume ID " + *error;
        return false;
      }
      TranslateTopology(pv, "topology.ebs.csi.aws.com/zone", &out->node_affinity);
      return true;
    }
    case VolumeKind::kAzureDisk:
      out->driver = std::string(kAzureDiskDriverName);
      out->volume_handle = std::string(volumefields::AzureDiskURI(pv));
      return AzureKindManaged(volumefields::AzureKind(pv), error);
    case VolumeKind::kCinder:
      out->driver = std::string(kCinderDriverName);
      out->volume_handle = pv.volume_id;
      TranslateTopology(pv, "topology.cinder.csi.openstack.org/zone", &out->node_affinity);
      return true;
    default:
      *error =
          "could not find in-tree plugin translation logic for " + volume::GoQuote(pv.meta.name);
      return false;
  }
}

bool TranslateInlineVolume(const Volume& vol, TranslatedVolume* out, std::string* error) {
  switch (vol.kind) {
    case VolumeKind::kGCEPersistentDisk:
      out->driver = std::string(kGCEPDDriverName);
      out->volume_handle = "projects/" + std::string(kUnspecified) + "/zones/" +
                           std::string(kUnspecified) + "/disks/" + vol.id;
      return true;
    case VolumeKind::kAWSElasticBlockStore:
      out->driver = std::string(kAWSEBSDriverName);
      if (!EbsVolumeId(vol.id, &out->volume_handle, error)) {
        *error = "failed to translate Kubernetes ID to EBS Volume ID " + *error;
        return false;
      }
      return true;
    case VolumeKind::kAzureDisk:
      out->driver = std::string(kAzureDiskDriverName);
      out->volume_handle = std::string(volumefields::AzureDiskURI(vol));
      return AzureKindManaged(volumefields::AzureKind(vol), error);
    case VolumeKind::kCinder:
      out->driver = std::string(kCinderDriverName);
      out->volume_handle = vol.id;
      return true;
    default:
      *error = "could not find in-tree plugin translation logic for " + volume::GoQuote(vol.name);
      return false;
  }
}

}  // namespace ksched::framework::csi
