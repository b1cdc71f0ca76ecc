// The scheduler loop over a snapshot: upstream's scheduleOne, made
// deterministic as ../shared/preemption/README.md defines it, so that every
// snapshot front end (replay, schedule, capacity, drain) and the acceptance
// vectors agree on which pod is attempted when.
//
//  1. Pending pods are queued by (priority descending, arrival order); pods
//     that arrive with status.nominatedNodeName are registered as nominated
//     to that node, in arrival order.
//  2. The first queued pod is attempted: one cycle of the generic scheduler
//     with the nominated pods counted. On success it is bound (assumed into
//     the cluster) and its nomination, if any, removed.
//  3. On a FitError, Preempt runs on the same snapshot. If it chose a node,
//     the pod is nominated there and the victims are deleted at once; then,
//     whether or not a node was chosen, the pods it lists lose their
//     nominations.
//  4. A pod whose first attempt preempted is attempted once more, right
//     away (no pod before it is still queued). No pod is attempted more than
//     twice; a nomination a failed pod keeps goes on reserving room.
//  5. With the v1.35 engine a failure that no PostFilter result decides (an
//     error, a FitError without PostFilter plugins or with preemption off)
//     clears the pod's own nomination (Engine::FailureClearsNomination), and
//     victims that are already terminating are not deleted again: they stay
//     in the cluster until their own deletion ends.
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "algorithm/generic_scheduler.h"
#include "cache/cluster_state.h"
#include "cache/node_tree.h"
#include "cache/nominated_pods.h"
#include "engine/engine.h"
#include "preemption/preempt.h"

namespace ksched {

struct LoopOptions {
  bool preemption = true;                  // false: upstream's --disable-preemption
  bool record_details = true;              // ScheduleResult lists every node (reports)
  bool record_preemption_details = false;  // PreemptionResult lists every node
};

// One attempt of one pod.
struct Attempt {
  const Pod* pod = nullptr;  // as attempted (status.nominatedNodeName current)
  size_t index = 0;          // the pod's position in the pending list
  int number = 1;            // 1, or 2 for the retry after a preemption
  ScheduleResult result;
  // Set when the attempt failed with a FitError and preemption is on: what
  // Preempt decided (node kNoNode when it chose none). Victims are PodIds of
  // the cluster as it was before they were deleted: read them in the
  // callback. With the v1.26 engine result.error already ends with
  // preemption's message, as kube-scheduler's FailedScheduling event does.
  std::optional<PreemptionResult> preemption;
};

// The queue order: higher spec.priority first, then earlier arrival.
bool QueueLess(int32_t priority_a, size_t arrival_a, int32_t priority_b, size_t arrival_b);

class SnapshotLoop {
 public:
  // All pointers must outlive the loop. Preemption reads the cluster's
  // PodDisruptionBudgets.
  SnapshotLoop(Engine* engine, ClusterState* cluster, NodeTree* tree, LoopOptions options);

  // Schedules `pending` (in arrival order) until the queue is empty, calling
  // `on_attempt` after each attempt, before its effects (binding, deleting
  // victims) are applied to the cluster.
  void Run(std::vector<Pod> pending, const std::function<void(const Attempt&)>& on_attempt);

  // Turns preemption on or off for the next Run() (capacity: the pending
  // pods preempt as `schedule` lets them, the copies only with --preemption).
  // Nominations made so far are kept.
  void set_preemption(bool on) { options_.preemption = on; }

  // The pods still nominated when Run() returned.
  const NominatedPods& nominated() const { return nominated_; }

 private:
  Engine* engine_;
  ClusterState* cluster_;
  NodeTree* tree_;
  LoopOptions options_;
  NominatedPods nominated_;
};

}  // namespace ksched
