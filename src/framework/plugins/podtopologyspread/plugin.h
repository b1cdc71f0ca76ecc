// PodTopologySpread (upstream's pkg/scheduler/framework/plugins/podtopologyspread):
// spreads pods over topology domains by the pod's topologySpreadConstraints
// or, for pods without any, the configured default constraints applied to
// the pod's Services / controller.
//
// PreFilter counts matching pods per topology pair once per cycle and keeps
// the two smallest domains per key (filtering.cc); Filter is then a few array
// reads per node. PreScore counts the soft constraints' pairs over the
// feasible nodes' domains; Score and NormalizeScore follow upstream's float
// and integer steps (scoring.cc).
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "framework/batch.h"
#include "framework/interface.h"
#include "framework/plugins/podtopologyspread/common.h"
#include "framework/plugins/podtopologyspread/filtering.h"
#include "framework/plugins/podtopologyspread/kept_counts.h"
#include "framework/plugins/podtopologyspread/scoring.h"

namespace ksched::framework::plugins::podtopologyspread {

class PodTopologySpread final : public PreFilterPlugin,
                                public PreFilterExtensions,
                                public FilterPlugin,
                                public PreScorePlugin,
                                public ScorePlugin,
                                public ScoreExtensions,
                                public EnqueueExtensions,
                                public BatchFilterCodes,
                                public BatchScores {
 public:
  PodTopologySpread(const config::PodTopologySpreadArgs& args, Handle* handle);

  std::string_view Name() const override;
  std::vector<ClusterEvent> EventsToRegister() const override;
  std::vector<ClusterEventWithHint> EventsToRegisterWithHints() const override;  // plugin_hints.cc

  // filtering.cc
  Status PreFilter(CycleState* state, const Pod& pod, PreFilterResult* result) override;
  PreFilterExtensions* Extensions() override { return this; }
  Status AddPod(CycleState* state, const Pod& pod, const PodInfo& to_add,
                const NodeInfo& node) override;
  Status RemovePod(CycleState* state, const Pod& pod, const PodInfo& to_remove,
                   const NodeInfo& node) override;
  Status Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) const override;
  bool PassesEveryNode(const CycleState& state) const override;
  Code FilterCode(const CycleState& state, const Pod& pod, const NodeInfo& node) const override;
  std::optional<Code> FilterCodeOf(const CycleState& state, const Pod& pod,
                                   NodeId id) const override;
  bool FilterCodesOf(const CycleState& state, const Pod& pod, const NodeId* ids, size_t count,
                     Code* out) const override;

  // scoring.cc
  Status PreScore(CycleState* state, const Pod& pod, const std::vector<NodeId>& nodes) override;
  Status Score(const CycleState& state, const Pod& pod, const NodeInfo& node,
               int64_t* score) const override;
  bool ScoresZeroEverywhere(const CycleState& state) const override;
  std::optional<int64_t> ScoreOf(const CycleState& state, const Pod& pod, NodeId id) const override;
  bool ScoresOf(const CycleState& state, const Pod& pod, const NodeId* ids, size_t count,
                NodeScore* out) const override;
  bool ScoreNormalizeAndAdd(const CycleState& state, const Pod& pod, const NodeId* ids,
                            size_t count, int64_t weight, int64_t* totals,
                            bool* out_of_range) const override;
  const ScoreExtensions* ScoreExt() const override { return this; }
  Status NormalizeScore(const CycleState& state, const Pod& pod,
                        NodeScoreList* scores) const override;
  std::optional<int64_t> NormalizedZero(const CycleState& state, const Pod& pod) const override;

 private:
  // The pod's constraints with `action` (kDoNotSchedule or kScheduleAnyway),
  // or the defaults built from its Services / controller; empty when none
  // apply.
  Result<Constraints> PodConstraints(const Pod& pod, std::string_view action) const;
  Status UpdateWithPod(CycleState* state, const Pod& preemptor, const Pod& updated,
                       const NodeInfo& node, int delta) const;
  // PreFilter's sums by walking every node's pods (no kept counts).
  void CountAllNodes(const ClusterState& cluster, const Pod& pod, PreFilterState* s,
                     std::vector<std::vector<uint8_t>>* present) const;
  // Critical paths and domain numbers from the sums.
  void FinishPreFilterState(PreFilterState* s,
                            const std::vector<std::vector<uint8_t>>& present) const;
  // Score's total for one node: `has_label(domains)`, `domain_of(domains)`
  // and `host_count(i)` read the node.
  template <typename HasLabel, typename DomainOf, typename HostCount>
  int64_t ScoreWith(const PreScoreState& s, HasLabel&& has_label, DomainOf&& domain_of,
                    HostCount&& host_count) const;

  Handle* handle_;
  std::vector<TopologySpreadConstraint> default_constraints_;
  bool system_defaulted_ = false;
  // The default constraints filtered by each action (the two PodConstraints
  // asks for), worked out once.
  Result<Constraints> defaults_do_not_schedule_ = Constraints{};
  Result<Constraints> defaults_schedule_anyway_ = Constraints{};
  Features features_;
  DomainCache domains_;
  // Pod counts kept between cycles (Handle::reuse_between_cycles).
  KeptCountsCache kept_;
};

}  // namespace ksched::framework::plugins::podtopologyspread
