// MatchNodeSelector: spec.nodeSelector and the required node affinity terms
// must both accept the node. Exposed so GeneralPredicates can run the same
// check.
#pragma once

#include <memory>

#include "predicates/predicate.h"

namespace ksched {

class PodMatchNodeSelectorPredicate : public Predicate {
 public:
  Result<std::unique_ptr<PredicateState>> Prepare(const PodToSchedule& pod,
                                                  const ClusterState& cluster) const override;
  bool Check(const PodToSchedule& pod, const PredicateState* state, const NodeInfo& node,
             ReasonList* reasons) const override;
};

}  // namespace ksched
