// The volume reasons with the volume behind them:
//  - no available disk: the pod's disk and the pod on the node mounting it;
//  - exceed max volume count: the limit, what the node's pods use and what
//    the pod adds, per volume type the pod uses;
//  - no available volume zone: the PV and its zone against the node's;
//  - volume node affinity conflict / no PV to bind: the claim and PV.
#include <fmt/format.h>

#include <algorithm>
#include <initializer_list>
#include <map>
#include <set>

#include "explain/explain.h"
#include "labels/node_selector.h"
#include "predicates/volume_util.h"

namespace ksched::explain {
namespace {

std::string DescribeVolume(const Volume& v) {
  switch (v.kind) {
    case VolumeKind::kGCEPersistentDisk:
      return fmt::format("{} (GCE PD {})", v.name, v.id);
    case VolumeKind::kAWSElasticBlockStore:
      return fmt::format("{} (AWS EBS {})", v.name, v.id);
    case VolumeKind::kISCSI:
      return fmt::format("{} (iSCSI {})", v.name, v.iscsi_iqn);
    case VolumeKind::kRBD:
      return fmt::format("{} (RBD {}/{})", v.name, v.rbd_pool, v.rbd_image);
    case VolumeKind::kPersistentVolumeClaim:
      return fmt::format("{} (claim {})", v.name, v.id);
    default:
      return v.name;
  }
}

struct LimitType {
  std::string_view predicate;
  VolumeKind kind;
  std::string_view name;
  std::string_view limit_key;
  int64_t default_limit;
};
constexpr LimitType kLimitTypes[] = {
    {"MaxEBSVolumeCount", VolumeKind::kAWSElasticBlockStore, "AWS EBS",
     "attachable-volumes-aws-ebs", 39},
    {"MaxGCEPDVolumeCount", VolumeKind::kGCEPersistentDisk, "GCE PD", "attachable-volumes-gce-pd",
     16},
    {"MaxAzureDiskVolumeCount", VolumeKind::kAzureDisk, "Azure Disk",
     "attachable-volumes-azure-disk", 16},
    {"MaxCinderVolumeCount", VolumeKind::kCinder, "Cinder", "attachable-volumes-cinder", 256},
};

// The distinct volume ids of `kind` a pod uses, as the limit predicates count
// them (claims through their PV; a claim that does not resolve counts under
// its own name).
void CountedVolumes(const Pod& pod, VolumeKind kind, const ClusterState& cluster,
                    std::set<std::string>* ids) {
  for (const Volume& v : pod.spec.volumes) {
    if (v.kind == kind) {
      ids->insert(v.id);
    } else if (v.kind == VolumeKind::kPersistentVolumeClaim) {
      const PersistentVolumeClaim* pvc = cluster.FindPvc(pod.meta.ns, v.id);
      const PersistentVolume* pv =
          pvc == nullptr || pvc->volume_name.empty() ? nullptr : cluster.FindPv(pvc->volume_name);
      if (pv == nullptr) {
        ids->insert(fmt::format("unresolved claim {}/{}", Str(pod.meta.ns), v.id));
      } else if (pv->kind == kind) {
        ids->insert(pv->volume_id);
      }
    }
  }
}

// The PVs the pod's claims are bound to, with the volume naming them.
std::vector<std::pair<const Volume*, const PersistentVolume*>> BoundVolumes(const NodeContext& c) {
  std::vector<std::pair<const Volume*, const PersistentVolume*>> out;
  for (const Volume& v : c.pod.spec.volumes) {
    if (v.kind != VolumeKind::kPersistentVolumeClaim) continue;
    const PersistentVolumeClaim* pvc = c.cluster.FindPvc(c.pod.meta.ns, v.id);
    if (pvc == nullptr || pvc->volume_name.empty()) continue;
    if (const PersistentVolume* pv = c.cluster.FindPv(pvc->volume_name)) out.emplace_back(&v, pv);
  }
  return out;
}

// The CSI volumes a pod's claims attach, by driver: the bound PV's driver
// and handle, or for an unbound claim its class's provisioner and the claim.
void CsiVolumes(const Pod& pod, const ClusterState& cluster,
                std::map<std::string, std::set<std::string>>* by_driver) {
  for (const Volume& v : pod.spec.volumes) {
    if (v.kind != VolumeKind::kPersistentVolumeClaim) continue;
    const PersistentVolumeClaim* pvc = cluster.FindPvc(pod.meta.ns, v.id);
    if (pvc == nullptr) continue;
    const PersistentVolume* pv =
        pvc->volume_name.empty() ? nullptr : cluster.FindPv(pvc->volume_name);
    if (pv != nullptr) {
      if (pv->kind == VolumeKind::kCSI && !pv->csi_driver.empty())
        (*by_driver)[pv->csi_driver].insert(pv->volume_id);
    } else if (pvc->storage_class_name) {
      const StorageClass* sc = cluster.FindStorageClass(*pvc->storage_class_name);
      if (sc != nullptr && !sc->provisioner.empty())
        (*by_driver)[sc->provisioner].insert(fmt::format("claim {}/{}", Str(pod.meta.ns), v.id));
    }
  }
}

// MaxCSIVolumeCountPred: per driver, the node's attachable-volumes-csi-<driver>.
void ExplainCsiVolumeCount(const NodeContext& c, std::string_view reason, std::vector<Cause>* out) {
  std::map<std::string, std::set<std::string>> wanted, used;
  CsiVolumes(c.pod, c.cluster, &wanted);
  if (wanted.empty()) return;
  for (PodId id : c.info().pods) CsiVolumes(c.cluster.pod(id).pod, c.cluster, &used);
  for (const auto& [driver, ids] : wanted) {
    const std::string key = volume::CsiAttachLimitKey(driver);
    const StrId key_id = FindInterned(key);
    std::optional<int64_t> limit;
    for (const auto& [name, value] : c.info().allocatable.scalars)
      if (name == key_id) limit = value;
    if (!limit) continue;  // no limit for this driver
    const std::set<std::string>& on_node = used[driver];
    int64_t added = 0;
    for (const std::string& id : ids) added += on_node.count(id) == 0 ? 1 : 0;
    const int64_t in_use = static_cast<int64_t>(on_node.size());
    if (in_use + added <= *limit) continue;
    Cause cause;
    cause.reason = reason;
    cause.kind = "volume";
    cause.message = fmt::format(
        "CSI driver {} volumes: the node allows {} (allocatable {}), its pods use {}, the pod "
        "adds {}",
        driver, *limit, key, in_use, added);
    cause.details["volumeType"] = "CSI " + driver;
    cause.details["limit"] = *limit;
    cause.details["inUse"] = in_use;
    cause.details["added"] = added;
    out->push_back(std::move(cause));
  }
}

}  // namespace

void ExplainDiskConflict(const NodeContext& c, std::string_view reason, std::vector<Cause>* out) {
  for (const Volume& v : c.pod.spec.volumes) {
    std::vector<std::string> pods;
    for (PodId id : c.info().pods) {
      const Pod& existing = c.cluster.pod(id).pod;
      for (const Volume& ev : existing.spec.volumes) {
        if (volume::DisksConflict(v, ev)) {
          pods.push_back(existing.Key());
          break;
        }
      }
    }
    if (pods.empty()) continue;
    Cause cause;
    cause.reason = reason;
    cause.kind = "volume";
    cause.message = fmt::format(
        "volume {} is already mounted by {}{}", DescribeVolume(v), JoinLimited(pods),
        v.kind == VolumeKind::kAWSElasticBlockStore ? "" : " (only read-only mounts can share it)");
    cause.details["volume"] = v.name;
    cause.details["pods"] = pods;
    out->push_back(std::move(cause));
  }
}

void ExplainVolumeCount(const NodeContext& c, std::string_view reason, std::vector<Cause>* out) {
  const NodeInfo& info = c.info();
  for (const LimitType& t : kLimitTypes) {
    std::set<std::string> wanted, used;
    CountedVolumes(c.pod, t.kind, c.cluster, &wanted);
    if (wanted.empty()) continue;
    for (PodId id : info.pods) CountedVolumes(c.cluster.pod(id).pod, t.kind, c.cluster, &used);
    int64_t added = 0;
    for (const std::string& id : wanted) added += used.count(id) == 0 ? 1 : 0;
    int64_t limit = t.default_limit;
    std::string source = "the default";
    const StrId key = FindInterned(t.limit_key);
    for (const auto& [name, value] : info.allocatable.scalars) {
      if (name == key) {
        limit = value;
        source = fmt::format("allocatable {}", t.limit_key);
      }
    }
    if (source == "the default" && t.kind == VolumeKind::kAWSElasticBlockStore) {
      std::optional<StrId> type =
          c.node_object().meta.labels.Get(FindInterned(volume::kInstanceTypeLabel));
      if (type && volume::IsEbsNitroInstanceType(Str(*type))) {
        limit = 25;
        source = "the default for Nitro instance types";
      }
    }
    const int64_t in_use = static_cast<int64_t>(used.size());
    if (in_use + added <= limit) continue;
    Cause cause;
    cause.reason = reason;
    cause.kind = "volume";
    cause.message =
        fmt::format("{} volumes: the node allows {} ({}), its pods use {}, the pod adds {}", t.name,
                    limit, source, in_use, added);
    cause.details["volumeType"] = t.name;
    cause.details["limit"] = limit;
    cause.details["inUse"] = in_use;
    cause.details["added"] = added;
    out->push_back(std::move(cause));
  }
  ExplainCsiVolumeCount(c, reason, out);
}

namespace {

// The zone labels `keys` of each bound PV against the node's; with
// `ga_fallback` (v1.35) a beta key the node lacks is read as its GA key.
void ExplainVolumeZoneLabels(const NodeContext& c, std::string_view reason,
                             std::initializer_list<std::string_view> keys, std::vector<Cause>* out,
                             bool ga_fallback = false) {
  const Labels& here = c.node_object().meta.labels;
  for (const auto& [v, pv] : BoundVolumes(c)) {
    for (std::string_view key : keys) {
      std::optional<StrId> pv_value = pv->meta.labels.Get(FindInterned(key));
      if (!pv_value) continue;
      std::vector<std::string_view> zones;
      if (!volume::LabelZonesToSet(Str(*pv_value), &zones)) continue;
      std::string_view node_key = key;
      std::optional<StrId> node_value = here.Get(FindInterned(key));
      if (!node_value && ga_fallback) {
        if (key == volume::kZoneLabel) node_key = "topology.kubernetes.io/zone";
        if (key == volume::kRegionLabel) node_key = "topology.kubernetes.io/region";
        node_value = here.Get(FindInterned(node_key));
      }
      if (node_value && std::find(zones.begin(), zones.end(), Str(*node_value)) != zones.end())
        continue;
      Cause cause;
      cause.reason = reason;
      cause.kind = "volume";
      cause.message =
          fmt::format("volume {}: PersistentVolume {} has {}={}, node has {}", DescribeVolume(*v),
                      pv->meta.name, key, Str(*pv_value), NodeLabelValue(here, node_key));
      cause.details["volume"] = v->name;
      cause.details["persistentVolume"] = pv->meta.name;
      cause.details["label"] = key;
      cause.details["volumeValue"] = Str(*pv_value);
      out->push_back(std::move(cause));
    }
  }
}

}  // namespace

void ExplainVolumeZone(const NodeContext& c, std::string_view reason, std::vector<Cause>* out) {
  ExplainVolumeZoneLabels(c, reason, {volume::kZoneLabel, volume::kRegionLabel}, out);
}

void ExplainVolumeZoneV126(const NodeContext& c, std::string_view reason, std::vector<Cause>* out) {
  // v1.26's VolumeZone reads both generations of the labels.
  ExplainVolumeZoneLabels(c, reason,
                          {volume::kZoneLabel, volume::kRegionLabel, "topology.kubernetes.io/zone",
                           "topology.kubernetes.io/region"},
                          out);
}

void ExplainVolumeZoneV135(const NodeContext& c, std::string_view reason, std::vector<Cause>* out) {
  ExplainVolumeZoneLabels(c, reason,
                          {volume::kZoneLabel, volume::kRegionLabel, "topology.kubernetes.io/zone",
                           "topology.kubernetes.io/region"},
                          out, /*ga_fallback=*/true);
}

void ExplainVolumeBinding(const NodeContext& c, std::string_view reason, std::vector<Cause>* out) {
  const Node& node = c.node_object();
  if (reason == "node(s) had volume node affinity conflict" ||
      reason == "node(s) didn't match PersistentVolume's node affinity") {
    for (const auto& [v, pv] : BoundVolumes(c)) {
      if (!pv->node_affinity) continue;
      if (labels::CompiledNodeSelectorTerms::Compile(*pv->node_affinity)
              .Matches(node.meta.labels, node.meta.name))
        continue;
      std::vector<std::string> terms;
      for (const NodeSelectorTerm& t : pv->node_affinity->terms) {
        std::vector<std::string> reqs;
        for (const SelectorRequirement& r : t.match_expressions)
          reqs.push_back(FormatRequirement(r) + " [node has " +
                         NodeLabelValue(node.meta.labels, r.key) + "]");
        terms.push_back(fmt::format("{}", fmt::join(reqs, ", ")));
      }
      Cause cause;
      cause.reason = reason;
      cause.kind = "volume";
      cause.message = fmt::format("volume {}: PersistentVolume {} requires nodes matching {}",
                                  DescribeVolume(*v), pv->meta.name, fmt::join(terms, " or "));
      cause.details["volume"] = v->name;
      cause.details["persistentVolume"] = pv->meta.name;
      out->push_back(std::move(cause));
    }
    return;
  }
  // No PV to bind: the pod's unbound claims whose class waits for a consumer.
  for (const Volume& v : c.pod.spec.volumes) {
    if (v.kind != VolumeKind::kPersistentVolumeClaim) continue;
    const PersistentVolumeClaim* pvc = c.cluster.FindPvc(c.pod.meta.ns, v.id);
    if (pvc == nullptr || !pvc->volume_name.empty()) continue;
    if (!volume::IsDelayBinding(*pvc, c.cluster)) continue;
    Cause cause;
    cause.reason = reason;
    cause.kind = "volume";
    cause.message = fmt::format(
        "volume {}: claim {}/{} (storageClass {}{}) has no Available PersistentVolume this node "
        "can use (matching class, size, access modes and node affinity)",
        v.name, Str(c.pod.meta.ns), v.id, volume::ClaimClass(*pvc),
        pvc->request ? ", requests " + pvc->request->String() : "");
    cause.details["volume"] = v.name;
    cause.details["claim"] = fmt::format("{}/{}", Str(c.pod.meta.ns), v.id);
    out->push_back(std::move(cause));
  }
}

}  // namespace ksched::explain
