// PLACEHOLDER: replaced by the plugin's implementation.
#include "framework/plugins/registry_factories.h"

namespace ksched::framework::plugins {

std::unique_ptr<Plugin> NewVolumeZone(const config::PluginArgs&, Handle*, Status* error) {
  *error = Status::Error("plugin VolumeZone is not built yet");
  return nullptr;
}

}  // namespace ksched::framework::plugins
