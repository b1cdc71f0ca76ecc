// Replaying a scenario: the conformance format's cluster, configuration and
// pending pods, scheduled one after another with each pod bound before the
// next. Shared by `ksched replay`, `ksched bench` and the conformance test, so
// all three run exactly the same engine.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "algorithm/generic_scheduler.h"
#include "algorithm/provider.h"
#include "api/scenario.h"
#include "cache/cluster_state.h"
#include "cli/framework_step_writer.h"
#include "config/types.h"
#include "engine/engine.h"
#include "framework/schedule_one.h"
#include "preemption/preempt.h"
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

// Called once per attempt (once per pending pod, except in the scheduler-loop
// mode of ../shared/preemption, where a pod that preempted is attempted
// twice), after its cycle and before its effects (binding, deleting
// preemption victims) are applied. `preemption` is what Preempt decided on a
// failed attempt in that mode, and nullptr otherwise.
using StepCallback =
    std::function<void(const Pod& pod, const ScheduleResult& result, const ClusterState& cluster,
                       const ScoreColumns& columns, const PreemptionResult* preemption)>;

// Builds the scheduler configuration a scenario asks for (Policy, provider,
// hardPodAffinitySymmetricWeight, percentageOfNodesToScore, extenders).
Result<SchedulerConfig> ScenarioConfig(const Scenario& scenario, const ReplayOptions& options);

// Runs every pending pod of `scenario`. Returns an error only for problems
// with the scenario itself (bad policy, duplicate names), not for pods that
// do not fit.
// `on_ready`, if set, is called once the cluster is built, just before the
// first pod, and `on_done` once the last pod was attempted, before the
// cluster and scheduler are torn down (the benchmark's clock runs between).
Status RunReplay(Scenario scenario, const ReplayOptions& options, const StepCallback& on_step,
                 const std::function<void()>& on_ready = nullptr,
                 const std::function<void()>& on_done = nullptr);

// ---------------------------------------------------------------- the framework

// A scenario of the framework's vectors (../shared/framework/README.md,
// ../shared/framework-v1.35/README.md): `"schedulerVersion": "v1.26"` or
// `"v1.35"`.
inline bool IsFrameworkScenario(const Scenario& scenario) {
  return !scenario.scheduler_version.empty();
}

struct FrameworkReplayOptions {
  framework::HostSelection host_selection = framework::HostSelection::kSmallestName;
  std::optional<int> percentage_of_nodes_to_score;  // overrides the configuration
  // False: each CycleResult carries the decision (chosen, error, fit_error,
  // the failures PostFilter reads) but not every plugin's score per node
  // (the benchmark; same decisions, smaller report).
  bool record_details = true;
  // SchedulerOptions::reuse_node_results (false only to compare the two).
  bool reuse_node_results = true;
};

// Called once per attempt, after the pod was assumed (when a node was
// chosen) and before the next pod; an assumed pod may be passed as the
// cluster holds it (its spec.nodeName set). `preemption` is set for the failed
// attempts of the scheduler-loop mode, where result.error ends with
// preemption's message.
using FrameworkStepCallback =
    std::function<void(const Pod& pod, const framework::CycleResult& result,
                       const ClusterState& cluster, const FrameworkPreemption* preemption)>;

// The release a framework scenario's schedulerVersion names ("v1.26",
// "v1.35"); an error for any other.
Result<config::SchedulerVersion> ScenarioSchedulerVersion(const Scenario& scenario);
// The scenario's featureGates over its release's defaults, and its configuration
// (decoded, defaulted and validated; kube-scheduler's defaults when absent).
Result<config::FeatureGates> ScenarioFeatureGates(const Scenario& scenario);
Result<config::KubeSchedulerConfiguration> ScenarioSchedulerConfiguration(
    const Scenario& scenario, const config::FeatureGates& gates);

// Runs every pending pod of a framework scenario through v1.26's cycle, in
// file order, each assumed (and reserved) before the next. Errors only for
// the scenario itself (bad configuration, duplicate names). `on_ready` and
// `on_done` as for RunReplay.
Status RunFrameworkReplay(Scenario scenario, const FrameworkReplayOptions& options,
                          const FrameworkStepCallback& on_step,
                          const std::function<void()>& on_ready = nullptr,
                          const std::function<void()>& on_done = nullptr);

}  // namespace ksched
