#include "preemption/process_preemption_with_extenders.h"

namespace ksched {

Status ProcessPreemptionWithExtenders(
    const Pod& pod, const ClusterState& cluster,
    const std::vector<std::unique_ptr<SchedulerExtender>>& extenders,
    std::vector<std::pair<NodeId, Victims>>* candidates) {
  if (candidates->empty()) return Status::Ok();
  for (const auto& extender : extenders) {
    if (!extender->SupportsPreemption() || !extender->IsInterested(pod)) continue;
    std::vector<ExtenderNodeVictims> asked;
    asked.reserve(candidates->size());
    for (const auto& [node, victims] : *candidates) {
      asked.push_back({node, victims.pods, victims.num_pdb_violations});
    }
    auto answer = extender->ProcessPreemption(pod, asked, cluster);
    if (!answer.ok()) {
      if (extender->IsIgnorable()) continue;
      return answer.error();
    }
    candidates->clear();
    for (ExtenderNodeVictims& v : *answer) {
      candidates->emplace_back(v.node, Victims{std::move(v.pods), v.num_pdb_violations});
    }
    if (candidates->empty()) break;
  }
  return Status::Ok();
}

}  // namespace ksched
