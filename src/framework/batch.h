// Optional batch forms of FilterPlugin::FilterCodeOf and ScorePlugin::ScoreOf
// for plugins that answer from per-cycle arrays by node id: one virtual call
// and one read of the cycle state per run of nodes instead of per node. The
// engine finds them with dynamic_cast; the answers are those the per-node
// calls give, so using them or not never changes a decision.
#pragma once

#include <cstddef>
#include <vector>

#include "framework/interface.h"

namespace ksched::framework {

class BatchFilterCodes {
 public:
  virtual ~BatchFilterCodes() = default;
  // out[k] = FilterCode of node ids[k] of the handle's cluster, k < count.
  // False when the plugin cannot answer all of them by id; out is then left
  // in any state and the engine asks node by node.
  virtual bool FilterCodesOf(const CycleState& state, const Pod& pod, const NodeId* ids,
                             size_t count, Code* out) const = 0;
  // The nodes of the handle's cluster that may pass this plugin's Filter
  // this cycle, into *out (any order, no repeats): every other node fails
  // it with a rejection, never an Error, and FilterCodesOf answers for all
  // of them. A walk over the whole cluster can then look at these nodes
  // alone. False when the plugin cannot narrow the nodes (out untouched).
  virtual bool CandidateNodes(const CycleState& state, std::vector<NodeId>* out) const {
    (void)state, (void)out;
    return false;
  }
};

class BatchScores {
 public:
  virtual ~BatchScores() = default;
  // out[k] = {ids[k], ScoreOf(ids[k])}, k < count. False when ScoreOf would
  // not answer for one of them; out is then left in any state and the engine
  // asks node by node.
  virtual bool ScoresOf(const CycleState& state, const Pod& pod, const NodeId* ids, size_t count,
                        NodeScore* out) const = 0;
  // ScoresOf, NormalizeScore and the weighting in one step: adds weight
  // times each node's normalized score to totals[k], k < count, and sets
  // *out_of_range when one of those scores lies outside 0..MaxNodeScore.
  // False when the plugin cannot (nothing is added); by default it cannot.
  virtual bool ScoreNormalizeAndAdd(const CycleState& state, const Pod& pod, const NodeId* ids,
                                    size_t count, int64_t weight, int64_t* totals,
                                    bool* out_of_range) const {
    (void)state, (void)pod, (void)ids, (void)count, (void)weight, (void)totals, (void)out_of_range;
    return false;
  }
};

// NormalizeScore and the weighting of a kept column in one step, for a
// node-local plugin whose NormalizeScore reads nothing but the scores.
class BatchNormalizeAdd {
 public:
  virtual ~BatchNormalizeAdd() = default;
  // For the list {ids[k], column[ids[k]]}, k < count: adds weight times
  // each node's score after NormalizeScore to totals[k], and sets
  // *out_of_range when one of those scores lies outside 0..MaxNodeScore.
  // False when the plugin cannot (nothing is added).
  virtual bool NormalizeAndAdd(const CycleState& state, const Pod& pod, const int64_t* column,
                               const NodeId* ids, size_t count, int64_t weight, int64_t* totals,
                               bool* out_of_range) const = 0;
};

}  // namespace ksched::framework
