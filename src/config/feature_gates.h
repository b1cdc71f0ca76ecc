// --feature-gates for the framework: upstream's featuregate.Set and
// SetFromMap (component-base/featuregate) over every gate name the emulated
// release knows, read into config::FeatureGates (the gates the scheduler
// consults). One table per release (feature_gates_v126.inc,
// feature_gates_v135.inc), as upstream keeps versioned feature specs.
//
// Errors are upstream's words: `unrecognized feature gate: X`, `missing bool
// value for X`, `invalid value of X=y, err: strconv.ParseBool: parsing "y":
// invalid syntax`, `cannot set feature gate X to false, feature is locked to
// true`, and from v1.35 on `X is enabled, but depends on features that are
// disabled: [Y]`. AllAlpha / AllBeta set every alpha (beta) gate not named
// explicitly.
//
// A gate that v1.35 removed after it graduated (MinDomainsInPodTopologySpread,
// ReadWriteOncePod, ...) is accepted at the value it was locked to and
// ignored, so that a v1.26 configuration still loads; any other value of it
// is refused (as the reference harness does; kube-scheduler v1.35 itself
// refuses every removed gate).
//
// v1.35's gates are the 216 kube-scheduler's DefaultFeatureGate knows:
// pkg/features (with the generic apiserver's, client-go's, ...) and the three
// logging gates (ContextualLogging, LoggingAlphaOptions, LoggingBetaOptions).
// The reference harness never registers the logging gates, so a scenario's
// featureGates are read with GateRegistry::kReferenceHarness, which refuses
// them as it does.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "config/types.h"
#include "config/version.h"
#include "util/result.h"

namespace ksched::config {

enum class PreRelease { kAlpha, kBeta, kGA, kDeprecated };

struct FeatureSpec {
  std::string_view name;
  bool default_value;
  PreRelease pre_release;
  bool lock_to_default;
};

// Every gate kube-scheduler `version` knows, sorted by name (AllAlpha and
// AllBeta are not listed).
const std::vector<FeatureSpec>& KnownFeatureGates(SchedulerVersion version);
inline const std::vector<FeatureSpec>& KnownFeatureGates() {
  return KnownFeatureGates(SchedulerVersion::kV126);
}
// nullptr when `version` has no such gate.
const FeatureSpec* FindFeatureGate(std::string_view name,
                                   SchedulerVersion version = SchedulerVersion::kV126);

// The release's defaults: every gate FeatureGates holds at its default in
// `version` (a gate the release no longer has at its locked value).
FeatureGates DefaultFeatureGates(SchedulerVersion version);

// Whose gate registry a setting is checked against: kube-scheduler's
// (--feature-gates), or the v1.35 reference harness's (a scenario's
// featureGates), which lacks the logging gates.
enum class GateRegistry { kKubeScheduler, kReferenceHarness };

// Applies a flag value "A=true,B=false" onto *gates, for the release
// gates->version (empty items are skipped, names and values trimmed, values
// as Go's strconv.ParseBool). Nothing is applied when any item is wrong.
Status SetFeatureGates(std::string_view spec, FeatureGates* gates,
                       GateRegistry registry = GateRegistry::kKubeScheduler);
// The same for a map, e.g. a scenario's "featureGates" (applied in order).
Status SetFeatureGatesFromMap(const std::vector<std::pair<std::string, bool>>& values,
                              FeatureGates* gates,
                              GateRegistry registry = GateRegistry::kKubeScheduler);
// The release's defaults with `spec` applied.
Result<FeatureGates> ParseFeatureGates(std::string_view spec,
                                       SchedulerVersion version = SchedulerVersion::kV126);

// The gate's current value in *gates for the gates FeatureGates holds,
// otherwise its default in gates.version; nullopt for an unknown name.
std::optional<bool> FeatureGateEnabled(const FeatureGates& gates, std::string_view name);

// The gates FeatureGates holds whose value in `gates` is not their default in
// gates.version, in name order (what a report says was changed).
std::vector<std::pair<std::string, bool>> NonDefaultFeatureGates(const FeatureGates& gates);

// The names of every gate `version` knows, for an error that lists them.
std::string KnownFeatureGateNames(SchedulerVersion version);

}  // namespace ksched::config
