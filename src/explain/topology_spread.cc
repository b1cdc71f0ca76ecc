// PodTopologySpread's two reasons, from the counts its PreFilter kept in the
// cycle's state (the numbers Filter compared):
//  - didn't match pod topology spread constraints: the first hard constraint
//    the node breaks, its topology key, the node's domain and how many pods
//    matching the selector run there (+1 for the pod itself when it matches),
//    against the global minimum over the eligible domains and maxSkew;
//  - (missing required label): each constraint's topology key the node has
//    no label for.
// Constraints are named by their place in the pod's
// spec.topologySpreadConstraints, or as the profile's default constraints
// when the pod has none.
#include <fmt/format.h>

#include "explain/explain.h"
#include "framework/plugins/podtopologyspread/filtering.h"
#include "framework/schedule_one.h"

namespace ksched::explain {
namespace {

namespace pts = framework::plugins::podtopologyspread;

// "app=web,tier In (a,b)" for a compiled spread selector.
std::string SpreadSelectorText(const framework::plugins::helper::SpreadSelector& s) {
  if (s.requirements().MatchesNothing()) return "<none>";
  std::vector<std::string> parts;
  for (const auto& [k, v] : s.set()) parts.push_back(fmt::format("{}={}", Str(k), Str(v)));
  if (std::string reqs = s.requirements().String(); !reqs.empty()) parts.push_back(reqs);
  if (parts.empty()) return "<all>";
  return fmt::format("{}", fmt::join(parts, ","));
}

// Where hard constraint `i` (of the DoNotSchedule ones) comes from:
// "topologySpreadConstraints[k]" of the pod, or the profile's defaults.
std::string SpreadConstraintName(const Pod& pod, size_t i) {
  const auto& spec = pod.spec.topology_spread_constraints;
  if (spec.empty()) return fmt::format("default constraint {} (PodTopologySpread args)", i + 1);
  size_t hard = 0;
  for (size_t k = 0; k < spec.size(); ++k) {
    if (spec[k].when_unsatisfiable != pts::kDoNotSchedule) continue;
    if (hard++ == i) return fmt::format("topologySpreadConstraints[{}]", k);
  }
  return fmt::format("constraint {}", i + 1);
}

Cause SpreadCause(std::string_view reason, const NodeContext& c, const pts::Constraint& con,
                  size_t i) {
  Cause cause;
  cause.reason = reason;
  cause.kind = "topologySpread";
  cause.details["constraint"] = SpreadConstraintName(c.pod, i);
  cause.details["topologyKey"] = Str(con.topology_key);
  cause.details["maxSkew"] = con.max_skew;
  cause.details["selector"] = SpreadSelectorText(con.selector);
  return cause;
}

}  // namespace

void ExplainTopologySpread(const NodeContext& c, std::string_view reason, std::vector<Cause>* out) {
  if (c.cycle == nullptr) return;
  const auto* s = c.cycle->state.ReadAs<pts::PreFilterState>(pts::kPreFilterStateKey);
  if (s == nullptr || s->Empty()) return;
  const NodeInfo& node = c.info();
  const std::vector<pts::Constraint>& items = s->constraints->items;
  const bool missing_label =
      reason == "node(s) didn't match pod topology spread constraints (missing required label)";

  if (missing_label) {
    std::vector<StrId> seen;
    for (size_t i = 0; i < items.size(); ++i) {
      const pts::Constraint& con = items[i];
      if (s->domains[con.key_slot]->HasLabel(node)) continue;
      if (std::find(seen.begin(), seen.end(), con.topology_key) != seen.end()) continue;
      seen.push_back(con.topology_key);
      Cause cause = SpreadCause(reason, c, con, i);
      cause.message = fmt::format(
          "{} spreads over topologyKey {}: the node has no label {}, so it is in no domain and "
          "cannot take the pod (label the node, or drop the constraint)",
          SpreadConstraintName(c.pod, i), Str(con.topology_key), Str(con.topology_key));
      cause.details["label"] = Str(con.topology_key);
      out->push_back(std::move(cause));
    }
    return;
  }

  // v1.35 reads minDomains without a gate (MinDomainsInPodTopologySpread GA).
  const bool min_domains =
      c.cycle->framework != nullptr &&
      (c.cycle->framework->feature_gates().min_domains_in_pod_topology_spread ||
       c.cycle->framework->feature_gates().AtLeast(config::SchedulerVersion::kV135));
  // Pods nominated to this node that the cycle counted as if they ran here.
  const std::vector<PodId> nominated = c.NominatedHere();
  for (size_t i = 0; i < items.size(); ++i) {
    const pts::Constraint& con = items[i];
    const pts::TopologyDomains& domains = *s->domains[con.key_slot];
    if (!domains.HasLabel(node)) continue;
    int64_t min_match = 0;
    if (!s->MinMatchNum(con, min_domains, &min_match)) continue;
    const uint32_t d = domains.DomainOf(node);
    int64_t match = s->counts[con.key_slot][d];
    int64_t from_nominated = 0;
    for (PodId id : nominated) {
      const Pod& p = c.cluster.pod(id).pod;
      if (p.meta.ns == c.pod.meta.ns && con.selector.Matches(p.meta.labels)) ++from_nominated;
    }
    match += from_nominated;
    const int64_t self = s->self_match[i] ? 1 : 0;
    const int64_t skew = match + self - min_match;
    if (skew <= con.max_skew) continue;

    const std::string key(Str(con.topology_key));
    const std::string domain = fmt::format("{}={}", key, Str(domains.domain_value[d]));
    const pts::CriticalPaths::Path& least = s->paths[con.key_slot].paths[0];
    std::string minimum =
        fmt::format("the global minimum is {} ({}={})", min_match, key, Str(least.value));
    const bool below_min_domains = min_domains && s->domains_num[con.key_slot] >= 0 &&
                                   s->domains_num[con.key_slot] < con.min_domains;
    if (below_min_domains) {
      minimum = fmt::format(
          "the global minimum counts as 0 (only {} eligible domain(s), fewer than minDomains {})",
          s->domains_num[con.key_slot], con.min_domains);
    }
    std::string count = fmt::format("{} has {} pod(s) matching {}", domain, match,
                                    SpreadSelectorText(con.selector));
    if (from_nominated > 0) count += fmt::format(" ({} of them nominated here)", from_nominated);
    // v1.35 counts no placed pod for labelSelector {} (only nominated ones).
    if (con.counts_nothing) count += " (an empty labelSelector counts no running pod)";
    Cause cause = SpreadCause(reason, c, con, i);
    cause.message = fmt::format("{} (topologyKey {}, maxSkew {}): {}{}; {}: skew {} > maxSkew {}",
                                SpreadConstraintName(c.pod, i), key, con.max_skew, count,
                                self ? ", 1 more with this pod" : "", minimum, skew, con.max_skew);
    cause.details["domain"] = domain;
    cause.details["matchingPods"] = match;
    if (from_nominated > 0) cause.details["nominatedPods"] = from_nominated;
    cause.details["podMatchesSelector"] = self == 1;
    cause.details["globalMinimum"] = min_match;
    if (below_min_domains) {
      cause.details["minDomains"] = con.min_domains;
      cause.details["eligibleDomains"] = s->domains_num[con.key_slot];
    } else {
      cause.details["minimumDomain"] = fmt::format("{}={}", key, Str(least.value));
    }
    cause.details["skew"] = skew;
    out->push_back(std::move(cause));
    return;  // Filter stops at the first constraint the node breaks
  }
}

}  // namespace ksched::explain
