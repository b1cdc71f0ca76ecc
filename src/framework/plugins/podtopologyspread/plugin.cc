#include "framework/plugins/podtopologyspread/plugin.h"

#include <algorithm>
#include <variant>

#include "framework/plugins/helper/spread.h"
#include "framework/plugins/names/names.h"
#include "framework/plugins/registry_factories.h"

namespace ksched::framework::plugins {

std::unique_ptr<Plugin> NewPodTopologySpread(const config::PluginArgs& args, Handle* handle,
                                             Status* error) {
  static const config::PodTopologySpreadArgs kDefaults;
  const config::PodTopologySpreadArgs* typed = &kDefaults;
  if (const auto* a = std::get_if<config::PodTopologySpreadArgs>(&args)) {
    typed = a;
  } else if (!std::holds_alternative<std::monostate>(args)) {
    *error = Status::Error("want args to be of type PodTopologySpreadArgs");
    return nullptr;
  }
  if (handle == nullptr) {
    *error = Status::Error("SnapshotSharedlister is nil");
    return nullptr;
  }
  return std::make_unique<podtopologyspread::PodTopologySpread>(*typed, handle);
}

}  // namespace ksched::framework::plugins

namespace ksched::framework::plugins::podtopologyspread {

PodTopologySpread::PodTopologySpread(const config::PodTopologySpreadArgs& args, Handle* handle)
    : handle_(handle), default_constraints_(args.default_constraints) {
  const config::FeatureGates& gates = handle->feature_gates();
  features_.v135 = gates.AtLeast(config::SchedulerVersion::kV135);
  // v1.35 reads minDomains without a gate (MinDomainsInPodTopologySpread GA
  // in v1.30, removed since).
  features_.min_domains = features_.v135 || gates.min_domains_in_pod_topology_spread;
  features_.match_label_keys = gates.match_label_keys_in_pod_topology_spread;
  features_.node_inclusion_policy = gates.node_inclusion_policy_in_pod_topology_spread;
  features_.taint_comparison_operators =
      features_.v135 && gates.taint_toleration_comparison_operators;
  if (args.defaulting_type == config::kSystemDefaulting) {
    default_constraints_ = SystemDefaultConstraints();
    system_defaulted_ = true;
  }
  // The pod's labels reach a default constraint only through matchLabelKeys,
  // into the selector that buildDefaultConstraints then replaces: the
  // filtered defaults are the same for every pod.
  defaults_do_not_schedule_ =
      FilterConstraints(default_constraints_, Labels(), kDoNotSchedule, features_);
  defaults_schedule_anyway_ =
      FilterConstraints(default_constraints_, Labels(), kScheduleAnyway, features_);
}

std::string_view PodTopologySpread::Name() const { return names::kPodTopologySpread; }

std::vector<ClusterEvent> PodTopologySpread::EventsToRegister() const {
  return {
      // Pods added, changed or deleted change the counts of their domains.
      {EventResource::kPod, kAll, ""},
      // Nodes added, deleted or relabelled change the domains themselves.
      {EventResource::kNode, kAdd | kDelete | kUpdateNodeLabel, ""},
  };
}

Result<Constraints> PodTopologySpread::PodConstraints(const Pod& pod,
                                                      std::string_view action) const {
  if (!pod.spec.topology_spread_constraints.empty())
    return FilterConstraints(pod.spec.topology_spread_constraints, pod.meta.labels, action,
                             features_);
  // buildDefaultConstraints: the defaults with `action`, all selecting the
  // pod's siblings; none when nothing selects the pod.
  const Result<Constraints>& filtered =
      action == kDoNotSchedule ? defaults_do_not_schedule_ : defaults_schedule_anyway_;
  if (!filtered || filtered->empty()) return filtered;
  helper::SpreadSelector selector = helper::DefaultSelector(pod, handle_->cluster());
  if (selector.Empty()) return Constraints{};
  Result<Constraints> defaults = filtered;
  for (Constraint& c : defaults->items) {
    c.selector = selector;
    c.counts_nothing = false;  // the selector is not empty
  }
  return defaults;
}

}  // namespace ksched::framework::plugins::podtopologyspread
