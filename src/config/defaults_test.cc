#include "config/defaults.h"

#include <gtest/gtest.h>

#include "config/default_plugins.h"
#include "config/feature_gates.h"
#include "config/load.h"

namespace ksched::config {
namespace config_defaults_test {

// The v1.26 tests below predate the release parameter.
Result<DecodedConfiguration> DecodeV126(std::string_view text, std::string_view filename) {
  return DecodeConfiguration(text, filename, SchedulerVersion::kV126);
}

DecodedConfiguration Decode(const std::string& body, const char* version = "v1") {
  std::string text = std::string(R"({"apiVersion": "kubescheduler.config.k8s.io/)") + version +
                     R"(", "kind": "KubeSchedulerConfiguration")" +
                     (body.empty() ? "" : ", " + body) + "}";
  auto r = DecodeV126(text, "");
  EXPECT_TRUE(r.ok()) << r.error().message;
  return r.ok() ? *r : DecodedConfiguration{};
}

const PluginArgs* Args(const Profile& p, std::string_view name) { return p.ArgsFor(name); }

// The args every plugin of the default profile gets (upstream's defaults
// test: "empty config").
void ExpectDefaultArgs(const Profile& p, const FeatureGates& gates) {
  auto* dp = std::get_if<DefaultPreemptionArgs>(Args(p, "DefaultPreemption"));
  ASSERT_NE(dp, nullptr);
  EXPECT_EQ(dp->min_candidate_nodes_percentage, 10);
  EXPECT_EQ(dp->min_candidate_nodes_absolute, 100);
  auto* ipa = std::get_if<InterPodAffinityArgs>(Args(p, "InterPodAffinity"));
  ASSERT_NE(ipa, nullptr);
  EXPECT_EQ(ipa->hard_pod_affinity_weight, 1);
  auto* fit = std::get_if<NodeResourcesFitArgs>(Args(p, "NodeResourcesFit"));
  ASSERT_NE(fit, nullptr);
  EXPECT_EQ(fit->scoring_strategy.type, kLeastAllocated);
  ASSERT_EQ(fit->scoring_strategy.resources.size(), 2u);
  EXPECT_EQ(fit->scoring_strategy.resources[0].name, "cpu");
  EXPECT_EQ(fit->scoring_strategy.resources[0].weight, 1);
  EXPECT_EQ(fit->scoring_strategy.resources[1].name, "memory");
  EXPECT_EQ(fit->scoring_strategy.resources[1].weight, 1);
  auto* ba =
      std::get_if<NodeResourcesBalancedAllocationArgs>(Args(p, "NodeResourcesBalancedAllocation"));
  ASSERT_NE(ba, nullptr);
  ASSERT_EQ(ba->resources.size(), 2u);
  EXPECT_EQ(ba->resources[1].name, "memory");
  auto* pts = std::get_if<PodTopologySpreadArgs>(Args(p, "PodTopologySpread"));
  ASSERT_NE(pts, nullptr);
  EXPECT_EQ(pts->defaulting_type, kSystemDefaulting);
  EXPECT_TRUE(pts->default_constraints.empty());
  auto* vb = std::get_if<VolumeBindingArgs>(Args(p, "VolumeBinding"));
  ASSERT_NE(vb, nullptr);
  EXPECT_EQ(vb->bind_timeout_seconds, 600);
  EXPECT_EQ(vb->shape.empty(), !gates.volume_capacity_priority);
  auto* na = std::get_if<NodeAffinityArgs>(Args(p, "NodeAffinity"));
  ASSERT_NE(na, nullptr);
  EXPECT_FALSE(na->added_affinity);
  // Appended in name order, as upstream's sorted set of plugin names.
  std::vector<std::string> names;
  for (const PluginConfig& pc : p.plugin_config) names.push_back(pc.name);
  EXPECT_EQ(names,
            (std::vector<std::string>{"DefaultPreemption", "InterPodAffinity", "NodeAffinity",
                                      "NodeResourcesBalancedAllocation", "NodeResourcesFit",
                                      "PodTopologySpread", "VolumeBinding"}));
}

TEST(ConfigDefaults, EmptyConfig) {
  FeatureGates gates;
  KubeSchedulerConfiguration c = SetDefaults(Decode(""), gates);
  EXPECT_EQ(c.parallelism, 16);
  EXPECT_EQ(c.percentage_of_nodes_to_score, 0);
  EXPECT_EQ(c.pod_initial_backoff_seconds, 1);
  EXPECT_EQ(c.pod_max_backoff_seconds, 10);
  EXPECT_TRUE(c.enable_profiling);
  EXPECT_TRUE(c.enable_contention_profiling);
  EXPECT_TRUE(c.leader_election.leader_elect);
  EXPECT_EQ(c.leader_election.lease_duration_ns, 15'000'000'000);
  EXPECT_EQ(c.leader_election.renew_deadline_ns, 10'000'000'000);
  EXPECT_EQ(c.leader_election.retry_period_ns, 2'000'000'000);
  EXPECT_EQ(c.leader_election.resource_lock, "leases");
  EXPECT_EQ(c.leader_election.resource_name, "kube-scheduler");
  EXPECT_EQ(c.leader_election.resource_namespace, "kube-system");
  EXPECT_EQ(c.client_connection.content_type, "application/vnd.kubernetes.protobuf");
  EXPECT_EQ(c.client_connection.qps, 50.0f);
  EXPECT_EQ(c.client_connection.burst, 100);
  ASSERT_EQ(c.profiles.size(), 1u);
  EXPECT_EQ(c.profiles[0].scheduler_name, "default-scheduler");
  EXPECT_FALSE(c.profiles[0].percentage_of_nodes_to_score);
  ExpectDefaultArgs(c.profiles[0], gates);
}

TEST(ConfigDefaults, DefaultConfigurationEqualsEmptyFile) {
  FeatureGates gates;
  KubeSchedulerConfiguration c = DefaultConfiguration(gates);
  ASSERT_EQ(c.profiles.size(), 1u);
  EXPECT_EQ(c.profiles[0].scheduler_name, "default-scheduler");
  EXPECT_EQ(c.api_version, kVersionV1);
  ExpectDefaultArgs(c.profiles[0], gates);
}

TEST(ConfigDefaults, NoSchedulerNameAndTwoProfiles) {
  FeatureGates gates;
  auto one = SetDefaults(Decode(R"("profiles": [{}])"), gates);
  EXPECT_EQ(one.profiles[0].scheduler_name, "default-scheduler");
  // Only a single profile is named by default.
  auto two = SetDefaults(Decode(R"("profiles": [{}, {"schedulerName": "custom-scheduler",
      "plugins": {"bind": {"enabled": [{"name": "BarPlugin"}], "disabled": [{"name": "DefaultBinder"}]}}}])"),
                         gates);
  ASSERT_EQ(two.profiles.size(), 2u);
  EXPECT_EQ(two.profiles[0].scheduler_name, "");
  EXPECT_EQ(two.profiles[1].scheduler_name, "custom-scheduler");
  ExpectDefaultArgs(two.profiles[0], gates);
  ExpectDefaultArgs(two.profiles[1], gates);
  const auto& bind = two.profiles[1].plugins.bind;
  ASSERT_EQ(bind.enabled.size(), 1u);
  EXPECT_EQ(bind.enabled[0].name, "BarPlugin");
  ASSERT_EQ(bind.disabled.size(), 1u);
  EXPECT_EQ(bind.disabled[0].name, "DefaultBinder");
  // An explicit empty name is kept (validation rejects it).
  auto named = SetDefaults(Decode(R"("profiles": [{"schedulerName": ""}])"), gates);
  EXPECT_EQ(named.profiles[0].scheduler_name, "");
}

TEST(ConfigDefaults, PercentagesAndParallelismKept) {
  FeatureGates gates;
  auto c = SetDefaults(
      Decode(
          R"("parallelism": 8, "percentageOfNodesToScore": 10, "profiles": [{"percentageOfNodesToScore": 50}])"),
      gates);
  EXPECT_EQ(c.parallelism, 8);
  EXPECT_EQ(c.percentage_of_nodes_to_score, 10);
  EXPECT_EQ(c.profiles[0].percentage_of_nodes_to_score, 50);
}

TEST(ConfigDefaults, ProfilingFlags) {
  FeatureGates gates;
  auto off = SetDefaults(Decode(R"("enableProfiling": false)"), gates);
  EXPECT_FALSE(off.enable_profiling);
  EXPECT_FALSE(off.enable_contention_profiling);
  auto given =
      SetDefaults(Decode(R"("enableProfiling": false, "enableContentionProfiling": true)"), gates);
  EXPECT_TRUE(given.enable_contention_profiling);
}

TEST(ConfigDefaults, ArgsDefaults) {
  FeatureGates gates;
  PluginArgs dp = DefaultPreemptionArgs{50, 100};
  SetDefaultArgs(gates, &dp);
  EXPECT_EQ(std::get<DefaultPreemptionArgs>(dp).min_candidate_nodes_percentage, 50);

  PluginArgs ba = NodeResourcesBalancedAllocationArgs{{{"cpu", 0}, {"scalar.io/scalar1", 0}}};
  SetDefaultArgs(gates, &ba);
  const auto& res = std::get<NodeResourcesBalancedAllocationArgs>(ba).resources;
  ASSERT_EQ(res.size(), 2u);
  EXPECT_EQ(res[0].weight, 1);
  EXPECT_EQ(res[1].weight, 1);

  NodeResourcesFitArgs fit;
  fit.scoring_strategy.type = kMostAllocated;
  fit.scoring_strategy.resources = {{"cpu", 2}, {"memory", 0}};
  PluginArgs fa = fit;
  SetDefaultArgs(gates, &fa);
  const auto& s = std::get<NodeResourcesFitArgs>(fa).scoring_strategy;
  EXPECT_EQ(s.type, kMostAllocated);
  EXPECT_EQ(s.resources[0].weight, 2);
  EXPECT_EQ(s.resources[1].weight, 1);

  PluginArgs pts = PodTopologySpreadArgs{{}, ""};
  SetDefaultArgs(gates, &pts);
  EXPECT_EQ(std::get<PodTopologySpreadArgs>(pts).defaulting_type, kSystemDefaulting);

  FeatureGates vcp;
  vcp.volume_capacity_priority = true;
  PluginArgs vb = VolumeBindingArgs{};
  SetDefaultArgs(vcp, &vb);
  const auto& shape = std::get<VolumeBindingArgs>(vb).shape;
  ASSERT_EQ(shape.size(), 2u);
  EXPECT_EQ(shape[0].utilization, 0);
  EXPECT_EQ(shape[0].score, 0);
  EXPECT_EQ(shape[1].utilization, 100);
  EXPECT_EQ(shape[1].score, 10);
}

// v1.35's StorageCapacityScoring defaults the reversed shape (an empty node
// scores 10); VolumeCapacityPriority is gone.
TEST(ConfigDefaults, VolumeBindingShapeByRelease) {
  FeatureGates v135 = DefaultFeatureGates(SchedulerVersion::kV135);
  PluginArgs off = VolumeBindingArgs{};
  SetDefaultArgs(v135, &off);
  EXPECT_TRUE(std::get<VolumeBindingArgs>(off).shape.empty());
  v135.storage_capacity_scoring = true;
  PluginArgs on = VolumeBindingArgs{};
  SetDefaultArgs(v135, &on);
  const auto& shape = std::get<VolumeBindingArgs>(on).shape;
  ASSERT_EQ(shape.size(), 2u);
  EXPECT_EQ(shape[0].utilization, 0);
  EXPECT_EQ(shape[0].score, 10);
  EXPECT_EQ(shape[1].utilization, 100);
  EXPECT_EQ(shape[1].score, 0);
}

TEST(ConfigDefaults, GivenArgsAreDefaultedAndKept) {
  FeatureGates gates;
  auto c = SetDefaults(Decode(R"("profiles": [{"pluginConfig": [
      {"name": "NodeResourcesFit", "args": {"scoringStrategy": {"type": "MostAllocated"}}},
      {"name": "InterPodAffinity", "args": {"hardPodAffinityWeight": 0}}]}])"),
                       gates);
  const Profile& p = c.profiles[0];
  ASSERT_EQ(p.plugin_config.size(), 7u);
  EXPECT_EQ(p.plugin_config[0].name, "NodeResourcesFit");
  const auto& fit = std::get<NodeResourcesFitArgs>(p.plugin_config[0].args);
  EXPECT_EQ(fit.scoring_strategy.type, kMostAllocated);
  EXPECT_EQ(fit.scoring_strategy.resources.size(), 2u);
  EXPECT_EQ(std::get<InterPodAffinityArgs>(p.plugin_config[1].args).hard_pod_affinity_weight, 0);
}

TEST(ConfigDefaults, DisabledPluginsGetNoArgs) {
  FeatureGates gates;
  auto c =
      SetDefaults(Decode(R"("profiles": [{"plugins": {"multiPoint": {"disabled": [{"name": "*"}],
                                          "enabled": [{"name": "PrioritySort"}, {"name": "DefaultBinder"},
                                                      {"name": "InterPodAffinity"}]}}}])"),
                  gates);
  const Profile& p = c.profiles[0];
  ASSERT_EQ(p.plugin_config.size(), 1u);
  EXPECT_EQ(p.plugin_config[0].name, "InterPodAffinity");
}

TEST(ConfigDefaults, V1beta3DropsPreEnqueueAndDynamicResources) {
  FeatureGates gates;
  gates.dynamic_resource_allocation = true;
  auto beta = SetDefaults(
      Decode(R"("profiles": [{"plugins": {"preEnqueue": {"enabled": [{"name": "X"}]}}}])",
             "v1beta3"),
      gates);
  EXPECT_EQ(beta.api_version, kVersionV1beta3);
  EXPECT_TRUE(beta.profiles[0].plugins.pre_enqueue.enabled.empty());
  for (const Plugin& pl : beta.profiles[0].plugins.multi_point.enabled)
    EXPECT_NE(pl.name, "DynamicResources");
}

// ---------------------------------------------------------------- v1.35

KubeSchedulerConfiguration Defaulted135(const std::string& body, const FeatureGates& gates) {
  std::string text =
      R"({"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration")" +
      (body.empty() ? "" : ", " + body) + "}";
  auto r = DecodeConfiguration(text, "", SchedulerVersion::kV135);
  EXPECT_TRUE(r.ok()) << r.error().message;
  return SetDefaults(r.ok() ? *r : DecodedConfiguration{}, gates);
}

// v1.35's default profile gets DynamicResources' args too (its plugin is in
// the profile and has an args kind); v1.26's does not.
TEST(ConfigDefaultsV135, EmptyConfig) {
  FeatureGates gates = DefaultFeatureGates(SchedulerVersion::kV135);
  KubeSchedulerConfiguration c = Defaulted135("", gates);
  ASSERT_EQ(c.profiles.size(), 1u);
  const Profile& p = c.profiles[0];
  std::vector<std::string> names;
  for (const PluginConfig& pc : p.plugin_config) names.push_back(pc.name);
  EXPECT_EQ(names,
            (std::vector<std::string>{"DefaultPreemption", "DynamicResources", "InterPodAffinity",
                                      "NodeAffinity", "NodeResourcesBalancedAllocation",
                                      "NodeResourcesFit", "PodTopologySpread", "VolumeBinding"}));
  const auto& dra = std::get<DynamicResourcesArgs>(*p.ArgsFor("DynamicResources"));
  EXPECT_EQ(dra.filter_timeout_ns, int64_t{10'000'000'000});  // DRASchedulerFilterTimeout: beta
  EXPECT_FALSE(dra.binding_timeout_ns);                       // DRADeviceBindingConditions: alpha
  const auto& ipa = std::get<InterPodAffinityArgs>(*p.ArgsFor("InterPodAffinity"));
  EXPECT_EQ(ipa.hard_pod_affinity_weight, 1);
  EXPECT_FALSE(ipa.ignore_preferred_terms_of_existing_pods);
  EXPECT_TRUE(std::get<VolumeBindingArgs>(*p.ArgsFor("VolumeBinding")).shape.empty());
  EXPECT_EQ(c.leader_election.resource_lock, "leases");
  EXPECT_FALSE(c.delay_cache_until_active);

  // The same default with v1.26 and its DynamicResourceAllocation gate on:
  // no args kind, so no entry.
  FeatureGates v126;
  v126.dynamic_resource_allocation = true;
  const Profile old = SetDefaults(DecodeV126(R"({"apiVersion": "kubescheduler.config.k8s.io/v1",
      "kind": "KubeSchedulerConfiguration"})",
                                             "")
                                      .value(),
                                  v126)
                          .profiles[0];
  EXPECT_EQ(old.ArgsFor("DynamicResources"), nullptr);
}

TEST(ConfigDefaultsV135, DynamicResourcesTimeoutsFollowTheirGates) {
  FeatureGates gates = DefaultFeatureGates(SchedulerVersion::kV135);
  PluginArgs none = DynamicResourcesArgs{};
  FeatureGates off = gates;
  off.dra_scheduler_filter_timeout = false;
  SetDefaultArgs(off, &none);
  EXPECT_FALSE(std::get<DynamicResourcesArgs>(none).filter_timeout_ns);
  EXPECT_FALSE(std::get<DynamicResourcesArgs>(none).binding_timeout_ns);

  FeatureGates binding = gates;
  binding.dra_device_binding_conditions = true;  // DRAResourceClaimDeviceStatus is on (beta)
  PluginArgs both = DynamicResourcesArgs{};
  SetDefaultArgs(binding, &both);
  EXPECT_EQ(std::get<DynamicResourcesArgs>(both).filter_timeout_ns, int64_t{10'000'000'000});
  EXPECT_EQ(std::get<DynamicResourcesArgs>(both).binding_timeout_ns, int64_t{600'000'000'000});

  PluginArgs given = DynamicResourcesArgs{int64_t{0}, std::nullopt};
  SetDefaultArgs(gates, &given);
  EXPECT_EQ(std::get<DynamicResourcesArgs>(given).filter_timeout_ns, int64_t{0});
}

// VolumeBinding's default shape: v1.26 under VolumeCapacityPriority scores
// fuller nodes higher; v1.35 under StorageCapacityScoring reverses it.
TEST(ConfigDefaultsV135, VolumeBindingShapeByRelease) {
  FeatureGates v126;
  v126.volume_capacity_priority = true;
  v126.storage_capacity_scoring = true;  // not a v1.26 gate: ignored
  PluginArgs a = VolumeBindingArgs{};
  SetDefaultArgs(v126, &a);
  const auto& old = std::get<VolumeBindingArgs>(a).shape;
  ASSERT_EQ(old.size(), 2u);
  EXPECT_EQ(old[0].score, 0);
  EXPECT_EQ(old[1].score, 10);

  FeatureGates v135 = DefaultFeatureGates(SchedulerVersion::kV135);
  v135.volume_capacity_priority = true;  // gone in v1.35: ignored
  PluginArgs b = VolumeBindingArgs{};
  SetDefaultArgs(v135, &b);
  EXPECT_TRUE(std::get<VolumeBindingArgs>(b).shape.empty());
  v135.storage_capacity_scoring = true;
  SetDefaultArgs(v135, &b);
  const auto& shape = std::get<VolumeBindingArgs>(b).shape;
  ASSERT_EQ(shape.size(), 2u);
  EXPECT_EQ(shape[0].utilization, 0);
  EXPECT_EQ(shape[0].score, 10);
  EXPECT_EQ(shape[1].utilization, 100);
  EXPECT_EQ(shape[1].score, 0);
}

}  // namespace config_defaults_test
}  // namespace ksched::config
