// The generic scheduler: upstream's genericScheduler.Schedule over a
// ClusterState.
//
// One Schedule() call is one scheduling cycle for one pod, in upstream's
// phases, each a function below: podPassesBasicChecks; the per-pod metadata
// (CyclePredicates); findNodesThatFit (predicates in upstream's fixed order
// over nodes walked in NodeTree order, nominated pods counted as
// podFitsOnNode counts them); the extenders' filter; PrioritizeNodes (each
// priority maps and reduces over the feasible nodes, extenders add their
// scores); selectHost. The caller decides whether to bind (Assume) the result
// or, on a FitError, to preempt (preemption/preempt.h); the scheduler never
// mutates the cluster.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "algorithm/pod_fits_on_node.h"
#include "algorithm/scheduler_extender.h"
#include "algorithm/score_index.h"
#include "cache/cluster_state.h"
#include "cache/node_tree.h"
#include "cache/nominated_pods.h"
#include "predicates/predicate.h"
#include "priorities/priority.h"

namespace ksched {

// How to choose among the nodes with the top total score.
enum class TieBreak {
  kName,        // the lexicographically smallest node name (the vectors' rule)
  kRoundRobin,  // upstream's selectHost: lastNodeIndex % count, in filter order
};

struct PredicateConfig {
  std::string name;  // upstream name, e.g. "GeneralPredicates"
  std::unique_ptr<Predicate> predicate;
};

struct PriorityConfig {
  std::string name;  // the Policy entry name, e.g. "LeastRequestedPriority"
  std::unique_ptr<Priority> priority;
  int64_t weight = 1;
};

// Everything that defines a scheduler: built by algorithm/provider.h from a
// provider name or a Policy.
struct SchedulerConfig {
  std::vector<PredicateConfig> predicates;  // already in upstream's order
  std::vector<PriorityConfig> priorities;   // in Policy / provider order
  std::vector<std::unique_ptr<SchedulerExtender>> extenders;
  bool always_check_all_predicates = false;
  int hard_pod_affinity_symmetric_weight = 1;
  int percentage_of_nodes_to_score = 100;  // 0: upstream's adaptive default
};

// A failing node and its reasons, in predicate order.
struct NodeFailure {
  NodeId node = kNoNode;
  std::vector<std::string> reasons;
  // The first predicate that rejected the node ("" for extender rejections).
  std::string predicate;
};

struct ScheduleResult {
  NodeId chosen = kNoNode;
  // Set when no node was chosen: upstream's FitError text, or another error
  // (missing PVC, extender failure, predicate error).
  std::string error;
  bool fit_error = false;
  std::vector<NodeId> feasible;       // in the order the filter found them
  std::vector<NodeFailure> failures;  // in the order the filter met them
  // Extender FailedNodes reasons for node names the cluster does not have,
  // by name in the order first met. Upstream's FitError counts them too.
  std::vector<std::pair<std::string, std::vector<std::string>>> unknown_node_failures;
  // v1.26: the plugins that rejected the pod in PreFilter or Filter (the
  // FitError's Diagnosis.UnschedulablePlugins), sorted; the queue moves the
  // pod on the events they registered for. Empty for v1.15.
  std::vector<std::string> unschedulable_plugins;
  // Filled only when at least two nodes were feasible (upstream skips
  // scoring otherwise). priority_scores[p][i] is priority p's (reduced,
  // unweighted) score for feasible[i]; totals[i] includes extender scores.
  bool scored = false;
  std::vector<std::vector<int64_t>> priority_scores;
  std::vector<int64_t> totals;
};

class GenericScheduler {
 public:
  GenericScheduler(SchedulerConfig config, TieBreak tie_break);
  ~GenericScheduler();

  const SchedulerConfig& config() const { return config_; }

  // Switches for the engine's two speed-ups, for tests that prove they do not
  // change any decision. Both are on by default.
  void set_equivalence_cache(bool on) { use_cache_ = on; }
  void set_parallel(bool on) { parallel_ = on; }
  // How many decisions came from a class's ScoreIndex (for tests).
  uint64_t index_decisions() const { return index_decisions_; }

  // Runs one scheduling cycle for `pod` against `cluster`. `tree` is the
  // NodeTree walk (its position persists between calls). With
  // `record_details` false only `chosen`, `error` and `fit_error` are
  // certain: the decision is the same, but the engine may take it from its
  // per-class score index without listing feasible nodes, failures or
  // scores (the benchmark uses this). `nominated`, when given, holds the
  // pods nominated to nodes (upstream's scheduling queue): a node leaves
  // room for those of priority >= the pod's.
  ScheduleResult Schedule(const Pod& pod, const ClusterState& cluster, NodeTree* tree,
                          bool record_details = true, const NominatedPods* nominated = nullptr);

  // Upstream's numFeasibleNodesToFind.
  static size_t NumFeasibleNodesToFind(size_t num_all_nodes, int percentage);

  // Upstream's FitError message for a list of failures (and extender reasons
  // for nodes outside the cluster).
  static std::string FitErrorMessage(
      size_t num_all_nodes, const std::vector<NodeFailure>& failures,
      const std::vector<std::pair<std::string, std::vector<std::string>>>& unknown_node_failures =
          {});

 private:
  SchedulerConfig config_;
  TieBreak tie_break_;
  uint64_t last_node_index_ = 0;
  // Per-node results of one equivalence class of pods, reused while the
  // nodes they were computed for are unchanged (see generic_scheduler.cc).
  struct ClassCache;
  // What one cycle computes once for its pod and shares between phases.
  struct Cycle;

  // ---- the phases of Schedule(), in order
  // findNodesThatFit: fills result->feasible and the cycle's failures. With
  // `record_details` false it may decide from a ScoreIndex instead
  // (result->chosen set, nothing listed).
  void FindNodesThatFit(Cycle* cycle, NodeTree* tree, bool record_details, ScheduleResult* result);
  // The extenders' Filter over the feasible nodes; false when an extender
  // failed the cycle (result->error set).
  bool ExtendersFilter(const Pod& pod, const ClusterState& cluster, ScheduleResult* result);
  // PrioritizeNodes: priority_scores and totals of the feasible nodes,
  // extenders' scores included.
  void PrioritizeNodes(Cycle* cycle, bool record_details, ScheduleResult* result);
  // selectHost: the node with the best total, ties broken by tie_break_.
  NodeId SelectHost(const ClusterState& cluster, const std::vector<NodeId>& nodes,
                    const std::vector<int64_t>& totals);

  // ---- the ways findNodesThatFit walks the nodes
  // With the class cache: cached verdicts for unchanged nodes.
  void FilterWithClassCache(Cycle* cycle, NodeTree* tree);
  // Every node from the current NodeTree position, in parallel.
  void FilterAllNodes(Cycle* cycle, NodeTree* tree);
  // Until percentageOfNodesToScore's quota of feasible nodes is found.
  void FilterUntilEnough(Cycle* cycle, NodeTree* tree, size_t to_find, ScheduleResult* result);
  // Brings the class cache up to date with the cluster's change log.
  void SyncClassCache(Cycle* cycle);
  // The decision from the class's ScoreIndex when one can be taken
  // (kNoNode otherwise): the shortcut of decisions without a report.
  NodeId DecideFromIndex(Cycle* cycle);
  // The cache entry for a class, or nullptr the first time a class is seen.
  ClassCache* FindClassCache(const std::string& key);
  // Upstream's priority metadata for `target`, into pstates_ (once a cycle).
  void PreparePriorities(const PodToSchedule& target, const ClusterState& cluster);
  // Fills the class's cached raw scores of node-local priorities for `n`.
  void EnsureMaps(ClassCache* cc, const PodToSchedule& target, const ClusterState& cluster,
                  NodeId n) const;
  // Whether a ScoreIndex can score this cycle (every priority sums or is
  // uniform); fills the index's terms.
  bool IndexCanScore(ClassCache* cc, const PodToSchedule& target, const ClusterState& cluster,
                     std::vector<ScoreIndex::Term>* terms, DomainWeights* domains);
  // The decision from the class's ScoreIndex, or kNoNode with fewer than two
  // feasible nodes (the caller then takes the full path). `suffix_fits`,
  // when set, is this cycle's verdict of the non-node-local predicates.
  NodeId ChooseFromIndex(ClassCache* cc, const PodToSchedule& target, const ClusterState& cluster,
                         std::vector<ScoreIndex::Term> terms, DomainWeights domains,
                         const std::vector<uint8_t>* suffix_fits);

  // Reused between cycles so the hot loop does not allocate.
  ReasonList reasons_;
  std::vector<NodeId> walk_;
  std::vector<uint8_t> node_fits_;
  std::vector<uint16_t> node_first_failed_;
  std::vector<std::vector<ReasonId>> node_reasons_;
  std::vector<uint8_t> suffix_fits_;
  std::vector<std::unique_ptr<PriorityState>> pstates_;
  const PodToSchedule* pstates_target_ = nullptr;    // whom pstates_ were prepared for
  std::vector<std::unique_ptr<ClassCache>> caches_;  // most recently used first
  std::vector<std::string> recent_keys_;             // classes seen once, no entry yet
  uint64_t cache_hits_ = 0;
  std::vector<StrId> label_keys_;  // WorkloadSelectorKeys() of cluster label_keys_for_
  uint64_t label_keys_for_ = 0;
  uint64_t index_decisions_ = 0;
  bool use_cache_ = true;
  bool parallel_ = true;
};

}  // namespace ksched
