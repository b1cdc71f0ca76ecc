#include "predicates/pod_fits_host_ports.h"

#include "predicates/factories.h"

namespace ksched {

bool PodFitsHostPortsPredicate::Check(const PodToSchedule& pod, const PredicateState* state,
                                      const NodeInfo& node, ReasonList* reasons) const {
  (void)state;
  // PodInfo::host_ports holds the regular containers' ports with hostPort > 0,
  // already normalised; ports with hostPort 0 never conflict upstream either.
  for (const HostPort& want : pod.info->host_ports) {
    if (HostPortConflicts(node.used_ports, want)) {
      reasons->Add(reasons::PodNotFitsHostPorts());
      return false;
    }
  }
  return true;
}

std::unique_ptr<Predicate> NewPodFitsHostPorts() {
  return std::make_unique<PodFitsHostPortsPredicate>();
}

}  // namespace ksched
