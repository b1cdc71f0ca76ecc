#include "config/default_plugins.h"

#include <gtest/gtest.h>

namespace ksched::config {
namespace default_plugins_test {

std::vector<std::string> Names(const PluginSet& set) {
  std::vector<std::string> out;
  for (const auto& p : set.enabled) out.push_back(p.name);
  return out;
}

TEST(DefaultPlugins, MultiPointListAndWeights) {
  Plugins p = DefaultPlugins(FeatureGates{});
  ASSERT_EQ(p.multi_point.enabled.size(), 20u);
  EXPECT_EQ(p.multi_point.enabled.front().name, "PrioritySort");
  EXPECT_EQ(p.multi_point.enabled.back().name, "DefaultBinder");
  EXPECT_EQ(p.multi_point.enabled[3].name, "TaintToleration");
  EXPECT_EQ(p.multi_point.enabled[3].weight, 3);
  EXPECT_TRUE(p.filter.enabled.empty());
}

TEST(DefaultPlugins, FeatureGatedEntries) {
  FeatureGates gates;
  gates.pod_scheduling_readiness = true;
  gates.dynamic_resource_allocation = true;
  std::vector<std::string> names = Names(DefaultPlugins(gates).multi_point);
  EXPECT_EQ(names.back(), "SchedulingGates");
  auto dra = std::find(names.begin(), names.end(), "DynamicResources");
  ASSERT_NE(dra, names.end());
  EXPECT_EQ(*(dra + 1), "DefaultPreemption");
}

TEST(SetDefaultPlugins, CustomEntriesReplaceInPlaceOrAppend) {
  Profile profile;
  profile.plugins.multi_point.enabled = {{"NodeAffinity", 7}, {"Custom", 0}};
  profile.plugins.multi_point.disabled = {{"ImageLocality", 0}};
  profile.plugins.score.enabled = {{"TaintToleration", 0}};
  SetDefaultPlugins(FeatureGates{}, &profile);
  std::vector<std::string> names = Names(profile.plugins.multi_point);
  EXPECT_EQ(std::count(names.begin(), names.end(), "ImageLocality"), 0);
  EXPECT_EQ(names.back(), "Custom");
  EXPECT_EQ(profile.plugins.multi_point.enabled[4].name, "NodeAffinity");
  EXPECT_EQ(profile.plugins.multi_point.enabled[4].weight, 7);
  ASSERT_EQ(profile.plugins.multi_point.disabled.size(), 1u);
  EXPECT_EQ(Names(profile.plugins.score), std::vector<std::string>{"TaintToleration"});
}

TEST(SetDefaultPlugins, StarDisablesEveryDefault) {
  Profile profile;
  profile.plugins.multi_point.disabled = {{"*", 0}};
  profile.plugins.multi_point.enabled = {{"PrioritySort", 0}, {"DefaultBinder", 0}};
  SetDefaultPlugins(FeatureGates{}, &profile);
  EXPECT_EQ(Names(profile.plugins.multi_point),
            (std::vector<std::string>{"PrioritySort", "DefaultBinder"}));
}

}  // namespace default_plugins_test
}  // namespace ksched::config
