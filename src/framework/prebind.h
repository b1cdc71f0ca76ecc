// PreBind work that runs off the scheduling thread (`ksched run`).
//
// Upstream runs PreBind in the pod's binding goroutine while the next
// scheduling cycles go on. In ksched the engine (its plugins, their caches,
// the CycleState) belongs to the scheduling thread and is not thread-safe,
// so a plugin whose PreBind talks to the API server splits it in two:
//   - PlanPreBind runs on the scheduling thread right after Reserve and
//     copies everything the work needs into a PreBindJob;
//   - the job runs later on a binding worker, with nothing but the API
//     (PreBindApi), and never reads the engine again.
// A failed job is answered on the scheduling thread with the Unreserve
// plugins, as upstream answers a failed PreBind.
#pragma once

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "api/types.h"
#include "framework/interface.h"
#include "util/result.h"

namespace ksched::framework {

// What spec.claimRef of a PV is set to (upstream's reference to the claim:
// kind PersistentVolumeClaim, apiVersion v1).
struct ClaimReference {
  std::string ns;
  std::string name;
  std::string uid;
  std::string resource_version;
};

// The API calls PreBind jobs make (live/ implements them with the cluster
// client; tests with fakes). Every call is made from a binding worker and
// must be thread-safe. Errors carry the HTTP code (Error::http_code).
class PreBindApi {
 public:
  virtual ~PreBindApi() = default;
  // Writes PV `name` as bound to a claim, only while its resourceVersion is
  // still `resource_version` (409 Conflict otherwise, as upstream's Update
  // of the assumed PV): spec.claimRef when `claim_ref` is set, and the
  // annotation pv.kubernetes.io/bound-by-controller: "yes" when
  // `bound_by_controller`.
  virtual ::ksched::Status BindPersistentVolume(std::string_view name,
                                                std::string_view resource_version,
                                                const std::optional<ClaimReference>& claim_ref,
                                                bool bound_by_controller) = 0;
  // Sets the annotation volume.kubernetes.io/selected-node: `node` on a
  // claim, under the same resourceVersion precondition.
  virtual ::ksched::Status SetSelectedNode(std::string_view ns, std::string_view name,
                                           std::string_view resource_version,
                                           std::string_view node) = 0;
  // The objects as the API server has them now; nullopt when not found.
  virtual Result<std::optional<PersistentVolume>> GetPersistentVolume(std::string_view name) = 0;
  virtual Result<std::optional<PersistentVolumeClaim>> GetPersistentVolumeClaim(
      std::string_view ns, std::string_view name) = 0;
  // False when the pod is not found.
  virtual Result<bool> PodExists(std::string_view ns, std::string_view name) = 0;
};

// One plugin's PreBind work for one pod, self-contained.
class PreBindJob {
 public:
  virtual ~PreBindJob() = default;
  // Runs on a binding worker: Success, or the plugin's failure (its
  // message without the "running PreBind plugin" prefix). A job that waits
  // returns soon after `stop` becomes true (the scheduler shuts down).
  virtual Status Run(PreBindApi* api, const std::atomic<bool>& stop) const = 0;
};

// A PreBind plugin whose work can be planned on the scheduling thread.
class PlannedPreBindPlugin : public PreBindPlugin {
 public:
  // After Reserve, on the scheduling thread: *job is the work to run before
  // the pod is bound (nullptr when there is none); an Error status when the
  // plugin cannot plan it (PreBind fails with it).
  virtual Status PlanPreBind(CycleState* state, const Pod& pod, NodeId node,
                             std::unique_ptr<PreBindJob>* job) = 0;
};

}  // namespace ksched::framework
