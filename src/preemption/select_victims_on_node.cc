#include "preemption/select_victims_on_node.h"

#include <algorithm>

#include "api/priority_admission.h"
#include "preemption/pdb_violation.h"
#include "preemption/victim_order.h"

namespace ksched {

bool SelectVictimsOnNode(const CyclePredicates& predicates, const NodeInfo& node,
                         const CycleNominations& nominations,
                         const std::vector<PodDisruptionBudget>& pdbs, Victims* victims) {
  const ClusterState& cluster = predicates.cluster();
  NodeInfo copy = node;
  CyclePredicates state = predicates.Copy();
  auto remove = [&](PodId id) {
    copy.RemovePod(id, cluster.pod(id));
    state.RemovePod(id);
  };
  auto add = [&](PodId id) {
    copy.AddPod(id, cluster.pod(id));
    state.AddPod(id, copy);
  };
  // Upstream never checks all predicates here, whatever the Policy says.
  auto fits = [&] {
    ReasonList reasons;
    uint16_t first_failed = 0;
    return PodFitsOnNode(state, copy, nominations, &reasons, &first_failed, false);
  };

  const int32_t priority = PodPriority(predicates.target().pod());
  std::vector<PodId> potential;
  for (PodId id : node.pods) {
    if (PodPriority(cluster.pod(id).pod) < priority) potential.push_back(id);
  }
  for (PodId id : potential) remove(id);
  if (!fits()) return false;

  std::sort(potential.begin(), potential.end(), [&](PodId a, PodId b) {
    return MoreImportantPod(cluster.pod(a).pod, cluster.pod(b).pod);
  });
  std::vector<PodId> violating, non_violating;
  FilterPodsWithPDBViolation(cluster, potential, pdbs, &violating, &non_violating);
  victims->pods.clear();
  victims->num_pdb_violations = 0;
  // Reprieve as many as possible: budget-protected pods first.
  auto reprieve = [&](PodId id) {
    add(id);
    if (fits()) return true;
    remove(id);
    victims->pods.push_back(id);
    return false;
  };
  for (PodId id : violating)
    if (!reprieve(id)) ++victims->num_pdb_violations;
  for (PodId id : non_violating) reprieve(id);
  return true;
}

}  // namespace ksched
