#include "config/feature_gates.h"

#include <gtest/gtest.h>

namespace ksched::config {
namespace {

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

}  // namespace
}  // namespace ksched::config
