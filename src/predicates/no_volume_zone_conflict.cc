// NoVolumeZoneConflict (upstream's VolumeZoneChecker): the zone and region
// labels of every PV the pod's claims are bound to must admit the node's zone
// and region.
//
// Prepare() resolves the claims once: each bound PV contributes, per zone or
// region label it carries, the set of values it allows (a label value may list
// several zones joined by "__"; an unparsable value is ignored). Check() is
// then integer compares against the node's two label values:
//  - a node with neither label passes (upstream's fast path);
//  - otherwise a missing node label counts as "", which no set contains.
// An unbound claim whose class is WaitForFirstConsumer is skipped.
//
// Upstream reports unresolvable claims (unbound claim of another class, PV
// missing) as an error from the predicate on each node that reaches it; the
// error aborts the scheduling cycle. Predicates here cannot fail per node, so
// Prepare() returns the error when at least one node of the cluster would
// reach it (has a zone or region label and passes the volumes before the
// failing one). Whether earlier predicates stop every such node first, and
// upstream's "(repeated N times)" suffix, are not reproduced.
#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

#include "predicates/factories.h"
#include "predicates/volume_util.h"

namespace ksched {
namespace {

ReasonId VolumeZoneConflictReason() {
  static const ReasonId id = Intern("node(s) had no available volume zone");
  return id;
}

StrId ZoneKey() {
  static const StrId id = Intern(volume::kZoneLabel);
  return id;
}
StrId RegionKey() {
  static const StrId id = Intern(volume::kRegionLabel);
  return id;
}

// One zone or region label of one PV: the node's value for `key` must be one
// of `allowed` (sorted ids).
struct Constraint {
  StrId key = kEmptyStr;
  std::vector<StrId> allowed;
};

struct ZoneState : PredicateState {
  std::vector<Constraint> constraints;
};

// True when the node's labels pass every constraint. Precondition: the node has
// a zone or region label.
bool Passes(const std::vector<Constraint>& constraints, const Labels& labels) {
  for (const Constraint& c : constraints) {
    StrId v = labels.Get(c.key).value_or(kEmptyStr);
    if (!std::binary_search(c.allowed.begin(), c.allowed.end(), v)) return false;
  }
  return true;
}

bool HasZoneLabels(const Labels& labels) {
  return labels.Has(ZoneKey()) || labels.Has(RegionKey());
}

// Adds the constraints of `pv` in label order.
void AddConstraints(const PersistentVolume& pv, std::vector<Constraint>* out) {
  std::vector<std::string_view> zones;
  for (StrId key : {ZoneKey(), RegionKey()}) {
    std::optional<StrId> value = pv.meta.labels.Get(key);
    if (!value) continue;
    if (!volume::LabelZonesToSet(Str(*value), &zones)) continue;  // upstream logs and ignores
    Constraint c;
    c.key = key;
    for (std::string_view z : zones) c.allowed.push_back(Intern(z));
    std::sort(c.allowed.begin(), c.allowed.end());
    c.allowed.erase(std::unique(c.allowed.begin(), c.allowed.end()), c.allowed.end());
    out->push_back(std::move(c));
  }
}

class NoVolumeZoneConflict : public Predicate {
 public:
  Result<std::unique_ptr<PredicateState>> Prepare(const PodToSchedule& pod,
                                                  const ClusterState& cluster) const override {
    auto state = std::make_unique<ZoneState>();
    const Pod& p = pod.pod();
    std::string error;
    for (const Volume& v : p.spec.volumes) {
      if (v.kind != VolumeKind::kPersistentVolumeClaim) continue;
      error = Resolve(p, v, cluster, &state->constraints);
      if (!error.empty()) break;
    }
    if (!error.empty()) {
      // Upstream fails on every node that has zone labels and passes the
      // volumes before the failing one; other nodes pass or conflict.
      for (const NodeInfo& n : cluster.node_infos()) {
        if (HasZoneLabels(n.labels()) && Passes(state->constraints, n.labels())) {
          return MakeError(error);
        }
      }
    }
    return std::unique_ptr<PredicateState>(std::move(state));
  }

  bool Check(const PodToSchedule& pod, const PredicateState* state, const NodeInfo& node,
             ReasonList* reasons) const override {
    (void)pod;
    const auto& s = static_cast<const ZoneState&>(*state);
    if (s.constraints.empty() || !HasZoneLabels(node.labels())) return true;
    if (Passes(s.constraints, node.labels())) return true;
    reasons->Add(VolumeZoneConflictReason());
    return false;
  }

 private:
  // Appends the constraints of the PV behind claim volume `v`; returns
  // upstream's error text when the claim cannot be resolved, "" otherwise.
  static std::string Resolve(const Pod& pod, const Volume& v, const ClusterState& cluster,
                             std::vector<Constraint>* out) {
    if (v.id.empty()) return "PersistentVolumeClaim had no name";
    const PersistentVolumeClaim* pvc = cluster.FindPvc(pod.meta.ns, v.id);
    if (pvc == nullptr)
      return fmt::format("persistentvolumeclaim {} not found", volume::GoQuote(v.id));
    if (pvc->volume_name.empty()) {
      if (volume::IsDelayBinding(*pvc, cluster)) return "";  // bound later, by the binder
      return fmt::format("PersistentVolumeClaim was not found: {}", volume::GoQuote(v.id));
    }
    const PersistentVolume* pv = cluster.FindPv(pvc->volume_name);
    if (pv == nullptr) {
      return fmt::format("persistentvolume {} not found", volume::GoQuote(pvc->volume_name));
    }
    AddConstraints(*pv, out);
    return "";
  }
};

}  // namespace

std::unique_ptr<Predicate> NewNoVolumeZoneConflict() {
  return std::make_unique<NoVolumeZoneConflict>();
}

}  // namespace ksched
