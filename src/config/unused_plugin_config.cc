#include "config/unused_plugin_config.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace ksched::config {

namespace {

// Whether a disabled list turns `plugin` off ("*" turns off every default).
bool Disabled(const PluginSet& set, const std::string& plugin) {
  return std::any_of(set.disabled.begin(), set.disabled.end(),
                     [&](const Plugin& p) { return p.name == plugin || p.name == "*"; });
}

}  // namespace

std::vector<std::string> UnusedPluginConfig(const KubeSchedulerConfiguration& config) {
  std::vector<std::string> out;
  for (const Profile& profile : config.profiles) {
    const Plugins& p = profile.plugins;
    const PluginSet* points[] = {&p.pre_enqueue, &p.queue_sort, &p.pre_filter, &p.filter,
                                 &p.post_filter, &p.pre_score,  &p.score,      &p.reserve,
                                 &p.permit,      &p.pre_bind,   &p.bind,       &p.post_bind};
    std::set<std::string> enabled;
    for (const PluginSet* set : points)
      for (const Plugin& plugin : set->enabled) enabled.insert(plugin.name);
    // MultiPoint's list is the merged one (defaults minus its disabled
    // entries, plus its enabled). A plugin there counts unless every
    // extension point disables it (which points it implements is the
    // framework's to know: generous here).
    for (const Plugin& plugin : p.multi_point.enabled) {
      const bool everywhere_off =
          std::all_of(std::begin(points), std::end(points),
                      [&](const PluginSet* set) { return Disabled(*set, plugin.name); });
      if (!everywhere_off) enabled.insert(plugin.name);
    }
    for (const PluginConfig& pc : profile.plugin_config) {
      if (enabled.count(pc.name) != 0) continue;
      out.push_back(fmt::format(
          "profile \"{}\": pluginConfig has args for {}, which no extension point of the profile "
          "enables: they are ignored",
          profile.scheduler_name, pc.name));
    }
  }
  return out;
}

}  // namespace ksched::config
