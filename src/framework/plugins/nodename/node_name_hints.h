// NodeName's v1.35 events: a new node (no hint: always worth a retry).
#pragma once

#include <vector>

#include "framework/cluster_event.h"

namespace ksched::framework::plugins {

std::vector<ClusterEventWithHint> NodeNameEventsToRegister();

}  // namespace ksched::framework::plugins
