// One scheduling cycle of kube-scheduler v1.26 (upstream's
// pkg/scheduler/schedule_one.go): the profile's framework for the pod,
// findNodesThatFitPod (PreFilter, the nominated node first, Filter with
// nominated pods from a rotating start, extenders), prioritizeNodes (PreScore,
// Score, extenders' Prioritize), selectHost; and, as the reference harness
// runs it, assume and Reserve on the chosen node.
//
// Everything the cycle decided is kept in a CycleResult for reports: the
// feasible nodes, every failing node's status (reasons and plugin), each
// score plugin's weighted score per node, the extenders' contribution, the
// totals and the nodes with the top total.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "algorithm/scheduler_extender.h"
#include "config/types.h"
#include "framework/runtime/framework.h"
#include "util/result.h"

namespace ksched::framework {

// How selectHost picks among the nodes with the top total.
enum class HostSelection : uint8_t {
  kSmallestName,  // the vectors' tie-break (refsched126's default)
  kReservoir,     // upstream's reservoir sampling (seeded here)
};

struct CycleResult {
  // The queue's PreEnqueue plugins held the pod (v1.35's vectors: its
  // rejection, with the plugin); no cycle ran.
  std::optional<Status> pre_enqueue;
  NodeId chosen = kNoNode;
  std::string error;               // "" when a node was chosen and reserved
  bool fit_error = false;          // `error` is a FitError (PostFilter may run)
  Framework* framework = nullptr;  // the pod's profile; nullptr when none
  size_t num_all_nodes = 0;

  // ---- findNodesThatFitPod
  std::vector<NodeId> feasible;  // in evaluation order
  // Upstream's Diagnosis: one status per failing node (reasons and the
  // plugin that rejected it), the PreFilter message, the plugins that
  // rejected nodes.
  NodeToStatusMap failures;
  // Extender failures for names the cluster does not have.
  std::vector<std::pair<std::string, Status>> unknown_failures;
  // v1.35's NodeToStatus.AbsentNodesStatus: the status of every node not
  // in `failures` (a PreFilter rejection's, or nodes a PreFilterResult left
  // out: "node(s) didn't satisfy plugin(s) [...]"); by default
  // UnschedulableAndUnresolvable without reasons. v1.26 has none.
  Status absent_status = Status(Code::kUnschedulableAndUnresolvable);
  std::string pre_filter_msg;
  // The merged PreFilterResult when a PreFilter plugin (NodeAffinity) named
  // the only nodes worth filtering; nullopt: every node.
  std::optional<std::vector<std::string>> pre_filter_node_names;
  std::vector<std::string> unschedulable_plugins;  // sorted, unique
  int evaluated_nodes = 0;

  // ---- prioritizeNodes (only when at least two nodes are feasible)
  bool scored = false;
  PluginScores plugin_scores;            // score plugin x feasible node, weighted
  std::vector<int64_t> extender_scores;  // per feasible node; empty without extenders
  std::vector<int64_t> totals;           // per feasible node
  std::vector<NodeId> max_nodes;         // top total, in name order

  // The cycle's state (PostFilter and the binding cycle continue from it).
  CycleState state;
  // The assumed pod when one was placed (ClusterState::Assume), else none.
  std::optional<PodId> assumed;
};

// Upstream's FitError.Error(): "0/N nodes are available: " then the
// PreFilter message, the reasons histogram ("<count> <reason>" sorted as
// strings, joined by ", ") and the PostFilter message, each as " <msg>.".
// v1.35: the histogram only without a PreFilter message, nodes not in
// `failures` counted with `absent`'s reasons, and no "." after the
// PostFilter message.
std::string FitErrorMessage(size_t num_all_nodes, const std::string& pre_filter_msg,
                            const NodeToStatusMap& failures,
                            const std::vector<std::pair<std::string, Status>>& unknown_failures,
                            const std::string& post_filter_msg = "",
                            config::SchedulerVersion version = config::SchedulerVersion::kV126,
                            const Status* absent = nullptr);
// FitErrorMessage of a cycle with PostFilter's message, as its framework's
// release words it.
std::string CycleFitError(const CycleResult& r, const std::string& post_filter_msg = "");

// The NodeToStatus a FitError hands to PostFilter. v1.35: every node of the
// cluster (`num_nodes` of them) with its status, the ones `failures` leaves
// out with the cycle's absent status (upstream's NodeToStatusReader.Get);
// v1.26: `failures` as they are.
NodeToStatusMap PostFilterStatuses(const CycleResult& r, size_t num_nodes);

struct SchedulerOptions {
  // The configuration's percentageOfNodesToScore; nullopt or 0: adaptive.
  std::optional<int32_t> percentage_of_nodes_to_score;
  HostSelection host_selection = HostSelection::kSmallestName;
  uint64_t seed = 1;  // kReservoir's generator
  // False: a cycle may leave out what only reports read: each score
  // plugin's weighted scores per node, all top nodes but the first by name,
  // and, when a node was chosen, the failing nodes' statuses and plugins
  // (Diagnosis). The decision, the error, the feasible nodes, the totals
  // and, on a FitError, the failures are the same either way.
  bool record_details = true;
  // Reuse node-local plugins' results between cycles (Framework::BeginCycle).
  // False: every plugin on every node, every cycle (tests compare the two).
  bool reuse_node_results = true;
};

class Scheduler {
 public:
  // Upstream's profile.NewMap over a decoded, defaulted and validated
  // configuration: one Framework per profile, errors in upstream's words.
  static Result<std::unique_ptr<Scheduler>> New(
      const config::KubeSchedulerConfiguration& cfg, const FrameworkOptions& framework_options,
      SchedulerOptions options, std::vector<std::unique_ptr<SchedulerExtender>> extenders = {});

  // frameworkForPod: the profile named by spec.schedulerName, or nullptr.
  Framework* FrameworkForPod(const Pod& pod) const;
  // The cluster events every profile's plugins registered for (one map for
  // all profiles, as upstream's queue keeps).
  ClusterEventMap ClusterEvents() const;
  // v1.35: each profile's QueueingHints, by profile name.
  QueueingHintMaps QueueingHints() const;
  const std::vector<std::unique_ptr<Framework>>& profiles() const { return profiles_; }

  // Sets the cluster every profile's Handle reads (the snapshot).
  void SetCluster(const ClusterState* cluster);
  void SetNominated(const NominatedPods* nominated);
  // Every profile's Handle::async_preemptions (v1.35 `ksched run`).
  void SetAsyncPreemptions(const AsyncPreemptions* preemptions);
  // Every profile's timings go to `recorder` (nullptr, the default: none).
  void SetMetricsRecorder(MetricsRecorder* recorder);
  // SchedulerOptions::record_details, for the cycles from now on.
  void SetRecordDetails(bool record) { options_.record_details = record; }

  // Upstream's schedulePod for `pod` with `fwk` against the cluster set
  // last: fills everything but `assumed`; `chosen` is set on success.
  void SchedulePod(Framework* fwk, const Pod& pod, CycleResult* result);

  // One attempt as the reference harness makes it: frameworkForPod,
  // SchedulePod, then assume `pod` on the chosen node in *cluster and run
  // Reserve (on failure Unreserve, the pod forgotten, the error reported).
  CycleResult ScheduleOne(const Pod& pod, ClusterState* cluster);
  // The same, but an assumed pod is moved into *cluster instead of copied
  // (`pod` is left as it was when none is): for a caller that is done with
  // the pod and reads it back as cluster->pod(*result.assumed).pod.
  CycleResult ScheduleOne(Pod&& pod, ClusterState* cluster);

  // Upstream's numFeasibleNodesToFind.
  int32_t NumFeasibleNodesToFind(std::optional<int32_t> profile_percentage,
                                 int32_t num_all_nodes) const;

 private:
  // ScheduleOne's body; the pod assumed is moved from *movable when given.
  CycleResult ScheduleOneImpl(const Pod& pod, Pod* movable, ClusterState* cluster);
  Scheduler() = default;
  const std::vector<NodeId>& NodeOrder();
  void FindNodesThatFitPod(Framework* fwk, const Pod& pod, CycleResult* r, std::string* error);
  // Filters `nodes` from the rotating start; false on an Error status.
  bool FindNodesThatPassFilters(Framework* fwk, const Pod& pod, const std::vector<NodeId>& nodes,
                                CycleResult* r, std::vector<NodeId>* feasible, std::string* error);
  // FindNodesThatPassFilters' lean walk decided from kept verdicts
  // (Framework::KeptVerdictsForCycle): of a walk of n nodes, ids[0..count)
  // in walk order, at walk positions positions[0..count) (nullptr: ids are
  // the whole walk, k at position k); every node not listed fails. Up to
  // to_find feasible nodes go onto *feasible, failures are counted.
  // kDeclined: a plugin that runs this cycle cannot answer by id; nothing
  // is recorded.
  enum class KeptWalk { kDone, kError, kDeclined };
  KeptWalk WalkKeptVerdicts(Framework* fwk, const Pod& pod, const Framework::KeptVerdicts& kv,
                            const NodeId* ids, const uint32_t* positions, size_t count, size_t n,
                            size_t to_find, CycleResult* r, std::vector<NodeId>* feasible);
  // WalkKeptVerdicts over the whole of node_order_ from `start`, when no
  // plugin runs beside the kept verdicts: they are read by position
  // (KeptVerdicts::fail_at_by_pos), and the nodes that fail are skipped
  // without reading their ids.
  KeptWalk WalkKeptInOrder(Framework* fwk, const Pod& pod, const Framework::KeptVerdicts& kv,
                           size_t start, size_t n, size_t to_find, CycleResult* r,
                           std::vector<NodeId>* feasible);
  // When the one plugin that runs beside the kept verdicts narrows the
  // nodes (BatchFilterCodes::CandidateNodes) to few: those and the nodes
  // without a kept verdict, in the order of the walk of node_order_ from
  // `start`, into candidates_ and candidate_pos_. False otherwise.
  bool CandidateWalk(Framework* fwk, const CycleResult& r, const Framework::KeptVerdicts& kv,
                     size_t start, size_t n, size_t to_find);
  // FindNodesThatPassFilters, timed as upstream's Filter extension point.
  bool FindNodesThatPassFiltersTimed(Framework* fwk, const Pod& pod,
                                     const std::vector<NodeId>& nodes, CycleResult* r,
                                     std::vector<NodeId>* feasible, std::string* error);
  bool FindNodesThatPassExtenders(const Pod& pod, std::vector<NodeId>* feasible, CycleResult* r,
                                  std::string* error);
  bool PrioritizeNodes(Framework* fwk, const Pod& pod, CycleResult* r, std::string* error);
  NodeId SelectHost(const CycleResult& r);
  // v1.35's pick with upstream's own tie-break: the top of its node-score
  // heap over the feasible list (HostSelection::kReservoir).
  NodeId HeapTop(const CycleResult& r);
  // Sorts distinct nodes of cluster_ by name.
  void SortByName(std::vector<NodeId>* nodes);
  // SchedulePod once; `lean`: failing nodes counted, not recorded, and a
  // FitError or an Error only flagged (lean_retry_).
  void SchedulePodOnce(Framework* fwk, const Pod& pod, CycleResult* r, bool lean);
  size_t NumFailedNodes(const CycleResult& r) const;
  void RecordFailure(CycleResult* r, NodeId node, Status status);

  std::vector<std::unique_ptr<Framework>> profiles_;
  std::unordered_map<std::string, Framework*> by_name_;
  std::vector<std::unique_ptr<SchedulerExtender>> extenders_;
  SchedulerOptions options_;
  const ClusterState* cluster_ = nullptr;
  uint64_t order_cluster_id_ = 0;
  size_t order_num_nodes_ = SIZE_MAX;
  std::vector<NodeId> node_order_;  // the snapshot's NodeInfos().List() order
  // node_order_ twice in a row: the walk from any start is contiguous.
  std::vector<NodeId> node_order_twice_;
  // node -> its position in node_order_; empty unless that lists every
  // node once.
  std::vector<uint32_t> node_pos_;
  std::vector<int32_t> failure_index_;  // node -> index in failures, -1 when none
  size_t next_start_node_index_ = 0;
  // Scratch kept from cycle to cycle: filter verdicts of a chunk and the
  // statuses of its failing nodes; node by name rank.
  std::vector<Status> filter_statuses_;
  std::vector<uint8_t> filter_passed_;
  std::vector<Code> filter_codes_;
  std::vector<NodeId> filter_walk_;
  // CandidateWalk's nodes, their walk positions, and a bit per position.
  std::vector<NodeId> candidates_;
  std::vector<uint32_t> candidate_pos_;
  std::vector<uint64_t> walk_marks_;
  // The cycle under way is lean (see SchedulePod); its failing nodes; it
  // must run again in full.
  bool lean_ = false;
  size_t lean_failed_nodes_ = 0;
  bool lean_retry_ = false;
  std::vector<NodeId> by_rank_;
  uint64_t by_rank_cluster_ = 0;
  std::vector<uint8_t> rank_marks_;
  std::mt19937_64 rng_;
};

}  // namespace ksched::framework
