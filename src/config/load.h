// A KubeSchedulerConfiguration as `kube-scheduler --config FILE` ends up with
// it: decoded (config/decode.h), defaulted (config/defaults.h), validated
// (config/validation.h) and its plugins' args checked as building the
// framework checks them. Used by replay (a scenario's "config" object) and by
// the front ends' --config.
#pragma once

#include <string_view>

#include "config/types.h"
#include "util/result.h"

namespace ksched::config {

// Errors name `filename` ("" for none) and the field path, in upstream's
// words; a validation failure is its aggregate, e.g.
//   sched.yaml: profiles[0].plugins.score.enabled[0]: Invalid value: ...
Result<KubeSchedulerConfiguration> LoadConfiguration(std::string_view text,
                                                     std::string_view filename,
                                                     const FeatureGates& gates);

// kube-scheduler's configuration without a file (release gates.version): one profile
// "default-scheduler" with the default plugins and their default args.
KubeSchedulerConfiguration DefaultConfiguration(const FeatureGates& gates);

}  // namespace ksched::config
