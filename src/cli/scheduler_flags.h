// Flags shared by the commands that build a scheduler from the command line
// (schedule, capacity, extender): --policy / --provider and friends.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "algorithm/generic_scheduler.h"
#include "algorithm/provider.h"
#include "config/types.h"
#include "engine/engine.h"
#include "util/result.h"

namespace ksched {

struct SchedulerFlags {
  std::string policy_file;
  std::string provider = "DefaultProvider";
  int percentage_of_nodes_to_score = 100;
  int hard_pod_affinity_symmetric_weight = 1;
  std::string tie_break = "name";
  std::string feature_gates;  // "TaintNodesByCondition=false,ResourceLimitsPriorityFunction=true"
  // Which kube-scheduler decides: "v1.15" (predicates, priorities, Policy)
  // or "v1.26" / "v1.35" (the scheduling framework,
  // KubeSchedulerConfiguration); "" when not given: EngineVersion() decides
  // from the other flags.
  std::string scheduler_version;
  std::string config_file;  // --config: a KubeSchedulerConfiguration; implies the framework
  // --scheduler-name: without --config, the schedulerName of v1.26's default
  // profile (so that pods naming it are scheduled by the default plugins).
  std::string profile_name;
  // --validate, as kubectl's: what a field no Kubernetes release has is in
  // the input files: strict (or true: an error), warn, ignore (or false).
  std::string validate = "strict";
  // Set while parsing when the flag was given (v1.15-only flags: with the
  // v1.26 engine they are an error rather than silently ignored).
  bool provider_given = false;
  bool hard_weight_given = false;

  void AddTo(CLI::App* app);
  TieBreak tie() const {
    return tie_break == "round-robin" ? TieBreak::kRoundRobin : TieBreak::kName;
  }
  // Builds the v1.15 configuration, with HTTP extenders when the Policy
  // names them.
  Result<SchedulerConfig> Build() const;
  // The v1.26 configuration these flags give: --config's file, else
  // v1.26's default configuration (with --feature-gates' gates).
  Result<config::KubeSchedulerConfiguration> FrameworkConfig() const;
  // The engine these flags choose. `loaded` (may be null) is a
  // FrameworkConfig() the caller has already read and adjusted (`run` sets
  // the default profile's schedulerName); it is used instead of reading
  // --config again.
  Result<std::unique_ptr<Engine>> BuildEngine(
      const config::KubeSchedulerConfiguration* loaded = nullptr) const;
  // The engine these flags choose: --scheduler-version when given, else
  // v1.15 for --policy or --provider, else v1.35 (the default).
  std::string_view EngineVersion() const;
  bool framework() const { return EngineVersion() != "v1.15"; }
  // The framework release (when framework()).
  config::SchedulerVersion FrameworkVersion() const;
  // --feature-gates over FrameworkVersion()'s defaults; an unknown gate's
  // error lists the gates that release knows.
  Result<config::FeatureGates> FrameworkGates() const;
  // Flags that belong to the other engine than EngineVersion()'s, as an
  // error naming them; ok when they agree.
  Status CheckConsistent() const;
};

// A CLI11 check for an integer flag: the whole text must be a base-10
// integer from `min` to `max`. CLI11's own checks print ranges as doubles
// and let values past int64 through; this one names the flag's range and
// rejects fractions and overflow before the value is converted.
CLI::Validator IntegerIn(int64_t min, int64_t max);

// The spec.schedulerName values a run serves: --scheduler-name when given
// (`flag` not empty), else every profile of the engine (a v1.26
// configuration's profiles, as one kube-scheduler serves them all), else
// default-scheduler.
std::vector<std::string> ServedSchedulerNames(const std::string& flag, const Engine& engine);

// Parses --feature-gates.
Result<FeatureGates> ParseFeatureGates(const std::string& spec);

}  // namespace ksched
