// PLACEHOLDER: replaced by the plugin's implementation.
#include "framework/plugins/registry_factories.h"

namespace ksched::framework::plugins {

std::unique_ptr<Plugin> NewEBSLimits(const config::PluginArgs&, Handle*, Status* error) {
  *error = Status::Error("plugin EBSLimits is not built yet");
  return nullptr;
}

std::unique_ptr<Plugin> NewGCEPDLimits(const config::PluginArgs&, Handle*, Status* error) {
  *error = Status::Error("plugin GCEPDLimits is not built yet");
  return nullptr;
}

std::unique_ptr<Plugin> NewAzureDiskLimits(const config::PluginArgs&, Handle*, Status* error) {
  *error = Status::Error("plugin AzureDiskLimits is not built yet");
  return nullptr;
}

std::unique_ptr<Plugin> NewCinderLimits(const config::PluginArgs&, Handle*, Status* error) {
  *error = Status::Error("plugin CinderLimits is not built yet");
  return nullptr;
}

}  // namespace ksched::framework::plugins
