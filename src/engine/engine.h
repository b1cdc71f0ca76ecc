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

namespace ksched {

namespace framework {
class Scheduler;
struct CycleResult;
}  // namespace framework

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

  // "v1.15" or "v1.26".
  virtual std::string_view version() const = 0;
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

  // Binds `pod` to `node`: ClusterState::Assume, and for the framework its
  // Reserve plugins (VolumeBinding's assumed bindings).
  virtual PodId Assume(Pod pod, NodeId node, ClusterState* cluster) = 0;

  // The v1.26 framework's whole record of the last Schedule() (its
  // CycleState after PreFilter, the PreFilter outcome, the profile), valid
  // until the next Schedule() or Assume(); reports read it to explain
  // plugin verdicts. nullptr for v1.15, or when no profile took the pod.
  virtual const framework::CycleResult* LastCycle() const { return nullptr; }
};

// The v1.15 engine over a built SchedulerConfig (provider or Policy).
std::unique_ptr<Engine> MakeV115Engine(SchedulerConfig config, TieBreak tie_break);

// The v1.26 framework engine over a built scheduler (profiles from a
// KubeSchedulerConfiguration).
std::unique_ptr<Engine> MakeV126Engine(std::unique_ptr<framework::Scheduler> scheduler);

// The v1.15 engine's GenericScheduler, for the tests and benchmarks that tune
// it; nullptr for other engines.
GenericScheduler* V115Scheduler(Engine* engine);

}  // namespace ksched
