#include "api/pod_strategy.h"

#include <algorithm>

namespace ksched {
namespace {

// applyLabelKeysToLabelSelector: `key <op> [value]` for each key the pod has
// a label for, unless the selector holds that requirement already.
void MergeLabelKeys(const std::vector<std::string>& keys, std::string_view op, const Labels& labels,
                    LabelSelector* selector) {
  for (const std::string& key : keys) {
    std::optional<StrId> value = labels.Get(Intern(key));
    if (!value) continue;
    SelectorRequirement r;
    r.key = key;
    r.op = std::string(op);
    r.values.emplace_back(Str(*value));
    auto& exprs = selector->match_expressions;
    if (std::find(exprs.begin(), exprs.end(), r) == exprs.end()) exprs.push_back(std::move(r));
  }
}

void MergeAffinityTerm(const Labels& labels, PodAffinityTerm* t) {
  // A nil selector matches nothing; there is nothing to narrow.
  if (!t->label_selector) return;
  MergeLabelKeys(t->match_label_keys, "In", labels, &*t->label_selector);
  MergeLabelKeys(t->mismatch_label_keys, "NotIn", labels, &*t->label_selector);
}

void MergeAffinity(const Labels& labels, PodAffinity* a) {
  for (PodAffinityTerm& t : a->required) MergeAffinityTerm(labels, &t);
  for (WeightedPodAffinityTerm& w : a->preferred) MergeAffinityTerm(labels, &w.term);
}

}  // namespace

void PreparePodForCreate(Pod* pod, const ApiServerOptions& api) {
  if (!api.v135()) return;
  PodSpec& s = pod->spec;
  const Labels& labels = pod->meta.labels;
  // mutatePodAffinity
  if (api.match_label_keys_in_pod_affinity && s.affinity) {
    if (s.affinity->pod_affinity) MergeAffinity(labels, &*s.affinity->pod_affinity);
    if (s.affinity->pod_anti_affinity) MergeAffinity(labels, &*s.affinity->pod_anti_affinity);
  }
  // mutateTopologySpreadConstraints
  if (api.match_label_keys_in_pod_topology_spread && api.match_label_keys_selector_merge) {
    for (TopologySpreadConstraint& c : s.topology_spread_constraints)
      if (c.label_selector) MergeLabelKeys(c.match_label_keys, "In", labels, &*c.label_selector);
  }
  // PrepareForCreate resets the status.
  pod->container_statuses.clear();
  pod->init_container_statuses.clear();
}

}  // namespace ksched
