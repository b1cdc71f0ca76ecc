// Which kube-scheduler release's behaviour the framework emulates.
//
// Kubernetes answers "behave as release X" with an emulated version plus
// feature gates (KEP-4330); ksched does the same. A SchedulerVersion is
// chosen once per run (--scheduler-version, a scenario's schedulerVersion,
// or, for `ksched run`, the API server's version), defaults the feature
// gates from that release's table (config/feature_gates.h), and is asked,
// at the one place that decides it, wherever behaviour changed without a
// gate (a message's wording, a score detail, a validation rule).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace ksched::config {

// Ordered: a later release compares greater.
enum class SchedulerVersion : uint8_t {
  kV126 = 26,
  kV135 = 35,
};

// The newest release ksched emulates: the default of every front end.
inline constexpr SchedulerVersion kLatestSchedulerVersion = SchedulerVersion::kV135;

// "v1.26", "v1.35".
std::string_view SchedulerVersionName(SchedulerVersion v);
// Accepts "v1.26", "1.26", "v1.35", "1.35"; nullopt otherwise.
std::optional<SchedulerVersion> ParseSchedulerVersion(std::string_view s);

}  // namespace ksched::config
