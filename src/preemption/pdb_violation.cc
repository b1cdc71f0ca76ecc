#include "preemption/pdb_violation.h"

#include "labels/label_selector.h"

namespace ksched {

bool PodViolatesDisruptionBudget(const Pod& pod, const std::vector<PodDisruptionBudget>& pdbs) {
  if (pod.meta.labels.empty()) return false;
  for (const PodDisruptionBudget& pdb : pdbs) {
    if (pdb.meta.ns != pod.meta.ns || !pdb.selector) continue;
    Result<labels::Selector> selector = labels::FromLabelSelector(pdb.selector);
    if (!selector.ok() || selector->Empty() || !selector->Matches(pod.meta.labels)) continue;
    // Any matching budget that allows no disruption decides.
    if (pdb.disruptions_allowed <= 0) return true;
  }
  return false;
}

void FilterPodsWithPDBViolation(const ClusterState& cluster, const std::vector<PodId>& pods,
                                const std::vector<PodDisruptionBudget>& pdbs,
                                std::vector<PodId>* violating, std::vector<PodId>* non_violating) {
  for (PodId id : pods) {
    (PodViolatesDisruptionBudget(cluster.pod(id).pod, pdbs) ? violating : non_violating)
        ->push_back(id);
  }
}

}  // namespace ksched
