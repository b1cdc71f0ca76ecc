// Upstream's defaulting of a KubeSchedulerConfiguration
// (pkg/scheduler/apis/config/v1/defaults.go, v1beta3/defaults.go): one
// profile when none, named "default-scheduler" when it is the only one and
// unnamed; parallelism 16, backoffs 1s/10s, percentageOfNodesToScore 0
// (adaptive), leader election and client connection; for every profile the
// default plugins merged with its own (config::SetDefaultPlugins), then the
// defaulted args of every enabled plugin that has args and no pluginConfig
// entry, and each given args object's SetDefaults_*Args.
#pragma once

#include "config/decode.h"
#include "config/types.h"

namespace ksched::config {

// The defaulted configuration of a decoded file.
KubeSchedulerConfiguration SetDefaults(DecodedConfiguration decoded, const FeatureGates& gates);

// Upstream's SetDefaults_<Kind>Args on one plugin's args (no-op for
// monostate).
void SetDefaultArgs(const FeatureGates& gates, PluginArgs* args);

// The names of the plugins enabled at any extension point of `plugins`,
// sorted and unique (upstream's pluginsNames; v1beta3 leaves preEnqueue out).
std::vector<std::string> EnabledPluginNames(const Plugins& plugins, bool with_pre_enqueue = true);

}  // namespace ksched::config
