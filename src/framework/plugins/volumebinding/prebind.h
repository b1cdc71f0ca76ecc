// VolumeBinding's PreBind as a job (framework/prebind.h): upstream's
// BindPodVolumes over what Reserve assumed for the chosen node.
//
// The job first writes the assumed objects: each statically bound PV gets
// the claim as its claimRef (and pv.kubernetes.io/bound-by-controller), each
// claim to provision gets volume.kubernetes.io/selected-node, each write
// conditional on the resourceVersion the scheduler saw. Then it polls the API
// server every `interval` until every claim is fully bound (the PV
// controller sets spec.volumeName and pv.kubernetes.io/bind-completed),
// until a check finds the binding undone (PV, claim or pod gone, claimRef
// reset, selected-node annotation removed, the PV's node affinity no longer
// matching the node), or until `timeout` (0: no limit) has passed, with
// upstream's messages ("binding volumes: timed out waiting for the
// condition", ...).
//
// Where upstream reads the PVs and claims from its informers, the job GETs
// them, so every check sees the API server's latest state; the node's labels
// and CSINode are the scheduler's view when the pod was reserved.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "api/types.h"
#include "framework/prebind.h"

namespace ksched::framework::volumebinding {

struct VolumeBindingJob final : PreBindJob {
  struct StaticBinding {
    std::string pv_name;
    std::string pv_resource_version;          // the precondition of the write
    std::optional<ClaimReference> claim_ref;  // set when the claimRef changes
    bool bound_by_controller = false;         // the annotation is added
    std::string claim_ns;
    std::string claim_name;
  };
  struct Provisioning {
    std::string claim_ns;
    std::string claim_name;
    std::string claim_resource_version;
  };

  std::string pod_ns;
  std::string pod_name;
  std::string node_name;
  Labels node_labels;
  std::optional<CSINode> csi_node;
  std::vector<StaticBinding> bindings;
  std::vector<Provisioning> provisionings;
  std::chrono::milliseconds timeout{600'000};  // VolumeBindingArgs.bindTimeoutSeconds
  std::chrono::milliseconds interval{1000};

  Status Run(PreBindApi* api, const std::atomic<bool>& stop) const override;

 private:
  Status WriteBindings(PreBindApi* api) const;
  // One poll (upstream's checkBindings): *done when every claim is fully
  // bound; an Error when the binding must be retried by rescheduling.
  Status CheckBindings(PreBindApi* api, bool* done) const;
  // The PV's node affinity (CSI-translated where the node migrated its
  // plugin) against the node's labels.
  Status CheckPvNodeAffinity(const PersistentVolume& pv, bool translate_error_wrapped) const;
};

}  // namespace ksched::framework::volumebinding
