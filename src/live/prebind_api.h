// framework::PreBindApi over the cluster client: the PV and claim writes and
// reads of VolumeBinding's PreBind jobs in `ksched run`.
//
// Writes are JSON merge patches carrying the resourceVersion the scheduler
// saw, so a PV or claim changed since (taken by another pod, bound by the PV
// controller) is not overwritten: the API server answers 409 and PreBind
// fails, as upstream's Update of its assumed object would. The identity
// needs get and patch on persistentvolumes and persistentvolumeclaims
// (docs/run.md).
#pragma once

#include "client/cluster_client.h"
#include "framework/prebind.h"

namespace ksched::live {

class ClientPreBindApi final : public framework::PreBindApi {
 public:
  explicit ClientPreBindApi(client::ClusterClient* client) : c_(client) {}

  Status BindPersistentVolume(std::string_view name, std::string_view resource_version,
                              const std::optional<framework::ClaimReference>& claim_ref,
                              bool bound_by_controller) override;
  Status SetSelectedNode(std::string_view ns, std::string_view name,
                         std::string_view resource_version, std::string_view node) override;
  Result<std::optional<PersistentVolume>> GetPersistentVolume(std::string_view name) override;
  Result<std::optional<PersistentVolumeClaim>> GetPersistentVolumeClaim(
      std::string_view ns, std::string_view name) override;
  Result<bool> PodExists(std::string_view ns, std::string_view name) override;

 private:
  client::ClusterClient* c_;
};

// The merge patches (pure; for tests).
std::string BindPersistentVolumePatch(std::string_view resource_version,
                                      const std::optional<framework::ClaimReference>& claim_ref,
                                      bool bound_by_controller);
std::string SelectedNodePatch(std::string_view resource_version, std::string_view node);

}  // namespace ksched::live
