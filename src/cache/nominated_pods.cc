#include "cache/nominated_pods.h"

#include <algorithm>

#include "api/priority_admission.h"

namespace ksched {

void NominatedPods::Add(ClusterState* cluster, const Pod& pod, std::string_view node_name) {
  Remove(cluster, pod.meta.uid);
  if (node_name.empty()) return;
  Pod copy = pod;
  copy.nominated_node_name = std::string(node_name);
  Entry e{cluster->AddDetachedPod(std::move(copy)), pod.meta.uid, PodPriority(pod)};
  by_node_[std::string(node_name)].push_back(std::move(e));
  node_of_.emplace(pod.meta.uid, std::string(node_name));
}

bool NominatedPods::Remove(ClusterState* cluster, std::string_view uid) {
  auto it = node_of_.find(std::string(uid));
  if (it == node_of_.end()) return false;
  auto list = by_node_.find(it->second);
  std::vector<Entry>& entries = list->second;
  auto e =
      std::find_if(entries.begin(), entries.end(), [&](const Entry& x) { return x.uid == uid; });
  cluster->RemovePod(e->pod);
  entries.erase(e);  // keeps the others' order
  if (entries.empty()) by_node_.erase(list);
  node_of_.erase(it);
  return true;
}

const std::vector<NominatedPods::Entry>& NominatedPods::ForNode(std::string_view node_name) const {
  static const std::vector<Entry> kNone;
  auto it = by_node_.find(std::string(node_name));
  return it == by_node_.end() ? kNone : it->second;
}

std::optional<std::string_view> NominatedPods::NodeOf(std::string_view uid) const {
  auto it = node_of_.find(std::string(uid));
  if (it == node_of_.end()) return std::nullopt;
  return std::string_view(it->second);
}

}  // namespace ksched
