// Decoding a KubeSchedulerConfiguration from JSON or YAML, strictly, as the
// `kube-scheduler --config` of a release reads it: upstream's scheme codec
// (sigs.k8s.io/json with unknown and duplicate fields disallowed,
// case-sensitive) and the nested decoding of each pluginConfig's args by
// plugin name (<Name>Args).
//
// v1.26 reads kubescheduler.config.k8s.io/v1 and the deprecated v1beta3;
// v1.35 only v1, with its new fields (delayCacheUntilActive,
// InterPodAffinityArgs.ignorePreferredTermsOfExistingPods,
// DynamicResourcesArgs), and its Go's wording of a few errors.
//
// Errors carry upstream's text after "<file>: ":
//   strict decoding error: unknown field "profiles[0].plugin"
//   strict decoding error: decoding .profiles[0].pluginConfig[1]: decoding args
//     for plugin NodeResourcesFit: strict decoding error: unknown field "x"
//   json: cannot unmarshal string into Go struct field Plugin.profiles.plugins.
//     score.enabled.weight of type int32
// (v1.35 says "strict decoding error: decoding args for plugin ..." there.)
// Like upstream, a wrong type is reported before strict-mode findings, and the
// first of several wrong types wins.
//
// Decoding fills the internal types of config/types.h without defaults:
// config/defaults.h applies those (upstream's codec defaults while decoding;
// the split only keeps each step testable).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config/types.h"
#include "util/result.h"

namespace ksched::config {

// Go's time.ParseDuration ("15s", "1m30s", "500ms", "-2h", "0"): nanoseconds,
// or nullopt when the text is not a duration (or is out of range).
std::optional<int64_t> ParseGoDuration(std::string_view text);
// The same with Go's error: `time: invalid duration "x"`, `time: missing
// unit in duration "5"`, `time: unknown unit "x" in duration "5x"`.
Result<int64_t> ParseGoDurationOrError(std::string_view text);

inline constexpr std::string_view kGroup = "kubescheduler.config.k8s.io";
inline constexpr std::string_view kVersionV1 = "kubescheduler.config.k8s.io/v1";
inline constexpr std::string_view kVersionV1beta3 = "kubescheduler.config.k8s.io/v1beta3";

// What a file said, before defaulting. Fields the file leaves out keep the
// values defaulting needs to see (zero, empty, nullopt), except where
// config/types.h's initializers already equal upstream's defaults for an
// absent field (e.g. InterPodAffinityArgs::hard_pod_affinity_weight).
struct DecodedConfiguration {
  std::string api_version;  // kVersionV1 or (v1.26) kVersionV1beta3
  KubeSchedulerConfiguration config;
  // Per profile: whether `schedulerName` was given (upstream names a single
  // profile "default-scheduler" only when the field is absent).
  std::vector<bool> scheduler_name_set;
  // Whether `enableContentionProfiling` was given (its default follows
  // enableProfiling).
  bool enable_contention_profiling_set = false;
};

// Decodes `text` (JSON when its first non-blank character is `{`, else YAML)
// as release `version` does. `filename` prefixes error messages ("" for none).
Result<DecodedConfiguration> DecodeConfiguration(std::string_view text, std::string_view filename,
                                                 SchedulerVersion version);

// Whether release `version` registers an args kind for an in-tree plugin
// ("NodeResourcesFit" -> true): the plugins whose pluginConfig args upstream
// decodes into a typed object (v1.35 adds DynamicResources).
bool PluginHasArgs(std::string_view plugin, SchedulerVersion version);
// Default-constructed args for such a plugin (monostate for the others).
PluginArgs EmptyArgsFor(std::string_view plugin, SchedulerVersion version);

}  // namespace ksched::config
