// Upstream's nominatedPodMap (kept by its scheduling queue): pods that
// preemption nominated to a node. Until they are scheduled, later cycles
// leave room for them on that node (see algorithm/pod_fits_on_node.h).
//
// A nominated pod runs nowhere yet, so its object lives in the ClusterState
// as a detached pod (ClusterState::AddDetachedPod): predicates find it by
// PodId when a cycle adds it to a copy of its node. This class owns that
// pairing: Add() stores the pod and Remove() drops it again.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "cache/cluster_state.h"

namespace ksched {

class NominatedPods {
 public:
  struct Entry {
    PodId pod;  // detached pod in the ClusterState given to Add()
    std::string uid;
    int32_t priority;
  };

  // Nominates `pod` to `node_name` (which need not exist), appending it to
  // that node's list; an earlier nomination of the same uid is removed first
  // (upstream's nominatedPodMap.add). An empty node name only removes.
  void Add(ClusterState* cluster, const Pod& pod, std::string_view node_name);
  // Removes the nomination of `uid`, if any (nominatedPodMap.delete).
  // Returns whether there was one.
  bool Remove(ClusterState* cluster, std::string_view uid);

  // The pods nominated to `node_name`, in nomination order.
  const std::vector<Entry>& ForNode(std::string_view node_name) const;
  // The node `uid` is nominated to, or nullopt.
  std::optional<std::string_view> NodeOf(std::string_view uid) const;

  bool empty() const { return node_of_.empty(); }
  size_t size() const { return node_of_.size(); }
  // Every node with nominated pods (unordered).
  const std::unordered_map<std::string, std::vector<Entry>>& by_node() const { return by_node_; }

 private:
  std::unordered_map<std::string, std::vector<Entry>> by_node_;
  std::unordered_map<std::string, std::string> node_of_;  // uid -> node name
};

}  // namespace ksched
