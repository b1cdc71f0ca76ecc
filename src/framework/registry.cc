#include "framework/registry.h"

#include "framework/plugins/names/names.h"
#include "framework/plugins/registry_factories.h"

namespace ksched::framework {

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
      {names::kEBSLimits, &plugins::NewEBSLimits},
      {names::kGCEPDLimits, &plugins::NewGCEPDLimits},
      {names::kAzureDiskLimits, &plugins::NewAzureDiskLimits},
      {names::kCinderLimits, &plugins::NewCinderLimits},
      {names::kNodeVolumeLimits, &plugins::NewNodeVolumeLimits},
      {names::kVolumeBinding, &plugins::NewVolumeBinding},
      {names::kVolumeZone, &plugins::NewVolumeZone},
      {names::kPodTopologySpread, &plugins::NewPodTopologySpread},
      {names::kInterPodAffinity, &plugins::NewInterPodAffinity},
      {names::kImageLocality, &plugins::NewImageLocality},
      {names::kSelectorSpread, &plugins::NewSelectorSpread},
      {names::kDefaultPreemption, &plugins::NewDefaultPreemption},
      {names::kDefaultBinder, &plugins::NewDefaultBinder},
  };
  return registry;
}

PluginFactory FindPlugin(std::string_view name) {
  for (const auto& entry : InTreeRegistry())
    if (entry.name == name) return entry.factory;
  return nullptr;
}

}  // namespace ksched::framework
