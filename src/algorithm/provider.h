// Algorithm providers and Policy → SchedulerConfig, as upstream's
// algorithmprovider/defaults and factory.CreateFromConfig build them.
//
// The registry knows every predicate and priority by its upstream name. Which
// names are accepted depends on the v1.15 feature gates, exactly as upstream's
// ApplyFeatureGates changes the registry: with TaintNodesByCondition (on by
// default) the node-condition predicates are unregistered and
// PodToleratesNodeTaints and CheckNodeUnschedulable become mandatory.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "algorithm/generic_scheduler.h"
#include "algorithm/policy.h"
#include "util/result.h"

namespace ksched {

struct FeatureGates {
  bool taint_nodes_by_condition = true;            // beta, on in v1.15
  bool resource_limits_priority_function = false;  // alpha, off in v1.15
};

struct BuildOptions {
  FeatureGates gates;
  // kube-scheduler's --hard-pod-affinity-symmetric-weight (default 1); a
  // non-zero value in the Policy overrides it.
  int hard_pod_affinity_symmetric_weight = 1;
  int percentage_of_nodes_to_score = 100;
};

// Upstream's predicates.Ordering(): the only order predicates ever run in.
const std::vector<std::string_view>& PredicateOrdering();

// Names accepted by --provider / a scenario's "provider".
const std::vector<std::string_view>& ProviderNames();

// Builds the configuration of a named algorithm provider.
Result<SchedulerConfig> BuildFromProvider(std::string_view provider, const BuildOptions& options);

// Builds the configuration a Policy describes (extenders are not created
// here: see extender/http_extender.h; their ignored resources are applied).
Result<SchedulerConfig> BuildFromPolicy(const Policy& policy, const BuildOptions& options);

}  // namespace ksched
