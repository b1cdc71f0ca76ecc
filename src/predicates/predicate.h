// The filter interface: one Predicate per upstream predicate name.
//
// A scheduling cycle calls Prepare() once for the incoming pod (upstream's
// predicate metadata: everything that does not depend on the node), then
// Check() for each candidate node. Check() must not allocate in the common
// case and must report upstream's exact reason strings, in upstream's order.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "api/intern.h"
#include "cache/cluster_state.h"
#include "cache/node_info.h"
#include "util/result.h"

namespace ksched {

// Reasons are interned strings: most are constants, a few (e.g.
// "Insufficient example.com/gpu") are built once per resource name.
using ReasonId = StrId;

// Collects the failure reasons of one node. Predicates append; the scheduler
// clears it between nodes. Backed by a reused vector: no per-node allocation.
class ReasonList {
 public:
  void Add(ReasonId r) { reasons_.push_back(r); }
  void Clear() { reasons_.clear(); }
  size_t size() const { return reasons_.size(); }
  bool empty() const { return reasons_.empty(); }
  const std::vector<ReasonId>& reasons() const { return reasons_; }

 private:
  std::vector<ReasonId> reasons_;
};

// The incoming pod, with what every predicate would otherwise recompute.
struct PodToSchedule {
  const PodInfo* info = nullptr;  // request on node, non-zero request, ports, flags
  Resource request;               // PodRequestToSchedule(): includes init containers
  const Pod& pod() const { return info->pod; }
};

// Per-pod state produced by Prepare(); each predicate defines its own.
class PredicateState {
 public:
  virtual ~PredicateState() = default;
};

class Predicate {
 public:
  virtual ~Predicate() = default;

  // Computes per-pod metadata. The default has none. An error here fails the
  // whole scheduling cycle for the pod with that message (as upstream does
  // when metadata or a predicate returns an error).
  virtual Result<std::unique_ptr<PredicateState>> Prepare(const PodToSchedule& pod,
                                                          const ClusterState& cluster) const {
    (void)pod;
    (void)cluster;
    return std::unique_ptr<PredicateState>();
  }

  // Returns true when `node` passes; otherwise appends reasons and returns
  // false. `state` is what Prepare() returned for this pod.
  virtual bool Check(const PodToSchedule& pod, const PredicateState* state, const NodeInfo& node,
                     ReasonList* reasons) const = 0;

  // An optional fast path for deciding every node at once, without reasons:
  // clears fits[n] for each node n of `cluster` (fits is indexed by NodeId)
  // that Check() would fail, and returns true. Returns false, leaving `fits`
  // alone, when the predicate has no such path for this state; the caller
  // then calls Check() node by node.
  virtual bool CheckAll(const PodToSchedule& pod, const PredicateState* state,
                        const ClusterState& cluster, std::span<uint8_t> fits) const {
    (void)pod;
    (void)state;
    (void)cluster;
    (void)fits;
    return false;
  }

  // True when Check()'s answer for a node can change only when that node's
  // NodeInfo changes (not when pods land elsewhere). Lets the scheduler reuse
  // results between pods of one equivalence class.
  virtual bool NodeLocal() const { return true; }

  // True when, for the pod `state` was prepared for, Check() would pass every
  // node. The scheduler then skips the predicate for this pod, and a
  // non-node-local predicate that always passes does not stop caching.
  virtual bool AlwaysPasses(const PredicateState* state) const {
    (void)state;
    return false;
  }

  // Upstream's PredicateMetadata ShallowCopy / AddPod / RemovePod. A cycle
  // that looks at a node with pods added to it (nominated pods, preemption's
  // reprieved pods) or removed from it (preemption victims) works on a copy of
  // the pod's state and tells the copy about each pod, in order, so the state
  // reads as if those pods ran (or did not run) there. Only states that
  // depend on pods other than the incoming one need this: the default
  // returns nullptr, meaning "the original state serves unchanged", and then
  // AddPod/RemovePod are never called.
  virtual std::unique_ptr<PredicateState> CopyState(const PodToSchedule& pod,
                                                    const PredicateState* state) const {
    (void)pod;
    (void)state;
    return nullptr;
  }
  // `added` (a PodId of `cluster`) now runs on `node` (whose labels place it;
  // it may not carry spec.nodeName yet: a nominated pod).
  virtual void AddPod(const PodToSchedule& pod, PredicateState* state, PodId added,
                      const NodeInfo& node) const {
    (void)pod;
    (void)state;
    (void)added;
    (void)node;
  }
  // `removed` no longer runs anywhere.
  virtual void RemovePod(const PodToSchedule& pod, PredicateState* state, PodId removed) const {
    (void)pod;
    (void)state;
    (void)removed;
  }
};

// Upstream reason strings shared by several predicates.
namespace reasons {
ReasonId NodeUnschedulable();     // node(s) were unschedulable
ReasonId NodeSelectorNotMatch();  // node(s) didn't match node selector
ReasonId PodNotMatchHostName();   // node(s) didn't match the requested hostname
ReasonId PodNotFitsHostPorts();   // node(s) didn't have free ports for the requested pod ports
ReasonId TaintsNotMatch();        // node(s) had taints that the pod didn't tolerate
ReasonId Insufficient(StrId resource_name);  // Insufficient <name>
ReasonId MaxVolumeCount();  // node(s) exceed max volume count (CSI and in-tree limits)
}  // namespace reasons

}  // namespace ksched
