// How many copies of some workloads a cluster takes, and where they land:
// `ksched capacity`, and the run each `--add-node` candidate is checked by.
//
// One cluster, one scheduler, one SnapshotLoop (so queue order, nominations
// and preemption are `schedule`'s): first the snapshot's pending pods, in
// the queue order, unless told to leave them out; then the workloads in
// queue order (spec.priority descending, then the order given), each copy
// bound before the next. A workload stops at its count, or at its first copy
// that does not fit (a workload without a count stops only there, or at
// `max`).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "algorithm/generic_scheduler.h"
#include "api/object_set.h"
#include "engine/engine.h"
#include "planning/report.h"
#include "planning/workloads.h"
#include "util/result.h"

namespace ksched::planning {

// Builds a fresh scheduler for one run (every run needs its own: the engine's
// caches belong to one cluster).
using SchedulerFactory = std::function<Result<std::unique_ptr<Engine>>()>;

struct CapacityOptions {
  bool schedule_pending = true;  // false: --ignore-pending
  // The snapshot's pending pods preempt as `schedule` lets them (false:
  // --disable-preemption), so both commands place them alike.
  bool pending_preemption = true;
  // The workloads' copies preempt: capacity's default is off, --preemption
  // turns it on.
  bool preemption = false;
  // Keep each attempt's score breakdown (the HTML report): slower, as every
  // cycle then lists every node.
  bool record_details = false;
  size_t top_n = 3;               // score rows kept per pod when recording details
  size_t max_copy_records = 200;  // copies per workload whose records are kept
  int64_t max = 0;                // cap for workloads without a count; 0: none
  // Stop at the first pod or copy that does not fit (an --add-node trial
  // needs no more). Only without preemption (of pending pods and copies), where scheduling the
  // pending pods one at a time in queue order is the same as the loop over all.
  bool stop_at_first_failure = false;
  // Called after each placed copy.
  std::function<void(const Workload& w, int64_t placed)> progress;
};

struct WorkloadOutcome {
  std::string label;  // "Deployment shop/web"
  std::string file;
  std::optional<int64_t> requested;
  int32_t priority = 0;
  int64_t placed = 0;
  std::vector<std::pair<std::string, int64_t>> per_node;  // by node name
  // Why it stopped: the FitError of `failed_pod`, or the count reached.
  std::string stop_reason;
  std::string failed_pod;
  bool complete() const { return requested.has_value() && placed == *requested; }
};

struct CapacityResult {
  bool pending_scheduled = true;  // the pending pods took part
  // Each pending pod's last attempt, in scheduling order (the queue's:
  // priority, then arrival), as `schedule` lists them.
  std::vector<PodRecord> pending;
  size_t pending_unscheduled = 0;
  std::vector<WorkloadOutcome> workloads;  // in the order given
  std::vector<PodRecord> copies;           // kept copy records (see max_copy_records)
  std::vector<NodeUsage> before, after;
  std::vector<std::string> priorities;
  // Every pending pod placed and every workload with a count complete.
  bool everything_fits() const;
};

// `objects` is the snapshot without its pending pods (planning::Snapshot);
// `pending` its pending pods in arrival order.
Result<CapacityResult> PlanCapacity(ObjectSet objects, std::vector<Pod> pending,
                                    std::vector<Workload> workloads,
                                    const SchedulerFactory& make_scheduler,
                                    const CapacityOptions& options);

}  // namespace ksched::planning
