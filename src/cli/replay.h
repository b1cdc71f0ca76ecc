// Replaying a scenario: the conformance format's cluster, configuration and
// pending pods, scheduled one after another with each pod bound before the
// next. Shared by `ksched replay`, `ksched bench` and the conformance test, so
// all three run exactly the same engine.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "algorithm/generic_scheduler.h"
#include "algorithm/provider.h"
#include "api/scenario.h"
#include "cache/cluster_state.h"
#include "util/result.h"

namespace ksched {

struct ReplayOptions {
  TieBreak tie_break = TieBreak::kName;
  std::optional<int> percentage_of_nodes_to_score;  // overrides the scenario
  FeatureGates gates;
  // False: ScheduleResult carries the decision but not every node's reasons
  // and priority scores (the benchmark; same engine, smaller report).
  bool record_details = true;
};

// Called once per pending pod, after its cycle and before it is bound.
using StepCallback = std::function<void(const Pod& pod, const ScheduleResult& result,
                                        const ClusterState& cluster,
                                        const SchedulerConfig& config)>;

// Builds the scheduler configuration a scenario asks for (Policy, provider,
// hardPodAffinitySymmetricWeight, percentageOfNodesToScore, extenders).
Result<SchedulerConfig> ScenarioConfig(const Scenario& scenario, const ReplayOptions& options);

// Runs every pending pod of `scenario`. Returns an error only for problems
// with the scenario itself (bad policy, duplicate names), not for pods that
// do not fit.
// `on_ready`, if set, is called once the cluster is built, just before the
// first pod (the benchmark starts its clock there).
Status RunReplay(Scenario scenario, const ReplayOptions& options, const StepCallback& on_step,
                 const std::function<void()>& on_ready = nullptr);

// One step in the conformance step format (shared/conformance/README.md),
// as an object so front ends can add fields before printing it.
nlohmann::ordered_json StepObject(const Pod& pod, const ScheduleResult& result,
                                  const ClusterState& cluster, const SchedulerConfig& config);

// The same, printed on one line.
std::string StepToJson(const Pod& pod, const ScheduleResult& result, const ClusterState& cluster,
                       const SchedulerConfig& config);

}  // namespace ksched
