#include "planning/capacity.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <unordered_set>

#include "api/priority_admission.h"
#include "cache/node_tree.h"
#include "loop/snapshot_loop.h"
#include "planning/snapshot.h"

namespace ksched::planning {

bool CapacityResult::everything_fits() const {
  if (pending_unscheduled > 0) return false;
  for (const WorkloadOutcome& w : workloads)
    if (!w.complete()) return false;
  return true;
}

Result<CapacityResult> PlanCapacity(ObjectSet objects, std::vector<Pod> pending,
                                    std::vector<Workload> workloads,
                                    const SchedulerFactory& make_scheduler,
                                    const CapacityOptions& options) {
  AddWorkloadObjects(workloads, &objects);
  // Copies never reuse a pod's name: a StatefulSet scaled up continues
  // after its highest ordinal, as its controller would.
  std::unordered_set<std::string> taken;
  for (const Pod& p : objects.pods) taken.insert(p.Key());
  for (const Pod& p : pending) taken.insert(p.Key());
  auto scheduler = make_scheduler();
  if (!scheduler.ok()) return scheduler.error();
  auto cluster = ClusterState::Build(std::move(objects), nullptr, (*scheduler)->cache_options());
  if (!cluster.ok()) return cluster.error();
  for (Workload& w : workloads) {
    std::vector<Pod> one{w.pod};
    if (Status s = ApplyPriorityClasses(cluster->priority_classes(), &one, w.file); !s.ok())
      return s.error();
    w.pod = std::move(one[0]);
  }
  NodeTree tree(*cluster);

  CapacityResult result;
  result.priorities = PriorityNames(**scheduler);
  result.before = TakeUsage(*cluster);
  LoopOptions loop_options;
  loop_options.preemption = options.pending_preemption;
  loop_options.record_details = options.record_details;
  SnapshotLoop loop(scheduler->get(), &*cluster, &tree, loop_options);
  const size_t top_n = options.record_details ? options.top_n : 0;

  result.pending_scheduled = options.schedule_pending;
  if (options.stop_at_first_failure && !options.preemption && !options.pending_preemption) {
    if (options.schedule_pending) {
      SortByQueueOrder(&pending);
      for (Pod& p : pending) {
        std::vector<Pod> one;
        one.push_back(std::move(p));
        PodRecord rec;
        loop.Run(std::move(one),
                 [&](const Attempt& a) { rec = RecordAttempt(a, *cluster, top_n); });
        rec.group = "pending";
        const bool failed = rec.node.empty();
        result.pending.push_back(std::move(rec));
        if (failed) {
          result.pending_unscheduled = 1;
          result.after = TakeUsage(*cluster);
          return result;
        }
      }
    }
  } else if (options.schedule_pending && !pending.empty()) {
    std::vector<PodRecord> records(pending.size());
    std::vector<size_t> attempt_order;
    loop.Run(std::move(pending), [&](const Attempt& a) {
      if (a.number == 1) attempt_order.push_back(a.index);
      PodRecord rec = RecordAttempt(a, *cluster, top_n);
      PodRecord& slot = records[a.index];
      if (a.number == 2 && rec.preempted_on.empty()) {
        // The retry after a preemption: keep what the first attempt deleted.
        rec.preempted_on = std::move(slot.preempted_on);
        rec.victims = std::move(slot.victims);
      }
      slot = std::move(rec);
      slot.group = "pending";
    });
    for (size_t i : attempt_order) {
      if (records[i].node.empty()) ++result.pending_unscheduled;
      result.pending.push_back(std::move(records[i]));
    }
  }

  loop.set_preemption(options.preemption);
  // Queue order of the workloads: priority, then the order given.
  std::vector<size_t> order(workloads.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return QueueLess(PodPriority(workloads[a].pod), a, PodPriority(workloads[b].pod), b);
  });
  result.workloads.resize(workloads.size());
  for (size_t wi : order) {
    const Workload& w = workloads[wi];
    WorkloadOutcome& out = result.workloads[wi];
    out.label = w.Label();
    out.file = w.file;
    out.requested = w.count;
    out.priority = PodPriority(w.pod);
    std::map<std::string, int64_t> per_node;
    int64_t n = 0;
    while (!w.count || out.placed < *w.count) {
      if (!w.count && options.max > 0 && out.placed >= options.max) {
        out.stop_reason = fmt::format("reached --max {}", options.max);
        break;
      }
      std::string name;
      do {
        name = w.CopyName(n++);
      } while (taken.count(fmt::format("{}/{}", Str(w.ns), name)) > 0);
      taken.insert(fmt::format("{}/{}", Str(w.ns), name));
      std::vector<Pod> one;
      one.push_back(w.MakeCopy(n - 1, name));
      PodRecord last;
      loop.Run(std::move(one), [&](const Attempt& a) {
        last = RecordAttempt(a, *cluster, top_n);
        last.group = out.label;
      });
      const bool keep =
          options.record_details && static_cast<size_t>(out.placed) < options.max_copy_records;
      if (last.node.empty()) {
        out.stop_reason = last.error;
        out.failed_pod = last.pod;
        if (keep) result.copies.push_back(std::move(last));
        break;
      }
      ++per_node[last.node];
      ++out.placed;
      if (keep) result.copies.push_back(std::move(last));
      if (options.progress) options.progress(w, out.placed);
    }
    if (out.stop_reason.empty() && w.count)
      out.stop_reason = *w.count == 1 ? std::string("the 1 requested copy placed")
                                      : fmt::format("all {} requested copies placed", *w.count);
    out.per_node.assign(per_node.begin(), per_node.end());
    if (options.stop_at_first_failure && !out.failed_pod.empty()) break;
  }
  result.after = TakeUsage(*cluster);
  return result;
}

}  // namespace ksched::planning
