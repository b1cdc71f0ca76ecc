#include "framework/plugins/volumebinding/binder.h"

#include <algorithm>

#include "framework/plugins/nodevolumelimits/csi_translation.h"
#include "framework/plugins/nodevolumelimits/utils.h"
#include "framework/plugins/volumebinding/api_fields.h"
#include "labels/label_selector.h"
#include "predicates/volume_util.h"

namespace ksched::framework::volumebinding {
namespace {

constexpr std::string_view kBoundByController = "pv.kubernetes.io/bound-by-controller";

std::string ClaimKey(const PersistentVolumeClaim& pvc) {
  std::string key(Str(pvc.meta.ns));
  key += '/';
  key += pvc.meta.name;
  return key;
}

Quantity StorageRequest(const PersistentVolumeClaim& pvc) {
  return pvc.request.value_or(Quantity());
}

// IsVolumeBoundToClaim.
bool BoundToClaim(const PersistentVolume& pv, const PersistentVolumeClaim& pvc) {
  if (!pv.claim_ref) return false;
  if (pv.claim_ref->second != pvc.meta.name || pv.claim_ref->first != Str(pvc.meta.ns))
    return false;
  return pv.claim_ref_uid.empty() || pv.claim_ref_uid == pvc.meta.uid;
}

std::string_view VolumeModeOrDefault(std::string_view mode) {
  return mode.empty() ? std::string_view("Filesystem") : mode;
}

// CheckAccessModes: every mode the claim asks for is one the PV offers.
bool AccessModesFit(const PersistentVolumeClaim& claim, const PersistentVolume& pv) {
  for (const std::string& m : claim.access_modes)
    if (std::find(pv.access_modes.begin(), pv.access_modes.end(), m) == pv.access_modes.end())
      return false;
  return true;
}

// v1helper.MatchTopologySelectorTerms against a node's labels.
bool MatchTopology(const volumefields::TopologyTerms& terms, const Labels& node_labels) {
  if (terms.empty()) return true;
  for (const auto& term : terms) {
    if (term.empty()) continue;
    bool match = true;
    for (const volumefields::TopologyRequirement& r : term) {
      // An In requirement without values does not compile: the term fails.
      const std::optional<StrId> v = node_labels.Get(Intern(r.key));
      if (r.values.empty() || !v ||
          std::find(r.values.begin(), r.values.end(), Str(*v)) == r.values.end()) {
        match = false;
        break;
      }
    }
    if (match) return true;
  }
  return false;
}

}  // namespace

std::string ParseIntError(std::string_view s) {
  const std::string prefix = "strconv.ParseInt: parsing " + volume::GoQuote(s) + ": ";
  std::string_view digits = s;
  bool negative = false;
  if (!digits.empty() && (digits[0] == '+' || digits[0] == '-')) {
    negative = digits[0] == '-';
    digits.remove_prefix(1);
  }
  if (digits.empty()) return prefix + "invalid syntax";
  unsigned __int128 v = 0;
  bool overflow = false;
  for (char c : digits) {
    if (c < '0' || c > '9') return prefix + "invalid syntax";
    v = v * 10 + static_cast<unsigned>(c - '0');
    if (v > (static_cast<unsigned __int128>(1) << 64)) overflow = true;
  }
  const unsigned __int128 limit = static_cast<unsigned __int128>(INT64_MAX) + (negative ? 1 : 0);
  if (overflow || v > limit) return prefix + "value out of range";
  return "";
}

PvNodeAffinity::PvNodeAffinity(const std::optional<NodeSelector>& affinity) {
  if (!affinity) return;
  none_ = false;
  terms_ = labels::CompiledNodeSelectorTerms::Compile(*affinity);
  for (const NodeSelectorTerm& t : affinity->terms) {
    bool invalid = false;
    // v1.26 accepts matchFields on metadata.name only.
    for (const SelectorRequirement& r : t.match_fields)
      invalid = invalid || r.key != "metadata.name";
    invalid_.push_back(invalid);
  }
}

bool PvNodeAffinity::Matches(const Labels& node_labels) const {
  if (none_) return true;
  for (size_t i = 0; i < terms_.size(); ++i) {
    if (i < invalid_.size() && invalid_[i]) continue;
    if (terms_.TermMatches(i, node_labels, std::string_view())) return true;
  }
  return false;
}

Binder::Binder(Handle* handle)
    : handle_(handle),
      v135_(handle->feature_gates().AtLeast(config::SchedulerVersion::kV135)),
      volume_attributes_class_(handle->feature_gates().volume_attributes_class),
      resource_version_(&volumefields::ResourceVersion) {}

void Binder::Sync() {
  const ClusterState& cluster = handle_->cluster();
  if (synced_ && cluster.id() == cluster_id_) return;
  synced_ = true;
  cluster_id_ = cluster.id();
  assumed_pvs_.clear();
  assumed_pvcs_.clear();
  pvs_.clear();
  by_class_.clear();
  index_by_name_.clear();
  const std::vector<PersistentVolume>& pvs = cluster.persistent_volumes();
  pvs_.reserve(pvs.size());
  for (size_t i = 0; i < pvs.size(); ++i) {
    pvs_.push_back({&pvs[i], PvNodeAffinity(pvs[i].node_affinity)});
    by_class_[std::string(volume::VolumeClass(pvs[i]))].push_back(i);
    index_by_name_.emplace(pvs[i].meta.name, i);
  }
}

const PersistentVolumeClaim* Binder::GetPvc(StrId ns, std::string_view name) const {
  if (!assumed_pvcs_.empty()) {
    std::string key(Str(ns));
    key += '/';
    key += name;
    if (auto it = assumed_pvcs_.find(key); it != assumed_pvcs_.end()) return &it->second;
  }
  return handle_->cluster().FindPvc(ns, name);
}

const PersistentVolume* Binder::GetPv(std::string_view name) const {
  if (!assumed_pvs_.empty()) {
    if (auto it = assumed_pvs_.find(std::string(name)); it != assumed_pvs_.end())
      return &it->second;
  }
  return handle_->cluster().FindPv(name);
}

const PersistentVolume* Binder::Latest(size_t index) const {
  const PersistentVolume* pv = pvs_[index].pv;
  if (!assumed_pvs_.empty()) {
    if (auto it = assumed_pvs_.find(pv->meta.name); it != assumed_pvs_.end()) return &it->second;
  }
  return pv;
}

bool Binder::IsPvcFullyBound(const PersistentVolumeClaim& pvc) const {
  return !pvc.volume_name.empty() &&
         pvc.meta.Annotation(volume::kBindCompletedAnnotation) != nullptr;
}

bool Binder::ArePodVolumesBound(const Pod& pod) const {
  for (const Volume& v : pod.spec.volumes) {
    if (v.kind != VolumeKind::kPersistentVolumeClaim && v.kind != VolumeKind::kEphemeral) continue;
    const PersistentVolumeClaim* pvc = GetPvc(pod.meta.ns, v.id);
    if (pvc == nullptr) return false;
    if (v.kind == VolumeKind::kEphemeral &&
        !nodevolumelimits::EphemeralVolumeIsForPod(pod, *pvc).IsSuccess())
      return false;
    if (!IsPvcFullyBound(*pvc)) return false;
  }
  return true;
}

Status Binder::GetPodVolumes(const Pod& pod, std::vector<PersistentVolumeClaim>* bound,
                             std::vector<PersistentVolumeClaim>* delayed,
                             std::vector<PersistentVolumeClaim>* immediate) const {
  const ClusterState& cluster = handle_->cluster();
  for (const Volume& v : pod.spec.volumes) {
    if (v.kind != VolumeKind::kPersistentVolumeClaim && v.kind != VolumeKind::kEphemeral) continue;
    const PersistentVolumeClaim* pvc = GetPvc(pod.meta.ns, v.id);
    if (pvc == nullptr) {
      const std::string key = std::string(Str(pod.meta.ns)) + "/" + v.id;
      // The assume cache's not-found error: v1.26's own, v1.35's the API's.
      return Status::Error(
          "error getting PVC " + volume::GoQuote(key) + ": " +
          (v135_ ? "persistentvolumeclaims " + volume::GoQuote(key) + " not found"
                 : "could not find v1.PersistentVolumeClaim " + volume::GoQuote(key)));
    }
    if (v.kind == VolumeKind::kEphemeral) {
      if (Status s = nodevolumelimits::EphemeralVolumeIsForPod(pod, *pvc); !s.IsSuccess()) return s;
    }
    if (IsPvcFullyBound(*pvc)) {
      bound->push_back(*pvc);
    } else if (volume::IsDelayBinding(*pvc, cluster) && pvc->volume_name.empty()) {
      delayed->push_back(*pvc);
    } else {
      immediate->push_back(*pvc);
    }
  }
  return Status();
}

Status Binder::CheckBoundClaims(const std::vector<PersistentVolumeClaim>& claims,
                                const NodeInfo& node, bool* bound_ok, bool* pvs_found) const {
  const CSINode* csi_node = csi::CSINodeOf(handle_->cluster(), node);
  for (const PersistentVolumeClaim& pvc : claims) {
    const PersistentVolume* pv = GetPv(pvc.volume_name);
    if (pv == nullptr) {
      *pvs_found = false;
      return Status();
    }
    const std::string_view plugin = csi::InTreePluginName(pv->kind);
    bool matches;
    if (!plugin.empty() && csi::MigrationGateOn(plugin) && csi::MigratedOnNode(csi_node, plugin)) {
      // tryTranslatePVToCSI: the translated PV's node affinity decides.
      csi::TranslatedVolume t;
      std::string error;
      if (!csi::TranslatePV(*pv, &t, &error)) {
        *bound_ok = false;
        return Status::Error("could not translate pv: " + error);
      }
      matches = PvNodeAffinity(t.node_affinity).Matches(node.labels());
    } else if (auto it = index_by_name_.find(pv->meta.name); it != index_by_name_.end()) {
      matches = pvs_[it->second].affinity.Matches(node.labels());
    } else {
      matches = PvNodeAffinity(pv->node_affinity).Matches(node.labels());
    }
    if (!matches) {
      *bound_ok = false;
      return Status();
    }
  }
  return Status();
}

Status Binder::FindMatchingVolume(const PersistentVolumeClaim& claim, const NodeInfo& node,
                                  const std::vector<const PersistentVolume*>& excluded,
                                  const PersistentVolume** match) const {
  *match = nullptr;
  // v1.35 with VolumeAttributesClass off refuses a claim naming a class.
  const bool match_vac = v135_ && volume_attributes_class_;
  const bool refuse_vac = v135_ && !volume_attributes_class_;
  if (refuse_vac && !claim.volume_attributes_class_name.empty()) {
    return Status::Error("unsupported volumeAttributesClassName is set on claim " +
                         ClaimKey(claim) +
                         " when the feature-gate VolumeAttributesClass is disabled");
  }
  const Quantity requested = StorageRequest(claim);
  const std::string_view requested_class = volume::ClaimClass(claim);
  std::optional<labels::Selector> selector;
  if (claim.selector) {
    Result<labels::Selector> s = labels::FromLabelSelector(&*claim.selector);
    if (!s.ok()) {
      return Status::Error("error creating internal label selector for claim: " + ClaimKey(claim) +
                           ": " + s.error().message);
    }
    selector = std::move(s.value());
  }
  auto it = by_class_.find(std::string(requested_class));
  if (it == by_class_.end()) return Status();

  const PersistentVolume* smallest = nullptr;
  Quantity smallest_qty;
  for (size_t index : it->second) {
    const PersistentVolume& pv = *Latest(index);
    if (std::find(excluded.begin(), excluded.end(), &pv) != excluded.end()) continue;
    const bool bound_to_claim = BoundToClaim(pv, claim);
    if (pv.claim_ref && !bound_to_claim) continue;
    const Quantity qty = pv.capacity.value_or(Quantity());
    if (qty.Compare(requested) < 0) continue;
    if (VolumeModeOrDefault(volumefields::VolumeMode(claim)) !=
        VolumeModeOrDefault(volumefields::VolumeMode(pv)))
      continue;
    if (match_vac && claim.volume_attributes_class_name != pv.volume_attributes_class_name)
      continue;
    if (refuse_vac && !pv.volume_attributes_class_name.empty()) continue;
    if (pv.meta.has_deletion_timestamp) continue;
    const bool affinity_ok = pvs_[index].affinity.Matches(node.labels());
    if (bound_to_claim) {
      if (affinity_ok) *match = &pv;
      return Status();
    }
    if (pv.phase != volume::kVolumeAvailablePhase) continue;
    if (selector && !selector->Matches(pv.meta.labels)) continue;
    if (volume::VolumeClass(pv) != requested_class) continue;
    if (!affinity_ok) continue;
    if (!AccessModesFit(claim, pv)) continue;
    if (smallest == nullptr || smallest_qty.Compare(qty) > 0) {
      smallest = &pv;
      smallest_qty = qty;
    }
  }
  *match = smallest;
  return Status();
}

Status Binder::FindMatchingVolumes(std::vector<const PersistentVolumeClaim*>& claims,
                                   const NodeInfo& node, bool* found,
                                   std::vector<BindingInfo>* bindings,
                                   std::vector<const PersistentVolumeClaim*>* unbound) const {
  // Smallest requests first (Go's sort.Sort; stable for the few claims a
  // pod has).
  std::stable_sort(claims.begin(), claims.end(), [](const auto* a, const auto* b) {
    return StorageRequest(*a).Compare(StorageRequest(*b)) < 0;
  });
  std::vector<const PersistentVolume*> chosen;
  *found = true;
  for (const PersistentVolumeClaim* pvc : claims) {
    const PersistentVolume* pv = nullptr;
    if (Status s = FindMatchingVolume(*pvc, node, chosen, &pv); !s.IsSuccess()) return s;
    if (pv == nullptr) {
      unbound->push_back(pvc);
      *found = false;
      continue;
    }
    chosen.push_back(pv);
    bindings->push_back({pv, pvc});
  }
  return Status();
}

Status Binder::CheckVolumeProvisions(const std::vector<const PersistentVolumeClaim*>& claims,
                                     const NodeInfo& node, bool* provision_ok, bool* sufficient,
                                     std::vector<const PersistentVolumeClaim*>* provisions,
                                     std::vector<const CSIStorageCapacity*>* capacities) const {
  const ClusterState& cluster = handle_->cluster();
  provisions->clear();
  capacities->clear();
  for (const PersistentVolumeClaim* claim : claims) {
    const std::string_view class_name = volume::ClaimClass(*claim);
    if (class_name.empty()) {
      *provision_ok = *sufficient = false;
      return Status::Error("no class for claim " + volume::GoQuote(ClaimKey(*claim)));
    }
    const StorageClass* sc = cluster.FindStorageClass(class_name);
    if (sc == nullptr) {
      *provision_ok = *sufficient = false;
      return Status::Error("failed to find storage class " + volume::GoQuote(class_name));
    }
    if (sc->provisioner.empty() || sc->provisioner == volume::kNoProvisioner ||
        !MatchTopology(volumefields::AllowedTopologies(*sc), node.labels())) {
      provisions->clear();
      capacities->clear();
      *provision_ok = false;
      *sufficient = true;
      return Status();
    }
    const CSIStorageCapacity* capacity = nullptr;
    if (!volume::HasEnoughCapacity(cluster, sc->provisioner, *claim, sc->meta.name, node,
                                   &capacity)) {
      provisions->clear();
      capacities->clear();
      *provision_ok = true;
      *sufficient = false;
      return Status();
    }
    provisions->push_back(claim);
    capacities->push_back(capacity);
  }
  *provision_ok = *sufficient = true;
  return Status();
}

Status Binder::FindPodVolumes(const Pod& pod, const std::vector<PersistentVolumeClaim>& bound,
                              const std::vector<PersistentVolumeClaim>& to_bind,
                              const NodeInfo& node, PodVolumes* out,
                              std::vector<std::string>* reasons) const {
  (void)pod;
  bool unbound_ok = true, bound_ok = true, sufficient = true, pvs_found = true;
  auto finish = [&]() {
    if (!bound_ok)
      reasons->emplace_back(v135_ ? kErrReasonNodeConflictV135 : kErrReasonNodeConflict);
    if (!unbound_ok) reasons->emplace_back(kErrReasonBindConflict);
    if (!sufficient) reasons->emplace_back(kErrReasonNotEnoughSpace);
    if (!pvs_found) reasons->emplace_back(kErrReasonPVNotExist);
    return Status();
  };
  if (!bound.empty()) {
    if (Status s = CheckBoundClaims(bound, node, &bound_ok, &pvs_found); !s.IsSuccess()) return s;
  }
  if (to_bind.empty()) return finish();

  std::vector<const PersistentVolumeClaim*> to_match, to_provision;
  for (const PersistentVolumeClaim& claim : to_bind) {
    if (const std::string* selected = claim.meta.Annotation(volume::kSelectedNodeAnnotation)) {
      if (*selected != node.name()) {
        unbound_ok = false;
        return finish();
      }
      to_provision.push_back(&claim);
    } else {
      to_match.push_back(&claim);
    }
  }
  if (!to_match.empty()) {
    std::vector<const PersistentVolumeClaim*> unbound;
    if (Status s =
            FindMatchingVolumes(to_match, node, &unbound_ok, &out->static_bindings, &unbound);
        !s.IsSuccess())
      return s;
    to_provision.insert(to_provision.end(), unbound.begin(), unbound.end());
  }
  if (!to_provision.empty()) {
    if (Status s = CheckVolumeProvisions(to_provision, node, &unbound_ok, &sufficient,
                                         &out->dynamic_provisions, &out->provision_capacities);
        !s.IsSuccess())
      return s;
  }
  return finish();
}

std::string Binder::AssumeError(std::string_view resource_version) const {
  // v1.35's passive assume cache compares the version with the API object's
  // as strings and parses nothing; the object assumed here always carries
  // the API object's version (Sync drops assumed objects with the cluster).
  if (v135_) return "";
  return ParseIntError(resource_version);
}

Status Binder::AssumePodVolumes(const Pod& pod, std::string_view node_name, PodVolumes* volumes,
                                bool* all_bound) {
  *all_bound = false;
  if (ArePodVolumesBound(pod)) {
    *all_bound = true;
    return Status();
  }
  std::vector<std::string> assumed_pvs;  // names to restore on failure
  auto revert_pvs = [&]() {
    for (const std::string& name : assumed_pvs) assumed_pvs_.erase(name);
  };
  std::vector<BindingInfo> new_bindings;
  for (const BindingInfo& b : volumes->static_bindings) {
    // GetBindVolumeToClaim.
    PersistentVolume pv = *b.pv;
    bool dirty = false;
    const bool set_bound_by_controller = !BoundToClaim(pv, *b.pvc);
    if (!pv.claim_ref || pv.claim_ref->second != b.pvc->meta.name ||
        pv.claim_ref->first != Str(b.pvc->meta.ns) || pv.claim_ref_uid != b.pvc->meta.uid) {
      pv.claim_ref = std::make_pair(std::string(Str(b.pvc->meta.ns)), b.pvc->meta.name);
      pv.claim_ref_uid = b.pvc->meta.uid;
      dirty = true;
    }
    if (set_bound_by_controller && pv.meta.Annotation(kBoundByController) == nullptr) {
      pv.meta.annotations.emplace_back(std::string(kBoundByController), "yes");
      dirty = true;
    }
    const std::string name = pv.meta.name;
    if (dirty) {
      // assumeCache.Assume: the resourceVersion must parse.
      const std::string_view rv = resource_version_(pv.meta);
      if (std::string err = AssumeError(rv); !err.empty()) {
        revert_pvs();
        return Status::Error("error parsing ResourceVersion " + volume::GoQuote(rv) +
                             " for v1.PersistentVolume " + volume::GoQuote(name) + ": " + err);
      }
      assumed_pvs_[name] = std::move(pv);
    }
    assumed_pvs.push_back(name);
    auto it = assumed_pvs_.find(name);
    new_bindings.push_back({it != assumed_pvs_.end() ? &it->second : b.pv, b.pvc});
  }

  std::vector<std::string> assumed_pvcs;
  std::vector<const PersistentVolumeClaim*> new_provisions;
  for (const PersistentVolumeClaim* claim : volumes->dynamic_provisions) {
    PersistentVolumeClaim clone = *claim;
    bool replaced = false;
    for (auto& [k, v] : clone.meta.annotations) {
      if (k == volume::kSelectedNodeAnnotation) {
        v = std::string(node_name);
        replaced = true;
      }
    }
    if (!replaced)
      clone.meta.annotations.emplace_back(std::string(volume::kSelectedNodeAnnotation), node_name);
    const std::string key = ClaimKey(clone);
    const std::string_view rv = resource_version_(clone.meta);
    if (std::string err = AssumeError(rv); !err.empty()) {
      revert_pvs();
      for (const std::string& k : assumed_pvcs) assumed_pvcs_.erase(k);
      return Status::Error("error parsing ResourceVersion " + volume::GoQuote(rv) +
                           " for v1.PersistentVolumeClaim " + volume::GoQuote(key) + ": " + err);
    }
    auto& slot = assumed_pvcs_[key];
    slot = std::move(clone);
    assumed_pvcs.push_back(key);
    new_provisions.push_back(&slot);
  }
  volumes->static_bindings = std::move(new_bindings);
  volumes->dynamic_provisions = std::move(new_provisions);
  return Status();
}

void Binder::RevertAssumedPodVolumes(const PodVolumes& volumes) {
  for (const BindingInfo& b : volumes.static_bindings) {
    const std::string name = b.pv->meta.name;  // b.pv may live in the map
    assumed_pvs_.erase(name);
  }
  for (const PersistentVolumeClaim* claim : volumes.dynamic_provisions)
    assumed_pvcs_.erase(ClaimKey(*claim));
}

void Binder::RevertAssumed(const std::vector<std::string>& pv_names,
                           const std::vector<std::string>& claim_keys) {
  for (const std::string& name : pv_names) assumed_pvs_.erase(name);
  for (const std::string& key : claim_keys) assumed_pvcs_.erase(key);
}

}  // namespace ksched::framework::volumebinding
