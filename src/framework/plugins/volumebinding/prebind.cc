#include "framework/plugins/volumebinding/prebind.h"

#include <algorithm>
#include <thread>

#include "framework/plugins/nodevolumelimits/csi_translation.h"
#include "framework/plugins/volumebinding/binder.h"
#include "predicates/volume_util.h"

namespace ksched::framework::volumebinding {
namespace {

using Clock = std::chrono::steady_clock;

std::string ClaimKey(const std::string& ns, const std::string& name) { return ns + "/" + name; }

std::string NotFound(std::string_view type, const std::string& name) {
  return "could not find " + std::string(type) + " " + volume::GoQuote(name);
}

// isPVCFullyBound: the PV controller finished (volumeName and bind-completed).
bool FullyBound(const PersistentVolumeClaim& pvc) {
  return !pvc.volume_name.empty() &&
         pvc.meta.Annotation(volume::kBindCompletedAnnotation) != nullptr;
}

// Sleeps `d` in short steps; false when `stop` became true meanwhile.
bool SleepUnlessStopped(std::chrono::milliseconds d, const std::atomic<bool>& stop) {
  const Clock::time_point end = Clock::now() + d;
  while (!stop.load()) {
    const Clock::time_point now = Clock::now();
    if (now >= end) return true;
    std::this_thread::sleep_for(
        std::min<Clock::duration>(end - now, std::chrono::milliseconds(50)));
  }
  return false;
}

}  // namespace

Status VolumeBindingJob::Run(PreBindApi* api, const std::atomic<bool>& stop) const {
  if (Status s = WriteBindings(api); !s.IsSuccess()) return s;
  // wait.Poll: the first check one interval after the writes, the last one
  // when the timeout has passed.
  const Clock::time_point start = Clock::now();
  while (true) {
    if (!SleepUnlessStopped(interval, stop))
      return Status::Error("binding volumes: the scheduler is shutting down");
    bool done = false;
    if (Status s = CheckBindings(api, &done); !s.IsSuccess())
      return Status::Error("binding volumes: " + s.Message());
    if (done) return Status();
    if (timeout.count() > 0 && Clock::now() - start >= timeout)
      return Status::Error("binding volumes: timed out waiting for the condition");
  }
}

Status VolumeBindingJob::WriteBindings(PreBindApi* api) const {
  // Upstream leaves no API write undone on failure: the PV controller
  // repairs what a half-written binding leaves behind.
  for (const StaticBinding& b : bindings) {
    ::ksched::Status s = api->BindPersistentVolume(b.pv_name, b.pv_resource_version, b.claim_ref,
                                                   b.bound_by_controller);
    if (!s.ok()) return Status::Error(s.error().message);
  }
  for (const Provisioning& p : provisionings) {
    ::ksched::Status s =
        api->SetSelectedNode(p.claim_ns, p.claim_name, p.claim_resource_version, node_name);
    if (!s.ok()) return Status::Error(s.error().message);
  }
  return Status();
}

Status VolumeBindingJob::CheckPvNodeAffinity(const PersistentVolume& pv,
                                             bool translate_error_wrapped) const {
  std::optional<NodeSelector> affinity = pv.node_affinity;
  const std::string_view plugin = csi::InTreePluginName(pv.kind);
  if (!plugin.empty() && csi_node && csi::MigrationGateOn(plugin) &&
      csi::MigratedOnNode(&*csi_node, plugin)) {
    csi::TranslatedVolume t;
    std::string error;
    if (!csi::TranslatePV(pv, &t, &error)) {
      return Status::Error(translate_error_wrapped ? "failed to translate pv to csi: " + error
                                                   : error);
    }
    affinity = std::move(t.node_affinity);
  }
  if (PvNodeAffinity(affinity).Matches(node_labels)) return Status();
  return Status::Error("pv " + volume::GoQuote(pv.meta.name) +
                       " node affinity doesn't match node " + volume::GoQuote(node_name) +
                       ": no matching NodeSelectorTerms");
}

Status VolumeBindingJob::CheckBindings(PreBindApi* api, bool* done) const {
  *done = false;
  // A pod deleted meanwhile cancels the binding; other read errors do not.
  if (Result<bool> exists = api->PodExists(pod_ns, pod_name); exists.ok() && !*exists) {
    return Status::Error("pod does not exist any more: pod " + volume::GoQuote(pod_name) +
                         " not found");
  }
  for (const StaticBinding& b : bindings) {
    auto pv = api->GetPersistentVolume(b.pv_name);
    if (!pv.ok()) return Status::Error("failed to check binding: " + pv.error().message);
    if (!*pv) {
      return Status::Error("failed to check binding: " +
                           NotFound("v1.PersistentVolume", b.pv_name));
    }
    auto pvc = api->GetPersistentVolumeClaim(b.claim_ns, b.claim_name);
    if (!pvc.ok()) return Status::Error("failed to check binding: " + pvc.error().message);
    if (!*pvc) {
      return Status::Error(
          "failed to check binding: " +
          NotFound("v1.PersistentVolumeClaim", ClaimKey(b.claim_ns, b.claim_name)));
    }
    if (Status s = CheckPvNodeAffinity(**pv, true); !s.IsSuccess()) return s;
    if (!(*pv)->claim_ref || (*pv)->claim_ref_uid.empty())
      return Status::Error("ClaimRef got reset for pv " + volume::GoQuote(b.pv_name));
    if (!FullyBound(**pvc)) return Status();
  }
  for (const Provisioning& p : provisionings) {
    auto pvc = api->GetPersistentVolumeClaim(p.claim_ns, p.claim_name);
    if (!pvc.ok()) return Status::Error("failed to check provisioning pvc: " + pvc.error().message);
    if (!*pvc) {
      return Status::Error(
          "failed to check provisioning pvc: " +
          NotFound("v1.PersistentVolumeClaim", ClaimKey(p.claim_ns, p.claim_name)));
    }
    const PersistentVolumeClaim& claim = **pvc;
    if (claim.meta.annotations.empty())
      return Status::Error("selectedNode annotation reset for PVC " +
                           volume::GoQuote(p.claim_name));
    const std::string* selected = claim.meta.Annotation(volume::kSelectedNodeAnnotation);
    if (selected == nullptr || *selected != node_name)
      return Status::Error("provisioning failed for PVC " + volume::GoQuote(p.claim_name));
    if (!claim.volume_name.empty()) {
      auto pv = api->GetPersistentVolume(claim.volume_name);
      if (!pv.ok()) {
        return Status::Error("failed to get pv " + volume::GoQuote(claim.volume_name) +
                             " from cache: " + pv.error().message);
      }
      if (!*pv) return Status();  // not there yet: checked again at the next poll
      if (Status s = CheckPvNodeAffinity(**pv, false); !s.IsSuccess()) return s;
    }
    if (!FullyBound(claim)) return Status();
  }
  *done = true;
  return Status();
}

}  // namespace ksched::framework::volumebinding
