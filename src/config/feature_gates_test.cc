#include "config/feature_gates.h"

#include <gtest/gtest.h>

namespace ksched::config {
namespace feature_gates_test {

TEST(ConfigFeatureGates, DefaultsAreV126s) {
  FeatureGates g;
  EXPECT_FALSE(g.min_domains_in_pod_topology_spread);
  EXPECT_TRUE(g.node_inclusion_policy_in_pod_topology_spread);
  for (std::string_view name :
       {"MinDomainsInPodTopologySpread", "MatchLabelKeysInPodTopologySpread",
        "NodeInclusionPolicyInPodTopologySpread", "ReadWriteOncePod", "PodSchedulingReadiness",
        "VolumeCapacityPriority", "CSIStorageCapacity", "PodDisruptionConditions",
        "DynamicResourceAllocation"}) {
    const FeatureSpec* spec = FindFeatureGate(name);
    ASSERT_NE(spec, nullptr) << name;
    EXPECT_EQ(FeatureGateEnabled(g, name), spec->default_value) << name;
  }
}

TEST(ConfigFeatureGates, TableIsSortedAndKnowsOtherComponentsGates) {
  const auto& gates = KnownFeatureGates();
  for (size_t i = 1; i < gates.size(); ++i) EXPECT_LT(gates[i - 1].name, gates[i].name);
  EXPECT_NE(FindFeatureGate("APIListChunking"), nullptr);
  EXPECT_NE(FindFeatureGate("ContextualLogging"), nullptr);
  EXPECT_NE(FindFeatureGate("HPAScaleToZero"), nullptr);
  EXPECT_EQ(FindFeatureGate("NoSuchGate"), nullptr);
}

TEST(ConfigFeatureGates, ParsesFlag) {
  auto g = ParseFeatureGates(
      " MinDomainsInPodTopologySpread = true,ReadWriteOncePod=1,,"
      "NodeInclusionPolicyInPodTopologySpread=False");
  ASSERT_TRUE(g.ok()) << g.error().message;
  EXPECT_TRUE(g->min_domains_in_pod_topology_spread);
  EXPECT_TRUE(g->read_write_once_pod);
  EXPECT_FALSE(g->node_inclusion_policy_in_pod_topology_spread);
  EXPECT_FALSE(g->match_label_keys_in_pod_topology_spread);
}

TEST(ConfigFeatureGates, UpstreamErrors) {
  EXPECT_EQ(ParseFeatureGates("Foo=true").error().message, "unrecognized feature gate: Foo");
  EXPECT_EQ(ParseFeatureGates("ReadWriteOncePod").error().message,
            "missing bool value for ReadWriteOncePod");
  EXPECT_EQ(ParseFeatureGates("ReadWriteOncePod=yes").error().message,
            "invalid value of ReadWriteOncePod=yes, err: strconv.ParseBool: parsing \"yes\": "
            "invalid syntax");
  EXPECT_EQ(ParseFeatureGates("CSIStorageCapacity=false").error().message,
            "cannot set feature gate CSIStorageCapacity to false, feature is locked to true");
  EXPECT_TRUE(ParseFeatureGates("CSIStorageCapacity=true").ok());
}

TEST(ConfigFeatureGates, NothingAppliedOnError) {
  FeatureGates g;
  Status s = SetFeatureGatesFromMap({{"ReadWriteOncePod", true}, {"Bogus", true}}, &g);
  EXPECT_FALSE(s.ok());
  EXPECT_FALSE(g.read_write_once_pod);
}

TEST(ConfigFeatureGates, AllAlphaSetsUnnamedAlphaGates) {
  auto g = ParseFeatureGates("AllAlpha=true,ReadWriteOncePod=false");
  ASSERT_TRUE(g.ok());
  EXPECT_TRUE(g->match_label_keys_in_pod_topology_spread);
  EXPECT_TRUE(g->volume_capacity_priority);
  EXPECT_FALSE(g->read_write_once_pod);
  EXPECT_FALSE(g->min_domains_in_pod_topology_spread);  // beta
  auto b = ParseFeatureGates("AllBeta=false");
  ASSERT_TRUE(b.ok());
  EXPECT_FALSE(b->node_inclusion_policy_in_pod_topology_spread);
  EXPECT_TRUE(b->csi_storage_capacity);  // GA
}

// ---------------------------------------------------------------- v1.35

Result<FeatureGates> Parse135(std::string_view spec,
                              GateRegistry registry = GateRegistry::kKubeScheduler) {
  FeatureGates g = DefaultFeatureGates(SchedulerVersion::kV135);
  Status s = SetFeatureGates(spec, &g, registry);
  if (!s.ok()) return s.error();
  return g;
}

std::string Error135(std::string_view spec, GateRegistry registry = GateRegistry::kKubeScheduler) {
  auto g = Parse135(spec, registry);
  return g.ok() ? "<ok>" : g.error().message;
}

// kube-scheduler v1.35 knows 216 gates besides AllAlpha/AllBeta: 213 from
// its DefaultFeatureGate's registrations and the three logging gates.
TEST(ConfigFeatureGatesV135, Table) {
  const auto& gates = KnownFeatureGates(SchedulerVersion::kV135);
  EXPECT_EQ(gates.size(), 216u);
  for (size_t i = 1; i < gates.size(); ++i) EXPECT_LT(gates[i - 1].name, gates[i].name);
  const FeatureSpec* cl = FindFeatureGate("ContextualLogging", SchedulerVersion::kV135);
  ASSERT_NE(cl, nullptr);
  EXPECT_TRUE(cl->default_value);
  EXPECT_EQ(cl->pre_release, PreRelease::kBeta);
  EXPECT_EQ(FindFeatureGate("VolumeCapacityPriority", SchedulerVersion::kV135), nullptr);
  EXPECT_EQ(FindFeatureGate("AllAlpha", SchedulerVersion::kV135), nullptr);
  const FeatureSpec* dra = FindFeatureGate("DynamicResourceAllocation", SchedulerVersion::kV135);
  ASSERT_NE(dra, nullptr);
  EXPECT_TRUE(dra->lock_to_default);
  FeatureGates d = DefaultFeatureGates(SchedulerVersion::kV135);
  EXPECT_TRUE(d.match_label_keys_in_pod_topology_spread);
  EXPECT_TRUE(d.min_domains_in_pod_topology_spread);  // removed, locked on
  EXPECT_FALSE(d.volume_capacity_priority);           // removed alpha
  EXPECT_FALSE(d.storage_capacity_scoring);
  EXPECT_TRUE(d.dra_scheduler_filter_timeout);
}

// The logging gates: kube-scheduler accepts them, the reference harness (so
// a scenario's featureGates) refuses them.
TEST(ConfigFeatureGatesV135, LoggingGatesByRegistry) {
  EXPECT_EQ(Error135("ContextualLogging=false,LoggingAlphaOptions=true"), "<ok>");
  EXPECT_EQ(Error135("ContextualLogging=true", GateRegistry::kReferenceHarness),
            "unrecognized feature gate: ContextualLogging");
  EXPECT_EQ(Error135("LoggingBetaOptions=false", GateRegistry::kReferenceHarness),
            "unrecognized feature gate: LoggingBetaOptions");
  // v1.26's table has them in both registries, as before.
  FeatureGates v126;
  EXPECT_TRUE(
      SetFeatureGates("ContextualLogging=true", &v126, GateRegistry::kReferenceHarness).ok());
}

TEST(ConfigFeatureGatesV135, RemovedAndUnknownGates) {
  EXPECT_EQ(Error135("MinDomainsInPodTopologySpread=true,ReadWriteOncePod=true"), "<ok>");
  EXPECT_EQ(Error135("MinDomainsInPodTopologySpread=false"),
            "MinDomainsInPodTopologySpread was removed in v1.35, locked to true");
  EXPECT_EQ(Error135("VolumeCapacityPriority=true"),
            "unrecognized feature gate: VolumeCapacityPriority");
  EXPECT_EQ(Error135("SchedulerQueueingHints=false"),
            "cannot set feature gate SchedulerQueueingHints to false, feature is locked to true");
  // v1.26 still has VolumeCapacityPriority and MinDomainsInPodTopologySpread unlocked.
  EXPECT_TRUE(
      ParseFeatureGates("VolumeCapacityPriority=true,MinDomainsInPodTopologySpread=false").ok());
}

TEST(ConfigFeatureGatesV135, Dependencies) {
  EXPECT_EQ(Error135("MatchLabelKeysInPodTopologySpread=false"),
            "MatchLabelKeysInPodTopologySpreadSelectorMerge is enabled, but depends on features "
            "that are disabled: [MatchLabelKeysInPodTopologySpread]");
  EXPECT_EQ(Error135("MatchLabelKeysInPodTopologySpread=false,"
                     "MatchLabelKeysInPodTopologySpreadSelectorMerge=false"),
            "<ok>");
  EXPECT_EQ(Error135("InPlacePodLevelResourcesVerticalScaling=true"),
            "InPlacePodLevelResourcesVerticalScaling is enabled, but depends on features that are "
            "disabled: [NodeDeclaredFeatures]");
  EXPECT_EQ(Error135("DRADeviceBindingConditions=true,DRAResourceClaimDeviceStatus=false"),
            "DRADeviceBindingConditions is enabled, but depends on features that are disabled: "
            "[DRAResourceClaimDeviceStatus]");
  // Several: an aggregate (upstream's order is its map's; ksched's by name).
  EXPECT_EQ(Error135("DRADeviceTaintRules=true,GangScheduling=true"),
            "[DRADeviceTaintRules is enabled, but depends on features that are disabled: "
            "[DRADeviceTaints], GangScheduling is enabled, but depends on features that are "
            "disabled: [GenericWorkload]]");
  // v1.26 had no dependencies.
  EXPECT_TRUE(ParseFeatureGates("MatchLabelKeysInPodTopologySpread=false").ok());
}

// AllAlpha / AllBeta reach the gates FeatureGates does not hold too: the
// dependency check sees what they set.
TEST(ConfigFeatureGatesV135, AllAlphaAllBeta) {
  auto beta_off = Parse135("AllBeta=false");
  ASSERT_TRUE(beta_off.ok()) << beta_off.error().message;
  EXPECT_FALSE(beta_off->match_label_keys_in_pod_topology_spread);
  EXPECT_FALSE(beta_off->opportunistic_batching);
  EXPECT_TRUE(beta_off->scheduler_queueing_hints);  // GA
  EXPECT_TRUE(beta_off->dynamic_resource_allocation);
  // A named gate wins over AllBeta, and then its dependency is checked.
  EXPECT_EQ(Error135("AllBeta=false,MatchLabelKeysInPodTopologySpreadSelectorMerge=true"),
            "MatchLabelKeysInPodTopologySpreadSelectorMerge is enabled, but depends on features "
            "that are disabled: [MatchLabelKeysInPodTopologySpread]");
  auto alpha = Parse135("AllAlpha=true");
  ASSERT_TRUE(alpha.ok()) << alpha.error().message;
  EXPECT_TRUE(alpha->gang_scheduling);
  EXPECT_TRUE(alpha->generic_workload);
  EXPECT_TRUE(alpha->node_declared_features);
  EXPECT_TRUE(alpha->storage_capacity_scoring);
  EXPECT_TRUE(alpha->taint_toleration_comparison_operators);
  EXPECT_EQ(Error135("AllAlpha=true,AllBeta=true"), "<ok>");
  EXPECT_EQ(Error135("AllAlpha=true,GenericWorkload=false"),
            "GangScheduling is enabled, but depends on features that are disabled: "
            "[GenericWorkload]");
}

}  // namespace feature_gates_test
}  // namespace ksched::config
