// `ksched drain`: what `kubectl drain --force --ignore-daemonsets NODE...`
// would do to a cluster.
//
// The named nodes are cordoned (spec.unschedulable). Their pods are sorted
// as kubectl drain's filters sort them, in kubectl's order:
//   - pods whose controller is a DaemonSet and mirror pods (annotation
//     kubernetes.io/config.mirror) stay (--ignore-daemonsets; the DaemonSet
//     controller would put them back anyway, the kubelet owns mirror pods);
//   - a pod with an emptyDir volume holds local data that the eviction
//     deletes: kubectl refuses to drain unless --delete-emptydir-data
//     (DrainOptions::delete_emptydir_data); the report goes on as if it were
//     given, and the verdict names the pods and the flag;
//   - pods without a controller are deleted and not recreated (--force);
//   - every other pod is evicted, and its controller creates a replacement
//     that the scheduler places on the rest of the cluster.
// Evictions go through PodDisruptionBudgets: a budget in the pod's
// namespace whose non-empty selector matches the pod must allow the
// disruption, and a pod matched by more than one budget cannot be evicted at
// all (the eviction API refuses it). A budget that allows fewer disruptions
// now (status.disruptionsAllowed) than the drain needs is one of two kinds:
//   - it blocks for good when it allows no disruption even with every pod it
//     selects healthy (maxUnavailable 0, minAvailable equal to the pods it
//     selects), or when the pods that never come back (replacements that fit
//     nowhere, pods without a controller) use up all it allows;
//   - otherwise kubectl's retries get through: each eviction waits until the
//     replacements of the pods evicted before it are Ready, and the budget
//     allows the next one. Such a budget slows the drain but does not make it
//     unsafe.
// The pods a budget expects are the non-terminal pods it selects in the
// snapshot (what its controllers' replicas are when every pod exists).
// Replacements are scheduled as `schedule` schedules pending pods, in the
// queue order (priority descending, then namespace/name), each bound before
// the next. The snapshot's own pending pods are left out (they may compete
// with the replacements for room in the cluster); the report counts them
// and says so.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "api/object_set.h"
#include "planning/capacity.h"
#include "planning/report.h"
#include "util/result.h"

namespace ksched::planning {

struct DrainOptions {
  bool preemption = true;             // as the scheduler; --disable-preemption
  bool delete_emptydir_data = false;  // kubectl drain --delete-emptydir-data
  bool record_details = false;        // score breakdowns and usage for the HTML report
  size_t top_n = 3;
};

struct StayingPod {
  std::string pod;
  std::string node;
  std::string why;  // "DaemonSet", "mirror pod"
};

// A pod without a controller: kubectl drain --force deletes it for good.
struct DeletedPod {
  std::string pod;
  std::string node;  // the drained node it ran on
};

struct EvictedPod {
  std::string from;  // the drained node it ran on
  int32_t priority = 0;
  PodRecord record;  // its replacement's last attempt
};

// A pod whose emptyDir volumes hold data the eviction deletes.
struct LocalDataPod {
  std::string pod;
  std::string node;
  std::vector<std::string> volumes;  // the emptyDir volumes' names
};

struct BlockingBudget {
  std::string pdb;  // namespace/name
  int32_t disruptions_allowed = 0;
  std::vector<std::string> pods;  // the drained pods it covers, in eviction order
  // true: no retry gets these pods out; false: kubectl's retries get through
  // once the replacements of the pods evicted first are Ready.
  bool permanent = true;
  // The pods it selects that have no node yet, when they are what holds its
  // disruptionsAllowed below what its spec allows with every pod healthy:
  // its first eviction waits for them.
  std::vector<std::string> waits_for;
  std::string why;
};

struct DrainReport {
  std::vector<std::string> nodes;        // drained, as given
  std::vector<StayingPod> staying;       // by node, then pod
  std::vector<DeletedPod> deleted;       // pods without a controller
  std::vector<EvictedPod> evicted;       // in scheduling order
  std::vector<BlockingBudget> blocking;  // budgets that block an eviction, for good or for now
  std::vector<LocalDataPod> local_data;  // pods with emptyDir volumes (not staying)
  bool local_data_blocks = false;        // some, and no --delete-emptydir-data
  size_t pending_left_out = 0;           // the snapshot's pending pods, not scheduled here
  size_t unschedulable = 0;              // evicted pods whose replacement does not fit
  size_t preempted = 0;                  // running pods deleted by preemption
  // Every replacement fits, no budget blocks for good, no local data stops
  // kubectl.
  bool safe = false;
  std::string verdict;  // one line
  std::vector<NodeUsage> before, after;
  std::vector<std::string> priorities;
};

// `objects` is the decoded snapshot (pending pods included: they are left
// out here). Errors: a node name the snapshot lacks, duplicate names.
Result<DrainReport> PlanDrain(ObjectSet objects, const std::vector<std::string>& nodes,
                              const SchedulerFactory& make_scheduler, const DrainOptions& options);

}  // namespace ksched::planning
