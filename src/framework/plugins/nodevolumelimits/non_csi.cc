// EBSLimits, GCEPDLimits, AzureDiskLimits and CinderLimits (v1.26's
// nonCSILimits): a node fails when its pods' unique volumes of the plugin's
// type plus the pod's new ones exceed the node's limit.
//
// The limit is the node's allocatable "attachable-volumes-<type>" when it
// lists one, else KUBE_MAX_PD_VOLS, else the type's default (EBS 25 on Nitro
// instance types and 39 otherwise, GCE PD 16, Azure Disk 16, Cinder 256).
// Volumes are counted by id: an inline volume's, or for a claim the bound
// PV's when it is of the type. A claim without a bound PV (unbound, or bound
// to a missing PV) counts under a private per-claim id when its
// spec.storageClassName names a class whose provisioner is the type's
// in-tree plugin. When the node's CSINode says the type migrated to CSI,
// NodeVolumeLimits counts it instead and this plugin passes the node.
#include <algorithm>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "framework/plugins/names/names.h"
#include "framework/plugins/nodevolumelimits/csi_translation.h"
#include "framework/plugins/nodevolumelimits/utils.h"
#include "framework/plugins/registry_factories.h"
#include "predicates/volume_util.h"

namespace ksched::framework::plugins {
namespace {

enum class FilterType { kEBS, kGCEPD, kAzureDisk, kCinder };

struct TypeInfo {
  const char* name;
  VolumeKind kind;
  std::string_view limit_key;
  std::string_view in_tree_plugin;
  int default_limit;  // EBS: the non-Nitro default
};

TypeInfo Info(FilterType t) {
  switch (t) {
    case FilterType::kEBS:
      return {names::kEBSLimits, VolumeKind::kAWSElasticBlockStore, "attachable-volumes-aws-ebs",
              csi::kAWSEBSInTreePluginName, 39};
    case FilterType::kGCEPD:
      return {names::kGCEPDLimits, VolumeKind::kGCEPersistentDisk, "attachable-volumes-gce-pd",
              csi::kGCEPDInTreePluginName, 16};
    case FilterType::kAzureDisk:
      return {names::kAzureDiskLimits, VolumeKind::kAzureDisk, "attachable-volumes-azure-disk",
              csi::kAzureDiskInTreePluginName, 16};
    case FilterType::kCinder:
      return {names::kCinderLimits, VolumeKind::kCinder, "attachable-volumes-cinder",
              csi::kCinderInTreePluginName, 256};
  }
  return {};
}

constexpr int kEbsNitroLimit = 25;

// getMaxVolLimitFromEnv: a positive KUBE_MAX_PD_VOLS, else -1.
int MaxVolumesFromEnv() {
  const char* raw = std::getenv("KUBE_MAX_PD_VOLS");
  if (raw == nullptr || *raw == '\0') return -1;
  char* end = nullptr;
  long v = std::strtol(raw, &end, 10);
  if (*end != '\0' || v <= 0 || v > INT32_MAX) return -1;
  return static_cast<int>(v);
}

// An id in the plugin's set. Real ids point into the pod or PV naming them;
// a claim counted without a PV is keyed by namespace and claim name, which
// upstream prefixes with a random string so it never equals a real id.
struct VolumeKey {
  bool claim = false;
  StrId ns = kEmptyStr;  // claim only
  std::string_view id;
  auto operator<=>(const VolumeKey&) const = default;
};

class NonCSILimits final : public FilterPlugin, public EnqueueExtensions {
 public:
  NonCSILimits(Handle* handle, FilterType type)
      : handle_(handle),
        info_(Info(type)),
        env_limit_(MaxVolumesFromEnv()),
        limit_key_(Intern(info_.limit_key)) {}

  std::string_view Name() const override { return info_.name; }

  // Without volumes every Filter passes and Score is 0; with volumes, claims
  // and assumed bindings are read: run every cycle.
  bool NodeLocalFor(const Pod& pod) const override { return pod.spec.volumes.empty(); }
  bool PassesEveryNodeFor(const Pod& pod) const override { return pod.spec.volumes.empty(); }

  Status Filter(const CycleState&, const Pod& pod, const NodeInfo& node) const override {
    if (pod.spec.volumes.empty()) return Status();
    const ClusterState& cluster = handle_->cluster();
    std::vector<VolumeKey> new_volumes;
    if (Status s = FilterVolumes(cluster, pod, true, &new_volumes); !s.IsSuccess()) return s;
    MakeSet(&new_volumes);
    if (new_volumes.empty()) return Status();
    if (node.node == nullptr) return Status::Error("node not found");

    // Migrated to CSI on this node: NodeVolumeLimits counts these volumes.
    if (csi::CSIMigrationOn(csi::CSINodeOf(cluster, node), info_.in_tree_plugin)) return Status();

    std::vector<VolumeKey> existing;
    for (PodId id : node.pods) {
      if (Status s = FilterVolumes(cluster, cluster.pod(id).pod, false, &existing); !s.IsSuccess())
        return s;
    }
    MakeSet(&existing);
    size_t num_new = 0;
    for (const VolumeKey& k : new_volumes)
      if (!std::binary_search(existing.begin(), existing.end(), k)) ++num_new;

    int64_t max_limit = MaxVolumes(node);
    if (std::optional<int64_t> l = nodevolumelimits::AllocatableLimit(node, limit_key_))
      max_limit = *l;
    if (static_cast<int64_t>(existing.size() + num_new) > max_limit)
      return Status::Unschedulable(nodevolumelimits::kErrReasonMaxVolumeCountExceeded);
    return Status();
  }

  std::vector<ClusterEvent> EventsToRegister() const override {
    return {{EventResource::kNode, kAdd, "NodeAdd"}, {EventResource::kPod, kDelete, "PodDelete"}};
  }

 private:
  static void MakeSet(std::vector<VolumeKey>* keys) {
    std::sort(keys->begin(), keys->end());
    keys->erase(std::unique(keys->begin(), keys->end()), keys->end());
  }

  int64_t MaxVolumes(const NodeInfo& node) const {
    if (env_limit_ > 0) return env_limit_;
    if (info_.kind != VolumeKind::kAWSElasticBlockStore) return info_.default_limit;
    static const StrId kBeta = Intern("beta.kubernetes.io/instance-type");
    static const StrId kStable = Intern("node.kubernetes.io/instance-type");
    std::string_view instance_type;
    for (const auto& [k, v] : node.labels()) {
      if (k == kBeta || k == kStable) {
        instance_type = Str(v);
        break;
      }
    }
    return volume::IsEbsNitroInstanceType(instance_type) ? kEbsNitroLimit : info_.default_limit;
  }

  // matchProvisioner: spec.storageClassName (not the beta annotation) names
  // a class provisioned by this type's in-tree plugin.
  bool MatchProvisioner(const ClusterState& cluster, const PersistentVolumeClaim& pvc) const {
    if (!pvc.storage_class_name) return false;
    const StorageClass* sc = cluster.FindStorageClass(*pvc.storage_class_name);
    return sc != nullptr && sc->provisioner == info_.in_tree_plugin;
  }

  // filterVolumes for one pod: appends the ids of its volumes of the type.
  Status FilterVolumes(const ClusterState& cluster, const Pod& pod, bool new_pod,
                       std::vector<VolumeKey>* out) const {
    for (const Volume& vol : pod.spec.volumes) {
      if (vol.kind == info_.kind) {
        out->push_back({false, kEmptyStr, vol.id});
        continue;
      }
      if (vol.kind != VolumeKind::kPersistentVolumeClaim && vol.kind != VolumeKind::kEphemeral)
        continue;
      if (vol.id.empty()) return Status::Error("PersistentVolumeClaim had no name");
      const PersistentVolumeClaim* pvc = cluster.FindPvc(pod.meta.ns, vol.id);
      if (pvc == nullptr) {
        if (new_pod) {
          return Status::Error("looking up PVC " + std::string(Str(pod.meta.ns)) + "/" + vol.id +
                               ": persistentvolumeclaim " + volume::GoQuote(vol.id) + " not found");
        }
        continue;
      }
      if (vol.kind == VolumeKind::kEphemeral) {
        if (Status s = nodevolumelimits::EphemeralVolumeIsForPod(pod, *pvc); !s.IsSuccess())
          return s;
      }
      const VolumeKey claim_key{true, pod.meta.ns, vol.id};
      if (pvc->volume_name.empty()) {
        if (MatchProvisioner(cluster, *pvc)) out->push_back(claim_key);
        continue;
      }
      const PersistentVolume* pv = cluster.FindPv(pvc->volume_name);
      if (pv == nullptr) {
        if (MatchProvisioner(cluster, *pvc)) out->push_back(claim_key);
        continue;
      }
      if (pv->kind == info_.kind) out->push_back({false, kEmptyStr, pv->volume_id});
    }
    return Status();
  }

  Handle* handle_;
  TypeInfo info_;
  int env_limit_;
  StrId limit_key_;
};

}  // namespace

std::unique_ptr<Plugin> NewEBSLimits(const config::PluginArgs&, Handle* handle, Status*) {
  return std::make_unique<NonCSILimits>(handle, FilterType::kEBS);
}

std::unique_ptr<Plugin> NewGCEPDLimits(const config::PluginArgs&, Handle* handle, Status*) {
  return std::make_unique<NonCSILimits>(handle, FilterType::kGCEPD);
}

std::unique_ptr<Plugin> NewAzureDiskLimits(const config::PluginArgs&, Handle* handle, Status*) {
  return std::make_unique<NonCSILimits>(handle, FilterType::kAzureDisk);
}

std::unique_ptr<Plugin> NewCinderLimits(const config::PluginArgs&, Handle* handle, Status*) {
  return std::make_unique<NonCSILimits>(handle, FilterType::kCinder);
}

}  // namespace ksched::framework::plugins
