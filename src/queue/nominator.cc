#include "queue/nominator.h"

#include <algorithm>

namespace ksched {

void Nominator::Add(const PodPtr& pod, const std::string& node) {
  Remove(*pod);
  const std::string& target = node.empty() ? pod->nominated_node_name : node;
  if (target.empty()) return;
  node_of_[pod->meta.uid] = target;
  by_node_[target].push_back(pod);
}

void Nominator::Update(const Pod& old_pod, const PodPtr& new_pod) {
  std::string node;
  if (old_pod.nominated_node_name.empty() && new_pod->nominated_node_name.empty()) {
    if (auto it = node_of_.find(old_pod.meta.uid); it != node_of_.end()) node = it->second;
  }
  Remove(old_pod);
  Add(new_pod, node);
}

void Nominator::Remove(const Pod& pod) {
  auto it = node_of_.find(pod.meta.uid);
  if (it == node_of_.end()) return;
  auto list = by_node_.find(it->second);
  if (list != by_node_.end()) {
    auto& v = list->second;
    v.erase(std::remove_if(v.begin(), v.end(),
                           [&](const PodPtr& p) { return p->meta.uid == pod.meta.uid; }),
            v.end());
    if (v.empty()) by_node_.erase(list);
  }
  node_of_.erase(it);
}

std::vector<std::pair<std::string, Nominator::PodPtr>> Nominator::List() const {
  std::vector<std::pair<std::string, PodPtr>> out;
  for (const auto& [node, pods] : by_node_)
    for (const PodPtr& p : pods) out.emplace_back(node, p);
  return out;
}

}  // namespace ksched
