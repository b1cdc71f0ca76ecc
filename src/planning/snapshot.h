// A snapshot split the way the scheduler sees it: the objects that make up
// the cluster, and the pending pods this scheduler would take, in arrival
// order. Shared by every what-if question so that each starts from the same
// pods `ksched schedule` schedules.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/decode.h"
#include "api/types.h"
#include "util/result.h"

namespace ksched::planning {

struct Snapshot {
  // Every object, with the pending pods taken out (placed pods and pods in
  // phase Succeeded/Failed stay; ClusterState::Build drops the latter).
  ObjectSet objects;
  // Pods without spec.nodeName whose spec.schedulerName is this
  // scheduler's and that are not being deleted, in arrival order
  // (creationTimestamp, then namespace/name), priority classes applied.
  std::vector<Pod> pending;
  // Pending pods left to another scheduler or being deleted, and why.
  std::vector<std::pair<Pod, std::string>> skipped;
};

// Splits decoded objects: pending pods whose spec.schedulerName is one of
// `scheduler_names` (every profile a v1.26 configuration serves) are this
// run's. Errors: an unknown priority class (naming the pod).
Result<Snapshot> SplitSnapshot(ObjectSet objects, const std::vector<std::string>& scheduler_names);
inline Result<Snapshot> SplitSnapshot(ObjectSet objects, const std::string& scheduler_name) {
  return SplitSnapshot(std::move(objects), std::vector<std::string>{scheduler_name});
}

// How a pending pod left to another scheduler is listed: `left to scheduler
// "x" (spec.schedulerName; this run is --scheduler-name y)`, or with several
// names "this run serves the profiles a, b".
std::string LeftToOtherScheduler(std::string_view pod_scheduler,
                                 const std::vector<std::string>& scheduler_names);

// Decodes `files` and splits them.
Result<Snapshot> LoadSnapshot(const std::vector<std::string>& files,
                              const std::string& scheduler_name);

// Upstream's queue order for a batch that arrives together: spec.priority
// descending, then `arrival` (stable), as SnapshotLoop orders pending pods.
void SortByQueueOrder(std::vector<Pod>* pods);

}  // namespace ksched::planning
