// The registry of in-tree plugins by name (upstream's
// pkg/scheduler/framework/plugins/registry.go): the only place that knows
// every plugin. Profiles name plugins; the runtime looks them up here.
#pragma once

#include <string_view>
#include <vector>

#include "framework/interface.h"

namespace ksched::framework {

struct RegistryEntry {
  std::string_view name;
  PluginFactory factory;
};

// Every in-tree plugin of v1.26 that ksched implements, in upstream's order.
const std::vector<RegistryEntry>& InTreeRegistry();

// nullptr when no plugin has that name.
PluginFactory FindPlugin(std::string_view name);

}  // namespace ksched::framework
