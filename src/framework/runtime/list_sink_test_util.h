// A MetricsSink for tests: keeps each observation as a line of text.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "framework/runtime/metrics_recorder.h"

namespace ksched::framework {

// Extension points as "point status profile", plugins as "plugin point status".
struct ListSink : MetricsSink {
  void ExtensionPointDuration(std::string_view point, std::string_view status,
                              std::string_view profile, double) override {
    points.push_back(std::string(point) + " " + std::string(status) + " " + std::string(profile));
  }
  void PluginExecutionDuration(std::string_view plugin, std::string_view point,
                               std::string_view status, double) override {
    plugins.push_back(std::string(plugin) + " " + std::string(point) + " " + std::string(status));
  }
  size_t CountPlugin(const std::string& entry) const {
    return static_cast<size_t>(std::count(plugins.begin(), plugins.end(), entry));
  }
  std::vector<std::string> points, plugins;
};

}  // namespace ksched::framework
