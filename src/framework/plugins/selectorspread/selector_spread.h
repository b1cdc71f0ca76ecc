// SelectorSpread (upstream's pkg/scheduler/framework/plugins/selectorspread):
// prefers nodes, and zones, holding fewer pods selected by the incoming pod's
// Services / controller (helper::DefaultSelector). Registered, off by
// default; pods with topologySpreadConstraints are left to PodTopologySpread.
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "framework/interface.h"
#include "framework/plugins/helper/spread.h"
#include "framework/plugins/podtopologyspread/common.h"

namespace ksched::framework::plugins::selectorspread {

struct PreScoreState final : StateData {
  std::shared_ptr<const helper::SpreadSelector> selector;
  podtopologyspread::LabelSetMatcher matcher;
  std::unique_ptr<StateData> Clone() const override {
    return std::make_unique<PreScoreState>(*this);
  }
};

class SelectorSpread final : public PreScorePlugin, public ScorePlugin, public ScoreExtensions {
 public:
  explicit SelectorSpread(Handle* handle) : handle_(handle) {}

  std::string_view Name() const override;
  Status PreScore(CycleState* state, const Pod& pod, const std::vector<NodeId>& nodes) override;
  Status Score(const CycleState& state, const Pod& pod, const NodeInfo& node,
               int64_t* score) const override;
  const ScoreExtensions* ScoreExt() const override { return this; }
  Status NormalizeScore(const CycleState& state, const Pod& pod,
                        NodeScoreList* scores) const override;

 private:
  Handle* handle_;
};

}  // namespace ksched::framework::plugins::selectorspread
