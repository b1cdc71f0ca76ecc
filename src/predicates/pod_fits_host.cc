#include "predicates/pod_fits_host.h"

#include "predicates/factories.h"

namespace ksched {

bool PodFitsHostPredicate::Check(const PodToSchedule& pod, const PredicateState* state,
                                 const NodeInfo& node, ReasonList* reasons) const {
  (void)state;
  const std::string& wanted = pod.pod().spec.node_name;
  if (wanted.empty() || wanted == node.name()) return true;
  reasons->Add(reasons::PodNotMatchHostName());
  return false;
}

std::unique_ptr<Predicate> NewPodFitsHost() { return std::make_unique<PodFitsHostPredicate>(); }

}  // namespace ksched
