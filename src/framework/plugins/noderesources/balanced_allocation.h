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
  // `gates`: the release and gates the plugin follows (v1.26 by default).
  explicit BalancedAllocation(const config::NodeResourcesBalancedAllocationArgs& args,
                              const config::FeatureGates& gates = {});

  std::string_view Name() const override;

  // Reads the pod's requests and this node only.
  bool NodeLocalFor(const Pod&) const override { return true; }
  uint32_t NodeLocalAspects() const override { return 0; }

  // The pod's per-resource requests, once per cycle (Score computes them
  // itself when this did not run). v1.35: Skip for a pod that requests none
  // of the resources (a best-effort pod), so the plugin is not scored.
  Status PreScore(CycleState* state, const Pod& pod, const std::vector<NodeId>& nodes) override;
  Status Score(const CycleState& state, const Pod& pod, const NodeInfo& node,
               int64_t* score) const override;

 private:
  bool v135_ = false;
  ResourceAllocationScorer scorer_;
};

}  // namespace ksched::framework::noderesources
