// "How many nodes of this shape must I add so that everything fits?"
// (`--add-node TEMPLATE.yaml[=MAX]` of `schedule` and `capacity`).
//
// A candidate k is checked by a full run of the engine on the snapshot with
// k copies of the template added (<name>-1..k, hostname label the same,
// everything else as the template): it succeeds when every pending pod (and
// every requested workload copy) is placed without preempting anything.
//
// Is success monotone in k? Not provably. More nodes change scores, and so
// where earlier pods land: spreading, inter-pod (anti-)affinity and
// percentageOfNodesToScore can then leave a later pod with no room that it
// had with fewer nodes (greedy placement is not bin packing). So the search
// has two modes:
//   kBisect (default): k = 0, then 1, 2, 4, ... (capped at MAX) until one
//     succeeds, then bisection between the last failure and that success.
//     Every answer is a k whose run succeeded and whose k-1 run failed (or
//     k = 0); it is the smallest one when success is monotone between the
//     last failure and the first success, which holds in practice but is not
//     guaranteed. About 2*log2(k) runs.
//   kLinear: k = 0, 1, 2, ... until one succeeds: the smallest k, exactly, at
//     the price of k+1 runs.
// When no k up to MAX succeeds, the answer says so with the FitError of a pod
// that still did not fit with MAX nodes added.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "api/types.h"
#include "planning/capacity.h"
#include "planning/snapshot.h"
#include "util/result.h"

namespace ksched::planning {

inline constexpr int64_t kDefaultAddNodeMax = 1000;

struct NodeTemplate {
  Node node;
  std::string file;
  int64_t max = kDefaultAddNodeMax;
};

// "FILE" or "FILE=MAX"; FILE must hold exactly one Node.
Result<NodeTemplate> LoadNodeTemplate(const std::string& arg);

// k copies of the template: <name>-1..k, kubernetes.io/hostname the same,
// no uid.
std::vector<Node> NodeCopies(const NodeTemplate& t, int64_t k);

// One candidate's run.
struct Trial {
  int64_t k = 0;
  bool ok = false;
  std::string failed_pod;  // a pod (or workload copy) that did not fit
  std::string error;       // its FitError
};
using TrialFn = std::function<Result<Trial>(int64_t k)>;

enum class SearchMode { kBisect, kLinear };

struct AddNodeAnswer {
  std::string template_name;
  std::string file;
  int64_t max = 0;
  std::optional<int64_t> nodes;  // the answer; nullopt: none up to max
  std::vector<Trial> trials;     // in the order run
  // When no k works: the failing pod and FitError of the run at `max`.
  std::string failed_pod, error;
};

// The search alone, over any trial function (tests give it made-up ones).
Result<AddNodeAnswer> SearchNodesToAdd(int64_t max, SearchMode mode, const TrialFn& trial);

// The capacity run as a trial: the snapshot plus k template copies, its
// pending pods (unless options say otherwise) and `workloads` (each must
// have a count), preemption off.
TrialFn CapacityTrial(const Snapshot& snapshot, const std::vector<Workload>& workloads,
                      const NodeTemplate& t, const SchedulerFactory& make_scheduler,
                      CapacityOptions options);

// Runs the search for one template.
Result<AddNodeAnswer> FindNodesToAdd(const Snapshot& snapshot,
                                     const std::vector<Workload>& workloads, const NodeTemplate& t,
                                     const SchedulerFactory& make_scheduler,
                                     const CapacityOptions& options, SearchMode mode);

}  // namespace ksched::planning
