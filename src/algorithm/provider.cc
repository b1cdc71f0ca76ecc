#include "algorithm/provider.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "predicates/factories.h"
#include "priorities/factories.h"

namespace ksched {
namespace {

constexpr std::string_view kDefaultProvider = "DefaultProvider";
constexpr std::string_view kClusterAutoscalerProvider = "ClusterAutoscalerProvider";

// What building one predicate needs besides its name.
struct PredicateArgs {
  std::vector<std::string> ignored_extended_resources;  // from extenders
};
using PredicateFactory = std::function<std::unique_ptr<Predicate>(const PredicateArgs&)>;

struct PriorityArgs {
  int hard_pod_affinity_symmetric_weight = 1;
};
using PriorityFactory = std::function<std::unique_ptr<Priority>(const PriorityArgs&)>;

// Upstream's fitPredicateMap after ApplyFeatureGates.
std::map<std::string, PredicateFactory, std::less<>> PredicateRegistry(const FeatureGates& gates) {
  std::map<std::string, PredicateFactory, std::less<>> m;
  auto simple = [](std::unique_ptr<Predicate> (*f)()) {
    return [f](const PredicateArgs&) { return f(); };
  };
  m["PodFitsPorts"] = simple(NewPodFitsHostPorts);
  m["PodFitsHostPorts"] = simple(NewPodFitsHostPorts);
  m["PodFitsResources"] = [](const PredicateArgs& a) {
    return NewPodFitsResourcesIgnoring(a.ignored_extended_resources);
  };
  m["HostName"] = simple(NewPodFitsHost);
  m["MatchNodeSelector"] = simple(NewPodMatchNodeSelector);
  m["NoVolumeZoneConflict"] = simple(NewNoVolumeZoneConflict);
  m["MaxEBSVolumeCount"] = simple(NewMaxEBSVolumeCount);
  m["MaxGCEPDVolumeCount"] = simple(NewMaxGCEPDVolumeCount);
  m["MaxAzureDiskVolumeCount"] = simple(NewMaxAzureDiskVolumeCount);
  m["MaxCSIVolumeCountPred"] = simple(NewMaxCSIVolumeCount);
  m["MaxCinderVolumeCount"] = simple(NewMaxCinderVolumeCount);
  m["MatchInterPodAffinity"] = simple(NewMatchInterPodAffinity);
  m["NoDiskConflict"] = simple(NewNoDiskConflict);
  m["GeneralPredicates"] = [](const PredicateArgs& a) {
    return NewGeneralPredicatesIgnoring(a.ignored_extended_resources);
  };
  m["PodToleratesNodeTaints"] = simple(NewPodToleratesNodeTaints);
  m["CheckVolumeBinding"] = simple(NewCheckVolumeBinding);
  if (gates.taint_nodes_by_condition) {
    m["CheckNodeUnschedulable"] = simple(NewCheckNodeUnschedulablePredicate);
  } else {
    m["CheckNodeCondition"] = simple(NewCheckNodeConditionPredicate);
    m["CheckNodeMemoryPressure"] = simple(NewCheckNodeMemoryPressurePredicate);
    m["CheckNodeDiskPressure"] = simple(NewCheckNodeDiskPressurePredicate);
    m["CheckNodePIDPressure"] = simple(NewCheckNodePIDPressurePredicate);
  }
  return m;
}

std::vector<std::string> MandatoryPredicates(const FeatureGates& gates) {
  if (gates.taint_nodes_by_condition) return {"PodToleratesNodeTaints", "CheckNodeUnschedulable"};
  return {"CheckNodeCondition"};
}

// Upstream's priorityFunctionMap with default weights.
struct RegisteredPriority {
  PriorityFactory factory;
  int64_t default_weight = 1;
};
std::map<std::string, RegisteredPriority, std::less<>> PriorityRegistry(const FeatureGates& gates) {
  std::map<std::string, RegisteredPriority, std::less<>> m;
  auto simple = [](std::unique_ptr<Priority> (*f)()) {
    return [f](const PriorityArgs&) { return f(); };
  };
  m["EqualPriority"] = {simple(NewEqualPriority), 1};
  m["MostRequestedPriority"] = {simple(NewMostRequestedPriority), 1};
  m["RequestedToCapacityRatioPriority"] = {
      [](const PriorityArgs&) { return NewRequestedToCapacityRatioPriority({}); }, 1};
  m["SelectorSpreadPriority"] = {simple(NewSelectorSpreadPriority), 1};
  m["ServiceSpreadingPriority"] = {simple(NewServiceSpreadingPriority), 1};
  m["InterPodAffinityPriority"] = {
      [](const PriorityArgs& a) {
        return NewInterPodAffinityPriority(a.hard_pod_affinity_symmetric_weight);
      },
      1};
  m["LeastRequestedPriority"] = {simple(NewLeastRequestedPriority), 1};
  m["BalancedResourceAllocation"] = {simple(NewBalancedResourceAllocation), 1};
  m["NodePreferAvoidPodsPriority"] = {simple(NewNodePreferAvoidPodsPriority), 10000};
  m["NodeAffinityPriority"] = {simple(NewNodeAffinityPriority), 1};
  m["TaintTolerationPriority"] = {simple(NewTaintTolerationPriority), 1};
  m["ImageLocalityPriority"] = {simple(NewImageLocalityPriority), 1};
  if (gates.resource_limits_priority_function) {
    m["ResourceLimitsPriority"] = {simple(NewResourceLimitsPriority), 1};
  }
  return m;
}

std::vector<std::string> ProviderPredicateKeys(const FeatureGates& gates) {
  std::vector<std::string> keys = {"NoVolumeZoneConflict",   "MaxEBSVolumeCount",
                                   "MaxGCEPDVolumeCount",    "MaxAzureDiskVolumeCount",
                                   "MaxCSIVolumeCountPred",  "MatchInterPodAffinity",
                                   "NoDiskConflict",         "GeneralPredicates",
                                   "PodToleratesNodeTaints", "CheckVolumeBinding"};
  if (gates.taint_nodes_by_condition) {
    keys.push_back("CheckNodeUnschedulable");
  } else {
    for (const char* k : {"CheckNodeMemoryPressure", "CheckNodeDiskPressure",
                          "CheckNodePIDPressure", "CheckNodeCondition"})
      keys.push_back(k);
  }
  return keys;
}

std::vector<std::string> ProviderPriorityKeys(std::string_view provider,
                                              const FeatureGates& gates) {
  std::vector<std::string> keys = {
      "SelectorSpreadPriority",
      "InterPodAffinityPriority",
      provider == kClusterAutoscalerProvider ? "MostRequestedPriority" : "LeastRequestedPriority",
      "BalancedResourceAllocation",
      "NodePreferAvoidPodsPriority",
      "NodeAffinityPriority",
      "TaintTolerationPriority",
      "ImageLocalityPriority"};
  if (gates.resource_limits_priority_function) keys.push_back("ResourceLimitsPriority");
  return keys;
}

// Keeps only the registered names in upstream's order and instantiates them.
// `custom` holds Policy predicates with arguments, which upstream registers
// under the entry's own name (replacing a built-in of that name).
Result<std::vector<PredicateConfig>> InstantiatePredicates(
    const std::set<std::string>& keys,
    const std::map<std::string, PredicateFactory, std::less<>>& reg, const PredicateArgs& args) {
  std::vector<PredicateConfig> out;
  for (std::string_view name : PredicateOrdering()) {
    if (!keys.count(std::string(name))) continue;
    auto it = reg.find(name);
    if (it == reg.end()) continue;
    out.push_back(PredicateConfig{std::string(name), it->second(args)});
  }
  return out;
}

// The command line's (or a scenario's) weight, checked as upstream's
// component-config validation checks it: 0 turns the symmetric term off.
// A Policy's own value is not range-checked upstream (a non-zero one simply
// replaces this), so BuildFromPolicy does not check it either.
Status CheckHardWeight(int weight) {
  if (weight < 0 || weight > 100) {
    return MakeError(fmt::format(
        "hardPodAffinitySymmetricWeight: Invalid value: {}: not in valid range 0-100", weight));
  }
  return Status::Ok();
}

// Upstream's validateSelectedConfigs: the sum of weight*10 must not overflow.
Status CheckTotalWeight(const std::vector<PriorityConfig>& configs) {
  int64_t total = 0;
  for (const PriorityConfig& c : configs) {
    if (c.weight > (INT64_MAX - total) / kMaxPriority) {
      return MakeError("total priority of priority functions has overflown");
    }
    total += c.weight * kMaxPriority;
  }
  return Status::Ok();
}

}  // namespace

const std::vector<std::string_view>& PredicateOrdering() {
  static const std::vector<std::string_view> order = {
      "CheckNodeCondition",     "CheckNodeUnschedulable",
      "GeneralPredicates",      "HostName",
      "PodFitsHostPorts",       "MatchNodeSelector",
      "PodFitsResources",       "NoDiskConflict",
      "PodToleratesNodeTaints", "PodToleratesNodeNoExecuteTaints",
      "CheckNodeLabelPresence", "CheckServiceAffinity",
      "MaxEBSVolumeCount",      "MaxGCEPDVolumeCount",
      "MaxCSIVolumeCountPred",  "MaxAzureDiskVolumeCount",
      "MaxCinderVolumeCount",   "CheckVolumeBinding",
      "NoVolumeZoneConflict",   "CheckNodeMemoryPressure",
      "CheckNodePIDPressure",   "CheckNodeDiskPressure",
      "MatchInterPodAffinity"};
  return order;
}

const std::vector<std::string_view>& ProviderNames() {
  static const std::vector<std::string_view> names = {kDefaultProvider, kClusterAutoscalerProvider};
  return names;
}

Result<SchedulerConfig> BuildFromProvider(std::string_view provider, const BuildOptions& options) {
  if (std::find(ProviderNames().begin(), ProviderNames().end(), provider) ==
      ProviderNames().end()) {
    return MakeError(fmt::format(
        "unknown algorithm provider \"{}\" (known: DefaultProvider, ClusterAutoscalerProvider)",
        provider));
  }
  if (Status s = CheckHardWeight(options.hard_pod_affinity_symmetric_weight); !s.ok())
    return s.error();
  SchedulerConfig config;
  config.hard_pod_affinity_symmetric_weight = options.hard_pod_affinity_symmetric_weight;
  config.percentage_of_nodes_to_score = options.percentage_of_nodes_to_score;

  auto preds = PredicateRegistry(options.gates);
  std::set<std::string> keys;
  for (auto& k : ProviderPredicateKeys(options.gates)) keys.insert(k);
  for (auto& k : MandatoryPredicates(options.gates)) keys.insert(k);
  auto instantiated = InstantiatePredicates(keys, preds, PredicateArgs{});
  if (!instantiated.ok()) return instantiated.error();
  config.predicates = std::move(instantiated).value();

  auto prios = PriorityRegistry(options.gates);
  PriorityArgs pargs{options.hard_pod_affinity_symmetric_weight};
  for (const std::string& name : ProviderPriorityKeys(provider, options.gates)) {
    const RegisteredPriority& rp = prios.at(name);
    config.priorities.push_back(PriorityConfig{name, rp.factory(pargs), rp.default_weight});
  }
  return config;
}

Result<SchedulerConfig> BuildFromPolicy(const Policy& policy, const BuildOptions& options) {
  if (Status s = ValidatePolicy(policy); !s.ok()) return s.error();
  SchedulerConfig config;
  config.percentage_of_nodes_to_score = options.percentage_of_nodes_to_score;
  config.always_check_all_predicates = policy.always_check_all_predicates;
  if (Status s = CheckHardWeight(options.hard_pod_affinity_symmetric_weight); !s.ok())
    return s.error();
  int hard = options.hard_pod_affinity_symmetric_weight;
  if (policy.hard_pod_affinity_symmetric_weight != 0)
    hard = policy.hard_pod_affinity_symmetric_weight;
  config.hard_pod_affinity_symmetric_weight = hard;

  PredicateArgs args;
  for (const ExtenderConfig& e : policy.extenders)
    for (const ExtenderManagedResource& r : e.managed_resources)
      if (r.ignored_by_scheduler) args.ignored_extended_resources.push_back(r.name);

  // ---- predicates
  auto reg = PredicateRegistry(options.gates);
  std::set<std::string> keys;
  if (!policy.predicates) {
    for (auto& k : ProviderPredicateKeys(options.gates)) keys.insert(k);
  } else {
    for (const PredicatePolicy& p : *policy.predicates) {
      int num_args = (p.service_affinity_labels ? 1 : 0) + (p.labels_presence ? 1 : 0);
      if (num_args > 1) {
        return MakeError(
            fmt::format("Exactly 1 predicate argument is required, numArgs: {}, Predicate: {}",
                        num_args, p.name));
      }
      if (p.service_affinity_labels) {
        auto labels = *p.service_affinity_labels;
        reg[p.name] = [labels](const PredicateArgs&) {
          return NewServiceAffinityPredicate(labels);
        };
      } else if (p.labels_presence) {
        auto lp = *p.labels_presence;
        reg[p.name] = [lp](const PredicateArgs&) {
          return NewNodeLabelPredicate(lp.first, lp.second);
        };
      } else if (!reg.count(p.name)) {
        return MakeError(
            fmt::format("Invalid configuration: Predicate type not found for {}", p.name));
      }
      keys.insert(p.name);
    }
  }
  for (auto& k : MandatoryPredicates(options.gates)) keys.insert(k);
  auto instantiated = InstantiatePredicates(keys, reg, args);
  if (!instantiated.ok()) return instantiated.error();
  config.predicates = std::move(instantiated).value();

  // ---- priorities
  auto prios = PriorityRegistry(options.gates);
  PriorityArgs pargs{hard};
  if (!policy.priorities) {
    for (const std::string& name : ProviderPriorityKeys(kDefaultProvider, options.gates)) {
      const RegisteredPriority& rp = prios.at(name);
      config.priorities.push_back(PriorityConfig{name, rp.factory(pargs), rp.default_weight});
    }
  } else {
    // Upstream registers each entry under its name (a later entry of the same
    // name replaces an earlier one) and then runs the set of names.
    std::map<std::string, PriorityConfig> by_name;
    for (const PriorityPolicy& p : *policy.priorities) {
      int num_args = (p.service_anti_affinity_label ? 1 : 0) + (p.label_preference ? 1 : 0) +
                     (p.requested_to_capacity_ratio_shape ? 1 : 0);
      if (num_args > 1) {
        return MakeError(
            fmt::format("Exactly 1 priority argument is required, numArgs: {}, Priority: {}",
                        num_args, p.name));
      }
      std::unique_ptr<Priority> prio;
      if (p.service_anti_affinity_label) {
        prio = NewServiceAntiAffinityPriority(*p.service_anti_affinity_label);
      } else if (p.label_preference) {
        prio = NewNodeLabelPriority(p.label_preference->first, p.label_preference->second);
      } else if (p.requested_to_capacity_ratio_shape) {
        auto shape = *p.requested_to_capacity_ratio_shape;
        // Upstream validates the shape when building the function.
        if (shape.empty()) return MakeError("at least one point must be specified");
        for (size_t i = 0; i < shape.size(); ++i) {
          if (shape[i].first < 0 || shape[i].first > 100) {
            return MakeError(
                fmt::format("utilization values must be valid percentages: {}", shape[i].first));
          }
          if (shape[i].second < 0 || shape[i].second > kMaxPriority) {
            return MakeError(
                fmt::format("score values must be in range 0-10: {}", shape[i].second));
          }
          if (i > 0 && shape[i - 1].first >= shape[i].first) {
            return MakeError("utilization values must be sorted");
          }
        }
        prio = NewRequestedToCapacityRatioPriority(std::move(shape));
      } else {
        auto it = prios.find(p.name);
        if (it == prios.end()) {
          return MakeError(
              fmt::format("Invalid configuration: Priority type not found for {}", p.name));
        }
        prio = it->second.factory(pargs);
      }
      by_name[p.name] = PriorityConfig{p.name, std::move(prio), p.weight};
    }
    for (auto& [name, pc] : by_name) config.priorities.push_back(std::move(pc));
  }
  if (Status s = CheckTotalWeight(config.priorities); !s.ok()) return s.error();
  return config;
}

}  // namespace ksched
