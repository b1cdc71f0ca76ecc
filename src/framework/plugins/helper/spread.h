// The selector spreading plugins use for a pod's "siblings"
// (upstream's pkg/scheduler/framework/plugins/helper/spread.go).
//
// v1.26 builds these selectors in two ways that a plain labels::Selector does
// not express: labels.SelectorFromSet, which no longer validates its pairs,
// and Add() of another selector's requirements onto it. SpreadSelector keeps
// the two halves apart: an exact key=value set and compiled requirements,
// ANDed. Matching stays allocation-free.
#pragma once

#include <utility>

#include "api/types.h"
#include "cache/cluster_state.h"
#include "labels/selector.h"

namespace ksched::framework::plugins::helper {

class SpreadSelector {
 public:
  // Everything().
  SpreadSelector() = default;
  // A compiled metav1.LabelSelector as it is (Nothing() stays Nothing()).
  explicit SpreadSelector(labels::Selector requirements) : reqs_(std::move(requirements)) {}
  // SelectorFromSet(set) with the requirements of `other` added; `other`
  // being Nothing() adds none (upstream's Requirements() reports none).
  static SpreadSelector FromSetAnd(Labels set, const labels::Selector& other);

  bool Matches(const Labels& labels) const {
    return labels.ContainsAll(set_) && reqs_.Matches(labels);
  }
  // No pair and no requirement (Nothing() is not empty).
  bool Empty() const { return set_.empty() && reqs_.Empty(); }

  const Labels& set() const { return set_; }
  const labels::Selector& requirements() const { return reqs_; }

 private:
  Labels set_;
  labels::Selector reqs_;
};

// DefaultSelector: the pairs of every Service of the pod's namespace that
// selects it (merged, later services winning), then its controller's
// selector: a ReplicationController's pairs merged in, or a ReplicaSet's or
// StatefulSet's requirements added, found by the controller owner reference
// (v1 ReplicationController, apps/v1 ReplicaSet or StatefulSet) in the pod's
// namespace.
SpreadSelector DefaultSelector(const Pod& pod, const ClusterState& cluster);

}  // namespace ksched::framework::plugins::helper
