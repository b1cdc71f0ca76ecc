// PodFitsHostPorts: none of the pod's host ports may clash with a port already
// used on the node. Exposed so GeneralPredicates can run the same check.
#pragma once

#include "predicates/predicate.h"

namespace ksched {

class PodFitsHostPortsPredicate : public Predicate {
 public:
  bool Check(const PodToSchedule& pod, const PredicateState* state, const NodeInfo& node,
             ReasonList* reasons) const override;
};

}  // namespace ksched
