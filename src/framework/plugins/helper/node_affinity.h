// Node affinity matching as kube-scheduler v1.26 does it
// (component-helpers/scheduling/corev1/nodeaffinity), compiled once per pod
// so that matching a node allocates nothing.
//
// The term rules are those of labels::CompiledNodeSelectorTerms: terms are
// ORed, a term with neither matchExpressions nor matchFields never matches
// (v1.26 drops it), a term that does not parse never matches while the other
// terms still count, matchFields only know metadata.name.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "api/types.h"
#include "cache/node_info.h"
#include "labels/node_selector.h"
#include "util/result.h"

namespace ksched::framework::helper {

// nodeaffinity.NewNodeSelector: like CompiledNodeSelectorTerms, but a term
// that does not parse is an error for the whole selector (the scheduler's
// own addedAffinity must parse).
Result<labels::CompiledNodeSelectorTerms> NewNodeSelector(const NodeSelector& selector);

// nodeaffinity.RequiredNodeAffinity: spec.nodeSelector (every pair must be
// among the node's labels) and the required node affinity terms, if any.
class RequiredNodeAffinity {
 public:
  RequiredNodeAffinity() = default;
  // nodeaffinity.GetRequiredNodeAffinity.
  static RequiredNodeAffinity ForPod(const Pod& pod);

  bool Match(const NodeInfo& node) const {
    if (!node_selector_.empty() && !node.labels().ContainsAll(node_selector_)) return false;
    if (affinity_.has_value()) return affinity_->Matches(node.labels(), node.name());
    return true;
  }

 private:
  Labels node_selector_;  // the pod's spec.nodeSelector
  std::optional<labels::CompiledNodeSelectorTerms> affinity_;
};

// nodeaffinity.PreferredSchedulingTerms: terms of weight 0 and empty terms
// are dropped; a node's score is the sum of the weights of the terms it
// matches.
class PreferredSchedulingTerms {
 public:
  PreferredSchedulingTerms() = default;
  // An error when any kept term does not parse.
  static Result<PreferredSchedulingTerms> Compile(
      const std::vector<PreferredSchedulingTerm>& terms);

  int64_t Score(const NodeInfo& node) const {
    int64_t score = 0;
    for (size_t i = 0; i < terms_.size(); ++i)
      if (terms_.TermMatches(i, node.labels(), node.name())) score += weights_[i];
    return score;
  }
  bool empty() const { return weights_.empty(); }

 private:
  labels::CompiledNodeSelectorTerms terms_;
  std::vector<int64_t> weights_;  // parallel to terms_
};

}  // namespace ksched::framework::helper
