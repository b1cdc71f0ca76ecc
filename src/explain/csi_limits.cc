// NodeVolumeLimits (the CSI limits): per CSI driver, the node's limit and
// where it comes from (the node's CSINode allocatable.count for the driver,
// else, in v1.26 only, its allocatable attachable-volumes-csi-<driver>), how
// many distinct volumes of the driver its pods attach, and which of the
// pod's volumes would be new. Volumes are counted as the plugin of the
// cycle's release counts them: claims through their bound PV (in-tree PVs
// translated when their plugin migrated to CSI on the node), unbound claims
// through their storage class's provisioner, inline in-tree volumes when
// migrated.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "explain/explain.h"
#include "framework/plugins/nodevolumelimits/csi_translation.h"
#include "predicates/volume_util.h"

namespace ksched::explain {
namespace {

namespace csi = framework::csi;

// One attachable volume of a pod: its driver, a unique handle and how the
// pod names it.
struct CsiVolumeRef {
  std::string driver;
  std::string handle;
  std::string shown;  // "data (claim default/data)"
};

void CsiVolumesOf(const Pod& pod, const ClusterState& cluster, const CSINode* csi_node, bool v135,
                  std::vector<CsiVolumeRef>* out) {
  for (const Volume& v : pod.spec.volumes) {
    if (v.kind != VolumeKind::kPersistentVolumeClaim && v.kind != VolumeKind::kEphemeral) {
      if (!csi::IsInlineMigratable(v.kind, v135)) continue;
      std::string_view plugin = csi::InTreePluginName(v.kind);
      if (!csi::NodeVolumeLimitsMigrationOn(csi_node, plugin, v135)) continue;
      csi::TranslatedVolume t;
      std::string error;
      if (!csi::TranslateInlineVolume(v, &t, &error)) continue;
      out->push_back({std::string(csi::CSIDriverName(plugin)), t.volume_handle,
                      fmt::format("{} (inline, migrated to CSI)", v.name)});
      continue;
    }
    const PersistentVolumeClaim* pvc = cluster.FindPvc(pod.meta.ns, v.id);
    if (pvc == nullptr) continue;
    const std::string claim = fmt::format("claim {}/{}", Str(pod.meta.ns), v.id);
    const PersistentVolume* pv =
        pvc->volume_name.empty() ? nullptr : cluster.FindPv(pvc->volume_name);
    if (pv != nullptr) {
      if (pv->kind == VolumeKind::kCSI) {
        if (!pv->csi_driver.empty() && !pv->volume_id.empty())
          out->push_back({pv->csi_driver, pv->volume_id,
                          fmt::format("{} ({}, PV {})", v.name, claim, pv->meta.name)});
        continue;
      }
      std::string_view plugin = csi::InTreePluginName(pv->kind);
      if (plugin.empty() || !csi::NodeVolumeLimitsMigrationOn(csi_node, plugin, v135)) continue;
      csi::TranslatedVolume t;
      std::string error;
      if (!csi::TranslatePV(*pv, &t, &error)) continue;
      out->push_back({t.driver, t.volume_handle,
                      fmt::format("{} ({}, PV {} migrated to CSI)", v.name, claim, pv->meta.name)});
      continue;
    }
    // Unbound: counted against the class's provisioner, once per claim.
    std::string_view class_name = volume::ClaimClass(*pvc);
    const StorageClass* sc = class_name.empty() ? nullptr : cluster.FindStorageClass(class_name);
    if (sc == nullptr) continue;
    std::string driver = sc->provisioner;
    if (csi::IsMigratableInTreePlugin(sc->provisioner, v135)) {
      if (!csi::NodeVolumeLimitsMigrationOn(csi_node, sc->provisioner, v135)) continue;
      driver = std::string(csi::CSIDriverName(sc->provisioner));
    }
    out->push_back({driver, "\x01" + claim,
                    fmt::format("{} ({}, unbound, storageClass {})", v.name, claim, class_name)});
  }
}

}  // namespace

void ExplainCsiLimits(const NodeContext& c, std::string_view reason, std::vector<Cause>* out) {
  const NodeInfo& info = c.info();
  const CSINode* csi_node = csi::CSINodeOf(c.cluster, info);
  const bool v135 = CycleAtLeastV135(c);
  std::vector<CsiVolumeRef> wanted, attached;
  CsiVolumesOf(c.pod, c.cluster, csi_node, v135, &wanted);
  if (wanted.empty()) return;
  for (PodId id : info.pods)
    CsiVolumesOf(c.cluster.pod(id).pod, c.cluster, csi_node, v135, &attached);

  std::map<std::string, std::set<std::string>> in_use;  // driver -> handles
  for (const CsiVolumeRef& a : attached) in_use[a.driver].insert(a.handle);
  std::map<std::string, std::vector<const CsiVolumeRef*>> added;  // driver -> new volumes
  std::set<std::pair<std::string, std::string>> seen;
  for (const CsiVolumeRef& w : wanted) {
    if (!seen.insert({w.driver, w.handle}).second) continue;
    if (in_use[w.driver].count(w.handle) == 0) added[w.driver].push_back(&w);
  }
  for (const auto& [driver, volumes] : added) {
    const std::string key = volume::CsiAttachLimitKey(driver);
    std::optional<int64_t> limit;
    std::string source;
    const StrId key_id = FindInterned(key);
    for (const auto& [name, value] : info.allocatable.scalars) {
      if (v135) break;  // v1.35 reads the CSINode alone
      if (name == key_id) {
        limit = value;
        source = fmt::format("allocatable {}", key);
      }
    }
    if (csi_node != nullptr) {
      for (const CSINodeDriver& d : csi_node->drivers) {
        if (d.name != driver || !d.allocatable_count) continue;
        limit = *d.allocatable_count;
        source =
            fmt::format("CSINode {} drivers[{}].allocatable.count", csi_node->meta.name, driver);
      }
    }
    if (!limit) continue;  // the driver has no limit on this node
    const int64_t current = static_cast<int64_t>(in_use[driver].size());
    const int64_t count = static_cast<int64_t>(volumes.size());
    if (current + count <= *limit) continue;
    std::vector<std::string> shown;
    for (const CsiVolumeRef* v : volumes) shown.push_back(v->shown);
    Cause cause;
    cause.reason = reason;
    cause.kind = "volume";
    cause.message = fmt::format(
        "CSI driver {}: the node attaches at most {} of its volumes ({}); its pods attach {}, "
        "the pod adds {}: {}",
        driver, *limit, source, current, count, JoinLimited(shown));
    cause.details["volumeType"] = "CSI " + driver;
    cause.details["driver"] = driver;
    cause.details["limit"] = *limit;
    cause.details["limitSource"] = source;
    cause.details["inUse"] = current;
    cause.details["added"] = count;
    cause.details["volumes"] = shown;
    out->push_back(std::move(cause));
  }
}

}  // namespace ksched::explain
