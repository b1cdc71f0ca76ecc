#include "preemption/pick_one_node_for_preemption.h"

#include <algorithm>
#include <functional>
#include <limits>

#include "api/priority_admission.h"

namespace ksched {
namespace {

// Upstream's GetEarliestPodStartTime: the earliest start among the victims
// of the highest priority.
int64_t EarliestStartOfHighestPriority(const ClusterState& cluster, const Victims& v) {
  constexpr int64_t kNever = std::numeric_limits<int64_t>::max();
  const Pod& first = cluster.pod(v.pods[0]).pod;
  int32_t highest = PodPriority(first);
  int64_t earliest = first.start_time.value_or(kNever);
  for (PodId id : v.pods) {
    const Pod& p = cluster.pod(id).pod;
    const int64_t start = p.start_time.value_or(kNever);
    if (PodPriority(p) == highest) {
      earliest = std::min(earliest, start);
    } else if (PodPriority(p) > highest) {
      highest = PodPriority(p);
      earliest = start;
    }
  }
  return earliest;
}

}  // namespace

NodeId PickOneNodeForPreemption(const ClusterState& cluster,
                                const std::vector<std::pair<NodeId, Victims>>& candidates) {
  if (candidates.empty()) return kNoNode;
  std::vector<const std::pair<NodeId, Victims>*> nodes;
  for (const auto& c : candidates) nodes.push_back(&c);
  std::sort(nodes.begin(), nodes.end(), [&](const auto* a, const auto* b) {
    return cluster.name_rank()[a->first] < cluster.name_rank()[b->first];
  });
  for (const auto* c : nodes)
    if (c->second.pods.empty()) return c->first;

  // Keeps the nodes with the smallest key (in name order); done when one is left.
  auto keep_min = [&](const std::function<int64_t(const Victims&)>& key) {
    int64_t best = std::numeric_limits<int64_t>::max();
    for (const auto* c : nodes) best = std::min(best, key(c->second));
    nodes.erase(std::remove_if(nodes.begin(), nodes.end(),
                               [&](const auto* c) { return key(c->second) != best; }),
                nodes.end());
    return nodes.size() == 1;
  };
  if (keep_min([](const Victims& v) { return v.num_pdb_violations; })) return nodes[0]->first;
  if (keep_min([&](const Victims& v) { return PodPriority(cluster.pod(v.pods[0]).pod); })) {
    return nodes[0]->first;
  }
  if (keep_min([&](const Victims& v) {
        int64_t sum = 0;
        for (PodId id : v.pods)
          sum += int64_t{PodPriority(cluster.pod(id).pod)} + (int64_t{1} << 31);
        return sum;
      })) {
    return nodes[0]->first;
  }
  if (keep_min([](const Victims& v) { return static_cast<int64_t>(v.pods.size()); })) {
    return nodes[0]->first;
  }
  // The latest of the earliest start times; the first such node in name order.
  const std::pair<NodeId, Victims>* chosen = nodes[0];
  int64_t latest = EarliestStartOfHighestPriority(cluster, chosen->second);
  for (size_t i = 1; i < nodes.size(); ++i) {
    int64_t t = EarliestStartOfHighestPriority(cluster, nodes[i]->second);
    if (t > latest) {
      latest = t;
      chosen = nodes[i];
    }
  }
  return chosen->first;
}

}  // namespace ksched
