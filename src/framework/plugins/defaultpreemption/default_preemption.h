// DefaultPreemption (PostFilter): when a pod fits no node, preempt
// lower-priority pods on one node so that it fits there later. The policy
// half of upstream's plugin; the generic steps are framework/preemption.
// The release (v1.26 or v1.35) is the Handle's feature gates' version.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "config/types.h"
#include "framework/interface.h"
#include "framework/preemption/preemption.h"

namespace ksched::framework::plugins {

// (Not final: v1.35's adds PreEnqueue and its events, default_preemption_hints.h.)
class DefaultPreemption : public PostFilterPlugin, public preemption::Interface {
 public:
  DefaultPreemption(config::DefaultPreemptionArgs args, Handle* handle)
      : args_(args), handle_(handle) {}

  std::string_view Name() const override;
  Status PostFilter(CycleState* state, const Pod& pod, const NodeToStatusMap& filtered,
                    PostFilterResult* result) override;

  // preemption::Interface
  std::pair<int32_t, int32_t> GetOffsetAndNumCandidates(int32_t num_nodes) const override;
  bool PodEligibleToPreemptOthers(const Pod& pod, const Status* nominated_status,
                                  std::string* message) const override;
  Status SelectVictimsOnNode(CycleState* state, const Pod& pod, NodeInfo* node,
                             const std::vector<PodDisruptionBudget>& pdbs,
                             std::vector<PodId>* victims, int* num_violating) const override;

  // How many candidates the dry run looks for among `num_nodes`.
  int32_t CalculateNumCandidates(int32_t num_nodes) const;

 private:
  config::SchedulerVersion version() const;

  config::DefaultPreemptionArgs args_;
  Handle* handle_;
};

// Upstream's podTerminatingByPreemption (v1.35): deletionTimestamp set and
// the pod's DisruptionTarget condition True with reason
// PreemptionByScheduler.
bool PodTerminatingByPreemption(const PodInfo& pod);

// Upstream's filterPodsWithPDBViolation: splits `pods` (order kept) by
// whether deleting them all, in order, would take some matching budget below
// zero allowed disruptions. Budgets are shared: each matching pod uses one
// disruption of each budget that selects it.
void FilterPodsWithPDBViolation(const ClusterState& cluster, const std::vector<PodId>& pods,
                                const std::vector<PodDisruptionBudget>& pdbs,
                                std::vector<PodId>* violating, std::vector<PodId>* non_violating);

}  // namespace ksched::framework::plugins
