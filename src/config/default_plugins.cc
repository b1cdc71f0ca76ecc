#include "config/default_plugins.h"

#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "framework/plugins/names/names.h"

namespace ksched::config {
namespace {

namespace names = framework::names;

// Upstream's applyFeatureGates. v1.26: SchedulingGates is appended when
// PodSchedulingReadiness is on; DynamicResources goes just before
// DefaultPreemption, so an idle claim is released before a pod is evicted.
// v1.35: SchedulingGates is in the list itself; NodeDeclaredFeatures is
// appended when on, DynamicResources (weight 2) goes before DefaultPreemption,
// then GangScheduling is appended when on.
void ApplyFeatureGates(const FeatureGates& gates, PluginSet* multi_point) {
  auto& enabled = multi_point->enabled;
  const bool v135 = gates.AtLeast(SchedulerVersion::kV135);
  if (!v135 && gates.pod_scheduling_readiness) enabled.push_back({names::kSchedulingGates, 0});
  if (v135 && gates.node_declared_features) enabled.push_back({names::kNodeDeclaredFeatures, 0});
  if (gates.dynamic_resource_allocation) {
    for (size_t i = 0; i < enabled.size(); ++i) {
      if (enabled[i].name == names::kDefaultPreemption) {
        enabled.insert(enabled.begin() + static_cast<std::ptrdiff_t>(i),
                       Plugin{names::kDynamicResources, v135 ? 2 : 0});
        break;
      }
    }
  }
  if (v135 && gates.gang_scheduling) enabled.push_back({names::kGangScheduling, 0});
}

// Upstream's mergePluginSet: the custom set's disabled names (then the
// default set's) are kept; unless "*" is disabled, every default plugin not
// disabled stays in its place, replaced by a custom entry of the same name;
// custom entries that replaced nothing are appended in their order
// (duplicates included: building the framework rejects them).
PluginSet MergePluginSet(const PluginSet& defaults, const PluginSet& custom) {
  PluginSet out;
  std::unordered_set<std::string> disabled;
  for (const Plugin& p : custom.disabled) {
    out.disabled.push_back({p.name, 0});
    disabled.insert(p.name);
  }
  for (const Plugin& p : defaults.disabled) {
    out.disabled.push_back({p.name, 0});
    disabled.insert(p.name);
  }
  // The last custom entry of a name wins, as upstream's map assignment does.
  std::unordered_map<std::string, size_t> custom_index;
  for (size_t i = 0; i < custom.enabled.size(); ++i) custom_index[custom.enabled[i].name] = i;
  std::set<size_t> replaced;
  if (!disabled.count("*")) {
    for (const Plugin& p : defaults.enabled) {
      if (disabled.count(p.name)) continue;
      auto it = custom_index.find(p.name);
      if (it != custom_index.end()) {
        out.enabled.push_back(custom.enabled[it->second]);
        replaced.insert(it->second);
      } else {
        out.enabled.push_back(p);
      }
    }
  }
  for (size_t i = 0; i < custom.enabled.size(); ++i)
    if (!replaced.count(i)) out.enabled.push_back(custom.enabled[i]);
  return out;
}

}  // namespace

Plugins DefaultPlugins(const FeatureGates& gates) {
  Plugins plugins;
  if (gates.AtLeast(SchedulerVersion::kV135)) {
    // The in-tree volume limits plugins (EBS, GCEPD, AzureDisk) are gone:
    // CSI migration made NodeVolumeLimits count their volumes.
    plugins.multi_point.enabled = {
        {names::kSchedulingGates, 0},    {names::kPrioritySort, 0},
        {names::kNodeUnschedulable, 0},  {names::kNodeName, 0},
        {names::kTaintToleration, 3},    {names::kNodeAffinity, 2},
        {names::kNodePorts, 0},          {names::kNodeResourcesFit, 1},
        {names::kVolumeRestrictions, 0}, {names::kNodeVolumeLimits, 0},
        {names::kVolumeBinding, 0},      {names::kVolumeZone, 0},
        {names::kPodTopologySpread, 2},  {names::kInterPodAffinity, 2},
        {names::kDefaultPreemption, 0},  {names::kNodeResourcesBalancedAllocation, 1},
        {names::kImageLocality, 1},      {names::kDefaultBinder, 0},
    };
    ApplyFeatureGates(gates, &plugins.multi_point);
    return plugins;
  }
  plugins.multi_point.enabled = {
      {names::kPrioritySort, 0},      {names::kNodeUnschedulable, 0},
      {names::kNodeName, 0},          {names::kTaintToleration, 3},
      {names::kNodeAffinity, 2},      {names::kNodePorts, 0},
      {names::kNodeResourcesFit, 1},  {names::kVolumeRestrictions, 0},
      {names::kEBSLimits, 0},         {names::kGCEPDLimits, 0},
      {names::kNodeVolumeLimits, 0},  {names::kAzureDiskLimits, 0},
      {names::kVolumeBinding, 0},     {names::kVolumeZone, 0},
      {names::kPodTopologySpread, 2}, {names::kInterPodAffinity, 2},
      {names::kDefaultPreemption, 0}, {names::kNodeResourcesBalancedAllocation, 1},
      {names::kImageLocality, 1},     {names::kDefaultBinder, 0},
  };
  ApplyFeatureGates(gates, &plugins.multi_point);
  return plugins;
}

void SetDefaultPlugins(const FeatureGates& gates, Profile* profile) {
  Plugins defaults = DefaultPlugins(gates);
  Plugins& custom = profile->plugins;
  PluginSet Plugins::*const kSets[] = {
      &Plugins::multi_point, &Plugins::pre_enqueue, &Plugins::queue_sort, &Plugins::pre_filter,
      &Plugins::filter,      &Plugins::post_filter, &Plugins::pre_score,  &Plugins::score,
      &Plugins::reserve,     &Plugins::permit,      &Plugins::pre_bind,   &Plugins::bind,
      &Plugins::post_bind,
  };
  for (PluginSet Plugins::*set : kSets) custom.*set = MergePluginSet(defaults.*set, custom.*set);
}

}  // namespace ksched::config
