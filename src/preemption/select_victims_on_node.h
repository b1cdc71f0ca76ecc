// Upstream's selectVictimsOnNode: the fewest lower-priority pods to remove
// from one node so that the preemptor fits there.
#pragma once

#include <vector>

#include "algorithm/pod_fits_on_node.h"

namespace ksched {

struct Victims {
  std::vector<PodId> pods;  // PDB-violating victims first, each group most important first
  int num_pdb_violations = 0;
};

// Takes every pod of priority lower than the preemptor's off the node (on
// copies of the node and of the predicates' state) and checks that the
// preemptor then fits, nominated pods counted as in scheduling; if not,
// returns false. Otherwise it puts the removed pods back one by one, most
// important first and those protected by a PodDisruptionBudget before the
// others, keeping each one with which the preemptor still fits; the rest
// are the victims.
bool SelectVictimsOnNode(const CyclePredicates& predicates, const NodeInfo& node,
                         const CycleNominations& nominations,
                         const std::vector<PodDisruptionBudget>& pdbs, Victims* victims);

}  // namespace ksched
