// --feature-gates for the v1.26 framework: upstream's featuregate.Set and
// SetFromMap (component-base/featuregate) over every gate name v1.26 knows,
// read into config::FeatureGates (the gates the scheduler consults).
//
// Errors are upstream's words: `unrecognized feature gate: X`, `missing bool
// value for X`, `invalid value of X=y, err: strconv.ParseBool: parsing "y":
// invalid syntax`, `cannot set feature gate X to false, feature is locked to
// true`. AllAlpha / AllBeta set every alpha (beta) gate not named explicitly.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "config/types.h"
#include "util/result.h"

namespace ksched::config {

enum class PreRelease { kAlpha, kBeta, kGA, kDeprecated };

struct FeatureSpec {
  std::string_view name;
  bool default_value;
  PreRelease pre_release;
  bool lock_to_default;
};

// Every known gate, sorted by name (AllAlpha and AllBeta are not listed).
const std::vector<FeatureSpec>& KnownFeatureGates();
// nullptr when v1.26 has no such gate.
const FeatureSpec* FindFeatureGate(std::string_view name);

// Applies a flag value "A=true,B=false" onto *gates (empty items are
// skipped, names and values trimmed, values as Go's strconv.ParseBool).
// Nothing is applied when any item is wrong.
Status SetFeatureGates(std::string_view spec, FeatureGates* gates);
// The same for a map, e.g. a scenario's "featureGates" (applied in order).
Status SetFeatureGatesFromMap(const std::vector<std::pair<std::string, bool>>& values,
                              FeatureGates* gates);
// v1.26's defaults with `spec` applied.
Result<FeatureGates> ParseFeatureGates(std::string_view spec);

// The gate's current value in *gates for the gates FeatureGates holds,
// otherwise its default; nullopt for an unknown name.
std::optional<bool> FeatureGateEnabled(const FeatureGates& gates, std::string_view name);

}  // namespace ksched::config
