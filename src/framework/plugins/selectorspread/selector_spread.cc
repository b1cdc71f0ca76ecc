// PLACEHOLDER: replaced by the plugin's implementation.
#include "framework/plugins/registry_factories.h"

namespace ksched::framework::plugins {

std::unique_ptr<Plugin> NewSelectorSpread(const config::PluginArgs&, Handle*, Status* error) {
  *error = Status::Error("plugin SelectorSpread is not built yet");
  return nullptr;
}

}  // namespace ksched::framework::plugins
