// The one interface every front end schedules through (schedule, capacity,
// drain, --add-node, replay, bench): an engine is either kube-scheduler
// v1.15's algorithm (predicates, priorities, Policy) or v1.26's framework
// (plugins, profiles, KubeSchedulerConfiguration). Front ends pick one once,
// from their flags, and never branch on which it is.
//
// An engine decides; it never changes the cluster except in Assume(). The
// scheduler loop (loop/snapshot_loop.h) calls Schedule() for one attempt,
// Preempt() after a FitError, then applies the outcome (binding, deleting
// victims, nominations).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "algorithm/generic_scheduler.h"
#include "cache/cluster_state.h"
#include "cache/node_tree.h"
#include "cache/nominated_pods.h"
#include "framework/cluster_event.h"
#include "preemption/preempt.h"
#include "util/result.h"

namespace ksched {

namespace framework {
class Scheduler;
struct CycleResult;
class PreBindApi;
}  // namespace framework

// A pod reserved on its node by `ksched run` (Engine::Reserve) until its
// binding succeeds or fails. It carries its own copy of what the binding
// needs from the scheduling cycle (v1.26: the cycle's state and the PreBind
// plugins' planned jobs), because the engine itself belongs to the
// scheduling thread while the binding runs on a worker.
class Reservation {
 public:
  virtual ~Reservation() = default;
  // On a binding worker, before the pod's Binding is posted: the PreBind
  // work (VolumeBinding: write the PV and claim bindings, wait for the PV
  // controller). Reads nothing of the engine. Its error is upstream's
  // PreBind failure ("running PreBind plugin ...: ..."). Returns soon after
  // `stop` becomes true.
  virtual Status PreBind(framework::PreBindApi* api, const std::atomic<bool>& stop) = 0;
  // Whether PreBind has work to do (it may then wait for minutes).
  virtual bool has_pre_bind_work() const = 0;
};

// One score column of a report: a v1.15 priority or a v1.26 score plugin.
// ScheduleResult::priority_scores[p] holds column p's unweighted scores.
struct ScoreColumn {
  std::string name;
  int64_t weight = 1;
};

// How an engine's scores are reported.
struct ScoreColumns {
  // The report field: "priorities" (v1.15: each priority's reduced score,
  // unweighted) or "plugins" (v1.26: each score plugin's normalized score
  // times its weight), as the two engines' reference harnesses print them.
  std::string field = "priorities";
  bool weighted = false;
  std::vector<ScoreColumn> columns;
};

// The columns of a v1.15 configuration.
ScoreColumns ScoreColumnsOf(const SchedulerConfig& config);

class Engine {
 public:
  virtual ~Engine() = default;

  // The release it decides as: "v1.15", "v1.26" or "v1.35".
  virtual std::string_view version() const = 0;
  // The feature gates set to other than the release's defaults, by name
  // (what a report says it simulated beside the version).
  virtual std::vector<std::pair<std::string, bool>> changed_feature_gates() const { return {}; }
  // Whether it is the scheduling framework (v1.26 and later: plugins,
  // profiles, KubeSchedulerConfiguration), not v1.15's algorithm.
  virtual bool framework() const { return false; }
  // How the cluster must count pods for this engine (ClusterState::Build).
  virtual CacheOptions cache_options() const = 0;
  // The score columns of every scored result, in order.
  virtual const ScoreColumns& score_columns() const = 0;
  // The spec.schedulerName of each profile (v1.26: one process serves every
  // profile of its configuration); empty for v1.15, which has no profiles.
  virtual std::vector<std::string> profile_names() const { return {}; }

  // The queue's PreEnqueue (v1.26: SchedulingGates): "" when `pod` may be
  // attempted, else why it waits ("waiting for scheduling gates: [...]").
  // A waiting pod is never attempted: no cycle, no event, no preemption.
  virtual std::string PreEnqueue(const Pod& /*pod*/) { return {}; }

  // The queue's moves (v1.26): which plugins registered for which cluster
  // events, so an event moves only the pods one of their rejecting plugins
  // cares about (ScheduleResult::unschedulable_plugins). nullopt for v1.15,
  // where every event moves every unschedulable pod.
  virtual std::optional<framework::ClusterEventMap> ClusterEvents() const { return std::nullopt; }
  // v1.26's check of an unschedulable pod against a node just added or
  // changed (upstream's preCheckForNode): false when the node cannot take
  // it anyway, so the event does not move it. v1.15 has none.
  virtual bool PassesNodePreCheck(const Pod& /*pod*/, const NodeInfo& /*node*/) const {
    return true;
  }

  // One scheduling cycle for `pod`. With `record_details` false only
  // chosen, error and fit_error are certain. `nominated` (may be null) holds
  // the pods nominated to nodes. ScheduleResult::failures[i].predicate names
  // the predicate or plugin that rejected the node.
  virtual ScheduleResult Schedule(const Pod& pod, const ClusterState& cluster, NodeTree* tree,
                                  bool record_details, const NominatedPods* nominated) = 0;

  // Preemption after `fit_error` (the last Schedule() of the same pod).
  // `post_filter_message` receives what the v1.26 scheduler appends to the
  // FitError ("" for v1.15, whose FitError stays as it was).
  virtual PreemptionResult Preempt(const Pod& pod, const ScheduleResult& fit_error,
                                   const ClusterState& cluster, const NominatedPods* nominated,
                                   const PreemptOptions& options,
                                   std::string* post_filter_message) = 0;

  // Whether the failure of the last Schedule(), when no PostFilter result
  // decides the pod's nomination (an error, or a FitError that Preempt()
  // does not follow because preemption is off), clears it: v1.35's
  // schedulingCycle does; v1.15 and v1.26 keep it. False for a pod that
  // was not attempted (PreEnqueue held it, no profile took it).
  virtual bool FailureClearsNomination() const { return false; }

  // After Preempt(): what the PostFilter plugins wrote through the API
  // (v1.35's DynamicResources deallocates a claim), made to *cluster.
  virtual void ApplyPostFilterWrites(const Pod& /*pod*/, ClusterState* /*cluster*/) {}

  // The FitError a pod's events and condition carry once PostFilter ran:
  // `fit_error` with PostFilter's message appended (v1.26: " msg.", v1.35:
  // " msg"; unchanged when the message is empty).
  virtual std::string WithPostFilterMessage(const std::string& fit_error,
                                            const std::string& post_filter_message) const {
    if (post_filter_message.empty()) return fit_error;
    return fit_error + " " + post_filter_message + ".";
  }

  // Binds `pod` to `node`: ClusterState::Assume, and for the framework its
  // Reserve plugins (VolumeBinding's assumed bindings).
  virtual PodId Assume(Pod pod, NodeId node, ClusterState* cluster) = 0;

  // `ksched run`'s Reserve for the last Schedule()'s pod, which the caller
  // has already placed on `node` in `cluster`: the Reserve plugins (v1.26:
  // VolumeBinding assumes its bindings), then the plan of the PreBind work.
  // nullptr when the binding needs nothing more (v1.15). An error is
  // upstream's Reserve or PreBind failure; the plugins are unreserved then.
  // The cycle's record (LastCycle) is taken over by the reservation.
  virtual Result<std::unique_ptr<Reservation>> Reserve(const Pod& /*pod*/, NodeId /*node*/,
                                                       const ClusterState& /*cluster*/) {
    return std::unique_ptr<Reservation>();
  }
  // On the scheduling thread, after the reserved pod's PreBind or binding
  // failed: the Unreserve plugins (VolumeBinding reverts its assumptions).
  virtual void Unreserve(Reservation* /*reservation*/) {}

  // The v1.26 framework's whole record of the last Schedule() (its
  // CycleState after PreFilter, the PreFilter outcome, the profile), valid
  // until the next Schedule() or Assume(); reports read it to explain
  // plugin verdicts. nullptr for v1.15, or when no profile took the pod.
  virtual const framework::CycleResult* LastCycle() const { return nullptr; }
};

// The v1.15 engine over a built SchedulerConfig (provider or Policy).
std::unique_ptr<Engine> MakeV115Engine(SchedulerConfig config, TieBreak tie_break);

// The framework engine over a built scheduler (profiles from a
// KubeSchedulerConfiguration), deciding as the release its feature gates
// name (v1.26 or v1.35).
std::unique_ptr<Engine> MakeFrameworkEngine(std::unique_ptr<framework::Scheduler> scheduler);

// The v1.15 engine's GenericScheduler, for the tests and benchmarks that tune
// it; nullptr for other engines.
GenericScheduler* V115Scheduler(Engine* engine);

}  // namespace ksched
