#include "config/unused_plugin_config.h"

#include <gtest/gtest.h>

#include "config/feature_gates.h"
#include "config/load.h"

namespace ksched::config {
namespace unused_plugin_config_test {

std::vector<std::string> Unused(const std::string& profiles) {
  auto loaded = LoadConfiguration(
      "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n" + profiles,
      "sched.yaml", FeatureGates{});
  EXPECT_TRUE(loaded.ok()) << loaded.error().message;
  if (!loaded.ok()) return {"<error>"};
  return UnusedPluginConfig(*loaded);
}

TEST(UnusedPluginConfig, DefaultsAndEnabledPluginsAreUsed) {
  EXPECT_TRUE(Unused("profiles:\n- schedulerName: a\n  pluginConfig:\n  - name: NodeResourcesFit\n"
                     "    args: {scoringStrategy: {type: MostAllocated}}\n")
                  .empty());
  EXPECT_TRUE(Unused("").empty());  // the defaulted args of the default plugins
}

TEST(UnusedPluginConfig, ArgsOfADisabledPluginAreNamed) {
  auto unused = Unused(
      "profiles:\n- schedulerName: a\n  plugins:\n    multiPoint:\n      disabled:\n"
      "      - name: InterPodAffinity\n  pluginConfig:\n  - name: InterPodAffinity\n"
      "    args: {hardPodAffinityWeight: 5}\n- schedulerName: b\n");
  ASSERT_EQ(unused.size(), 1u);
  EXPECT_EQ(unused[0],
            "profile \"a\": pluginConfig has args for InterPodAffinity, which no extension point "
            "of the profile enables: they are ignored");
}

}  // namespace unused_plugin_config_test
}  // namespace ksched::config
