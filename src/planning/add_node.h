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
//
// A new node runs the DaemonSets whose pods fit it, as cluster-autoscaler
// counts them for its template nodes: one pod per DaemonSet of the snapshot,
// made from the DaemonSet object's template when the snapshot has it (`kubectl
// get daemonsets`), else from one of its running pods (the controller
// replaced the DaemonSet's own required node affinity with the node's name,
// so that part of it is not seen), kept when the engine places it on a fresh
// copy of the template together with the DaemonSet pods kept before it.
//
// When no number of nodes can help the pod that did not fit at k = 0 (the
// template never matches it: taints, node selector or affinity, or it does
// not fit beside the DaemonSet pods), the search says so at once: one run at
// MAX confirms it (the pod could still fit an old node that other pods left
// for the new ones) instead of searching every k.
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

// The pod the DaemonSet controller makes from a DaemonSet's template for a
// node (unbound, named after the DaemonSet): the template's labels and
// spec, the DaemonSet as its controller, and the tolerations the controller
// adds to every pod it makes (not-ready and unreachable NoExecute;
// disk-pressure, memory-pressure, pid-pressure and unschedulable
// NoSchedule; network-unavailable NoSchedule with hostNetwork). Its own
// node selector and affinity stay, so a node they do not match gets no pod,
// as the controller decides.
Pod DaemonSetPod(const DaemonSet& ds);

// The DaemonSets of a snapshot: each DaemonSet object's pod (DaemonSetPod),
// in the snapshot's order; then, for DaemonSets the snapshot has only pods
// of, one running pod per DaemonSet (by namespace and name), unbound,
// without the node-name affinity the controller gave it, in the order of
// the snapshot's pods.
std::vector<Pod> DaemonSetTemplates(const ObjectSet& objects);

// What a fresh copy of the template looks like to the engine: the
// DaemonSet pods it gets (bound to its name), and for a pod that can never
// run there, why.
struct TemplateFit {
  std::vector<Pod> daemons;               // bound to the template's own name
  std::vector<std::string> daemon_names;  // their DaemonSets, "ns/name"
  // Runs `pod` on a cluster of this one fresh node (and its DaemonSet
  // pods): "" when it fits, else the failing predicate/plugin's reason, when
  // the node itself decides it (taints, selectors, resources, ports,
  // conditions). Other failures (inter-pod terms, volumes) depend on the
  // rest of the cluster and are not claimed.
  std::function<Result<std::string>(const Pod& pod)> never;
};
Result<TemplateFit> FitTemplate(const NodeTemplate& t, const std::vector<Pod>& daemon_templates,
                                const SchedulerFactory& make_scheduler);

// The DaemonSet pods of k copies: each kept DaemonSet's pod on each copy.
std::vector<Pod> DaemonPodsOn(const std::vector<Pod>& daemons, const std::vector<Node>& copies);

// One candidate's run.
struct Trial {
  int64_t k = 0;
  bool ok = false;
  std::string failed_pod;       // a pod (or workload copy) that did not fit
  std::string failed_workload;  // the copy's workload (Workload::Label()), or ""
  std::string error;            // its FitError
  // When ok: where the pending pods landed (pod, node), in scheduling
  // order, and each workload's copies per node.
  std::vector<std::pair<std::string, std::string>> placements;
  std::vector<WorkloadOutcome> workloads;
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
  // When no number of nodes helps: the pod a new node can never take, and
  // why (the search then stopped after the runs at 0 and max).
  std::string never_pod, never;
  std::vector<std::string> daemon_sets;  // the DaemonSets each new node runs
  std::vector<Pod> daemons;              // their pods' templates (DaemonPodsOn)
  // The successful run of the answer.
  const Trial* answer_trial() const {
    for (const Trial& t : trials)
      if (nodes && t.k == *nodes && t.ok) return &t;
    return nullptr;
  }
};

// For the failing run at k = 0: when the pod that did not fit is one no new
// node can ever take, that pod and why; nullopt otherwise.
using NeverFn =
    std::function<Result<std::optional<std::pair<std::string, std::string>>>(const Trial&)>;

// The search alone, over any trial function (tests give it made-up ones).
// With `never`, a failing run at k = 0 whose pod no new node takes is
// followed by one run at max: if that fails too, the answer is none at once.
Result<AddNodeAnswer> SearchNodesToAdd(int64_t max, SearchMode mode, const TrialFn& trial,
                                       const NeverFn& never = nullptr);

// The capacity run as a trial: the snapshot plus k template copies with
// their DaemonSet pods (`daemons`, as FitTemplate keeps them), its pending
// pods (unless options say otherwise) and `workloads` (each must have a
// count), preemption off.
TrialFn CapacityTrial(const Snapshot& snapshot, const std::vector<Workload>& workloads,
                      const NodeTemplate& t, const std::vector<Pod>& daemons,
                      const SchedulerFactory& make_scheduler, CapacityOptions options);

// Runs the search for one template.
Result<AddNodeAnswer> FindNodesToAdd(const Snapshot& snapshot,
                                     const std::vector<Workload>& workloads, const NodeTemplate& t,
                                     const SchedulerFactory& make_scheduler,
                                     const CapacityOptions& options, SearchMode mode);

}  // namespace ksched::planning
