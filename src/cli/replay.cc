#include "cli/replay.h"

#include "cache/node_tree.h"
#include "config/default_plugins.h"
#include "extender/http_extender.h"
#include "loop/snapshot_loop.h"

namespace ksched {

Result<SchedulerConfig> ScenarioConfig(const Scenario& scenario, const ReplayOptions& options) {
  BuildOptions build;
  build.gates = options.gates;
  build.hard_pod_affinity_symmetric_weight = scenario.hard_pod_affinity_symmetric_weight;
  build.percentage_of_nodes_to_score =
      options.percentage_of_nodes_to_score.value_or(scenario.percentage_of_nodes_to_score);
  if (!scenario.policy_json) return BuildFromProvider(scenario.provider, build);

  auto policy = ParsePolicy(*scenario.policy_json, scenario.name + " (policy)");
  if (!policy.ok()) return policy.error();
  auto config = BuildFromPolicy(*policy, build);
  if (!config.ok()) return config.error();
  auto extenders = MakeHttpExtenders(policy->extenders);
  if (!extenders.ok()) return extenders.error();
  config->extenders = std::move(extenders).value();
  return config;
}

Status RunReplay(Scenario scenario, const ReplayOptions& options, const StepCallback& on_step,
                 const std::function<void()>& on_ready) {
  auto config = ScenarioConfig(scenario, options);
  if (!config.ok()) return config.error();
  auto cluster = ClusterState::Build(std::move(scenario.cluster));
  if (!cluster.ok()) return cluster.error();
  NodeTree tree(*cluster);
  GenericScheduler scheduler(std::move(config).value(), options.tie_break);
  if (on_ready) on_ready();
  if (scenario.preemption) {
    LoopOptions loop_options;
    loop_options.record_details = options.record_details;
    SnapshotLoop loop(&scheduler, &*cluster, &tree, loop_options);
    loop.Run(std::move(scenario.pending), [&](const Attempt& a) {
      if (on_step) {
        on_step(*a.pod, a.result, *cluster, scheduler.config(),
                a.preemption ? &*a.preemption : nullptr);
      }
    });
    return Status::Ok();
  }
  // Conformance scenarios: pods in file order, no queue, no preemption.
  for (Pod& pod : scenario.pending) {
    ScheduleResult result = scheduler.Schedule(pod, *cluster, &tree, options.record_details);
    if (on_step) on_step(pod, result, *cluster, scheduler.config(), nullptr);
    if (result.chosen != kNoNode) cluster->Assume(std::move(pod), result.chosen);
  }
  return Status::Ok();
}

// ---------------------------------------------------------------- v1.26

namespace {

// Until config/decode.h and config/defaults.h land: the names of the gates
// FeatureGates holds, and upstream's plugin args defaults.
bool* GateField(config::FeatureGates* g, std::string_view name) {
  if (name == "MinDomainsInPodTopologySpread") return &g->min_domains_in_pod_topology_spread;
  if (name == "MatchLabelKeysInPodTopologySpread")
    return &g->match_label_keys_in_pod_topology_spread;
  if (name == "NodeInclusionPolicyInPodTopologySpread")
    return &g->node_inclusion_policy_in_pod_topology_spread;
  if (name == "ReadWriteOncePod") return &g->read_write_once_pod;
  if (name == "PodSchedulingReadiness") return &g->pod_scheduling_readiness;
  if (name == "VolumeCapacityPriority") return &g->volume_capacity_priority;
  if (name == "CSIStorageCapacity") return &g->csi_storage_capacity;
  if (name == "PodDisruptionConditions") return &g->pod_disruption_conditions;
  if (name == "DynamicResourceAllocation") return &g->dynamic_resource_allocation;
  return nullptr;
}

std::vector<config::ResourceSpec> CpuAndMemory() { return {{"cpu", 1}, {"memory", 1}}; }

// Upstream's setDefaults_KubeSchedulerProfile for the plugins' args: every
// plugin the profile names that takes args gets its defaulted args.
void DefaultPluginArgs(config::Profile* profile) {
  std::vector<std::string> names;
  auto add = [&](const config::PluginSet& set) {
    for (const auto& p : set.enabled)
      if (std::find(names.begin(), names.end(), p.name) == names.end()) names.push_back(p.name);
  };
  const config::Plugins& pl = profile->plugins;
  for (const config::PluginSet* set :
       {&pl.multi_point, &pl.pre_enqueue, &pl.queue_sort, &pl.pre_filter, &pl.filter,
        &pl.post_filter, &pl.pre_score, &pl.score, &pl.reserve, &pl.permit, &pl.pre_bind,
        &pl.bind, &pl.post_bind})
    add(*set);
  for (const std::string& name : names) {
    if (profile->ArgsFor(name) != nullptr) continue;
    config::PluginArgs args;
    if (name == "NodeResourcesFit") {
      config::NodeResourcesFitArgs a;
      a.scoring_strategy.resources = CpuAndMemory();
      args = a;
    } else if (name == "NodeResourcesBalancedAllocation") {
      config::NodeResourcesBalancedAllocationArgs a;
      a.resources = CpuAndMemory();
      args = a;
    } else if (name == "PodTopologySpread") {
      args = config::PodTopologySpreadArgs{};
    } else if (name == "InterPodAffinity") {
      args = config::InterPodAffinityArgs{};
    } else if (name == "NodeAffinity") {
      args = config::NodeAffinityArgs{};
    } else if (name == "DefaultPreemption") {
      args = config::DefaultPreemptionArgs{};
    } else if (name == "VolumeBinding") {
      args = config::VolumeBindingArgs{};
    } else {
      continue;
    }
    profile->plugin_config.push_back({name, std::move(args)});
  }
}

std::vector<ExtenderConfig> ToExtenderConfigs(const std::vector<config::Extender>& extenders) {
  std::vector<ExtenderConfig> out;
  for (const config::Extender& e : extenders) {
    ExtenderConfig c;
    c.url_prefix = e.url_prefix;
    c.filter_verb = e.filter_verb;
    c.preempt_verb = e.preempt_verb;
    c.prioritize_verb = e.prioritize_verb;
    c.bind_verb = e.bind_verb;
    c.weight = e.weight;
    c.enable_https = e.enable_https;
    if (e.tls_config) {
      ExtenderTlsConfig t;
      t.insecure = e.tls_config->insecure;
      t.server_name = e.tls_config->server_name;
      t.cert_file = e.tls_config->cert_file;
      t.key_file = e.tls_config->key_file;
      t.ca_file = e.tls_config->ca_file;
      t.cert_data = e.tls_config->cert_data;
      t.key_data = e.tls_config->key_data;
      t.ca_data = e.tls_config->ca_data;
      c.tls_config = std::move(t);
    }
    c.http_timeout_ns = e.http_timeout_ns;
    c.node_cache_capable = e.node_cache_capable;
    for (const auto& r : e.managed_resources)
      c.managed_resources.push_back({r.name, r.ignored_by_scheduler});
    c.ignorable = e.ignorable;
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace

Result<config::FeatureGates> ScenarioFeatureGates(const Scenario& scenario) {
  config::FeatureGates gates;
  for (const auto& [name, on] : scenario.feature_gates) {
    bool* field = GateField(&gates, name);
    if (field == nullptr) return MakeError("featureGates: unrecognized feature gate: " + name);
    *field = on;
  }
  return gates;
}

Result<config::KubeSchedulerConfiguration> ScenarioSchedulerConfiguration(
    const Scenario& scenario, const config::FeatureGates& gates) {
  if (scenario.config_json) {
    return MakeError("config: decoding a KubeSchedulerConfiguration is not built yet");
  }
  config::KubeSchedulerConfiguration cfg;
  cfg.profiles.emplace_back();
  for (config::Profile& profile : cfg.profiles) {
    config::SetDefaultPlugins(gates, &profile);
    DefaultPluginArgs(&profile);
  }
  return cfg;
}

Status RunFrameworkReplay(Scenario scenario, const FrameworkReplayOptions& options,
                          const FrameworkStepCallback& on_step,
                          const std::function<void()>& on_ready) {
  if (scenario.preemption) {
    return MakeError("scheduler-loop scenarios (\"preemption\": true) of v1.26 are not supported yet");
  }
  auto gates = ScenarioFeatureGates(scenario);
  if (!gates.ok()) return gates.error();
  auto cfg = ScenarioSchedulerConfiguration(scenario, *gates);
  if (!cfg.ok()) return cfg.error();
  auto extenders = MakeHttpExtenders(ToExtenderConfigs(cfg->extenders));
  if (!extenders.ok()) return extenders.error();

  CacheOptions cache;
  cache.v126 = true;
  auto cluster = ClusterState::Build(std::move(scenario.cluster), nullptr, cache);
  if (!cluster.ok()) return cluster.error();

  framework::FrameworkOptions fw_options;
  fw_options.feature_gates = *gates;
  fw_options.parallelism = cfg->parallelism;
  framework::SchedulerOptions sched_options;
  sched_options.percentage_of_nodes_to_score = cfg->percentage_of_nodes_to_score;
  if (options.percentage_of_nodes_to_score)
    sched_options.percentage_of_nodes_to_score = *options.percentage_of_nodes_to_score;
  sched_options.host_selection = options.host_selection;
  auto scheduler = framework::Scheduler::New(*cfg, fw_options, sched_options,
                                             std::move(extenders).value());
  if (!scheduler.ok()) return scheduler.error();
  (*scheduler)->SetCluster(&*cluster);
  if (on_ready) on_ready();
  for (Pod& pod : scenario.pending) {
    framework::CycleResult result = (*scheduler)->ScheduleOne(pod, &*cluster);
    if (on_step) on_step(pod, result, *cluster);
  }
  return Status::Ok();
}

}  // namespace ksched
