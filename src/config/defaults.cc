#include "config/defaults.h"

#include <algorithm>
#include <utility>

#include "config/default_plugins.h"

namespace ksched::config {
namespace {

constexpr int64_t kSecond = 1'000'000'000;
// config.MaxCustomPriorityScore
constexpr int32_t kMaxCustomPriorityScore = 10;

std::vector<ResourceSpec> DefaultResourceSpec() { return {{"cpu", 1}, {"memory", 1}}; }

void Default(const FeatureGates&, NodeResourcesFitArgs* a) {
  auto& resources = a->scoring_strategy.resources;
  if (resources.empty()) resources = DefaultResourceSpec();
  for (ResourceSpec& r : resources)
    if (r.weight == 0) r.weight = 1;
}

void Default(const FeatureGates&, NodeResourcesBalancedAllocationArgs* a) {
  if (a->resources.empty()) {
    a->resources = DefaultResourceSpec();
    return;
  }
  for (ResourceSpec& r : a->resources)
    if (r.weight == 0) r.weight = 1;
}

void Default(const FeatureGates&, PodTopologySpreadArgs* a) {
  if (a->defaulting_type.empty()) a->defaulting_type = kSystemDefaulting;
}

void Default(const FeatureGates& gates, VolumeBindingArgs* a) {
  if (!a->shape.empty()) return;
  if (gates.AtLeast(SchedulerVersion::kV135)) {
    // StorageCapacityScoring (v1.33+) replaced VolumeCapacityPriority and
    // favours the node with the most room: the shape runs the other way.
    if (gates.storage_capacity_scoring) a->shape = {{0, kMaxCustomPriorityScore}, {100, 0}};
  } else if (gates.volume_capacity_priority) {
    a->shape = {{0, 0}, {100, kMaxCustomPriorityScore}};
  }
}

// NodeAffinity has no defaults; InterPodAffinity's and DefaultPreemption's
// absent fields already hold theirs (the decoder keeps them for null).
template <class T>
void Default(const FeatureGates&, T*) {}

void DefaultProfile(const FeatureGates& gates, bool v1, Profile* prof) {
  if (v1) {
    SetDefaultPlugins(gates, prof);
  } else {
    // v1beta3 merges no preEnqueue set and never adds DynamicResources.
    FeatureGates beta3 = gates;
    beta3.dynamic_resource_allocation = false;
    prof->plugins.pre_enqueue = {};
    SetDefaultPlugins(beta3, prof);
  }
  for (PluginConfig& pc : prof->plugin_config) SetDefaultArgs(gates, &pc.args);
  std::vector<std::string> configured;
  for (const PluginConfig& pc : prof->plugin_config) configured.push_back(pc.name);
  for (const std::string& name : EnabledPluginNames(prof->plugins, v1)) {
    if (std::find(configured.begin(), configured.end(), name) != configured.end()) continue;
    if (!PluginHasArgs(name)) continue;  // out-of-tree, or takes no args
    PluginConfig pc{name, EmptyArgsFor(name)};
    SetDefaultArgs(gates, &pc.args);
    prof->plugin_config.push_back(std::move(pc));
  }
}

}  // namespace

void SetDefaultArgs(const FeatureGates& gates, PluginArgs* args) {
  std::visit(
      [&](auto& a) {
        if constexpr (!std::is_same_v<std::decay_t<decltype(a)>, std::monostate>)
          Default(gates, &a);
      },
      *args);
}

std::vector<std::string> EnabledPluginNames(const Plugins& p, bool with_pre_enqueue) {
  std::vector<std::string> names;
  const PluginSet* sets[] = {&p.multi_point,
                             &p.pre_filter,
                             &p.filter,
                             &p.post_filter,
                             &p.reserve,
                             &p.pre_score,
                             &p.score,
                             &p.pre_bind,
                             &p.bind,
                             &p.post_bind,
                             &p.permit,
                             &p.queue_sort,
                             with_pre_enqueue ? &p.pre_enqueue : nullptr};
  for (const PluginSet* s : sets) {
    if (s == nullptr) continue;
    for (const Plugin& pl : s->enabled) names.push_back(pl.name);
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

KubeSchedulerConfiguration SetDefaults(DecodedConfiguration decoded, const FeatureGates& gates) {
  KubeSchedulerConfiguration c = std::move(decoded.config);
  const bool v1 = decoded.api_version != kVersionV1beta3;
  c.api_version = v1 ? std::string(kVersionV1) : std::string(kVersionV1beta3);
  auto& names_set = decoded.scheduler_name_set;
  names_set.resize(c.profiles.size(), true);
  if (c.profiles.empty()) {
    c.profiles.emplace_back();
    c.profiles.back().scheduler_name.clear();
    names_set.push_back(false);
  }
  // Only a single profile gets the default name; validation requires the
  // others' names.
  if (c.profiles.size() == 1 && !names_set[0]) c.profiles[0].scheduler_name = "default-scheduler";
  for (Profile& prof : c.profiles) DefaultProfile(gates, v1, &prof);

  if (!c.percentage_of_nodes_to_score) c.percentage_of_nodes_to_score = 0;

  LeaderElection& le = c.leader_election;
  if (le.resource_lock.empty()) le.resource_lock = "leases";
  if (le.resource_namespace.empty()) le.resource_namespace = "kube-system";
  if (le.resource_name.empty()) le.resource_name = "kube-scheduler";
  if (le.lease_duration_ns == 0) le.lease_duration_ns = 15 * kSecond;
  if (le.renew_deadline_ns == 0) le.renew_deadline_ns = 10 * kSecond;
  if (le.retry_period_ns == 0) le.retry_period_ns = 2 * kSecond;

  ClientConnection& cc = c.client_connection;
  if (cc.content_type.empty()) cc.content_type = "application/vnd.kubernetes.protobuf";
  if (cc.qps == 0) cc.qps = 50;
  if (cc.burst == 0) cc.burst = 100;

  // Contention profiling follows profiling unless given.
  if (!decoded.enable_contention_profiling_set) c.enable_contention_profiling = c.enable_profiling;
  return c;
}

}  // namespace ksched::config
