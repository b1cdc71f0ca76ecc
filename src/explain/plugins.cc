// The v1.26 framework's filter plugins: which explainer details each of
// their reasons. Many reasons are v1.15's words for the same check (host
// ports, disk conflicts, pod affinity, cordoned nodes) and keep v1.15's
// explainer; the rest are the framework's own (PodTopologySpread, the
// scheduler-enforced node affinity, the request with overhead, CSINode
// limits, capacity tracking).
#include <algorithm>

#include "explain/explain.h"
#include "framework/plugins/names/names.h"
#include "framework/schedule_one.h"

namespace ksched::explain {
namespace {

namespace names = framework::names;

bool ReasonStartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// The volume type an in-tree limits plugin counts ("" for other plugins), as
// ExplainVolumeCount names it.
std::string_view InTreeLimitType(std::string_view plugin) {
  if (plugin == names::kEBSLimits) return "AWS EBS";
  if (plugin == names::kGCEPDLimits) return "GCE PD";
  if (plugin == names::kAzureDiskLimits) return "Azure Disk";
  if (plugin == names::kCinderLimits) return "Cinder";
  return "";
}

// Whether any of the pod's required (anti-)affinity terms selects namespaces
// by label: v1.15's explainer reads only `namespaces` and would name the
// wrong pods (or none), so such terms get no cause.
bool UsesNamespaceSelector(const Pod& pod, bool anti) {
  const auto& a = pod.spec.affinity;
  if (!a) return false;
  const auto* terms = anti ? (a->pod_anti_affinity ? &a->pod_anti_affinity->required : nullptr)
                           : (a->pod_affinity ? &a->pod_affinity->required : nullptr);
  if (terms == nullptr) return false;
  for (const PodAffinityTerm& t : *terms)
    if (t.namespace_selector) return true;
  return false;
}

}  // namespace

bool CycleAtLeastV135(const NodeContext& c) {
  return c.cycle != nullptr && c.cycle->framework != nullptr &&
         c.cycle->framework->feature_gates().AtLeast(config::SchedulerVersion::kV135);
}

bool ExplainPluginReason(const NodeContext& c, std::string_view reason, std::vector<Cause>* out) {
  const std::string_view plugin = c.predicate;
  if (plugin == names::kPodTopologySpread) {
    ExplainTopologySpread(c, reason, out);
    return true;
  }
  if (plugin == names::kNodeAffinity) {
    if (reason == "node(s) didn't match scheduler-enforced node affinity") {
      ExplainAddedAffinity(c, reason, out);
    } else {
      // "node(s) didn't match Pod's node affinity/selector": spec.nodeSelector
      // and the required terms, as v1.15's MatchNodeSelector.
      ExplainNodeSelector(c, reason, out);
    }
    return true;
  }
  if (plugin == names::kNodeName) {
    ExplainHostName(c, reason, out);
    return true;
  }
  if (plugin == names::kTaintToleration &&
      ReasonStartsWith(reason, "node(s) had untolerated taint")) {
    // Upstream names the first untolerated NoSchedule/NoExecute taint; every
    // one is listed, so that one change fixes the node.
    ExplainTaints(c, reason, out);
    return true;
  }
  if (plugin == names::kNodeResourcesFit) {
    constexpr std::string_view kInsufficient = "Insufficient ";
    if (reason == "Too many pods") {
      ExplainInsufficient(c, reason, "pods", out);
    } else if (ReasonStartsWith(reason, kInsufficient)) {
      ExplainInsufficientV126(c, reason, reason.substr(kInsufficient.size()), out);
    } else {
      return false;
    }
    return true;
  }
  if (plugin == names::kNodeVolumeLimits && reason == "node(s) exceed max volume count") {
    ExplainCsiLimits(c, reason, out);
    return true;
  }
  if (std::string_view type = InTreeLimitType(plugin); !type.empty()) {
    // v1.15's count of the same in-tree type; only that type's cause.
    std::vector<Cause> all;
    ExplainVolumeCount(c, reason, &all);
    for (Cause& cause : all)
      if (cause.details.value("volumeType", "") == type) out->push_back(std::move(cause));
    return true;
  }
  if (plugin == names::kVolumeBinding &&
      (reason == "node(s) did not have enough free storage" ||
       reason == "node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)")) {
    ExplainClaimStorage(c, reason, out);
    return true;
  }
  if (plugin == names::kDynamicResources) {
    ExplainDeviceClaims(c, reason, out);
    return true;
  }
  if (plugin == names::kVolumeBinding &&
      reason == "node(s) didn't match PersistentVolume's node affinity") {
    ExplainVolumeBinding(c, reason, out);  // v1.35's words for the node affinity conflict
    return true;
  }
  if (plugin == names::kVolumeRestrictions &&
      reason ==
          "node(s) unavailable due to PersistentVolumeClaim with ReadWriteOncePod access mode "
          "already in-use by another pod") {
    // v1.35 rejects every node while a pod uses the claim.
    ExplainClaimsPreFilter(c.pod, c.cluster, reason, out);
    return true;
  }
  if (plugin == names::kVolumeZone && reason == "node(s) had no available volume zone") {
    if (CycleAtLeastV135(c)) {
      ExplainVolumeZoneV135(c, reason, out);
    } else {
      ExplainVolumeZoneV126(c, reason, out);
    }
    return true;
  }
  if (plugin == names::kInterPodAffinity &&
      ((reason == "node(s) didn't match pod affinity rules" &&
        UsesNamespaceSelector(c.pod, false)) ||
       (reason == "node(s) didn't match pod anti-affinity rules" &&
        UsesNamespaceSelector(c.pod, true)))) {
    return true;  // no cause rather than a wrong one
  }
  // NodeUnschedulable, NodePorts, VolumeRestrictions' disk conflict, the
  // rest of VolumeBinding and InterPodAffinity: v1.15's words, v1.15's
  // explainers.
  return false;
}

std::vector<Cause> ExplainPreFilterRejection(const Pod& pod, const ClusterState& cluster,
                                             std::string_view plugin, std::string_view reason) {
  std::vector<Cause> out;
  if (plugin == names::kNodeAffinity && reason == "pod affinity terms conflict") {
    ExplainAffinityTermsConflict(pod, reason, &out);
  } else if (plugin == names::kVolumeRestrictions || plugin == names::kVolumeBinding ||
             plugin == names::kVolumeZone) {
    ExplainClaimsPreFilter(pod, cluster, reason, &out);
  }
  return out;
}

}  // namespace ksched::explain
