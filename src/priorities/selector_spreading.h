// Pieces shared by the spreading priorities (SelectorSpreadPriority,
// ServiceSpreadingPriority, serviceAntiAffinity): which workload objects
// select a pod, and how many pods of a node those selectors cover.
//
// The "which objects select a pod" rules are those of client-go's informer
// listers (GetPodServices, GetPodControllers, GetPodReplicaSets,
// GetPodStatefulSets), which upstream's priority metadata calls.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "api/types.h"
#include "cache/cluster_state.h"
#include "labels/selector.h"

namespace ksched::spreading {

// Services of the pod's namespace whose selector is set (a missing selector
// selects nothing, {} selects every pod) and is contained in the pod's labels,
// compared as given (no validation). Cluster order.
std::vector<const Service*> PodServices(const Pod& pod, const ClusterState& cluster);

// Upstream's getSelectors: one selector per Service, ReplicationController,
// ReplicaSet and StatefulSet that selects the pod, in that order.
std::vector<labels::Selector> PodSelectors(const Pod& pod, const ClusterState& cluster);

// Pods on `node` in namespace `ns`, not being deleted, whose labels satisfy
// every selector. 0 when `selectors` is empty. Allocation-free.
int64_t CountMatchingPods(StrId ns, std::span<const labels::Selector> selectors,
                          const ClusterState& cluster, const NodeInfo& node);

// The counts SelectorSpread's reduce needs from all scored nodes.
struct SpreadTotals {
  int64_t max_by_node = 0;  // largest per-node count
  int64_t max_by_zone = 0;  // largest per-zone sum, over zones with a scored node
  bool have_zones = false;  // some scored node has a zone
};

// SelectorSpread's reduced score of one node: `count` is its own raw count,
// `zone_count` the sum over the scored nodes of its zone (ignored when
// `node_has_zone` is false). upstream's float64 formula, operation for
// operation, so that truncation matches.
int64_t SpreadScore(const SpreadTotals& totals, int64_t count, bool node_has_zone,
                    int64_t zone_count);

}  // namespace ksched::spreading
