// HostName: a pod that names a node (spec.nodeName) fits only that node.
// Exposed so GeneralPredicates can run the same check.
#pragma once

#include "predicates/predicate.h"

namespace ksched {

class PodFitsHostPredicate : public Predicate {
 public:
  bool Check(const PodToSchedule& pod, const PredicateState* state, const NodeInfo& node,
             ReasonList* reasons) const override;
};

}  // namespace ksched
