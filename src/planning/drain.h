// `ksched drain`: what `kubectl drain NODE...` would do to a cluster.
//
// The named nodes are cordoned (spec.unschedulable). Their pods are sorted
// as kubectl drain sorts them:
//   - mirror pods (annotation kubernetes.io/config.mirror) and pods whose
//     controller is a DaemonSet stay (kubectl skips them; the DaemonSet
//     controller would put them back anyway);
//   - pods without a controller are deleted and not recreated (what
//     `kubectl drain --force` does);
//   - every other pod is evicted, and its controller creates a replacement
//     that the scheduler places on the rest of the cluster.
// Evictions go through PodDisruptionBudgets (policy/v1beta1): a budget in
// the pod's namespace whose non-empty selector matches the pod must allow
// the disruption; one that allows fewer disruptions than the drain needs
// blocks the rest, and a pod matched by more than one budget cannot be
// evicted at all (the eviction API refuses it).
// Replacements are scheduled as `schedule` schedules pending pods, in the
// queue order (priority descending, then namespace/name), each bound before
// the next; the snapshot's own pending pods take no part.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "api/decode.h"
#include "planning/capacity.h"
#include "planning/report.h"
#include "util/result.h"

namespace ksched::planning {

struct DrainOptions {
  bool preemption = true;       // as the scheduler; --disable-preemption
  bool record_details = false;  // score breakdowns and usage for the HTML report
  size_t top_n = 3;
};

struct StayingPod {
  std::string pod;
  std::string node;
  std::string why;  // "DaemonSet", "mirror pod"
};

struct EvictedPod {
  std::string from;  // the drained node it ran on
  int32_t priority = 0;
  PodRecord record;  // its replacement's last attempt
};

struct BlockingBudget {
  std::string pdb;  // namespace/name
  int32_t disruptions_allowed = 0;
  std::vector<std::string> pods;  // the drained pods it covers, in eviction order
  std::string why;
};

struct DrainReport {
  std::vector<std::string> nodes;        // drained, as given
  std::vector<StayingPod> staying;       // by node, then pod
  std::vector<std::string> deleted;      // pods without a controller
  std::vector<EvictedPod> evicted;       // in scheduling order
  std::vector<BlockingBudget> blocking;  // budgets that block an eviction
  size_t unschedulable = 0;              // evicted pods whose replacement does not fit
  size_t preempted = 0;                  // running pods deleted by preemption
  bool safe = false;                     // every replacement fits, no budget blocks
  std::string verdict;                   // one line
  std::vector<NodeUsage> before, after;
  std::vector<std::string> priorities;
};

// `objects` is the decoded snapshot (pending pods included: they are left
// out here). Errors: a node name the snapshot lacks, duplicate names.
Result<DrainReport> PlanDrain(ObjectSet objects, const std::vector<std::string>& nodes,
                              const SchedulerFactory& make_scheduler, const DrainOptions& options);

}  // namespace ksched::planning
