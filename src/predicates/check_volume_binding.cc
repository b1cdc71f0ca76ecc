// CheckVolumeBinding: what upstream's volume binder (FindPodVolumes) decides
// for a node, with the binder's PV and PVC caches taken as the cluster's
// objects (nothing is assumed or bound between pods).
//
// The pod's claims fall into three groups (upstream's getPodVolumes):
//  - bound: spec.volumeName set AND the pv.kubernetes.io/bind-completed
//    annotation present. Each bound PV's required node affinity must match
//    the node, else "node(s) had volume node affinity conflict".
//  - to bind: not bound, no volumeName, and a WaitForFirstConsumer class.
//    Each needs an available PV (see FindMatch below), or dynamic provisioning
//    by its class, else "node(s) didn't find available persistent volumes to
//    bind". A claim already carrying volume.kubernetes.io/selected-node goes
//    straight to provisioning, on that node only.
//  - anything else (Immediate class, no class, unknown class, or volumeName
//    without bind-completed) is an "unbound immediate" claim: upstream fails
//    the predicate with an error on every node, which aborts the cycle. Here
//    Prepare() returns that error.
// Both reasons can be reported for one node, in that order.
//
// Everything that does not depend on the node is decided in Prepare(): claim
// lookups, the PVs each claim may take (static filters: phase Available, no
// claimRef, not being deleted, class, selector, access modes, size), the
// sorted claim order, and each PV's compiled node affinity. Check() only
// evaluates node affinities and walks the candidate lists.
//
// Known gaps, for lack of fields in api/types.h: volumeMode is not compared
// (upstream skips PVs whose volumeMode differs from the claim's), and a
// class's allowedTopologies are taken to allow every node.
#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <unordered_map>
#include <vector>

#include "labels/label_selector.h"
#include "labels/node_selector.h"
#include "predicates/factories.h"
#include "predicates/volume_util.h"

namespace ksched {
namespace {

ReasonId VolumeNodeConflictReason() {
  static const ReasonId id = Intern("node(s) had volume node affinity conflict");
  return id;
}
ReasonId VolumeBindConflictReason() {
  static const ReasonId id = Intern("node(s) didn't find available persistent volumes to bind");
  return id;
}

constexpr uint32_t kNoPv = 0xffffffffu;

// A PV some claim of the pod refers to or may take, with its node affinity.
struct PvEntry {
  const PersistentVolume* pv = nullptr;
  bool has_affinity = false;
  labels::CompiledNodeSelectorTerms terms;
};

// An unbound claim to match against PVs on each node.
struct ClaimToMatch {
  // PVs pre-bound to this claim (claimRef names it) and large enough; upstream
  // takes the first one it meets, or nothing if its affinity fails.
  std::vector<uint32_t> prebound;
  // Available PVs that pass every static filter, smallest first.
  std::vector<uint32_t> available;
  // The class can provision a volume when no PV matches.
  bool provisionable = false;
};

struct BindingState : PredicateState {
  bool has_claims = false;  // the pod has at least one claim volume
  std::vector<PvEntry> pvs;
  std::vector<uint32_t> bound;  // bound claims' PVs, in volume order
  bool has_to_bind = false;
  // Claims with the selected-node annotation: the node they name (nullptr if
  // they disagree or the node does not exist) and whether all can provision.
  bool has_selected = false;
  const NodeInfo* selected_node = nullptr;
  bool selected_provisionable = true;
  std::vector<ClaimToMatch> to_match;  // in upstream's (Go-sorted) order
};

// Upstream evaluates PV node affinity with node labels only (no fields), so
// matchFields see an empty metadata.name.
bool AffinityMatches(const PvEntry& e, const NodeInfo& node) {
  return !e.has_affinity || e.terms.Matches(node.labels(), std::string_view());
}

bool AccessModesSatisfied(const PersistentVolumeClaim& pvc, const PersistentVolume& pv) {
  for (const std::string& m : pvc.access_modes) {
    if (std::find(pv.access_modes.begin(), pv.access_modes.end(), m) == pv.access_modes.end()) {
      return false;
    }
  }
  return true;
}

// pvutil.IsVolumeBoundToClaim.
bool IsPreboundTo(const PersistentVolume& pv, const PersistentVolumeClaim& pvc) {
  if (!pv.claim_ref) return false;
  if (pv.claim_ref->second != pvc.meta.name || pv.claim_ref->first != Str(pvc.meta.ns)) {
    return false;
  }
  return pv.claim_ref_uid.empty() || pv.claim_ref_uid == pvc.meta.uid;
}

Quantity OrZero(const std::optional<Quantity>& q) { return q ? *q : Quantity(); }

// checkVolumeProvisions for one claim, minus allowedTopologies (see above).
bool CanProvision(const PersistentVolumeClaim& pvc, const ClusterState& cluster) {
  const StorageClass* sc = cluster.FindStorageClass(volume::ClaimClass(pvc));
  return sc != nullptr && !sc->provisioner.empty() && sc->provisioner != volume::kNoProvisioner;
}

std::string ClaimKey(const PersistentVolumeClaim& pvc) {
  return fmt::format("{}/{}", Str(pvc.meta.ns), pvc.meta.name);
}

class CheckVolumeBinding : public Predicate {
 public:
  Result<std::unique_ptr<PredicateState>> Prepare(const PodToSchedule& pod,
                                                  const ClusterState& cluster) const override {
    auto state = std::make_unique<BindingState>();
    const Pod& p = pod.pod();
    std::unordered_map<const PersistentVolume*, uint32_t> pv_index;
    auto entry = [&](const PersistentVolume* pv) -> uint32_t {
      auto [it, inserted] = pv_index.emplace(pv, static_cast<uint32_t>(state->pvs.size()));
      if (inserted) {
        PvEntry e;
        e.pv = pv;
        if (pv->node_affinity) {
          e.has_affinity = true;
          e.terms = labels::CompiledNodeSelectorTerms::Compile(*pv->node_affinity);
        }
        state->pvs.push_back(std::move(e));
      }
      return it->second;
    };

    // ---- sort the claims (getPodVolumes)
    std::vector<const PersistentVolumeClaim*> bound, to_bind;
    bool has_immediate = false;
    for (const Volume& v : p.spec.volumes) {
      if (v.kind != VolumeKind::kPersistentVolumeClaim) continue;
      state->has_claims = true;
      const PersistentVolumeClaim* pvc = cluster.FindPvc(p.meta.ns, v.id);
      if (pvc == nullptr) {
        std::string key = fmt::format("{}/{}", Str(p.meta.ns), v.id);
        return MakeError(
            fmt::format("error getting PVC {}: could not find "
                        "v1.PersistentVolumeClaim {}",
                        volume::GoQuote(key), volume::GoQuote(key)));
      }
      if (!pvc->volume_name.empty() && pvc->meta.Annotation(volume::kBindCompletedAnnotation)) {
        bound.push_back(pvc);
      } else if (pvc->volume_name.empty() && volume::IsDelayBinding(*pvc, cluster)) {
        to_bind.push_back(pvc);
      } else {
        has_immediate = true;
      }
    }
    if (!state->has_claims) return std::unique_ptr<PredicateState>(std::move(state));
    if (has_immediate) return MakeError("pod has unbound immediate PersistentVolumeClaims");

    // ---- bound claims (checkBoundClaims)
    for (const PersistentVolumeClaim* pvc : bound) {
      const PersistentVolume* pv = cluster.FindPv(pvc->volume_name);
      if (pv == nullptr) {
        // Upstream errors on the nodes that pass the claims before this one;
        // the others just fail the bound check and never look this far.
        for (const NodeInfo& n : cluster.node_infos()) {
          if (BoundMatch(*state, n)) {
            return MakeError(fmt::format("could not find v1.PersistentVolume {}",
                                         volume::GoQuote(pvc->volume_name)));
          }
        }
        break;
      }
      state->bound.push_back(entry(pv));
    }

    // ---- unbound claims (FindPodVolumes' second half)
    state->has_to_bind = !to_bind.empty();
    std::vector<const PersistentVolumeClaim*> to_match;
    for (const PersistentVolumeClaim* pvc : to_bind) {
      const std::string* selected = pvc->meta.Annotation(volume::kSelectedNodeAnnotation);
      if (selected == nullptr) {
        to_match.push_back(pvc);
        continue;
      }
      NodeId id = cluster.FindNode(*selected);
      const NodeInfo* node = id == kNoNode ? nullptr : &cluster.node_info(id);
      if (!state->has_selected) {
        state->selected_node = node;
      } else if (state->selected_node != node) {
        state->selected_node = nullptr;  // two claims name different nodes: none fits
      }
      state->has_selected = true;
      state->selected_provisionable = state->selected_provisionable && CanProvision(*pvc, cluster);
    }
    if (state->has_selected && state->selected_node == nullptr) {
      // Every node fails before matching, so nothing below can matter.
      return std::unique_ptr<PredicateState>(std::move(state));
    }

    // findMatchingVolumes sorts the claims by requested size with Go's
    // (unstable) sort.Sort; equal sizes keep whatever order it leaves.
    volume::GoSort(
        to_match.size(),
        [&](size_t i, size_t j) {
          return OrZero(to_match[i]->request).Compare(OrZero(to_match[j]->request)) < 0;
        },
        [&](size_t i, size_t j) { std::swap(to_match[i], to_match[j]); });

    const auto& all_pvs = cluster.persistent_volumes();
    for (const PersistentVolumeClaim* pvc : to_match) {
      ClaimToMatch c;
      c.provisionable = CanProvision(*pvc, cluster);
      labels::Selector selector;
      if (pvc->selector) {
        auto s = labels::FromLabelSelector(*pvc->selector);
        if (!s.ok()) {
          return MakeError(fmt::format("error creating internal label selector for claim: {}: {}",
                                       ClaimKey(*pvc), s.error().message));
        }
        selector = std::move(s).value();
      }
      // The binder lists PVs by spec.storageClassName (not the annotation).
      const std::string_view list_class =
          pvc->storage_class_name ? std::string_view(*pvc->storage_class_name) : "";
      const std::string_view claim_class = volume::ClaimClass(*pvc);
      const Quantity request = OrZero(pvc->request);
      std::vector<const PersistentVolume*> available;
      for (const PersistentVolume& pv : all_pvs) {
        if (pv.storage_class_name != list_class || pv.meta.has_deletion_timestamp) continue;
        const Quantity capacity = OrZero(pv.capacity);
        if (IsPreboundTo(pv, *pvc)) {
          if (capacity.Compare(request) >= 0) c.prebound.push_back(entry(&pv));
          continue;
        }
        if (pv.phase != volume::kVolumeAvailablePhase || pv.claim_ref) continue;
        if (pvc->selector && !selector.Matches(pv.meta.labels)) continue;
        if (volume::VolumeClass(pv) != claim_class) continue;
        if (!AccessModesSatisfied(*pvc, pv)) continue;
        if (capacity.Compare(request) < 0) continue;
        available.push_back(&pv);
      }
      // Smallest first; among equals, input order (upstream's order is that of
      // a map and not defined).
      std::stable_sort(available.begin(), available.end(),
                       [](const PersistentVolume* a, const PersistentVolume* b) {
                         return OrZero(a->capacity).Compare(OrZero(b->capacity)) < 0;
                       });
      for (const PersistentVolume* pv : available) c.available.push_back(entry(pv));
      state->to_match.push_back(std::move(c));
    }
    return std::unique_ptr<PredicateState>(std::move(state));
  }

  bool Check(const PodToSchedule& pod, const PredicateState* state, const NodeInfo& node,
             ReasonList* reasons) const override {
    (void)pod;
    const auto& s = static_cast<const BindingState&>(*state);
    if (!s.has_claims) return true;
    const bool bound_ok = BoundMatch(s, node);
    const bool unbound_ok = !s.has_to_bind || UnboundMatch(s, node);
    if (!bound_ok) reasons->Add(VolumeNodeConflictReason());
    if (!unbound_ok) reasons->Add(VolumeBindConflictReason());
    return bound_ok && unbound_ok;
  }

 private:
  static bool BoundMatch(const BindingState& s, const NodeInfo& node) {
    for (uint32_t i : s.bound) {
      if (!AffinityMatches(s.pvs[i], node)) return false;
    }
    return true;
  }

  // FindMatchingVolume for one claim on one node, given the PVs earlier
  // claims of the pod took.
  static uint32_t FindMatch(const BindingState& s, const ClaimToMatch& c, const NodeInfo& node,
                            const std::vector<uint32_t>& taken) {
    auto is_taken = [&](uint32_t i) {
      return std::find(taken.begin(), taken.end(), i) != taken.end();
    };
    for (uint32_t i : c.prebound) {
      if (is_taken(i)) continue;
      return AffinityMatches(s.pvs[i], node) ? i : kNoPv;
    }
    for (uint32_t i : c.available) {
      if (!is_taken(i) && AffinityMatches(s.pvs[i], node)) return i;
    }
    return kNoPv;
  }

  static bool UnboundMatch(const BindingState& s, const NodeInfo& node) {
    if (s.has_selected && s.selected_node != &node) return false;
    // Claims that end up provisioned: the selected-node ones and those that
    // match no PV. All of them must be provisionable.
    bool provisionable = !s.has_selected || s.selected_provisionable;
    thread_local std::vector<uint32_t> taken;
    taken.clear();
    for (const ClaimToMatch& c : s.to_match) {
      uint32_t pv = FindMatch(s, c, node, taken);
      if (pv == kNoPv) {
        provisionable = provisionable && c.provisionable;
      } else {
        taken.push_back(pv);
      }
    }
    return provisionable;
  }
};

}  // namespace

std::unique_ptr<Predicate> NewCheckVolumeBinding() {
  return std::make_unique<CheckVolumeBinding>();
}

}  // namespace ksched
