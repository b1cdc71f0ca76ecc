// Helpers shared by the node pressure predicates (memory, disk, PID).
#pragma once

#include <string_view>

#include "api/types.h"

namespace ksched {

// Upstream NodeInfo keeps, per pressure condition type, the status of the last
// condition of that type the node lists; the predicates fail on "True".
bool NodeConditionIsTrue(const Node& node, std::string_view type);

// v1.15's qos.GetPodQOS(pod) == BestEffort: no regular container (init
// containers are not looked at in v1.15) requests or limits a positive amount
// of cpu or memory.
bool IsPodBestEffort(const Pod& pod);

}  // namespace ksched
