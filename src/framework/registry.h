// The registry of in-tree plugins by name (upstream's
// pkg/scheduler/framework/plugins/registry.go): the only place that knows
// every plugin. Profiles name plugins; the runtime looks them up here.
//
// One registry serves every emulated release: each entry says the releases
// that have the plugin (the in-tree volume limits plugins and SelectorSpread
// are gone by v1.35), so a profile of v1.35 that names EBSLimits fails as
// kube-scheduler v1.35 fails on it.
#pragma once

#include <string_view>
#include <vector>

#include "config/version.h"
#include "framework/interface.h"

namespace ksched::framework {

struct RegistryEntry {
  std::string_view name;
  PluginFactory factory;
  // The releases that have the plugin: first..last, inclusive.
  config::SchedulerVersion first = config::SchedulerVersion::kV126;
  config::SchedulerVersion last = config::kLatestSchedulerVersion;

  bool In(config::SchedulerVersion v) const { return first <= v && v <= last; }
};

// Every in-tree plugin ksched implements, in upstream's order, whatever
// release has it.
const std::vector<RegistryEntry>& InTreeRegistry();

// The factory of `name` in release `version`; nullptr when that release
// has no such plugin (or ksched does not implement it).
PluginFactory FindPlugin(std::string_view name,
                         config::SchedulerVersion version = config::SchedulerVersion::kV126);

}  // namespace ksched::framework
