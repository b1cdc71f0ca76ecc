// The extension points of kube-scheduler v1.26's scheduling framework
// (upstream's pkg/scheduler/framework/interface.go), over ksched's cache.
//
// A plugin is one object implementing any of the interfaces below; the
// runtime (framework/runtime/framework.h) asks each configured plugin for the
// interfaces of an extension point with dynamic_cast once, when the profile
// is built, never per cycle.
//
// Where upstream passes a *v1.Pod, a node name or a *NodeInfo, ksched passes
// the Pod, the node's NodeId and the NodeInfo of the ClusterState the cycle
// runs against (or a copy of it with nominated pods added or victims
// removed). Plugins never mutate the cluster; they read it through Handle.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "algorithm/scheduler_extender.h"
#include "api/types.h"
#include "cache/cluster_state.h"
#include "cache/node_info.h"
#include "config/types.h"
#include "framework/cluster_event.h"
#include "framework/cycle_state.h"
#include "framework/status.h"

namespace ksched {
class NominatedPods;
}

namespace ksched::framework {

// Upstream's score bounds (framework.MaxNodeScore etc.).
inline constexpr int64_t kMaxNodeScore = 100;
inline constexpr int64_t kMinNodeScore = 0;
inline constexpr int64_t kMaxTotalScore = INT64_MAX;

struct NodeScore {
  NodeId node = kNoNode;
  int64_t score = 0;
};
using NodeScoreList = std::vector<NodeScore>;

// framework.PreFilterResult: the nodes the pod can only go to (e.g.
// NodeAffinity's metadata.name In [...] terms); an empty optional means all.
struct PreFilterResult {
  std::optional<std::vector<std::string>> node_names;  // sorted, unique
  bool AllNodes() const { return !node_names.has_value(); }
  // Upstream's Merge: the intersection (nullopt = all on both sides).
  PreFilterResult Merge(const PreFilterResult& other) const;
};

// Failed nodes and their statuses, for PostFilter (upstream's NodeToStatusMap).
struct NodeStatus {
  NodeId node = kNoNode;
  Status status;
};
using NodeToStatusMap = std::vector<NodeStatus>;

struct PostFilterResult {
  // Upstream's NominatingInfo: with `nominating` set (ModeOverride) the pod's
  // nomination becomes nominated_node_name, and "" clears it; unset (ModeNoop)
  // leaves it as it is.
  bool nominating = false;
  std::string nominated_node_name;
  // ksched: what preemption decided, for the loop and reports.
  std::vector<PodId> victims;
  std::vector<PodId> nominated_pods_to_clear;
};

class Handle;

// ---------------------------------------------------------------- plugins

class Plugin {
 public:
  virtual ~Plugin() = default;
  virtual std::string_view Name() const = 0;

  // Whether the engine may keep this plugin's Filter and Score results on a
  // node from one cycle to the next, while the node is unchanged
  // (NodeInfo::generation), for every pod with `pod`'s namespace and spec.
  // True only when those results depend on nothing but the pod's namespace
  // and spec, the node's NodeInfo, objects fixed for a ClusterState (nodes,
  // images, volumes, namespaces) and the plugin's PreFilter / PreScore state
  // computed from those, and when Filter has no side effect. Pods whose
  // specs differ only in pod (anti-)affinity and topologySpreadConstraints
  // count as alike, so a plugin that reads those must return false.
  // Default: false, run every cycle.
  virtual bool NodeLocalFor(const Pod& /*pod*/) const { return false; }

  // The parts of a pod's spec (PodAspect bits) that a node-local plugin's
  // Filter and Score may read among those the engine tells apart: pods
  // whose specs differ only in parts the plugin does not read get the same
  // verdict and score on a node, so the engine may lend a kept one from
  // one pod's class to the other's. Default: all of them.
  enum PodAspect : uint32_t {
    kAspectTolerations = 1u << 0,    // spec.tolerations
    kAspectNodeSelection = 1u << 1,  // spec.nodeSelector, spec.affinity.nodeAffinity
    kAllAspects = ~0u,
  };
  virtual uint32_t NodeLocalAspects() const { return kAllAspects; }

  // Whether the plugin extends PreFilter (PreScore) in the release it was
  // made for. One class serves every release; where a later release added
  // the point (VolumeZone's PreFilter in v1.35, say), the class says no for
  // an earlier one, so that the framework neither lists nor runs it there
  // and a configuration naming the plugin at that point fails as that
  // release's scheduler fails it.
  virtual bool ExtendsPreFilter() const { return true; }
  virtual bool ExtendsPreScore() const { return true; }
};

class PreEnqueuePlugin : public virtual Plugin {
 public:
  virtual Status PreEnqueue(const Pod& pod) = 0;
};

// Pod info as the queue sorts it (upstream's QueuedPodInfo).
struct QueuedPodInfo {
  const Pod* pod = nullptr;
  int64_t timestamp = 0;  // when it was added (ns), or an arrival counter
};

class QueueSortPlugin : public virtual Plugin {
 public:
  virtual bool Less(const QueuedPodInfo& a, const QueuedPodInfo& b) const = 0;
};

class EnqueueExtensions : public virtual Plugin {
 public:
  virtual std::vector<ClusterEvent> EventsToRegister() const = 0;
  // v1.35's EventsToRegister (QueueingHints on, as they are locked in
  // v1.35): the events with the hint that judges each one for a pod this
  // plugin rejected. Each in-tree plugin keeps them in a file of its own
  // (<plugin>_hints.cc). Default: EventsToRegister() without hints.
  virtual std::vector<ClusterEventWithHint> EventsToRegisterWithHints() const;
};

class PreFilterExtensions {
 public:
  virtual ~PreFilterExtensions() = default;
  // The cycle state is updated as if `to_add` ran on `node` (which is the
  // node as the filter will see it, before the pod is added to it).
  virtual Status AddPod(CycleState* state, const Pod& pod, const PodInfo& to_add,
                        const NodeInfo& node) = 0;
  virtual Status RemovePod(CycleState* state, const Pod& pod, const PodInfo& to_remove,
                           const NodeInfo& node) = 0;
};

class PreFilterPlugin : public virtual Plugin {
 public:
  virtual Status PreFilter(CycleState* state, const Pod& pod, PreFilterResult* result) = 0;
  // nullptr when the plugin has none.
  virtual PreFilterExtensions* Extensions() { return nullptr; }
};

class FilterPlugin : public virtual Plugin {
 public:
  // Called concurrently for different nodes: must not write shared state.
  virtual Status Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) const = 0;
  // Filter's code on `node` without its reasons, for cycles that need only
  // the verdict: always Filter(state, pod, node).code(). Default: Filter's.
  virtual Code FilterCode(const CycleState& state, const Pod& pod, const NodeInfo& node) const {
    return Filter(state, pod, node).code();
  }
  // FilterCode on node `id` of cluster(), when the plugin can tell from the
  // id alone without reading the node's NodeInfo (a cache miss per node);
  // nullopt: the engine asks FilterCode.
  virtual std::optional<Code> FilterCodeOf(const CycleState& /*state*/, const Pod& /*pod*/,
                                           NodeId /*id*/) const {
    return std::nullopt;
  }
  // True when, with this cycle's state (after PreFilter), Filter returns
  // Success on every node of cluster() and has no side effect, so the
  // engine may leave it out. Default: false.
  virtual bool PassesEveryNode(const CycleState& /*state*/) const { return false; }
  // For a node-local plugin (Plugin::NodeLocalFor): true when Filter returns
  // Success on every node for any pod whose spec and namespace are this
  // pod's, whatever the nodes hold (a pod without volumes, for a volume
  // plugin), so the engine's kept verdicts leave it out. Default: false.
  virtual bool PassesEveryNodeFor(const Pod& /*pod*/) const { return false; }
};

class PostFilterPlugin : public virtual Plugin {
 public:
  virtual Status PostFilter(CycleState* state, const Pod& pod,
                            const NodeToStatusMap& filtered_node_status,
                            PostFilterResult* result) = 0;
};

class PreScorePlugin : public virtual Plugin {
 public:
  // `nodes` are the feasible nodes.
  virtual Status PreScore(CycleState* state, const Pod& pod, const std::vector<NodeId>& nodes) = 0;
};

class ScoreExtensions {
 public:
  virtual ~ScoreExtensions() = default;
  virtual Status NormalizeScore(const CycleState& state, const Pod& pod,
                                NodeScoreList* scores) const = 0;
  // The score NormalizeScore gives every node of a list whose raw scores
  // are all 0, when it is the same for each (and NormalizeScore succeeds);
  // nullopt otherwise or when the plugin cannot tell. Lets the engine add a
  // constant instead of normalizing a column of zeros.
  virtual std::optional<int64_t> NormalizedZero(const CycleState& /*state*/,
                                                const Pod& /*pod*/) const {
    return std::nullopt;
  }
};

class ScorePlugin : public virtual Plugin {
 public:
  // Called concurrently for different nodes: must not write shared state.
  virtual Status Score(const CycleState& state, const Pod& pod, const NodeInfo& node,
                       int64_t* score) const = 0;
  // True when, with this cycle's state (after PreScore), Score returns
  // Success and 0 on every node of cluster(), so the engine may leave it out
  // (NormalizeScore still runs). Default: false.
  virtual bool ScoresZeroEverywhere(const CycleState& /*state*/) const { return false; }
  // Score on node `id` of cluster() when the plugin can tell from the id
  // alone, without reading the node's NodeInfo; nullopt: the engine asks
  // Score. Never an error (the engine asks Score then).
  virtual std::optional<int64_t> ScoreOf(const CycleState& /*state*/, const Pod& /*pod*/,
                                         NodeId /*id*/) const {
    return std::nullopt;
  }
  virtual const ScoreExtensions* ScoreExt() const { return nullptr; }
};

class ReservePlugin : public virtual Plugin {
 public:
  virtual Status Reserve(CycleState* state, const Pod& pod, NodeId node) = 0;
  virtual void Unreserve(CycleState* state, const Pod& pod, NodeId node) = 0;
};

class PermitPlugin : public virtual Plugin {
 public:
  // Success, Wait (with *timeout_ns) or a rejection.
  virtual Status Permit(CycleState* state, const Pod& pod, NodeId node, int64_t* timeout_ns) = 0;
};

class PreBindPlugin : public virtual Plugin {
 public:
  virtual Status PreBind(CycleState* state, const Pod& pod, NodeId node) = 0;
};

class BindPlugin : public virtual Plugin {
 public:
  // Skip when this plugin does not bind the pod.
  virtual Status Bind(CycleState* state, const Pod& pod, NodeId node) = 0;
};

// A plugin whose API writes later cycles read (DynamicResources: a
// ResourceClaim's allocation and reservation in PreBind, its deallocation
// in PostFilter). The snapshot front ends have no API server: they call
// these where upstream's writes would be made (PreBind right after Reserve,
// as refsched135 runs it; the PostFilter writes once PostFilter returned)
// and pass the ClusterState the writes go to. Plugins write nothing else.
class ClusterWritingPlugin : public virtual Plugin {
 public:
  // The plugin's PreBind for `pod` on `node`, its writes made to *cluster.
  virtual Status PreBindToCluster(CycleState* state, const Pod& pod, NodeId node,
                                  ClusterState* cluster) = 0;
  // What the plugin's PostFilter for `pod` wrote, made to *cluster.
  virtual void ApplyPostFilterWrites(CycleState* state, const Pod& pod, ClusterState* cluster) = 0;
};

class PostBindPlugin : public virtual Plugin {
 public:
  virtual void PostBind(CycleState* state, const Pod& pod, NodeId node) = 0;
};

// ---------------------------------------------------------------- handle

// What binds a pod to a node for DefaultBinder: the snapshot front ends
// assume it into the ClusterState, `ksched run` posts a Binding.
class Binder {
 public:
  virtual ~Binder() = default;
  virtual Status Bind(const Pod& pod, std::string_view node_name) = 0;
};

// What preemption needs to act on (upstream's ClientSet calls it makes):
// delete a victim, clear a nomination.
class PreemptionActions {
 public:
  virtual ~PreemptionActions() = default;
  virtual Status DeleteVictim(const Pod& preemptor, PodId victim) = 0;
};

// v1.35's asynchronous preemption as DefaultPreemption's PreEnqueue asks
// about it (upstream's Evaluator.IsPodRunningPreemption): whether the
// victims of the preemption the pod started are still being deleted.
// `ksched run` keeps it; elsewhere preemption is synchronous and there is none.
class AsyncPreemptions {
 public:
  virtual ~AsyncPreemptions() = default;
  virtual bool IsPodRunningPreemption(std::string_view pod_uid) const = 0;
};

// framework.Handle: what plugins may read and call besides their args. One
// Handle per profile; its pointers are owned by the engine that built it and
// outlive every plugin. cluster() is the snapshot of the current cycle: the
// engine updates it between cycles, never during one.
class Handle {
 public:
  virtual ~Handle() = default;
  virtual const ClusterState& cluster() const = 0;
  // Whether cluster() may be read (the engine set one).
  virtual bool has_cluster() const { return true; }
  // Upstream's Nominator: pods nominated to nodes (may be empty).
  virtual const NominatedPods* nominated() const = 0;
  virtual const config::FeatureGates& feature_gates() const = 0;
  virtual int parallelism() const = 0;
  // Upstream's Handle.RunFilterPluginsWithNominatedPods (preemption uses it).
  virtual Status RunFilterPluginsWithNominatedPods(const CycleState& state, const Pod& pod,
                                                   const NodeInfo& node) const = 0;
  // The profile's PreFilter extensions (preemption removes victims with them).
  virtual Status RunPreFilterExtensionAddPod(CycleState* state, const Pod& pod,
                                             const PodInfo& to_add, const NodeInfo& node) const = 0;
  virtual Status RunPreFilterExtensionRemovePod(CycleState* state, const Pod& pod,
                                                const PodInfo& to_remove,
                                                const NodeInfo& node) const = 0;
  // Whether plugins may keep per-cycle sums between cycles and bring them
  // up to date from the ClusterState's change log instead of counting
  // again (the engine's SchedulerOptions::reuse_node_results). The result
  // must be the same either way. Default: false.
  virtual bool reuse_between_cycles() const { return false; }
  virtual Binder* binder() const = 0;                 // nullptr: nothing binds
  virtual PreemptionActions* preemption() const = 0;  // nullptr: victims not deleted
  // Upstream's Handle.Extenders: the scheduler's HTTP extenders, which
  // preemption asks to narrow its candidates. None unless overridden.
  virtual const std::vector<std::unique_ptr<SchedulerExtender>>& extenders() const;
  // The preemptions running asynchronously (v1.35 `ksched run`); nullptr
  // when none can be (the default).
  virtual const AsyncPreemptions* async_preemptions() const { return nullptr; }
};

// A plugin factory (upstream's PluginFactory): args are the profile's
// pluginConfig for this plugin, already defaulted and validated, or
// monostate. An error Status when the args do not fit.
using PluginFactory = std::unique_ptr<Plugin> (*)(const config::PluginArgs& args, Handle* handle,
                                                  Status* error);

}  // namespace ksched::framework
