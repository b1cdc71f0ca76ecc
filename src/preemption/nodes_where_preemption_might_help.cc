#include "preemption/nodes_where_preemption_might_help.h"

#include <algorithm>
#include <array>

namespace ksched {

bool IsUnresolvableReason(std::string_view reason) {
  static constexpr std::array<std::string_view, 15> kUnresolvable = {
      "node(s) didn't match node selector",
      "node(s) didn't match pod affinity rules",
      "node(s) didn't match the requested hostname",
      "node(s) had taints that the pod didn't tolerate",
      "node(s) didn't have the requested labels",
      "node(s) were not ready",
      "node(s) had unavailable network",
      "node(s) had disk pressure",
      "node(s) had pid pressure",
      "node(s) had memory pressure",
      "node(s) were unschedulable",
      "node(s) had unknown conditions",
      "node(s) had no available volume zone",
      "node(s) had volume node affinity conflict",
      "node(s) didn't find available persistent volumes to bind",
  };
  return std::find(kUnresolvable.begin(), kUnresolvable.end(), reason) != kUnresolvable.end();
}

std::vector<NodeId> NodesWherePreemptionMightHelp(const ClusterState& cluster,
                                                  const std::vector<NodeFailure>& failures) {
  std::vector<uint8_t> unresolvable(cluster.num_nodes(), 0);
  for (const NodeFailure& f : failures) {
    // Extender reasons are never upstream's predicate errors, whatever they say.
    if (f.predicate.empty() || f.node >= unresolvable.size()) continue;
    unresolvable[f.node] = std::any_of(f.reasons.begin(), f.reasons.end(), IsUnresolvableReason);
  }
  std::vector<NodeId> nodes;
  for (NodeId n = 0; n < cluster.num_nodes(); ++n)
    if (!unresolvable[n]) nodes.push_back(n);
  return nodes;
}

}  // namespace ksched
