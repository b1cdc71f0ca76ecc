#include "framework/registry.h"

#include "framework/plugins/names/names.h"
#include "framework/plugins/registry_factories.h"

namespace ksched::framework {
namespace {
constexpr config::SchedulerVersion kV126 = config::SchedulerVersion::kV126;
constexpr config::SchedulerVersion kV135 = config::SchedulerVersion::kV135;
}  // namespace

const std::vector<RegistryEntry>& InTreeRegistry() {
  static const std::vector<RegistryEntry> registry = {
      {names::kPrioritySort, &plugins::NewPrioritySort},
      {names::kSchedulingGates, &plugins::NewSchedulingGates},
      {names::kNodeUnschedulable, &plugins::NewNodeUnschedulable},
      {names::kNodeName, &plugins::NewNodeName},
      {names::kTaintToleration, &plugins::NewTaintToleration},
      {names::kNodeAffinity, &plugins::NewNodeAffinity},
      {names::kNodePorts, &plugins::NewNodePorts},
      {names::kNodeResourcesFit, &plugins::NewNodeResourcesFit},
      {names::kNodeResourcesBalancedAllocation, &plugins::NewNodeResourcesBalancedAllocation},
      {names::kVolumeRestrictions, &plugins::NewVolumeRestrictions},
      {names::kEBSLimits, &plugins::NewEBSLimits, kV126, kV126},
      {names::kGCEPDLimits, &plugins::NewGCEPDLimits, kV126, kV126},
      {names::kAzureDiskLimits, &plugins::NewAzureDiskLimits, kV126, kV126},
      {names::kCinderLimits, &plugins::NewCinderLimits, kV126, kV126},
      {names::kNodeVolumeLimits, &plugins::NewNodeVolumeLimits},
      {names::kVolumeBinding, &plugins::NewVolumeBinding},
      {names::kVolumeZone, &plugins::NewVolumeZone},
      {names::kPodTopologySpread, &plugins::NewPodTopologySpread},
      {names::kInterPodAffinity, &plugins::NewInterPodAffinity},
      {names::kImageLocality, &plugins::NewImageLocality},
      {names::kSelectorSpread, &plugins::NewSelectorSpread, kV126, kV126},
      {names::kDynamicResources, &plugins::NewDynamicResources, kV135},
      {names::kDefaultPreemption, &plugins::NewDefaultPreemption},
      {names::kDefaultBinder, &plugins::NewDefaultBinder},
      {names::kNodeDeclaredFeatures, &plugins::NewNodeDeclaredFeatures, kV135},
      {names::kGangScheduling, &plugins::NewGangScheduling, kV135},
  };
  return registry;
}

PluginFactory FindPlugin(std::string_view name, config::SchedulerVersion version) {
  for (const auto& entry : InTreeRegistry())
    if (entry.name == name && entry.In(version)) return entry.factory;
  return nullptr;
}

}  // namespace ksched::framework
