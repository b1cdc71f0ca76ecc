#include "framework/plugins/podtopologyspread/common.h"

#include <bit>
#include <cmath>
#include <limits>

#include "framework/plugins/helper/value_numbering.h"
#include "labels/label_selector.h"
#include "predicates/tolerations.h"

namespace ksched::framework::plugins::podtopologyspread {

void Constraints::AssignSlots(bool per_constraint) {
  keys.clear();
  const StrId hostname = Intern(kLabelHostname);
  for (Constraint& c : items) {
    c.is_hostname = c.topology_key == hostname;
    uint32_t slot = 0;
    if (per_constraint) {
      slot = static_cast<uint32_t>(keys.size());
    } else {
      while (slot < keys.size() && keys[slot] != c.topology_key) ++slot;
    }
    if (slot == keys.size()) keys.push_back(c.topology_key);
    c.key_slot = slot;
  }
}

Result<Constraints> FilterConstraints(const std::vector<TopologySpreadConstraint>& constraints,
                                      const Labels& pod_labels, std::string_view action,
                                      const Features& features) {
  Constraints out;
  for (const TopologySpreadConstraint& c : constraints) {
    if (c.when_unsatisfiable != action) continue;
    Result<labels::Selector> compiled = labels::FromLabelSelector(c.label_selector);
    if (!compiled) return compiled.error();
    Constraint tsc;
    tsc.selector = helper::SpreadSelector(*compiled);
    if (features.match_label_keys && !c.match_label_keys.empty()) {
      // The pod's own values of matchLabelKeys become key=value pairs ANDed
      // with the selector. A nil selector's Nothing() has no requirements to
      // add: v1.26 then kept the pairs alone, v1.35's
      // mergeLabelSetWithSelector keeps the Nothing() selector. A selector
      // the API server already merged the keys into is merged again, which
      // only repeats a requirement.
      Labels match;
      for (const std::string& key : c.match_label_keys) {
        StrId k = FindInterned(key);
        if (k == kNoStr) continue;
        if (std::optional<StrId> v = pod_labels.Get(k)) match.Set(k, *v);
      }
      if (!match.empty() && !(features.v135 && compiled->MatchesNothing()))
        tsc.selector = helper::SpreadSelector::FromSetAnd(match, *compiled);
    }
    tsc.counts_nothing = features.v135 && tsc.selector.Empty();
    tsc.max_skew = c.max_skew;
    tsc.topology_key = Intern(c.topology_key);
    if (features.min_domains && c.min_domains) tsc.min_domains = *c.min_domains;
    if (features.node_inclusion_policy) {
      if (!c.node_affinity_policy.empty())
        tsc.honor_node_affinity = c.node_affinity_policy == "Honor";
      if (!c.node_taints_policy.empty()) tsc.honor_node_taints = c.node_taints_policy == "Honor";
    }
    out.items.push_back(std::move(tsc));
  }
  out.AssignSlots(features.v135);
  return out;
}

const std::vector<TopologySpreadConstraint>& SystemDefaultConstraints() {
  static const std::vector<TopologySpreadConstraint> constraints = [] {
    std::vector<TopologySpreadConstraint> v(2);
    v[0].topology_key = std::string(kLabelHostname);
    v[0].when_unsatisfiable = std::string(kScheduleAnyway);
    v[0].max_skew = 3;
    v[1].topology_key = std::string(kLabelTopologyZone);
    v[1].when_unsatisfiable = std::string(kScheduleAnyway);
    v[1].max_skew = 5;
    return v;
  }();
  return constraints;
}

RequiredNodeAffinity::RequiredNodeAffinity(const Pod& pod)
    : node_selector_(pod.spec.node_selector) {
  const auto& affinity = pod.spec.affinity;
  if (affinity && affinity->node_affinity && affinity->node_affinity->required)
    terms_ = labels::CompiledNodeSelectorTerms::Compile(*affinity->node_affinity->required);
}

bool HasUntoleratedDoNotScheduleTaint(const Node& node, const std::vector<Toleration>& tolerations,
                                      bool comparison_operators) {
  for (const Taint& taint : node.taints) {
    if (taint.effect != TaintEffect::kNoSchedule && taint.effect != TaintEffect::kNoExecute)
      continue;
    if (!TolerationsTolerateTaint(tolerations, taint, comparison_operators)) return true;
  }
  return false;
}

bool NodeHasAllKeys(const Labels& node_labels, const Constraints& constraints) {
  for (StrId key : constraints.keys)
    if (!node_labels.Has(key)) return false;
  return true;
}

uint32_t TopologyDomains::DomainOf(const NodeInfo& node) const {
  if (node.id < node_domain.size()) return node_domain[node.id];
  // Not a node of the cluster the domains were built on: find its value.
  StrId value = node.labels().Get(key).value_or(kEmptyStr);
  for (uint32_t d = 0; d < domain_value.size(); ++d)
    if (domain_value[d] == value) return d;
  return 0;
}

bool TopologyDomains::HasLabel(const NodeInfo& node) const {
  if (node.id < has_label.size()) return has_label[node.id] != 0;
  return node.labels().Has(key);
}

std::shared_ptr<const TopologyDomains> DomainCache::Get(const ClusterState& cluster, StrId key) {
  std::lock_guard<std::mutex> lock(mu_);
  if (cluster.id() != cluster_id_ || cluster.num_nodes() != num_nodes_) {
    by_key_.clear();
    cluster_id_ = cluster.id();
    num_nodes_ = cluster.num_nodes();
  }
  auto& slot = by_key_[key];
  if (slot) return slot;
  auto domains = std::make_shared<TopologyDomains>();
  domains->key = key;
  const size_t n = cluster.num_nodes();
  domains->node_domain.resize(n);
  domains->has_label.resize(n);
  framework::helper::ValueNumbering index;
  for (NodeId id = 0; id < n; ++id) {
    std::optional<StrId> v = cluster.node(id).meta.labels.Get(key);
    domains->has_label[id] = v.has_value();
    domains->num_labeled += v.has_value();
    domains->node_domain[id] = index.Number(v.value_or(kEmptyStr));
  }
  domains->domain_value = index.values();
  slot = std::move(domains);
  return slot;
}

LabelSetMatcher::LabelSetMatcher(const ClusterState& cluster, StrId ns,
                                 const helper::SpreadSelector* selector, bool counts_nothing)
    : ns_(ns), selector_(selector), counts_nothing_(counts_nothing) {
  // 0: no, 1: yes, 2: not seen yet.
  memo_.assign(cluster.num_label_sets(), 2);
  for (size_t id = 0; id < cluster.num_pods(); ++id) {
    const PodInfo& p = cluster.pod(static_cast<PodId>(id));
    if (p.label_set >= memo_.size() || memo_[p.label_set] != 2) continue;
    memo_[p.label_set] =
        !counts_nothing && p.pod.meta.ns == ns && selector->Matches(p.pod.meta.labels);
  }
}

double GoLog(double x) {
  constexpr double kHalfSqrt2 = 7.07106781186547524401e-01;
  constexpr double kLn2Hi = 6.93147180369123816490e-01;
  constexpr double kLn2Lo = 1.90821492927058770002e-10;
  constexpr double kL1 = 6.666666666666735130e-01;
  constexpr double kL2 = 3.999999999940941908e-01;
  constexpr double kL3 = 2.857142874366239149e-01;
  constexpr double kL4 = 2.222219843214978396e-01;
  constexpr double kL5 = 1.818357216161805012e-01;
  constexpr double kL6 = 1.531383769920937332e-01;
  constexpr double kL7 = 1.479819860511658591e-01;
  if (std::isnan(x) || x == std::numeric_limits<double>::infinity()) return x;
  if (x < 0) return std::numeric_limits<double>::quiet_NaN();
  if (x == 0) return -std::numeric_limits<double>::infinity();
  // x = f1 * 2^k with f1 in [0.5, 1), read off the bits as the assembly does
  // (subnormals included, which never occur here).
  const uint64_t bits = std::bit_cast<uint64_t>(x);
  double f1 = std::bit_cast<double>((bits & 0x000FFFFFFFFFFFFFull) | 0x3FE0000000000000ull);
  double k = static_cast<double>(static_cast<int32_t>((bits >> 52) & 0x7FF) - 0x3FE);
  if (!(kHalfSqrt2 < f1)) {
    k -= 1;
    f1 *= 2;
  }
  // Each step rounds on its own, in the routine's order (no fused multiply-add
  // on the project's baseline x86-64 target).
  const double f = f1 - 1;
  const double s = f / (2 + f);
  const double s2 = s * s;
  const double s4 = s2 * s2;
  const double t1 = s2 * (kL1 + s4 * (kL3 + s4 * (kL5 + s4 * kL7)));
  const double t2 = s4 * (kL2 + s4 * (kL4 + s4 * kL6));
  const double r = t1 + t2;
  const double hfsq = 0.5 * f * f;
  return k * kLn2Hi - ((hfsq - (s * (hfsq + r) + k * kLn2Lo)) - f);
}

}  // namespace ksched::framework::plugins::podtopologyspread
