// The default plugin set of kube-scheduler v1.26 (upstream's
// apis/config/v1/default_plugins.go) and how a profile's own plugin sets are
// merged onto it.
#pragma once

#include "config/types.h"

namespace ksched::config {

// Upstream's getDefaultPlugins: the MultiPoint list of the default profile,
// with its score weights, as the given feature gates enable it.
Plugins DefaultPlugins(const FeatureGates& gates);

// Upstream's setDefaults for a profile's plugins: the profile's sets merged
// onto the defaults (mergePlugins: disabled entries, "*", enabled entries
// replacing or appending), written back into *profile.
void SetDefaultPlugins(const FeatureGates& gates, Profile* profile);

}  // namespace ksched::config
