#include "framework/plugins/nodename/node_name_hints.h"

namespace ksched::framework::plugins {

std::vector<ClusterEventWithHint> NodeNameEventsToRegister() {
  // Without preCheck (QueueingHints) no node update is needed.
  return {{{EventResource::kNode, kAdd, ""}, {}}};
}

}  // namespace ksched::framework::plugins
