// PodTopologySpread's PreScore state (upstream's scoring.go), exposed for
// tests.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "framework/cycle_state.h"
#include "framework/plugins/podtopologyspread/common.h"
#include "framework/plugins/podtopologyspread/kept_counts.h"

namespace ksched::framework::plugins::podtopologyspread {

struct PreScoreState final : StateData {
  // Null or empty: the pod has no soft constraints; every node scores 0.
  std::shared_ptr<const Constraints> constraints;
  // Feasible nodes missing a constraint's key (only when every key is
  // required, i.e. not for the system defaults), by NodeId; they score 0.
  // Empty when no feasible node was left out.
  std::vector<uint8_t> ignored;
  // By key slot:
  std::vector<std::shared_ptr<const TopologyDomains>> domains;
  // By domain (TopologyPairToPodCounts); empty for the hostname key.
  std::vector<std::vector<int64_t>> counts;
  // By constraint:
  std::vector<double> weights;            // topologyNormalizingWeight
  std::vector<LabelSetMatcher> matchers;  // hostname constraints count per node in Score
  // Instead of `matchers`: the pods counted per node, kept between cycles
  // (KeptCounts), current for this cycle.
  std::shared_ptr<const KeptCounts> kept;
  // With `kept`, by constraint (empty for hostname ones): ScoreForCount of
  // each domain's count, worked out once per cycle instead of per node.
  std::vector<std::vector<double>> domain_scores;
  StrId ns = kEmptyStr;  // the incoming pod's namespace

  bool Ignored(const NodeInfo& node) const {
    return node.id < ignored.size() && ignored[node.id] != 0;
  }
  std::unique_ptr<StateData> Clone() const override {
    return std::make_unique<PreScoreState>(*this);
  }
};

extern const StateKey kPreScoreStateKey;

// scoreForCount: the weighted count plus maxSkew-1, which waters down small
// differences between domains.
inline double ScoreForCount(int64_t count, int32_t max_skew, double weight) {
  return static_cast<double>(count) * weight + static_cast<double>(max_skew - 1);
}

}  // namespace ksched::framework::plugins::podtopologyspread
