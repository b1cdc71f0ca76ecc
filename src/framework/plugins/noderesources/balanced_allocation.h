// NodeResourcesBalancedAllocation (upstream's balanced_allocation.go):
// favours nodes whose resources would be used evenly with the pod placed,
// scoring (1 - standard deviation of the requested fractions) * 100.
#pragma once

#include <memory>
#include <vector>

#include "config/types.h"
#include "framework/interface.h"
#include "framework/plugins/noderesources/resource_allocation.h"

namespace ksched::framework::noderesources {

class BalancedAllocation final : public PreScorePlugin, public ScorePlugin {
 public:
  explicit BalancedAllocation(const config::NodeResourcesBalancedAllocationArgs& args);

  std::string_view Name() const override;

  // Reads the pod's requests and this node only.
  bool NodeLocalFor(const Pod&) const override { return true; }
  uint32_t NodeLocalAspects() const override { return 0; }

  // Not in upstream's plugin: the pod's per-resource requests, once per
  // cycle (Score computes them itself when this did not run).
  Status PreScore(CycleState* state, const Pod& pod, const std::vector<NodeId>& nodes) override;
  Status Score(const CycleState& state, const Pod& pod, const NodeInfo& node,
               int64_t* score) const override;

 private:
  ResourceAllocationScorer scorer_;
};

}  // namespace ksched::framework::noderesources
