// Taint helpers of upstream's plugins/helper (taint.go) and of
// component-helpers/scheduling/corev1 (FindMatchingUntoleratedTaint), over
// ksched's toleration matching (predicates/tolerations.h, core/v1's
// ToleratesTaint rules).
#pragma once

#include <vector>

#include "api/types.h"
#include "predicates/tolerations.h"

namespace ksched::framework::helper {

// helper.DoNotScheduleTaintsFilterFunc: the taints that keep pods off a node
// (NoSchedule and NoExecute).
inline bool DoNotScheduleTaint(const Taint& taint) {
  return taint.effect == TaintEffect::kNoSchedule || taint.effect == TaintEffect::kNoExecute;
}

// The first of `taints` (in the node's order) that `include` accepts and no
// toleration tolerates; nullptr when there is none.
template <typename Filter>
const Taint* FindMatchingUntoleratedTaint(const std::vector<Taint>& taints,
                                          const std::vector<Toleration>& tolerations,
                                          Filter include) {
  for (const Taint& taint : taints) {
    if (!include(taint)) continue;
    if (!TolerationsTolerateTaint(tolerations, taint)) return &taint;
  }
  return nullptr;
}

}  // namespace ksched::framework::helper
