// InterPodAffinity of kube-scheduler v1.26 (upstream's
// pkg/scheduler/framework/plugins/interpodaffinity): required pod affinity
// and anti-affinity as a filter (filtering.cc), preferred terms and existing
// pods' terms as a score (scoring.cc).
//
// What upstream recomputes every cycle from strings is kept here in forms
// that last: each existing pod's terms are parsed once (TermCache, by PodId
// and ClusterState id), topology values are numbered once per ClusterState
// (TopologyIndexes), and the per-cycle counts are flat arrays over those
// numbers, so Filter and Score read a few integers per node.
#pragma once

#include <memory>
#include <mutex>
#include <string_view>
#include <vector>

#include "framework/batch.h"
#include "framework/interface.h"
#include "framework/plugins/interpodaffinity/terms.h"
#include "framework/plugins/interpodaffinity/topology.h"

namespace ksched::framework::interpodaffinity {

// Reasons, upstream's exact strings.
inline constexpr const char* kErrReasonExistingAntiAffinityRulesNotMatch =
    "node(s) didn't satisfy existing pods anti-affinity rules";
inline constexpr const char* kErrReasonAffinityRulesNotMatch =
    "node(s) didn't match pod affinity rules";
inline constexpr const char* kErrReasonAntiAffinityRulesNotMatch =
    "node(s) didn't match pod anti-affinity rules";

// A per-cycle memo of which terms of a list match the incoming pod (or which
// of the incoming pod's terms match a pod), keyed by a small integer: a
// label set (ClusterState's PodInfo::label_set) or a TermCache group.
class MatchMemo {
 public:
  explicit MatchMemo(size_t num_keys) : offset_(num_keys, -1) {}
  // One byte per term, 1 where it matches; `compute(uint8_t* out)` fills the
  // `n` bytes the first time a key is asked for.
  template <typename F>
  const uint8_t* Get(size_t key, size_t n, F&& compute) {
    if (key >= offset_.size()) offset_.resize(key + 1, -1);
    if (offset_[key] < 0) {
      offset_[key] = static_cast<int64_t>(bytes_.size());
      bytes_.resize(bytes_.size() + n);
      compute(bytes_.data() + offset_[key]);
    }
    return bytes_.data() + offset_[key];
  }

 private:
  std::vector<int64_t> offset_;
  std::vector<uint8_t> bytes_;
};

class InterPodAffinity final : public PreFilterPlugin,
                               public PreFilterExtensions,
                               public FilterPlugin,
                               public PreScorePlugin,
                               public ScorePlugin,
                               public ScoreExtensions,
                               public EnqueueExtensions,
                               public BatchFilterCodes,
                               public BatchScores {
 public:
  InterPodAffinity(const config::InterPodAffinityArgs& args, Handle* handle)
      : args_(args),
        handle_(handle),
        v135_(handle->feature_gates().AtLeast(config::SchedulerVersion::kV135)) {}

  std::string_view Name() const override;
  std::vector<ClusterEvent> EventsToRegister() const override;
  std::vector<ClusterEventWithHint> EventsToRegisterWithHints() const override;  // plugin_hints.cc

  // filtering.cc
  Status PreFilter(CycleState* state, const Pod& pod, PreFilterResult* result) override;
  PreFilterExtensions* Extensions() override { return this; }
  Status AddPod(CycleState* state, const Pod& pod, const PodInfo& to_add,
                const NodeInfo& node) override;
  Status RemovePod(CycleState* state, const Pod& pod, const PodInfo& to_remove,
                   const NodeInfo& node) override;
  Status Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) const override;
  bool PassesEveryNode(const CycleState& state) const override;
  Code FilterCode(const CycleState& state, const Pod& pod, const NodeInfo& node) const override;
  std::optional<Code> FilterCodeOf(const CycleState& state, const Pod& pod,
                                   NodeId id) const override;
  bool FilterCodesOf(const CycleState& state, const Pod& pod, const NodeId* ids, size_t count,
                     Code* out) const override;
  bool CandidateNodes(const CycleState& state, std::vector<NodeId>* out) const override;

  // scoring.cc
  Status PreScore(CycleState* state, const Pod& pod, const std::vector<NodeId>& nodes) override;
  Status Score(const CycleState& state, const Pod& pod, const NodeInfo& node,
               int64_t* score) const override;
  bool ScoresZeroEverywhere(const CycleState& state) const override;
  std::optional<int64_t> ScoreOf(const CycleState& state, const Pod& pod, NodeId id) const override;
  bool ScoresOf(const CycleState& state, const Pod& pod, const NodeId* ids, size_t count,
                NodeScore* out) const override;
  bool ScoreNormalizeAndAdd(const CycleState& state, const Pod& pod, const NodeId* ids,
                            size_t count, int64_t weight, int64_t* totals,
                            bool* out_of_range) const override;
  const ScoreExtensions* ScoreExt() const override { return this; }
  Status NormalizeScore(const CycleState& state, const Pod& pod,
                        NodeScoreList* scores) const override;
  std::optional<int64_t> NormalizedZero(const CycleState& state, const Pod& pod) const override;

  // The incoming pod's terms, parsed, with the namespaces their non-empty
  // namespaceSelectors select merged into their namespace lists (upstream's
  // mergeAffinityTermNamespacesIfNotEmpty). v1.26 then drops the selector
  // (Nothing()); v1.35's function takes the term by value, so the names
  // reach the shared set but the selector stays: `keep_selector`. A kept
  // selector is matched against no labels (the incoming pod's terms are
  // matched with nil namespace labels), so one that an empty label set
  // satisfies (only NotIn / DoesNotExist) lets every namespace through.
  // Exposed for tests.
  static void MergeNamespaces(const ClusterState& cluster, std::vector<AffinityTerm>* terms,
                              bool keep_selector);

 private:
  // The incoming pod's terms as this cycle's PreFilter parsed and merged
  // them (all four lists); nullptr when PreFilter did not run.
  static std::shared_ptr<const PodTerms> ParsedTerms(const CycleState& cycle);
  // MergeNamespaces on the lists of `terms` (`preferred_only`: the two
  // preferred ones, as PreScore merges), as this plugin's release does.
  void MergeAll(const ClusterState& cluster, PodTerms* terms, bool preferred_only = false) const;
  Status UpdateWithPod(CycleState* state, const Pod& pod, const PodInfo& info, const NodeInfo& node,
                       int64_t multiplier);

  // ---- sums over the placed pods, kept between cycles (kept.cc)
  //
  // Every cycle PreFilter and PreScore walk the placed pods: those with
  // terms of their own (existing anti-affinity, and the existing pods' terms
  // that score), and, when the incoming pod has terms, all of them. Only the
  // pods placed or removed since the last cycle changed
  // (ClusterState::pod_log), so with Handle::reuse_between_cycles the counts
  // per topology domain are kept and brought up to date instead.

  // Per term of a list: placed pods per domain of the term's topology key.
  struct TermSums {
    std::vector<std::shared_ptr<const TopologyIndex>> index;
    // Shared with the PreFilter states that read them (TopologyCounts::
    // AddAll): copied before a write while one still holds them.
    std::vector<std::shared_ptr<DomainCounts>> counts;
    void Init(InterPodAffinity* self, const ClusterState& cluster,
              const std::vector<AffinityTerm>& terms);
    void Add(size_t term, NodeId node, int64_t delta) {
      const uint32_t d = index[term]->DomainOfId(node);
      std::shared_ptr<DomainCounts>& c = counts[term];
      if (d >= c->counts.size()) return;
      if (c.use_count() > 1) c = std::make_shared<DomainCounts>(*c);
      c->Add(d, delta);
    }
  };
  // The placed pods of one TermCache group, by each of its terms.
  struct GroupSums {
    bool ready = false;
    int64_t pods = 0;
    TermSums required_affinity, required_anti_affinity, preferred_affinity, preferred_anti_affinity;
  };
  // The placed pods that the terms of one kind of incoming pod (a TermCache
  // group, namespaces merged) match: for each required affinity term the
  // pods matching all of them, for each other term the pods it matches.
  struct OwnSums {
    uint32_t group = 0;
    uint64_t synced = 0;
    uint64_t last_used = 0;
    PodTerms terms;  // merged
    TermSums all_affinity, anti_affinity, preferred_affinity, preferred_anti_affinity;
    // Per label set of a pod: 1 + one byte per anti, preferred and
    // preferred anti term (0 unknown, 1 no, 2 yes), as PreFilter's memo.
    std::vector<std::vector<uint8_t>> memo;
  };
  // Resets the sums when the cluster is another one; brings every group's
  // sums up to date. Under mu_.
  void SyncGroups(const ClusterState& cluster);
  // The sums for the incoming pod's terms, built or brought up to date.
  OwnSums& OwnSumsFor(const ClusterState& cluster, const Pod& pod);
  void ApplyToOwn(OwnSums* own, const PodInfo& info, NodeId node, int64_t delta);

  uint64_t kept_cluster_id_ = ~uint64_t{0};
  size_t kept_num_nodes_ = 0;
  uint64_t groups_synced_ = 0;
  uint64_t own_tick_ = 0;
  std::vector<GroupSums> group_sums_;    // by TermCache group
  std::vector<uint32_t> placed_groups_;  // groups that ever had a placed pod
  std::vector<std::unique_ptr<OwnSums>> own_sums_;

  config::InterPodAffinityArgs args_;
  Handle* handle_;
  // The v1.35 plugin: PreFilter and PreScore Skip, the namespaceSelector
  // kept after merging (MergeNamespaces), ignorePreferredTermsOfExistingPods.
  bool v135_;
  // Guards cache_: PreFilter and PreScore fill it; nothing else reads it.
  std::mutex mu_;
  TermCache cache_;
  TopologyIndexes indexes_;
};

// GetNamespaceLabelsSnapshot: the labels of namespace `ns` (empty when no
// such namespace exists).
const Labels& NamespaceLabelsOf(const ClusterState& cluster, StrId ns);

}  // namespace ksched::framework::interpodaffinity
