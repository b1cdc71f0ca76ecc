// PodFitsResources, exposed so GeneralPredicates can run the same check and so
// the configuration can pass the extended resources that extenders manage
// (managedResources with ignoredByScheduler: true).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "predicates/predicate.h"

namespace ksched {

class PodFitsResourcesPredicate : public Predicate {
 public:
  // `ignored`: extended resource names the scheduler leaves to an extender.
  // Only names that are extended resources are skipped, as upstream does.
  explicit PodFitsResourcesPredicate(std::vector<std::string> ignored = {});

  Result<std::unique_ptr<PredicateState>> Prepare(const PodToSchedule& pod,
                                                  const ClusterState& cluster) const override;
  bool Check(const PodToSchedule& pod, const PredicateState* state, const NodeInfo& node,
             ReasonList* reasons) const override;

 private:
  std::vector<StrId> ignored_;  // sorted
};

// PodFitsResources with a set of ignored extended resources.
std::unique_ptr<Predicate> NewPodFitsResourcesIgnoring(std::vector<std::string> ignored);

}  // namespace ksched
