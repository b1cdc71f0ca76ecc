// pluginConfig entries that nothing reads: args for a plugin that no
// extension point of their profile enables. Upstream's framework ignores
// them without a word (it builds only the enabled plugins, each with its
// args), so a typo or a plugin disabled later leaves an operator's args
// silently unused; `ksched run` warns about each.
#pragma once

#include <string>
#include <vector>

#include "config/types.h"

namespace ksched::config {

// One message per unused entry, e.g. `profile "my-scheduler": pluginConfig
// has args for NodeResourcesFitt, which no extension point of the profile
// enables: they are ignored`. `config` is as loaded (defaults applied).
std::vector<std::string> UnusedPluginConfig(const KubeSchedulerConfiguration& config);

}  // namespace ksched::config
