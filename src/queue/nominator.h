// Upstream's nominator (the queue's nominatedPodMap): which pods are
// nominated to which node, as the scheduling cycle's nominated pods read
// them. Not thread-safe: the queue that owns it locks.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "api/types.h"

namespace ksched {

class Nominator {
 public:
  using PodPtr = std::shared_ptr<const Pod>;

  // Nominates `pod` to `node`, or to its status.nominatedNodeName when
  // `node` is empty (none when that is empty too), replacing its nomination.
  void Add(const PodPtr& pod, const std::string& node);
  // The pod changed: a pod nominated in memory keeps its node while neither
  // version carries status.nominatedNodeName yet (the status write may lag).
  void Update(const Pod& old_pod, const PodPtr& new_pod);
  void Remove(const Pod& pod);
  // Every nominated pod with its node, in each node's nomination order.
  std::vector<std::pair<std::string, PodPtr>> List() const;

 private:
  std::map<std::string, std::vector<PodPtr>> by_node_;    // node -> pods
  std::unordered_map<std::string, std::string> node_of_;  // uid -> node
};

}  // namespace ksched
