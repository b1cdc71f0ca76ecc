#include "planning/snapshot.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "api/decode.h"
#include "api/priority_admission.h"
#include "loop/snapshot_loop.h"

namespace ksched::planning {

std::string LeftToOtherScheduler(std::string_view pod_scheduler,
                                 const std::vector<std::string>& scheduler_names) {
  if (scheduler_names.size() == 1) {
    return fmt::format(
        "left to scheduler \"{}\" (spec.schedulerName; this run is --scheduler-name {})",
        pod_scheduler, scheduler_names[0]);
  }
  return fmt::format(
      "left to scheduler \"{}\" (spec.schedulerName; this run serves the profiles {})",
      pod_scheduler, fmt::join(scheduler_names, ", "));
}

Result<Snapshot> SplitSnapshot(ObjectSet objects, const std::vector<std::string>& scheduler_names) {
  if (Status s = ApplyPriorityClasses(objects.priority_classes, &objects.pods, ""); !s.ok()) {
    return s.error();
  }
  Snapshot snap;
  std::vector<Pod> placed;
  placed.reserve(objects.pods.size());
  for (Pod& p : objects.pods) {
    if (!p.spec.node_name.empty() || p.phase == "Succeeded" || p.phase == "Failed") {
      placed.push_back(std::move(p));
      continue;
    }
    const std::string name =
        p.spec.scheduler_name.empty() ? std::string("default-scheduler") : p.spec.scheduler_name;
    if (p.meta.has_deletion_timestamp) {
      snap.skipped.emplace_back(std::move(p), "being deleted (metadata.deletionTimestamp is set)");
    } else if (std::find(scheduler_names.begin(), scheduler_names.end(), name) ==
               scheduler_names.end()) {
      snap.skipped.emplace_back(std::move(p), LeftToOtherScheduler(name, scheduler_names));
    } else {
      snap.pending.push_back(std::move(p));
    }
  }
  objects.pods = std::move(placed);
  std::stable_sort(snap.pending.begin(), snap.pending.end(), [](const Pod& a, const Pod& b) {
    if (a.meta.creation_timestamp != b.meta.creation_timestamp)
      return a.meta.creation_timestamp < b.meta.creation_timestamp;
    return a.Key() < b.Key();
  });
  for (Pod& p : snap.pending)
    if (p.meta.uid.empty()) p.meta.uid = p.Key();
  snap.objects = std::move(objects);
  return snap;
}

Result<Snapshot> LoadSnapshot(const std::vector<std::string>& files,
                              const std::string& scheduler_name) {
  ObjectSet objects;
  for (const std::string& f : files) {
    if (Status s = DecodeFile(f, &objects); !s.ok()) return s.error();
  }
  return SplitSnapshot(std::move(objects), scheduler_name);
}

void SortByQueueOrder(std::vector<Pod>* pods) {
  std::vector<size_t> order(pods->size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return QueueLess(PodPriority((*pods)[a]), a, PodPriority((*pods)[b]), b);
  });
  std::vector<Pod> sorted;
  sorted.reserve(pods->size());
  for (size_t i : order) sorted.push_back(std::move((*pods)[i]));
  *pods = std::move(sorted);
}

}  // namespace ksched::planning
