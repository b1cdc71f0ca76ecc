// The names of upstream's in-tree plugins and the releases that have them
// (upstream's plugins/registry.go of each release): what a configuration
// may name. config/validation.h rejects other names as upstream's
// NewFramework does; framework/registry.h maps the names ksched implements
// to their factories.
#pragma once

#include <string_view>

#include "config/version.h"

namespace ksched::config {

struct CataloguedPlugin {
  std::string_view name;
  SchedulerVersion first;  // the releases that have it: first..last
  SchedulerVersion last;
};

// Sorted by name.
inline constexpr CataloguedPlugin kPluginCatalogue[] = {
    {"AzureDiskLimits", SchedulerVersion::kV126, SchedulerVersion::kV126},
    {"CinderLimits", SchedulerVersion::kV126, SchedulerVersion::kV126},
    {"DefaultBinder", SchedulerVersion::kV126, kLatestSchedulerVersion},
    {"DefaultPreemption", SchedulerVersion::kV126, kLatestSchedulerVersion},
    {"DynamicResources", SchedulerVersion::kV126, kLatestSchedulerVersion},
    {"EBSLimits", SchedulerVersion::kV126, SchedulerVersion::kV126},
    {"GCEPDLimits", SchedulerVersion::kV126, SchedulerVersion::kV126},
    {"GangScheduling", SchedulerVersion::kV135, kLatestSchedulerVersion},
    {"ImageLocality", SchedulerVersion::kV126, kLatestSchedulerVersion},
    {"InterPodAffinity", SchedulerVersion::kV126, kLatestSchedulerVersion},
    {"NodeAffinity", SchedulerVersion::kV126, kLatestSchedulerVersion},
    {"NodeDeclaredFeatures", SchedulerVersion::kV135, kLatestSchedulerVersion},
    {"NodeName", SchedulerVersion::kV126, kLatestSchedulerVersion},
    {"NodePorts", SchedulerVersion::kV126, kLatestSchedulerVersion},
    {"NodeResourcesBalancedAllocation", SchedulerVersion::kV126, kLatestSchedulerVersion},
    {"NodeResourcesFit", SchedulerVersion::kV126, kLatestSchedulerVersion},
    {"NodeUnschedulable", SchedulerVersion::kV126, kLatestSchedulerVersion},
    {"NodeVolumeLimits", SchedulerVersion::kV126, kLatestSchedulerVersion},
    {"PodTopologySpread", SchedulerVersion::kV126, kLatestSchedulerVersion},
    {"PrioritySort", SchedulerVersion::kV126, kLatestSchedulerVersion},
    {"SchedulingGates", SchedulerVersion::kV126, kLatestSchedulerVersion},
    {"SelectorSpread", SchedulerVersion::kV126, SchedulerVersion::kV126},
    {"TaintToleration", SchedulerVersion::kV126, kLatestSchedulerVersion},
    {"VolumeBinding", SchedulerVersion::kV126, kLatestSchedulerVersion},
    {"VolumeRestrictions", SchedulerVersion::kV126, kLatestSchedulerVersion},
    {"VolumeZone", SchedulerVersion::kV126, kLatestSchedulerVersion},
};

// Whether release `v` has an in-tree plugin called `name`.
constexpr bool InTreePlugin(std::string_view name, SchedulerVersion v) {
  for (const CataloguedPlugin& p : kPluginCatalogue)
    if (p.name == name) return p.first <= v && v <= p.last;
  return false;
}

}  // namespace ksched::config
