// Test helper: runs one priority the way the generic scheduler does (Prepare
// once, Map per node, Reduce) over every node of a cluster.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "cache/cluster_state.h"
#include "priorities/priority.h"
#include "tests/fixtures.h"

namespace ksched::testing {

// Scores of all nodes of `cluster` (all treated as feasible), by node name.
inline std::map<std::string, int64_t> ScoreNodes(const Priority& priority, const Pod& pod,
                                                 const ClusterState& cluster) {
  PodInfo info = MakePodInfo(pod);
  PodToSchedule target;
  target.info = &info;
  target.request = PodRequestToSchedule(pod);
  std::vector<NodeId> nodes;
  for (NodeId id = 0; id < cluster.num_nodes(); ++id) nodes.push_back(id);
  std::unique_ptr<PriorityState> state = priority.Prepare(target, cluster);
  std::vector<int64_t> scores(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) {
    scores[i] = priority.Map(target, state.get(), cluster, nodes[i]);
  }
  priority.Reduce(target, state.get(), cluster, nodes, scores);
  std::map<std::string, int64_t> out;
  for (size_t i = 0; i < nodes.size(); ++i) out[cluster.node(nodes[i]).meta.name] = scores[i];
  return out;
}

}  // namespace ksched::testing
