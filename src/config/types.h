// KubeSchedulerConfiguration as kube-scheduler (v1.26 or v1.35) holds it
// after decoding and defaulting (upstream's pkg/scheduler/apis/config):
// profiles, their plugin sets per extension point, and each plugin's args.
//
// Plain data. config/decode.h fills it from kubescheduler.config.k8s.io/v1
// (v1.26 also v1beta3) JSON/YAML, config/defaults.h applies upstream's defaults and
// config/validation.h rejects what upstream rejects. The framework reads it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "api/types.h"
#include "config/version.h"

namespace ksched::config {

// ---------------------------------------------------------------- plugin args

struct ResourceSpec {  // config.ResourceSpec
  std::string name;
  int64_t weight = 0;
};

struct UtilizationShapePoint {  // config.UtilizationShapePoint
  int32_t utilization = 0;      // 0..100
  int32_t score = 0;            // 0..10 (MaxCustomPriorityScore)
};

struct RequestedToCapacityRatioParam {
  std::vector<UtilizationShapePoint> shape;
};

// Scoring strategy types, upstream's spelling.
inline constexpr const char* kLeastAllocated = "LeastAllocated";
inline constexpr const char* kMostAllocated = "MostAllocated";
inline constexpr const char* kRequestedToCapacityRatio = "RequestedToCapacityRatio";

struct ScoringStrategy {
  std::string type = kLeastAllocated;
  std::vector<ResourceSpec> resources;  // default cpu:1, memory:1
  RequestedToCapacityRatioParam requested_to_capacity_ratio;
  // Whether `requestedToCapacityRatio` was given (upstream's pointer is
  // non-nil): only then is its shape validated.
  bool has_requested_to_capacity_ratio = false;
};

struct NodeResourcesFitArgs {
  std::vector<std::string> ignored_resources;
  std::vector<std::string> ignored_resource_groups;
  ScoringStrategy scoring_strategy;
};

struct NodeResourcesBalancedAllocationArgs {
  std::vector<ResourceSpec> resources;  // default cpu:1, memory:1
};

inline constexpr const char* kSystemDefaulting = "System";
inline constexpr const char* kListDefaulting = "List";

struct PodTopologySpreadArgs {
  std::vector<TopologySpreadConstraint> default_constraints;
  std::string defaulting_type = kSystemDefaulting;
};

struct NodeAffinityArgs {
  std::optional<NodeAffinity> added_affinity;
};

struct InterPodAffinityArgs {
  int32_t hard_pod_affinity_weight = 1;
  // v1.35 (since v1.28): PreScore skips a pod without preferred pod
  // (anti-)affinity terms instead of scoring the existing pods' terms.
  bool ignore_preferred_terms_of_existing_pods = false;
};

struct DefaultPreemptionArgs {
  int32_t min_candidate_nodes_percentage = 10;
  int32_t min_candidate_nodes_absolute = 100;
};

struct VolumeBindingArgs {
  int64_t bind_timeout_seconds = 600;
  // v1.26: VolumeCapacityPriority only; v1.35: StorageCapacityScoring only.
  std::vector<UtilizationShapePoint> shape;
};

// v1.35's DynamicResourcesArgs (v1.26 has no args kind for the plugin).
// nullopt: not given and not defaulted (upstream's nil pointer).
struct DynamicResourcesArgs {
  std::optional<int64_t> filter_timeout_ns;   // default 10s with DRASchedulerFilterTimeout
  std::optional<int64_t> binding_timeout_ns;  // default 600s with both binding gates
};

// The args of one plugin; monostate for plugins that take none.
using PluginArgs =
    std::variant<std::monostate, NodeResourcesFitArgs, NodeResourcesBalancedAllocationArgs,
                 PodTopologySpreadArgs, NodeAffinityArgs, InterPodAffinityArgs,
                 DefaultPreemptionArgs, VolumeBindingArgs, DynamicResourcesArgs>;

// ---------------------------------------------------------------- profiles

struct Plugin {  // config.Plugin
  std::string name;
  int32_t weight = 0;  // score plugins only; 0 means "the default"
};

struct PluginSet {
  std::vector<Plugin> enabled;
  std::vector<Plugin> disabled;  // "*" disables every default plugin
};

// config.Plugins: one set per extension point. `multi_point` expands to
// every point a plugin implements (upstream's MultiPoint).
struct Plugins {
  PluginSet pre_enqueue, queue_sort, pre_filter, filter, post_filter, pre_score, score, reserve,
      permit, pre_bind, bind, post_bind, multi_point;
};

struct PluginConfig {
  std::string name;
  PluginArgs args;
};

struct Profile {  // config.KubeSchedulerProfile
  std::string scheduler_name = "default-scheduler";
  std::optional<int32_t> percentage_of_nodes_to_score;  // nullopt: the global value
  Plugins plugins;
  std::vector<PluginConfig> plugin_config;

  // Args of `plugin`, or nullptr when the profile configures none.
  const PluginArgs* ArgsFor(std::string_view plugin) const {
    for (const auto& pc : plugin_config)
      if (pc.name == plugin) return &pc.args;
    return nullptr;
  }
};

// config.Extender, as the v1.15 engine's HTTP extender reads it.
struct ExtenderTLS {
  bool insecure = false;
  std::string server_name, cert_file, key_file, ca_file;
  std::string cert_data, key_data, ca_data;  // base64-decoded bytes
};
struct ExtenderManagedResource {
  std::string name;
  bool ignored_by_scheduler = false;
};
struct Extender {
  std::string url_prefix;
  std::string filter_verb, preempt_verb, prioritize_verb, bind_verb;
  int64_t weight = 0;
  bool enable_https = false;
  std::optional<ExtenderTLS> tls_config;
  int64_t http_timeout_ns = 5'000'000'000;  // 5s, upstream's default
  bool node_cache_capable = false;
  std::vector<ExtenderManagedResource> managed_resources;
  bool ignorable = false;
};

struct LeaderElection {
  bool leader_elect = true;
  int64_t lease_duration_ns = 15'000'000'000;
  int64_t renew_deadline_ns = 10'000'000'000;
  int64_t retry_period_ns = 2'000'000'000;
  std::string resource_lock = "leases";
  std::string resource_name = "kube-scheduler";
  std::string resource_namespace = "kube-system";
};

struct ClientConnection {
  std::string kubeconfig;
  std::string accept_content_types;
  std::string content_type = "application/vnd.kubernetes.protobuf";
  float qps = 50;
  int32_t burst = 100;
};

struct KubeSchedulerConfiguration {
  // The version the file was written in (upstream keeps it in TypeMeta for
  // validation: plugins removed in that version are rejected).
  std::string api_version = "kubescheduler.config.k8s.io/v1";
  int32_t parallelism = 16;
  // 0 = upstream's adaptive default (v1.26: the field is nil by default and
  // the scheduler then uses the adaptive rule).
  std::optional<int32_t> percentage_of_nodes_to_score;
  int64_t pod_initial_backoff_seconds = 1;
  int64_t pod_max_backoff_seconds = 10;
  std::vector<Profile> profiles;
  std::vector<Extender> extenders;
  LeaderElection leader_election;
  ClientConnection client_connection;
  bool enable_profiling = true;  // DebuggingConfiguration
  bool enable_contention_profiling = true;
  // v1.35: with leader election, fill the informer caches only once elected
  // (no effect on scheduling decisions).
  bool delay_cache_until_active = false;
};

// ---------------------------------------------------------------- feature gates

// The feature gates the scheduler reads, and the release whose behaviour it
// emulates (config/version.h). A value passed to the framework, never a
// global. Default-constructed: v1.26 with v1.26's defaults;
// DefaultFeatureGates(v) (config/feature_gates.h) gives another release's.
// A gate a release no longer has holds the value it was locked to (GA on,
// or a removed alpha off).
struct FeatureGates {
  SchedulerVersion version = SchedulerVersion::kV126;
  bool AtLeast(SchedulerVersion v) const { return version >= v; }

  bool min_domains_in_pod_topology_spread = false;           // beta, off in 1.26; GA 1.30
  bool match_label_keys_in_pod_topology_spread = false;      // alpha in 1.25, beta 1.27
  bool node_inclusion_policy_in_pod_topology_spread = true;  // beta in 1.26; GA 1.33
  bool read_write_once_pod = false;                          // alpha until 1.27; GA 1.29
  bool pod_scheduling_readiness = false;                     // alpha in 1.26; GA 1.30
  bool volume_capacity_priority = false;                     // alpha; gone in 1.33
  bool csi_storage_capacity = true;                          // GA in 1.24
  bool pod_disruption_conditions = true;                     // beta in 1.26; GA 1.31
  bool dynamic_resource_allocation = false;                  // alpha; GA 1.34

  // Gates v1.26 did not have (false there).
  bool match_label_keys_in_pod_affinity = false;       // GA 1.33
  bool sidecar_containers = false;                     // GA 1.33
  bool in_place_pod_vertical_scaling = false;          // GA 1.35
  bool pod_level_resources = false;                    // beta 1.34
  bool scheduler_queueing_hints = false;               // GA 1.34
  bool scheduler_async_preemption = false;             // beta 1.33
  bool scheduler_pop_from_backoff_q = false;           // beta 1.33
  bool scheduler_async_api_calls = false;              // beta 1.34, off
  bool opportunistic_batching = false;                 // beta 1.35
  bool nominated_node_name_for_expectation = false;    // beta 1.35
  bool storage_capacity_scoring = false;               // alpha 1.33
  bool volume_attributes_class = false;                // GA 1.34 (not locked in 1.35)
  bool volume_limit_scaling = false;                   // alpha 1.35
  bool node_declared_features = false;                 // alpha 1.35
  bool gang_scheduling = false;                        // alpha 1.35
  bool generic_workload = false;                       // alpha 1.35
  bool taint_toleration_comparison_operators = false;  // alpha 1.35
  bool dra_admin_access = false;                       // beta 1.34
  bool dra_prioritized_list = false;                   // beta 1.34
  bool dra_resource_claim_device_status = false;       // beta 1.33
  bool dra_scheduler_filter_timeout = false;           // beta 1.34
  bool dra_device_taints = false;                      // alpha
  bool dra_device_taint_rules = false;                 // alpha 1.35
  bool dra_partitionable_devices = false;              // alpha
  bool dra_consumable_capacity = false;                // alpha 1.34
  bool dra_extended_resource = false;                  // alpha 1.34
  bool dra_device_binding_conditions = false;          // alpha 1.34
  // API server gates (the input front end reads them, api/api_server.h).
  bool match_label_keys_in_pod_topology_spread_selector_merge = false;  // beta 1.34
  bool container_restart_rules = false;                                 // beta 1.35
};

}  // namespace ksched::config
