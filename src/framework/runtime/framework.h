// The scheduling framework of one profile (upstream's
// pkg/scheduler/framework/runtime/framework.go): builds the profile's plugins
// from the registry and runs them extension point by extension point.
//
// A Framework is also the profile's Handle: plugins read the cluster of the
// current cycle, the nominated pods and the feature gates through it. The
// engine sets the cluster between cycles (SetCluster), never during one.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config/types.h"
#include "framework/batch.h"
#include "framework/interface.h"
#include "framework/registry.h"
#include "util/result.h"

namespace ksched::framework {

class MetricsRecorder;

// Upstream's extension point names, in getExtensionPoints' order.
enum class ExtensionPoint : uint8_t {
  kPreFilter,
  kFilter,
  kPostFilter,
  kReserve,
  kPreScore,
  kScore,
  kPreBind,
  kBind,
  kPostBind,
  kPermit,
  kPreEnqueue,
  kQueueSort,
};
inline constexpr size_t kNumExtensionPoints = 12;

struct FrameworkOptions {
  config::FeatureGates feature_gates;
  int parallelism = 16;
  // nullptr: the in-tree registry (framework/registry.h).
  const std::vector<RegistryEntry>* registry = nullptr;
  const NominatedPods* nominated = nullptr;
  Binder* binder = nullptr;
  PreemptionActions* preemption = nullptr;
  // The scheduler's extenders (owned by it; may be null).
  const std::vector<std::unique_ptr<SchedulerExtender>>* extenders = nullptr;
  // Handle::reuse_between_cycles.
  bool reuse_between_cycles = true;
};

// Weighted scores of one RunScorePlugins call: for score plugin p (in the
// profile's order) and the i-th node given, weighted[p * num_nodes + i] is
// its normalized score times the plugin's weight; total[i] their sum.
struct PluginScores {
  size_t num_nodes = 0;
  std::vector<int64_t> weighted;
  std::vector<int64_t> total;
  // Per score plugin: 1 when its PreScore returned Skip this cycle (v1.35):
  // it did not score, its column is 0 and a report does not list it.
  std::vector<uint8_t> skipped;
  int64_t At(size_t plugin, size_t node) const { return weighted[plugin * num_nodes + node]; }
};

class Framework final : public Handle {
 public:
  // Upstream's NewFramework for a defaulted profile: one plugin instance per
  // name (args from the profile's pluginConfig), the extension points filled
  // from their own sets and then from MultiPoint, score weights checked.
  // Errors are upstream's words (e.g. `FilterPlugin "X" does not exist`).
  static Result<std::unique_ptr<Framework>> New(const config::Profile& profile,
                                                FrameworkOptions options);

  Framework(const Framework&) = delete;
  Framework& operator=(const Framework&) = delete;
  ~Framework() override;

  // ---- Handle
  const ClusterState& cluster() const override { return *cluster_; }
  bool has_cluster() const override { return cluster_ != nullptr; }
  const NominatedPods* nominated() const override { return options_.nominated; }
  const config::FeatureGates& feature_gates() const override { return options_.feature_gates; }
  int parallelism() const override { return options_.parallelism; }
  Status RunFilterPluginsWithNominatedPods(const CycleState& state, const Pod& pod,
                                           const NodeInfo& node) const override;
  Status RunPreFilterExtensionAddPod(CycleState* state, const Pod& pod, const PodInfo& to_add,
                                     const NodeInfo& node) const override;
  Status RunPreFilterExtensionRemovePod(CycleState* state, const Pod& pod, const PodInfo& to_remove,
                                        const NodeInfo& node) const override;
  bool reuse_between_cycles() const override { return options_.reuse_between_cycles; }
  Binder* binder() const override { return options_.binder; }
  PreemptionActions* preemption() const override { return options_.preemption; }
  const std::vector<std::unique_ptr<SchedulerExtender>>& extenders() const override {
    return options_.extenders != nullptr ? *options_.extenders : Handle::extenders();
  }
  const AsyncPreemptions* async_preemptions() const override { return async_preemptions_; }

  // ---- engine side
  void SetCluster(const ClusterState* cluster) { cluster_ = cluster; }
  // Where extension points and sampled plugins are timed (`ksched run`);
  // nullptr, the default, times nothing. Set between cycles.
  void SetMetricsRecorder(MetricsRecorder* recorder) { metrics_ = recorder; }
  MetricsRecorder* metrics_recorder() const { return metrics_; }
  // Whether the cycle about to run times each plugin (upstream's
  // CycleState.recordPluginMetrics); only with a recorder.
  void SetSamplePlugins(bool sample) { sample_plugins_ = sample && metrics_ != nullptr; }
  void SetNominated(const NominatedPods* nominated) { options_.nominated = nominated; }
  void SetAsyncPreemptions(const AsyncPreemptions* p) { async_preemptions_ = p; }
  const std::string& profile_name() const { return profile_name_; }
  std::optional<int32_t> percentage_of_nodes_to_score() const { return percentage_; }
  // The args the profile's pluginConfig gives `plugin` (defaulted), or
  // nullptr; for reports that explain a plugin's verdict.
  const config::PluginArgs* PluginArgsFor(std::string_view plugin) const {
    for (const auto& pc : plugin_config_)
      if (pc.name == plugin) return &pc.args;
    return nullptr;
  }

  bool HasFilterPlugins() const { return !filter_.empty(); }
  bool HasPostFilterPlugins() const { return !post_filter_.empty(); }
  bool HasScorePlugins() const { return !score_.empty(); }
  // Plugin names per extension point, in run order (upstream's ListPlugins).
  std::vector<std::string> PluginNames(ExtensionPoint point) const;
  // Registers every plugin of the profile for the cluster events it asked
  // for (EnqueueExtensions), or for AllClusterEvents() when it did not say.
  void RegisterClusterEvents(ClusterEventMap* map) const;
  // v1.35 (buildQueueingHintMap over the profile's EnqueueExtensions): each
  // PreEnqueue, PreFilter, Filter, Reserve and Permit plugin registered with
  // its hints (EventsToRegisterWithHints), or for every resource with no
  // hint when it does not say; with extenders, "Extender" for every resource.
  void RegisterQueueingHints(QueueingHintMap* map, bool has_extenders) const;
  // The score plugins' names and weights, in run order.
  const std::vector<int64_t>& score_weights() const { return score_weights_; }
  std::string_view ScorePluginName(size_t i) const { return score_[i]->Name(); }
  size_t num_score_plugins() const { return score_.size(); }
  // The PreBind plugins in order (`ksched run` plans their work, prebind.h).
  const std::vector<PreBindPlugin*>& pre_bind_plugins() const { return pre_bind_; }

  // ---- extension points
  // Upstream's QueueSortFunc (the one queue sort plugin's Less).
  bool QueueSortLess(const QueuedPodInfo& a, const QueuedPodInfo& b) const;
  // Every PreEnqueue plugin; the first rejection, with its plugin.
  Status RunPreEnqueuePlugins(const Pod& pod) const;
  // PreFilter plugins in order; an unschedulable status stops the cycle as
  // it is (failed plugin set), any other failure becomes an Error. The
  // merged PreFilterResult is written to *result, and the plugins whose
  // results narrowed the nodes (sorted) to *plugins_with_nodes (may be
  // null). v1.35: a plugin that returns Skip is noted in *state (its Filter
  // and extensions do not run); an Unschedulable status lets the others run
  // and the last such status is returned; nodes a merged result leaves out
  // are UnschedulableAndUnresolvable.
  Status RunPreFilterPlugins(CycleState* state, const Pod& pod, PreFilterResult* result,
                             std::vector<std::string>* plugins_with_nodes = nullptr) const;
  // Filter plugins in order, stopping at the first one that fails (upstream
  // from v1.26.1 on); the status names the plugin.
  Status RunFilterPlugins(const CycleState& state, const Pod& pod, const NodeInfo& node) const;
  // PostFilter plugins until one succeeds or errors.
  Status RunPostFilterPlugins(CycleState* state, const Pod& pod,
                              const NodeToStatusMap& filtered_node_status,
                              PostFilterResult* result) const;
  Status RunPreScorePlugins(CycleState* state, const Pod& pod,
                            const std::vector<NodeId>& nodes) const;
  // Score, NormalizeScore, range check, weights. With `use_node_cache`, the
  // node-local plugins' scores come from the cycle's class (BeginCycle)
  // where the node is unchanged.
  // Without `want_weighted`, out->weighted stays empty (only the totals).
  Status RunScorePlugins(const CycleState& state, const Pod& pod, const std::vector<NodeId>& nodes,
                         PluginScores* out, bool use_node_cache = false,
                         bool want_weighted = true) const;

  // ---- results kept between cycles
  // The engine's cycles reuse the results of node-local plugins
  // (Plugin::NodeLocalFor) on nodes that did not change since they were
  // computed for a pod of the same namespace and spec (a "class"; the last
  // kMaxNodeCacheClasses classes are kept). BeginCycle picks `pod`'s class
  // for the cycle about to run against cluster(); EndCycle drops the
  // choice. Every result is the one the plugins would return: the cache
  // changes how often they run, never what a cycle decides or reports.
  static constexpr size_t kMaxNodeCacheClasses = 16;
  void BeginCycle(const Pod& pod);
  void EndCycle() { cycle_class_ = nullptr; }
  // After PreFilter: which of the other filter plugins run this cycle (not
  // those that pass every node, FilterPlugin::PassesEveryNode).
  void PlanCachedFilters(const CycleState& state);
  // RunFilterPluginsWithNominatedPods for node `id` of cluster(), with the
  // node-local plugins' verdicts reused when the node is unchanged (nodes
  // with nominated pods run every plugin). Touches the node only when a
  // plugin has to run. True on Success; otherwise the status is written to
  // *failure.
  bool RunFilterPluginsCached(const CycleState& state, const Pod& pod, NodeId id,
                              Status* failure) const;
  // Its code alone (FilterPlugin::FilterCode: no reasons written).
  Code FilterCodeCached(const CycleState& state, const Pod& pod, NodeId id) const;
  // FilterCodeCached for ids[0..count), into out[0..count).
  void FilterCodesCached(const CycleState& state, const Pod& pod, const NodeId* ids, size_t count,
                         Code* out) const;
  // The class's kept verdicts by node id, when this cycle's verdict on a
  // node with one is that verdict and the codes of the few other filter
  // plugins that run this cycle (no nominated pods; each of those plugins
  // answers a batch of nodes, RunNowFilterCodes): kept[id] != 0 means the
  // node's kept failure is at filter plugin fail_at[id] (a rejection, never
  // an Error; -1: none), and the node's code is that of the first plugin
  // run_now[j] < fail_at[id] that does not pass, else the kept one. Other
  // nodes, where fail_at[id] is kNotKept (one read tells both), need
  // FilterCodeCached. nullopt otherwise, or when more than
  // `max_unkept` nodes lack a kept verdict (their first looks are better
  // spread over the filter threads).
  static constexpr size_t kMaxRunNow = 4;
  struct KeptVerdicts {
    static constexpr int16_t kNotKept = -2;
    const uint8_t* kept;
    const int16_t* fail_at;
    const uint32_t* run_now;  // ascending filter plugin indexes
    size_t num_run_now;       // at most kMaxRunNow
    // fail_at by position in the walk order of SetWalkPositions, so that a
    // walk reads it in order; nullptr when no order is set.
    const int16_t* fail_at_by_pos;
  };
  std::optional<KeptVerdicts> KeptVerdictsForCycle(size_t max_unkept) const;
  // The order the caller walks the nodes in, as each node's position
  // (node_pos[id]); it outlives its use here, and a new call replaces it.
  // Kept verdicts are then kept by position too (KeptVerdicts::
  // fail_at_by_pos). nullptr, or a size other than the cluster's: not kept so.
  void SetWalkPositions(const std::vector<uint32_t>* node_pos);
  // The codes of plugin run_now[j] of KeptVerdictsForCycle on ids[0..count)
  // (FilterCode's, no reasons), into out[0..count). False when the plugin
  // cannot answer them all by id; out is then in any state.
  bool RunNowFilterCodes(size_t j, const CycleState& state, const Pod& pod, const NodeId* ids,
                         size_t count, Code* out) const;
  // The nodes that may pass plugin run_now[j] of KeptVerdictsForCycle
  // (BatchFilterCodes::CandidateNodes), into *out; false when it cannot say.
  bool RunNowCandidates(size_t j, const CycleState& state, std::vector<NodeId>* out) const;
  Status RunReservePluginsReserve(CycleState* state, const Pod& pod, NodeId node) const;
  void RunReservePluginsUnreserve(CycleState* state, const Pod& pod, NodeId node) const;
  // Success, a rejection, an Error, or Wait with *timeout_ns the longest
  // wait asked for (capped at upstream's 15 minutes).
  Status RunPermitPlugins(CycleState* state, const Pod& pod, NodeId node,
                          int64_t* timeout_ns) const;
  Status RunPreBindPlugins(CycleState* state, const Pod& pod, NodeId node) const;
  // The PreBind of the ClusterWritingPlugins among the PreBind plugins, in
  // order, their writes made to *cluster (the snapshot front ends' binding
  // cycle); an error as RunPreBindPlugins words it.
  Status RunClusterPreBind(CycleState* state, const Pod& pod, NodeId node,
                           ClusterState* cluster) const;
  // After RunPostFilterPlugins: the PostFilter plugins' writes, to *cluster.
  void ApplyPostFilterWrites(CycleState* state, const Pod& pod, ClusterState* cluster) const;
  Status RunBindPlugins(CycleState* state, const Pod& pod, NodeId node) const;
  void RunPostBindPlugins(CycleState* state, const Pod& pod, NodeId node) const;

 private:
  explicit Framework(FrameworkOptions options);
  // The recorder of this cycle's plugin timings, or nullptr when the cycle
  // is not sampled.
  MetricsRecorder* plugin_recorder() const { return sample_plugins_ ? metrics_ : nullptr; }
  // The extension points' plugins, untimed (their Run* time them).
  Status RunPreFilterPluginsUntimed(CycleState* state, const Pod& pod, PreFilterResult* result,
                                    std::vector<std::string>* plugins_with_nodes) const;
  Status RunPostFilterPluginsUntimed(CycleState* state, const Pod& pod,
                                     const NodeToStatusMap& filtered_node_status,
                                     PostFilterResult* result) const;
  Status RunScorePluginsUntimed(const CycleState& state, const Pod& pod,
                                const std::vector<NodeId>& nodes, PluginScores* out,
                                bool use_node_cache, bool want_weighted) const;
  Status RunPermitPluginsUntimed(CycleState* state, const Pod& pod, NodeId node,
                                 int64_t* timeout_ns) const;
  Status RunBindPluginsUntimed(CycleState* state, const Pod& pod, NodeId node) const;
  Status AddNominatedPods(const Pod& pod, const CycleState& state, const NodeInfo& node,
                          bool* added, CycleState* state_out, NodeInfo* node_out) const;

  struct NodeCacheClass;
  // The filter result of one plugin, as RunFilterPlugins returns it.
  Status WrapFilterStatus(const FilterPlugin* pl, Status s) const;
  bool HasNominatedPodsOn(const NodeInfo& node) const;
  // Sets class c's kept failure on node `id` (KeptVerdicts::fail_at) in
  // both layouts.
  void SetFailAt(NodeCacheClass* c, NodeId id, int16_t fail_at) const;
  // Makes classes `a` and `b` each other's siblings (NodeCacheClass::
  // Sibling) when their specs differ only in PodAspects.
  void AddSiblings(NodeCacheClass* a, NodeCacheClass* b) const;
  // Runs the class's node-local filter plugins on `node` (of cluster()) and
  // keeps their verdict; false, with nothing kept, when one returns an Error.
  // Without `with_status` only the failing plugin and code are kept
  // (FilterPlugin::FilterCode), and KeptFailure writes the reasons later.
  // Each verdict kept adds 1 to *newly_kept; the caller takes the sum off
  // the class's `unkept` at once (an atomic write per node would wait for
  // the node's cold stores to drain).
  bool KeepNodeLocalVerdict(NodeCacheClass* c, const CycleState& state, const Pod& pod,
                            const NodeInfo& node, bool with_status, int64_t* newly_kept) const;
  // FilterCodeCached, counting the verdicts it keeps into *newly_kept.
  Code FilterCodeCounting(const CycleState& state, const Pod& pod, NodeId id,
                          int64_t* newly_kept) const;
  // The kept failure of `node` as RunFilterPlugins returns it, into
  // *failure; false when its plugin no longer answers the kept code.
  bool KeptFailure(NodeCacheClass* c, const CycleState& state, const Pod& pod, const NodeInfo& node,
                   Status* failure) const;
  // Asks the memory system for node `id`'s NodeInfo and Node (of
  // cluster()) ahead of a first look.
  void PrefetchNode(NodeId id) const;
  // Asks for what node `id`'s taints and labels point to, and with `images`
  // its NodeInfo's images (read by scores only); its Node and NodeInfo
  // should be in cache (asked for a little earlier), or this waits for them.
  void PrefetchNodeVectors(NodeId id, bool images) const;
  // Asks for the lines of class `c` that scoring node `id` writes.
  static void PrefetchKeptScores(const NodeCacheClass& c, NodeId id);
  // Marks the nodes changed since the class last looked as not kept.
  void SyncNodeCache(NodeCacheClass* c) const;
  // This cycle's skipped filter (score) plugins as bits by index in filter_
  // (score_); 0 when none.
  uint64_t SkippedFilters(const CycleState& state) const;
  uint64_t SkippedScores(const CycleState& state) const;
  // PluginScores::skipped of this cycle into *out.
  void SetSkipped(const CycleState& state, PluginScores* out) const;
  // Per score plugin, its listing: the first plugin of the same name (a
  // plugin listed twice scores once, as upstream's map by name does).
  std::vector<size_t> ComputeScoreSlots() const;
  // NormalizeScore of each listing, the range check and the weighted sums.
  Status NormalizeAndWeigh(const CycleState& state, const Pod& pod, const std::vector<size_t>& slot,
                           std::vector<NodeScoreList>* raw, size_t n, PluginScores* out,
                           bool want_weighted) const;
  // RunScorePlugins with the cycle's class: kept scores for node-local
  // plugins, nothing asked of plugins that score 0 everywhere. On a plugin
  // failure *fell_back is set and nothing is written.
  Status RunScorePluginsReusing(const CycleState& state, const Pod& pod,
                                const std::vector<NodeId>& nodes, PluginScores* out,
                                bool want_weighted, bool* fell_back) const;

  FrameworkOptions options_;
  const ClusterState* cluster_ = nullptr;
  MetricsRecorder* metrics_ = nullptr;
  bool sample_plugins_ = false;
  // The classes of the node cache, for the ClusterState with id
  // cache_cluster_id_ and cache_num_nodes_ nodes; the cycle's class.
  std::vector<std::unique_ptr<NodeCacheClass>> node_cache_;
  // SetWalkPositions' order, and a count of its calls: a class whose
  // fail_at_by_pos was laid out for an older one lays it out again.
  const std::vector<uint32_t>* walk_pos_ = nullptr;
  uint64_t walk_pos_epoch_ = 0;
  uint64_t cache_cluster_id_ = ~uint64_t{0};
  size_t cache_num_nodes_ = 0;
  uint64_t cache_tick_ = 0;
  NodeCacheClass* cycle_class_ = nullptr;
  // Score lists reused from cycle to cycle (one cycle runs at a time).
  mutable std::vector<NodeScoreList> score_scratch_;
  mutable std::vector<NodeId> stale_scratch_;  // nodes without kept scores
  // WrapFilterStatus's last wrapped statuses (round robin).
  struct WrappedStatus {
    const FilterPlugin* plugin;
    Status input;
    Status wrapped;
  };
  static constexpr size_t kWrappedStatuses = 16;
  mutable std::mutex wrapped_mu_;
  mutable std::vector<WrappedStatus> wrapped_;
  mutable size_t wrapped_next_ = 0;
  mutable std::vector<uint8_t> column_use_scratch_;  // RunScorePluginsReusing's column_use
  std::string profile_name_;
  std::optional<int32_t> percentage_;
  std::vector<config::PluginConfig> plugin_config_;
  std::vector<std::unique_ptr<Plugin>> plugins_;  // owns every instance
  const AsyncPreemptions* async_preemptions_ = nullptr;

  std::vector<PreEnqueuePlugin*> pre_enqueue_;
  std::vector<QueueSortPlugin*> queue_sort_;
  std::vector<PreFilterPlugin*> pre_filter_;
  std::vector<FilterPlugin*> filter_;
  std::vector<PostFilterPlugin*> post_filter_;
  std::vector<PreScorePlugin*> pre_score_;
  std::vector<ScorePlugin*> score_;
  std::vector<int64_t> score_weights_;  // parallel to score_
  // The optional batch forms (framework/batch.h) of each filter and score
  // plugin, found once when the profile is built; nullptr: none.
  std::vector<const BatchFilterCodes*> batch_filter_;      // parallel to filter_
  std::vector<size_t> score_slots_;                        // ComputeScoreSlots, parallel to score_
  std::vector<const BatchScores*> batch_scores_;           // parallel to score_
  std::vector<const BatchNormalizeAdd*> batch_normalize_;  // parallel to score_
  std::vector<ReservePlugin*> reserve_;
  std::vector<PermitPlugin*> permit_;
  std::vector<PreBindPlugin*> pre_bind_;
  std::vector<BindPlugin*> bind_;
  std::vector<PostBindPlugin*> post_bind_;

  friend class FrameworkBuilder;
};

}  // namespace ksched::framework
