// The pod's PersistentVolumeClaims behind the framework's volume verdicts:
//  - per node (VolumeBinding): a claim to provision from a driver that
//    tracks storage capacity ("did not have enough free storage"), a claim
//    bound to a PV the cluster does not have;
//  - for the whole pod (PreFilter): the pods already using a
//    ReadWriteOncePod claim (VolumeRestrictions; v1.35 says it on every node
//    instead), claims that do not exist, unbound claims whose class binds
//    immediately (VolumeBinding), claims bound to a PV that does not exist
//    (v1.35's VolumeZone).
#include <fmt/format.h>

#include "explain/explain.h"
#include "predicates/volume_util.h"

namespace ksched::explain {
namespace {

std::string ClaimKey(const Pod& pod, const Volume& v) {
  return fmt::format("{}/{}", Str(pod.meta.ns), v.id);
}

bool IsClaim(const Volume& v) {
  return v.kind == VolumeKind::kPersistentVolumeClaim || v.kind == VolumeKind::kEphemeral;
}

Cause ClaimCause(std::string_view reason, const Pod& pod, const Volume& v) {
  Cause cause;
  cause.reason = reason;
  cause.kind = "volume";
  cause.details["volume"] = v.name;
  cause.details["claim"] = ClaimKey(pod, v);
  return cause;
}

}  // namespace

void ExplainClaimStorage(const NodeContext& c, std::string_view reason, std::vector<Cause>* out) {
  const bool capacity = reason == "node(s) did not have enough free storage";
  for (const Volume& v : c.pod.spec.volumes) {
    if (!IsClaim(v)) continue;
    const PersistentVolumeClaim* pvc = c.cluster.FindPvc(c.pod.meta.ns, v.id);
    if (pvc == nullptr) continue;
    if (!capacity) {
      if (pvc->volume_name.empty() || c.cluster.FindPv(pvc->volume_name) != nullptr) continue;
      Cause cause = ClaimCause(reason, c.pod, v);
      cause.message = fmt::format(
          "volume {}: claim {} is bound to PersistentVolume {}, which is not in the cluster",
          v.name, ClaimKey(c.pod, v), pvc->volume_name);
      cause.details["persistentVolume"] = pvc->volume_name;
      out->push_back(std::move(cause));
      continue;
    }
    if (!pvc->volume_name.empty() || !pvc->request) continue;
    std::string_view class_name = volume::ClaimClass(*pvc);
    const StorageClass* sc = class_name.empty() ? nullptr : c.cluster.FindStorageClass(class_name);
    if (sc == nullptr) continue;
    if (volume::HasEnoughCapacity(c.cluster, sc->provisioner, *pvc, class_name,
                                  c.cluster.node_info(c.node)))
      continue;
    Cause cause = ClaimCause(reason, c.pod, v);
    cause.message = fmt::format(
        "volume {}: claim {} (requests {}) is to be provisioned by {} (storageClass {}), whose "
        "CSIDriver tracks storage capacity (storageCapacity: true); no CSIStorageCapacity of "
        "that class selects this node with room for it",
        v.name, ClaimKey(c.pod, v), pvc->request->String(), sc->provisioner, class_name);
    cause.details["storageClass"] = class_name;
    cause.details["provisioner"] = sc->provisioner;
    out->push_back(std::move(cause));
  }
}

void ExplainClaimsPreFilter(const Pod& pod, const ClusterState& cluster, std::string_view reason,
                            std::vector<Cause>* out) {
  const bool rwop =
      reason ==
          "node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod "
          "access mode" ||
      reason ==
          "node(s) unavailable due to PersistentVolumeClaim with ReadWriteOncePod access mode "
          "already in-use by another pod";
  const bool immediate = reason == "pod has unbound immediate PersistentVolumeClaims";
  for (const Volume& v : pod.spec.volumes) {
    if (!IsClaim(v)) continue;
    const PersistentVolumeClaim* pvc = cluster.FindPvc(pod.meta.ns, v.id);
    if (pvc == nullptr) {
      if (reason != "persistentvolumeclaim " + GoQuote(v.id) + " not found") continue;
      Cause cause = ClaimCause(reason, pod, v);
      cause.message = fmt::format("volume {}: claim {} is not in the cluster (create it first)",
                                  v.name, ClaimKey(pod, v));
      out->push_back(std::move(cause));
      continue;
    }
    if (!pvc->volume_name.empty() &&
        reason == "persistentvolume " + GoQuote(pvc->volume_name) + " not found") {
      Cause cause = ClaimCause(reason, pod, v);
      cause.message = fmt::format(
          "volume {}: claim {} is bound to PersistentVolume {}, which is not in the "
          "cluster",
          v.name, ClaimKey(pod, v), pvc->volume_name);
      cause.details["persistentVolume"] = pvc->volume_name;
      out->push_back(std::move(cause));
      continue;
    }
    if (rwop) {
      bool rwop_claim = false;
      for (const std::string& m : pvc->access_modes)
        rwop_claim = rwop_claim || m == "ReadWriteOncePod";
      if (!rwop_claim || v.kind != VolumeKind::kPersistentVolumeClaim) continue;
      std::vector<std::string> users;
      for (const NodeInfo& ni : cluster.node_infos()) {
        for (PodId id : ni.pods) {
          const Pod& p = cluster.pod(id).pod;
          if (p.meta.ns != pod.meta.ns) continue;
          for (const Volume& pv : p.spec.volumes) {
            if (pv.kind == VolumeKind::kPersistentVolumeClaim && pv.id == v.id) {
              users.push_back(fmt::format("{} (on {})", p.Key(), ni.name()));
              break;
            }
          }
        }
      }
      if (users.empty()) continue;
      Cause cause = ClaimCause(reason, pod, v);
      cause.message = fmt::format(
          "volume {}: claim {} has access mode ReadWriteOncePod and is already used by {}; only "
          "one pod at a time may use it",
          v.name, ClaimKey(pod, v), JoinLimited(users));
      cause.details["pods"] = users;
      out->push_back(std::move(cause));
    } else if (immediate) {
      const bool bind_completed = pvc->meta.Annotation(volume::kBindCompletedAnnotation) != nullptr;
      if (!pvc->volume_name.empty()) {
        if (bind_completed) continue;  // fully bound
        Cause cause = ClaimCause(reason, pod, v);
        cause.message = fmt::format(
            "volume {}: claim {} names PersistentVolume {} but has no {} annotation: its binding "
            "is not complete",
            v.name, ClaimKey(pod, v), pvc->volume_name, volume::kBindCompletedAnnotation);
        cause.details["persistentVolume"] = pvc->volume_name;
        out->push_back(std::move(cause));
        continue;
      }
      if (volume::IsDelayBinding(*pvc, cluster)) continue;
      std::string_view class_name = volume::ClaimClass(*pvc);
      Cause cause = ClaimCause(reason, pod, v);
      cause.message = fmt::format(
          "volume {}: claim {} is not bound and its storageClass {} binds immediately "
          "(volumeBindingMode Immediate): the PersistentVolume controller must bind it before the "
          "pod can be scheduled",
          v.name, ClaimKey(pod, v), class_name.empty() ? "\"\"" : class_name);
      cause.details["storageClass"] = class_name;
      out->push_back(std::move(cause));
    }
  }
}

}  // namespace ksched::explain
