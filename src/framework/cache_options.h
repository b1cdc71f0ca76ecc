// How the framework's release and gates want the cluster counted
// (ClusterState::Build): every framework release keeps v1.26's NodeInfo
// shape; v1.35 counts requests as component-helpers does, with its gates.
#pragma once

#include "cache/cluster_state.h"
#include "config/types.h"

namespace ksched::framework {

inline CacheOptions FrameworkCacheOptions(const config::FeatureGates& gates) {
  CacheOptions options;
  options.v126 = true;
  options.v135 = gates.AtLeast(config::SchedulerVersion::kV135);
  options.requests.use_status_resources = gates.in_place_pod_vertical_scaling;
  options.requests.pod_level_resources = gates.pod_level_resources;
  return options;
}

}  // namespace ksched::framework
