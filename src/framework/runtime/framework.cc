#include "framework/runtime/framework.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "api/priority_admission.h"
#include "cache/nominated_pods.h"
#include "framework/batch.h"
#include "framework/runtime/metrics_recorder.h"
#include "framework/runtime/parallelize.h"

namespace ksched::framework {

PreFilterResult PreFilterResult::Merge(const PreFilterResult& other) const {
  if (AllNodes()) return other;
  if (other.AllNodes()) return *this;
  PreFilterResult out;
  out.node_names.emplace();
  std::set_intersection(node_names->begin(), node_names->end(), other.node_names->begin(),
                        other.node_names->end(), std::back_inserter(*out.node_names));
  return out;
}

namespace {

constexpr int64_t kMaxPermitTimeoutNs = int64_t{15} * 60 * 1'000'000'000;

namespace ep = extension_points;

double SecondsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
Code CodeOf(const Status& s) { return s.code(); }
Code CodeOf(Code c) { return c; }

// Runs one extension point's plugins, timed when there is a recorder.
template <typename F>
Status TimePoint(MetricsRecorder* m, std::string_view point, const std::string& profile, F&& run) {
  if (m == nullptr) return run();
  const auto t0 = std::chrono::steady_clock::now();
  Status s = run();
  m->ExtensionPoint(point, s.code(), profile, SecondsSince(t0));
  return s;
}

// Runs plugin `pl`, timed when `m` is set (a sampled cycle): otherwise no
// clock is read and not even its name is asked for.
template <typename F>
auto TimePlugin(MetricsRecorder* m, const Plugin* pl, std::string_view point, F&& run) {
  if (m == nullptr) return run();
  const auto t0 = std::chrono::steady_clock::now();
  auto out = run();
  m->Plugin(pl->Name(), point, CodeOf(out), SecondsSince(t0));
  return out;
}

constexpr ExtensionPoint kPoints[kNumExtensionPoints] = {
    ExtensionPoint::kPreFilter, ExtensionPoint::kFilter,     ExtensionPoint::kPostFilter,
    ExtensionPoint::kReserve,   ExtensionPoint::kPreScore,   ExtensionPoint::kScore,
    ExtensionPoint::kPreBind,   ExtensionPoint::kBind,       ExtensionPoint::kPostBind,
    ExtensionPoint::kPermit,    ExtensionPoint::kPreEnqueue, ExtensionPoint::kQueueSort,
};

// The Go interface name upstream's messages print for each point.
const char* TypeName(ExtensionPoint p) {
  switch (p) {
    case ExtensionPoint::kPreFilter:
      return "PreFilterPlugin";
    case ExtensionPoint::kFilter:
      return "FilterPlugin";
    case ExtensionPoint::kPostFilter:
      return "PostFilterPlugin";
    case ExtensionPoint::kReserve:
      return "ReservePlugin";
    case ExtensionPoint::kPreScore:
      return "PreScorePlugin";
    case ExtensionPoint::kScore:
      return "ScorePlugin";
    case ExtensionPoint::kPreBind:
      return "PreBindPlugin";
    case ExtensionPoint::kBind:
      return "BindPlugin";
    case ExtensionPoint::kPostBind:
      return "PostBindPlugin";
    case ExtensionPoint::kPermit:
      return "PermitPlugin";
    case ExtensionPoint::kPreEnqueue:
      return "PreEnqueuePlugin";
    case ExtensionPoint::kQueueSort:
      return "QueueSortPlugin";
  }
  return "";
}

const config::PluginSet& SetOf(const config::Plugins& p, ExtensionPoint point) {
  switch (point) {
    case ExtensionPoint::kPreFilter:
      return p.pre_filter;
    case ExtensionPoint::kFilter:
      return p.filter;
    case ExtensionPoint::kPostFilter:
      return p.post_filter;
    case ExtensionPoint::kReserve:
      return p.reserve;
    case ExtensionPoint::kPreScore:
      return p.pre_score;
    case ExtensionPoint::kScore:
      return p.score;
    case ExtensionPoint::kPreBind:
      return p.pre_bind;
    case ExtensionPoint::kBind:
      return p.bind;
    case ExtensionPoint::kPostBind:
      return p.post_bind;
    case ExtensionPoint::kPermit:
      return p.permit;
    case ExtensionPoint::kPreEnqueue:
      return p.pre_enqueue;
    case ExtensionPoint::kQueueSort:
      return p.queue_sort;
  }
  return p.filter;
}

bool Implements(Plugin* pl, ExtensionPoint point) {
  switch (point) {
    case ExtensionPoint::kPreFilter:
      return dynamic_cast<PreFilterPlugin*>(pl) != nullptr && pl->ExtendsPreFilter();
    case ExtensionPoint::kFilter:
      return dynamic_cast<FilterPlugin*>(pl) != nullptr;
    case ExtensionPoint::kPostFilter:
      return dynamic_cast<PostFilterPlugin*>(pl) != nullptr;
    case ExtensionPoint::kReserve:
      return dynamic_cast<ReservePlugin*>(pl) != nullptr;
    case ExtensionPoint::kPreScore:
      return dynamic_cast<PreScorePlugin*>(pl) != nullptr && pl->ExtendsPreScore();
    case ExtensionPoint::kScore:
      return dynamic_cast<ScorePlugin*>(pl) != nullptr;
    case ExtensionPoint::kPreBind:
      return dynamic_cast<PreBindPlugin*>(pl) != nullptr;
    case ExtensionPoint::kBind:
      return dynamic_cast<BindPlugin*>(pl) != nullptr;
    case ExtensionPoint::kPostBind:
      return dynamic_cast<PostBindPlugin*>(pl) != nullptr;
    case ExtensionPoint::kPermit:
      return dynamic_cast<PermitPlugin*>(pl) != nullptr;
    case ExtensionPoint::kPreEnqueue:
      return dynamic_cast<PreEnqueuePlugin*>(pl) != nullptr;
    case ExtensionPoint::kQueueSort:
      return dynamic_cast<QueueSortPlugin*>(pl) != nullptr;
  }
  return false;
}

std::string Quote(std::string_view s) { return "\"" + std::string(s) + "\""; }

// Upstream's orderedSet, including how its delete behaves while the caller
// ranges over the list: Go's range reads the original backing array, which
// the in-place delete shifts, so a plugin can be visited twice or skipped.
// v1.26's expandMultiPointPlugins reordering depends on that; it is kept as
// is (v1.35 ranges over a copy).
class OrderedSet {
 public:
  void Insert(const std::string& s) {
    if (Has(s)) return;
    index_[s] = len_;
    if (len_ < array_.size()) {
      array_[len_] = s;
    } else {
      array_.push_back(s);
    }
    ++len_;
  }
  bool Has(const std::string& s) const { return index_.count(s) > 0; }
  void Delete(const std::string& s) {
    auto it = index_.find(s);
    if (it == index_.end()) return;
    size_t i = it->second;
    index_.erase(it);
    size_t dst = i - deleted_, src = i + 1 - deleted_;
    if (src > len_ || dst > len_) return;  // Go would panic; never reached in-order
    std::copy(array_.begin() + static_cast<std::ptrdiff_t>(src),
              array_.begin() + static_cast<std::ptrdiff_t>(len_),
              array_.begin() + static_cast<std::ptrdiff_t>(dst));
    --len_;
    ++deleted_;
  }
  // The slice as it stands (a copy of the header: length now).
  size_t size() const { return len_; }
  const std::string& At(size_t k) const { return array_[k]; }

 private:
  std::vector<std::string> array_;  // Go's backing array
  size_t len_ = 0;
  size_t deleted_ = 0;
  std::unordered_map<std::string, size_t> index_;
};

}  // namespace

// Builds a Framework step by step, as NewFramework does.
class FrameworkBuilder {
 public:
  FrameworkBuilder(Framework* f, const config::Profile& profile) : f_(f), profile_(profile) {}

  ksched::Status Build() {
    f_->profile_name_ = profile_.scheduler_name;
    f_->percentage_ = profile_.percentage_of_nodes_to_score;
    f_->plugin_config_ = profile_.plugin_config;
    if (auto s = Instantiate(); !s.ok()) return s;
    for (ExtensionPoint point : kPoints) {
      if (auto s = UpdatePluginList(point); !s.ok()) return s;
    }
    if (!profile_.plugins.multi_point.enabled.empty()) {
      if (auto s = ExpandMultiPoint(); !s.ok()) return s;
    }
    if (lists_[Index(ExtensionPoint::kQueueSort)].size() != 1) {
      return MakeError("only one queue sort plugin required for profile with scheduler name " +
                       Quote(profile_.scheduler_name) + ", but got " +
                       std::to_string(lists_[Index(ExtensionPoint::kQueueSort)].size()));
    }
    if (lists_[Index(ExtensionPoint::kBind)].empty()) {
      return MakeError("at least one bind plugin is needed for profile with scheduler name " +
                       Quote(profile_.scheduler_name));
    }
    if (auto s = ScoreWeights(); !s.ok()) return s;
    Install();
    for (size_t i = 0; i < f_->score_.size(); ++i) {
      auto it = weights_.find(std::string(f_->score_[i]->Name()));
      if (it == weights_.end() || it->second == 0) {
        return MakeError("score plugin " + Quote(f_->score_[i]->Name()) +
                         " is not configured with weight");
      }
      f_->score_weights_.push_back(it->second);
    }
    for (const FilterPlugin* pl : f_->filter_)
      f_->batch_filter_.push_back(dynamic_cast<const BatchFilterCodes*>(pl));
    for (const ScorePlugin* pl : f_->score_) {
      f_->batch_scores_.push_back(dynamic_cast<const BatchScores*>(pl));
      f_->batch_normalize_.push_back(dynamic_cast<const BatchNormalizeAdd*>(pl));
    }
    f_->score_slots_ = f_->ComputeScoreSlots();
    return ksched::Status::Ok();
  }

 private:
  static size_t Index(ExtensionPoint p) { return static_cast<size_t>(p); }

  ksched::Status Instantiate() {
    std::set<std::string> needed;
    for (ExtensionPoint point : kPoints)
      for (const auto& p : SetOf(profile_.plugins, point).enabled) needed.insert(p.name);
    for (const auto& p : profile_.plugins.multi_point.enabled) needed.insert(p.name);

    std::unordered_map<std::string, const config::PluginArgs*> args;
    for (const auto& pc : profile_.plugin_config) {
      if (!args.emplace(pc.name, &pc.args).second)
        return MakeError("repeated config for plugin " + pc.name);
    }
    const std::vector<RegistryEntry>& registry =
        f_->options_.registry ? *f_->options_.registry : InTreeRegistry();
    static const config::PluginArgs kNoArgs;
    const config::SchedulerVersion version = f_->options_.feature_gates.version;
    for (const RegistryEntry& entry : registry) {
      std::string name(entry.name);
      if (!needed.count(name) || !entry.In(version)) continue;
      auto a = args.find(name);
      Status error;
      std::unique_ptr<Plugin> p = entry.factory(a == args.end() ? kNoArgs : *a->second, f_, &error);
      if (p == nullptr || !error.IsSuccess()) {
        std::string msg = error.IsSuccess() ? "no plugin" : error.Message();
        return MakeError("initializing plugin " + Quote(name) + ": " + msg);
      }
      by_name_[name] = p.get();
      f_->plugins_.push_back(std::move(p));
    }
    return ksched::Status::Ok();
  }

  Plugin* Find(const std::string& name) const {
    auto it = by_name_.find(name);
    return it == by_name_.end() ? nullptr : it->second;
  }

  // Upstream's updatePluginList for one point's own set.
  ksched::Status UpdatePluginList(ExtensionPoint point) {
    std::set<std::string> seen;
    auto& list = lists_[Index(point)];
    for (const auto& ep : SetOf(profile_.plugins, point).enabled) {
      Plugin* pl = Find(ep.name);
      if (pl == nullptr)
        return MakeError(std::string(TypeName(point)) + " " + Quote(ep.name) + " does not exist");
      if (!Implements(pl, point)) {
        return MakeError("plugin " + Quote(ep.name) + " does not extend " + TypeName(point) +
                         " plugin");
      }
      if (!seen.insert(ep.name).second) {
        return MakeError("plugin " + Quote(ep.name) + " already registered as " +
                         Quote(TypeName(point)));
      }
      list.push_back(pl);
    }
    return ksched::Status::Ok();
  }

  // Upstream's expandMultiPointPlugins: per point, MultiPoint plugins that
  // implement it and are not disabled there join it; a plugin the point
  // lists itself keeps that entry ("override"), ordered first.
  ksched::Status ExpandMultiPoint() {
    for (ExtensionPoint point : kPoints) {
      const config::PluginSet& set = SetOf(profile_.plugins, point);
      OrderedSet enabled;
      for (const auto& p : set.enabled) enabled.Insert(p.name);
      std::unordered_set<std::string> disabled;
      for (const auto& p : set.disabled) disabled.insert(p.name);
      if (disabled.count("*")) continue;

      OrderedSet multi, overrides;
      std::vector<std::string> multi_list;
      for (const auto& ep : profile_.plugins.multi_point.enabled) {
        Plugin* pl = Find(ep.name);
        if (pl == nullptr)
          return MakeError(std::string(TypeName(point)) + " " + Quote(ep.name) + " does not exist");
        if (!Implements(pl, point)) continue;
        if (disabled.count(ep.name)) continue;
        if (enabled.Has(ep.name)) {
          overrides.Insert(ep.name);
          continue;
        }
        if (multi.Has(ep.name)) {
          return MakeError("plugin " + Quote(ep.name) + " already registered as " +
                           Quote(TypeName(point)));
        }
        multi.Insert(ep.name);
        multi_list.push_back(ep.name);
      }
      std::vector<Plugin*> ordered;
      // Part 1: overridden plugins in the point's own order. v1.26 ranges
      // over the list while deleting from it, so with two or more overrides
      // some are skipped here (and land in part 3) or listed twice; v1.35
      // ranges over a copy of it (upstream's slice.CopyStrings).
      if (f_->options_.feature_gates.AtLeast(config::SchedulerVersion::kV135)) {
        std::vector<std::string> copy;
        for (size_t k = 0; k < enabled.size(); ++k) copy.push_back(enabled.At(k));
        for (const std::string& name : copy) {
          if (overrides.Has(name)) {
            ordered.push_back(Find(name));
            enabled.Delete(name);
          }
        }
      } else {
        const size_t original = enabled.size();
        for (size_t k = 0; k < original; ++k) {
          std::string name = enabled.At(k);
          if (overrides.Has(name)) {
            ordered.push_back(Find(name));
            enabled.Delete(name);
          }
        }
      }
      for (const std::string& name : multi_list) ordered.push_back(Find(name));
      for (size_t k = 0; k < enabled.size(); ++k) ordered.push_back(Find(enabled.At(k)));
      lists_[Index(point)] = std::move(ordered);
    }
    return ksched::Status::Ok();
  }

  // Upstream's getScoreWeights over Score's set then MultiPoint's.
  ksched::Status ScoreWeights() {
    int64_t total = 0;
    auto consider = [&](const config::Plugin& e) -> ksched::Status {
      Plugin* pl = Find(e.name);
      if (pl == nullptr || !Implements(pl, ExtensionPoint::kScore)) return ksched::Status::Ok();
      if (weights_.count(e.name)) return ksched::Status::Ok();
      int64_t w = e.weight == 0 ? 1 : e.weight;
      weights_[e.name] = w;
      if (w * kMaxNodeScore > kMaxTotalScore - total)
        return MakeError("total score of Score plugins could overflow");
      total += w * kMaxNodeScore;
      return ksched::Status::Ok();
    };
    for (const auto& e : profile_.plugins.score.enabled)
      if (auto s = consider(e); !s.ok()) return s;
    for (const auto& e : profile_.plugins.multi_point.enabled)
      if (auto s = consider(e); !s.ok()) return s;
    return ksched::Status::Ok();
  }

  template <typename T>
  void Cast(ExtensionPoint point, std::vector<T*>* out) {
    for (Plugin* p : lists_[Index(point)]) out->push_back(dynamic_cast<T*>(p));
  }

  void Install() {
    Cast(ExtensionPoint::kPreFilter, &f_->pre_filter_);
    Cast(ExtensionPoint::kFilter, &f_->filter_);
    Cast(ExtensionPoint::kPostFilter, &f_->post_filter_);
    Cast(ExtensionPoint::kReserve, &f_->reserve_);
    Cast(ExtensionPoint::kPreScore, &f_->pre_score_);
    Cast(ExtensionPoint::kScore, &f_->score_);
    Cast(ExtensionPoint::kPreBind, &f_->pre_bind_);
    Cast(ExtensionPoint::kBind, &f_->bind_);
    Cast(ExtensionPoint::kPostBind, &f_->post_bind_);
    Cast(ExtensionPoint::kPermit, &f_->permit_);
    Cast(ExtensionPoint::kPreEnqueue, &f_->pre_enqueue_);
    Cast(ExtensionPoint::kQueueSort, &f_->queue_sort_);
  }

  Framework* f_;
  const config::Profile& profile_;
  std::unordered_map<std::string, Plugin*> by_name_;
  std::vector<Plugin*> lists_[kNumExtensionPoints];
  std::unordered_map<std::string, int64_t> weights_;
};

namespace {

bool SameStatus(const Status& a, const Status& b) {
  return a.code() == b.code() && a.failed_plugin() == b.failed_plugin() &&
         a.reasons() == b.reasons();
}

// What of a pod the node-local plugins may read: its spec without the pod
// (anti-)affinity terms and the topology spread constraints, which only
// InterPodAffinity and PodTopologySpread read (Plugin::NodeLocalFor).
PodSpec NodeCacheKey(const PodSpec& spec) {
  PodSpec key = spec;
  if (key.affinity) {
    key.affinity->pod_affinity.reset();
    key.affinity->pod_anti_affinity.reset();
  }
  key.topology_spread_constraints.clear();
  return key;
}

// The PodAspect bits in which two NodeCacheKeys differ, or kAllAspects when
// they differ in anything else.
uint32_t AspectsThatDiffer(const PodSpec& a, const PodSpec& b) {
  auto node_affinity = [](const PodSpec& s) {
    return s.affinity ? s.affinity->node_affinity : std::nullopt;
  };
  uint32_t differ = 0;
  if (a.tolerations != b.tolerations) differ |= Plugin::kAspectTolerations;
  if (a.node_selector != b.node_selector || a.has_node_selector != b.has_node_selector ||
      node_affinity(a) != node_affinity(b))
    differ |= Plugin::kAspectNodeSelection;
  if (differ == 0) return a == b ? 0u : uint32_t{Plugin::kAllAspects};
  // The rest, compared without those parts (an affinity left empty by
  // NodeCacheKey or here counts as none).
  auto rest = [](PodSpec s) {
    s.tolerations.clear();
    s.node_selector = Labels();
    s.has_node_selector = false;
    if (s.affinity) {
      s.affinity->node_affinity.reset();
      if (!s.affinity->pod_affinity && !s.affinity->pod_anti_affinity) s.affinity.reset();
    }
    return s;
  };
  return rest(a) == rest(b) ? differ : Plugin::kAllAspects;
}

}  // namespace

// One class of the node cache: the node-local plugins' results on each node
// for pods of one namespace and spec, each kept with the generation of the
// node it was computed on.
struct Framework::NodeCacheClass {
  StrId ns = kEmptyStr;
  PodSpec spec;  // NodeCacheKey of the class's pods
  uint64_t last_used = 0;
  std::vector<uint8_t> local_filter;  // by index in filter_: 1 when node-local
  // The node-local filter plugins a first look asks, in order: those that
  // may reject a node for the class's spec (FilterPlugin::PassesEveryNodeFor).
  std::vector<uint32_t> look_list;
  // look_list before this cycle's skipped plugins were left out.
  std::vector<uint32_t> look_list_all;
  bool any_local_filter = false;
  // The node-local filter plugins (bit per index in filter_) and score
  // plugins (bit per index in score_) skipped (v1.35's PreFilter / PreScore
  // Skip) when the kept verdicts and scores were computed: a cycle that
  // skips others drops them first. A spec decides these plugins' skips, so
  // that is rare.
  uint64_t skip_filter_mask = 0;
  uint64_t skip_score_mask = 0;
  std::vector<int32_t> score_slot;  // by index in score_: its column in `raw`, -1: not node-local
  size_t num_local_scores = 0;
  // The ClusterState generation up to which changed nodes were dropped.
  uint64_t synced = 0;
  // This cycle (PlanCachedFilters): the filter plugins that are not
  // node-local and do not pass every node, by index in filter_.
  std::vector<uint8_t> run_now;
  bool any_run_now = true;
  std::vector<uint32_t> run_list;  // the indices of run_now, in order
  // Per node: whether the filter verdict / the scores are kept.
  std::vector<uint8_t> filter_kept;
  // How many nodes have no kept verdict (filter_kept 0); first looks run on
  // filter threads, hence atomic.
  std::atomic<int64_t> unkept{0};
  // The node-local plugin that failed (index in filter_), -1: none;
  // KeptVerdicts::kNotKept where filter_kept is 0.
  std::vector<int16_t> fail_at;
  // fail_at by walk position (Framework::SetWalkPositions) when
  // by_pos_epoch is the framework's walk_pos_epoch_, else stale or empty.
  std::vector<int16_t> fail_at_by_pos;
  uint64_t by_pos_epoch = 0;
  // Its status, as RunFilterPlugins returns it: an index into `statuses`,
  // where equal statuses are kept once (nodes alike fail alike), or
  // kStatusNotKept when the verdict was kept by a cycle that needed only the
  // code (the reasons are written when a detailed cycle first asks).
  static constexpr uint32_t kStatusNotKept = UINT32_MAX;
  std::vector<uint32_t> fail_status;
  std::vector<Code> fail_code;  // its code
  std::vector<Status> statuses;
  std::mutex statuses_mu;
  std::vector<uint8_t> score_kept;
  // [column * num_nodes + node]: a cycle reads whole columns (one per
  // normalizing plugin), so each is contiguous.
  std::vector<int64_t> raw;
  size_t num_nodes = 0;
  const int64_t* Column(size_t col) const { return &raw[col * num_nodes]; }
  // Node-local score plugins without NormalizeScore have final scores: with
  // no plugin listed twice (`fusable`), `base` holds their weighted sum per
  // node, and `base_ok` whether each of them lies in 0..MaxNodeScore.
  bool fusable = false;
  std::vector<uint8_t> fused;  // by index in score_
  std::vector<int64_t> base;
  std::vector<uint8_t> base_ok;
  // By column of `raw`: how many nodes hold a non-zero value (kept or
  // stale); 0 means every kept score of the column is 0.
  std::unique_ptr<std::atomic<int64_t>[]> nonzero;

  // Classes of the same namespace whose specs differ from this one's only in
  // PodAspects, with the same node-local plugins: on a node where
  // one has a kept verdict or scores, a first look of this class takes the
  // results of the plugins that read none of those aspects from it
  // (lend_filter, by index in filter_; lend_score, by index in score_)
  // instead of running them. Synced with this class in BeginCycle.
  struct Sibling {
    NodeCacheClass* c = nullptr;
    std::vector<uint8_t> lend_filter;
    std::vector<uint8_t> lend_score;
  };
  std::vector<Sibling> siblings;
  // The first sibling with a kept verdict / kept scores on node `id`.
  // (Only a sibling that skips the same plugins: a skipped plugin passes
  // without a look.)
  const Sibling* FilterDonor(NodeId id) const {
    for (const Sibling& s : siblings)
      if (!s.c->filter_kept.empty() && s.c->filter_kept[id] &&
          s.c->skip_filter_mask == skip_filter_mask)
        return &s;
    return nullptr;
  }
  const Sibling* ScoreDonor(NodeId id) const {
    for (const Sibling& s : siblings)
      if (!s.c->score_kept.empty() && s.c->score_kept[id] &&
          s.c->skip_score_mask == skip_score_mask)
        return &s;
    return nullptr;
  }

  // The index of `s` in `statuses`, added when new. Runs on filter threads.
  uint32_t KeepStatus(Status s) {
    std::lock_guard<std::mutex> lock(statuses_mu);
    // Copies of one status (WrapFilterStatus hands them out) share their
    // reasons: found without comparing strings.
    for (size_t k = statuses.size(); k-- > 0;)
      if (statuses[k].SharesReasonsWith(s)) return static_cast<uint32_t>(k);
    for (size_t k = statuses.size(); k-- > 0;)
      if (SameStatus(statuses[k], s)) return static_cast<uint32_t>(k);
    statuses.push_back(std::move(s));
    return static_cast<uint32_t>(statuses.size() - 1);
  }
  Status KeptStatus(uint32_t k) {
    std::lock_guard<std::mutex> lock(statuses_mu);
    return statuses[k];
  }
};

Framework::Framework(FrameworkOptions options) : options_(std::move(options)) {}
Framework::~Framework() = default;

Result<std::unique_ptr<Framework>> Framework::New(const config::Profile& profile,
                                                  FrameworkOptions options) {
  std::unique_ptr<Framework> f(new Framework(std::move(options)));
  FrameworkBuilder builder(f.get(), profile);
  if (auto s = builder.Build(); !s.ok()) return s.error();
  return f;
}

void Framework::RegisterClusterEvents(ClusterEventMap* map) const {
  for (const std::unique_ptr<Plugin>& p : plugins_) {
    if (const auto* ext = dynamic_cast<const EnqueueExtensions*>(p.get())) {
      map->Register(p->Name(), ext->EventsToRegister());  // none: never moved by an event
    } else {
      map->Register(p->Name(), AllClusterEvents());
    }
  }
}

void Framework::RegisterQueueingHints(QueueingHintMap* map, bool has_extenders) const {
  // framework.UnrollWildCardResource: every resource, any action, no hint.
  static const std::vector<ClusterEventWithHint> kAllResources = [] {
    std::vector<ClusterEventWithHint> v;
    for (EventResource r :
         {EventResource::kPod, EventResource::kNode, EventResource::kPersistentVolume,
          EventResource::kPersistentVolumeClaim, EventResource::kCSINode, EventResource::kCSIDriver,
          EventResource::kCSIStorageCapacity, EventResource::kStorageClass,
          EventResource::kResourceClaim, EventResource::kDeviceClass})
      v.push_back({ClusterEvent{r, kAll, ""}, {}});
    return v;
  }();
  if (has_extenders) map->Register("Extender", kAllResources);
  for (const std::unique_ptr<Plugin>& p : plugins_) {
    const Plugin* pl = p.get();
    // shouldHaveEnqueueExtensions: only plugins that can reject a pod.
    if (dynamic_cast<const PreEnqueuePlugin*>(pl) == nullptr &&
        dynamic_cast<const PreFilterPlugin*>(pl) == nullptr &&
        dynamic_cast<const FilterPlugin*>(pl) == nullptr &&
        dynamic_cast<const ReservePlugin*>(pl) == nullptr &&
        dynamic_cast<const PermitPlugin*>(pl) == nullptr)
      continue;
    if (const auto* ext = dynamic_cast<const EnqueueExtensions*>(pl)) {
      map->Register(pl->Name(), ext->EventsToRegisterWithHints());
    } else {
      map->Register(pl->Name(), kAllResources);
    }
  }
}

std::vector<std::string> Framework::PluginNames(ExtensionPoint point) const {
  std::vector<std::string> out;
  auto add = [&](const auto& list) {
    for (const auto* p : list) out.emplace_back(p->Name());
  };
  switch (point) {
    case ExtensionPoint::kPreFilter:
      add(pre_filter_);
      break;
    case ExtensionPoint::kFilter:
      add(filter_);
      break;
    case ExtensionPoint::kPostFilter:
      add(post_filter_);
      break;
    case ExtensionPoint::kReserve:
      add(reserve_);
      break;
    case ExtensionPoint::kPreScore:
      add(pre_score_);
      break;
    case ExtensionPoint::kScore:
      add(score_);
      break;
    case ExtensionPoint::kPreBind:
      add(pre_bind_);
      break;
    case ExtensionPoint::kBind:
      add(bind_);
      break;
    case ExtensionPoint::kPostBind:
      add(post_bind_);
      break;
    case ExtensionPoint::kPermit:
      add(permit_);
      break;
    case ExtensionPoint::kPreEnqueue:
      add(pre_enqueue_);
      break;
    case ExtensionPoint::kQueueSort:
      add(queue_sort_);
      break;
  }
  return out;
}

// ---------------------------------------------------------------- queue

bool Framework::QueueSortLess(const QueuedPodInfo& a, const QueuedPodInfo& b) const {
  if (queue_sort_.empty()) return false;
  return queue_sort_.front()->Less(a, b);
}

Status Framework::RunPreEnqueuePlugins(const Pod& pod) const {
  for (PreEnqueuePlugin* pl : pre_enqueue_) {
    Status s = pl->PreEnqueue(pod);
    if (!s.IsSuccess()) return s.WithFailedPlugin(std::string(pl->Name()));
  }
  return Status();
}

// ---------------------------------------------------------------- filter

Status Framework::RunPreFilterPlugins(CycleState* state, const Pod& pod, PreFilterResult* result,
                                      std::vector<std::string>* plugins_with_nodes) const {
  return TimePoint(metrics_, ep::kPreFilter, profile_name_, [&] {
    return RunPreFilterPluginsUntimed(state, pod, result, plugins_with_nodes);
  });
}

Status Framework::RunPreFilterPluginsUntimed(CycleState* state, const Pod& pod,
                                             PreFilterResult* result,
                                             std::vector<std::string>* plugins_with_nodes) const {
  MetricsRecorder* const rec = plugin_recorder();
  const bool v135 = options_.feature_gates.AtLeast(config::SchedulerVersion::kV135);
  PreFilterResult merged;
  std::vector<std::string> with_nodes;  // sorted, as upstream's set lists them
  // v1.35 runs every PreFilter after an Unschedulable one (preemption may
  // still help, kubernetes#119770) and returns the last such status.
  Status unschedulable;
  for (PreFilterPlugin* pl : pre_filter_) {
    PreFilterResult r;
    Status s = TimePlugin(rec, pl, ep::kPreFilter, [&] { return pl->PreFilter(state, pod, &r); });
    if (v135 && s.IsSkip()) {
      state->SkipFilter(pl);
      continue;
    }
    if (!s.IsSuccess()) {
      // Skip is not a PreFilter outcome in v1.26: like any other code it
      // becomes an Error.
      if (v135 && s.code() == Code::kUnschedulable) {
        unschedulable = std::move(s.WithFailedPlugin(std::string(pl->Name())));
        continue;
      }
      if (s.IsUnschedulable()) return s.WithFailedPlugin(std::string(pl->Name()));
      return Status::Error("running PreFilter plugin " + Quote(pl->Name()) + ": " + s.Message())
          .WithFailedPlugin(std::string(pl->Name()));
    }
    if (!r.AllNodes()) {
      const std::string name(pl->Name());
      with_nodes.insert(std::lower_bound(with_nodes.begin(), with_nodes.end(), name), name);
    }
    merged = merged.Merge(r);
    if (!merged.AllNodes() && merged.node_names->empty()) {
      std::string msg;
      if (with_nodes.size() == 1) {
        msg = "node(s) didn't satisfy plugin " + with_nodes[0];
      } else {
        // Go's %v of a []string: [a b c].
        msg = "node(s) didn't satisfy plugin(s) [";
        for (size_t i = 0; i < with_nodes.size(); ++i) {
          if (i) msg += " ";
          msg += with_nodes[i];
        }
        msg += "] simultaneously";
      }
      *result = PreFilterResult{};
      if (plugins_with_nodes != nullptr) *plugins_with_nodes = std::move(with_nodes);
      // v1.35: nodes a PreFilterResult leaves out are UnschedulableAndUnresolvable.
      return v135 ? Status::Unresolvable(msg) : Status::Unschedulable(msg);
    }
  }
  *result = std::move(merged);
  if (plugins_with_nodes != nullptr) *plugins_with_nodes = std::move(with_nodes);
  return unschedulable;
}

Status Framework::RunPreFilterExtensionAddPod(CycleState* state, const Pod& pod,
                                              const PodInfo& to_add, const NodeInfo& node) const {
  for (PreFilterPlugin* pl : pre_filter_) {
    PreFilterExtensions* ext = pl->Extensions();
    if (ext == nullptr || state->SkipsFilter(pl)) continue;
    Status s = TimePlugin(plugin_recorder(), pl, ep::kPreFilterExtensionAddPod,
                          [&] { return ext->AddPod(state, pod, to_add, node); });
    if (!s.IsSuccess()) {
      return Status::Error("running AddPod on PreFilter plugin " + Quote(pl->Name()) + ": " +
                           s.Message());
    }
  }
  return Status();
}

Status Framework::RunPreFilterExtensionRemovePod(CycleState* state, const Pod& pod,
                                                 const PodInfo& to_remove,
                                                 const NodeInfo& node) const {
  for (PreFilterPlugin* pl : pre_filter_) {
    PreFilterExtensions* ext = pl->Extensions();
    if (ext == nullptr || state->SkipsFilter(pl)) continue;
    Status s = TimePlugin(plugin_recorder(), pl, ep::kPreFilterExtensionRemovePod,
                          [&] { return ext->RemovePod(state, pod, to_remove, node); });
    if (!s.IsSuccess()) {
      return Status::Error("running RemovePod on PreFilter plugin " + Quote(pl->Name()) + ": " +
                           s.Message());
    }
  }
  return Status();
}

Status Framework::WrapFilterStatus(const FilterPlugin* pl, Status s) const {
  if (!s.IsUnschedulable()) {
    return Status::Error("running " + Quote(pl->Name()) + " filter plugin: " + s.Message())
        .WithFailedPlugin(std::string(pl->Name()));
  }
  if (!s.failed_plugin().empty()) return std::move(s.WithFailedPlugin(std::string(pl->Name())));
  // A plugin that returns copies of one status (a constant reason) gets
  // copies of one wrapped status back, without new strings per node. The
  // entries hold the statuses they were made from, so a shared reasons
  // block cannot be freed and reused while it is a key.
  std::lock_guard<std::mutex> lock(wrapped_mu_);
  for (const WrappedStatus& w : wrapped_)
    if (w.plugin == pl && w.input.SharesReasonsWith(s)) return w.wrapped;
  Status wrapped = s;
  wrapped.WithFailedPlugin(std::string(pl->Name()));
  if (wrapped_.size() < kWrappedStatuses) {
    wrapped_.push_back({pl, std::move(s), wrapped});
  } else {
    wrapped_[wrapped_next_++ % kWrappedStatuses] = {pl, std::move(s), wrapped};
  }
  return wrapped;
}

Status Framework::RunFilterPlugins(const CycleState& state, const Pod& pod,
                                   const NodeInfo& node) const {
  MetricsRecorder* const rec = plugin_recorder();
  const bool skips = state.any_filter_skipped();
  for (FilterPlugin* pl : filter_) {
    if (skips && state.SkipsFilter(pl)) continue;
    Status s = TimePlugin(rec, pl, ep::kFilter, [&] { return pl->Filter(state, pod, node); });
    if (s.IsSuccess()) continue;
    return WrapFilterStatus(pl, std::move(s));
  }
  return Status();
}

// ---------------------------------------------------------------- node cache

void Framework::BeginCycle(const Pod& pod) {
  cycle_class_ = nullptr;
  if (cluster_ == nullptr) return;
  if (cluster_->id() != cache_cluster_id_ || cluster_->num_nodes() != cache_num_nodes_) {
    node_cache_.clear();
    cache_cluster_id_ = cluster_->id();
    cache_num_nodes_ = cluster_->num_nodes();
  }
  // v1.35's NodeResourcesBalancedAllocation counts a container whose status
  // reports resized requests by them, which classes keyed by spec cannot
  // tell apart: such a pod (pending pods rarely have one) runs without the
  // cache.
  for (const auto* statuses : {&pod.container_statuses, &pod.init_container_statuses})
    for (const ContainerStatus& cs : *statuses)
      if (cs.resources || !cs.allocated_resources.empty()) return;
  // Most pods have neither part NodeCacheKey removes: their spec is the key
  // as it stands, without a copy per cycle.
  const PodSpec& spec = pod.spec;
  const bool has_pod_terms =
      spec.affinity && (spec.affinity->pod_affinity || spec.affinity->pod_anti_affinity);
  std::optional<PodSpec> stripped;
  if (has_pod_terms || !spec.topology_spread_constraints.empty()) stripped = NodeCacheKey(spec);
  const PodSpec& key = stripped ? *stripped : spec;
  for (auto& c : node_cache_) {
    if (c->ns == pod.meta.ns && c->spec == key) {
      c->last_used = ++cache_tick_;
      SyncNodeCache(c.get());
      for (const NodeCacheClass::Sibling& sib : c->siblings) SyncNodeCache(sib.c);
      cycle_class_ = c.get();
      return;
    }
  }
  auto c = std::make_unique<NodeCacheClass>();
  c->ns = pod.meta.ns;
  c->spec = key;
  c->last_used = ++cache_tick_;
  for (size_t p = 0; p < filter_.size(); ++p) {
    const bool local = filter_[p]->NodeLocalFor(pod);
    c->local_filter.push_back(local);
    c->any_local_filter = c->any_local_filter || local;
    if (local && !filter_[p]->PassesEveryNodeFor(pod))
      c->look_list.push_back(static_cast<uint32_t>(p));
  }
  c->look_list_all = c->look_list;
  for (const ScorePlugin* pl : score_) {
    c->score_slot.push_back(pl->NodeLocalFor(pod) ? static_cast<int32_t>(c->num_local_scores++)
                                                  : -1);
  }
  const size_t n = cluster_->num_nodes();
  c->synced = cluster_->generation();
  c->run_now.assign(filter_.size(), 1);
  if (c->any_local_filter) {
    c->filter_kept.assign(n, 0);
    c->unkept = static_cast<int64_t>(n);
    c->fail_at.assign(n, KeptVerdicts::kNotKept);
    if (walk_pos_ != nullptr && walk_pos_->size() == n) {
      c->fail_at_by_pos.assign(n, KeptVerdicts::kNotKept);
      c->by_pos_epoch = walk_pos_epoch_;
    }
    c->fail_status.assign(n, 0);
    c->fail_code.assign(n, Code::kSuccess);
  }
  if (c->num_local_scores > 0) {
    c->score_kept.assign(n, 0);
    c->num_nodes = n;
    c->raw.assign(n * c->num_local_scores, 0);
    const std::vector<size_t>& slot = score_slots_;
    c->fusable = true;
    c->fused.assign(score_.size(), 0);
    for (size_t p = 0; p < score_.size(); ++p) {
      c->fusable = c->fusable && slot[p] == p;
      c->fused[p] = c->score_slot[p] >= 0 && score_[p]->ScoreExt() == nullptr;
    }
    c->base.assign(n, 0);
    c->base_ok.assign(n, 0);
    c->nonzero = std::make_unique<std::atomic<int64_t>[]>(c->num_local_scores);
    for (size_t k = 0; k < c->num_local_scores; ++k) c->nonzero[k] = 0;
  }
  // The least recently used class makes room first, so that it is no one's
  // sibling.
  std::unique_ptr<NodeCacheClass>* slot = nullptr;
  if (node_cache_.size() >= kMaxNodeCacheClasses) {
    slot = &*std::min_element(
        node_cache_.begin(), node_cache_.end(),
        [](const auto& a, const auto& b) { return a->last_used < b->last_used; });
    const NodeCacheClass* gone = slot->get();
    for (auto& other : node_cache_) {
      auto& sibs = other->siblings;
      sibs.erase(std::remove_if(sibs.begin(), sibs.end(),
                                [&](const NodeCacheClass::Sibling& x) { return x.c == gone; }),
                 sibs.end());
    }
    slot->reset();
  }
  for (auto& other : node_cache_) {
    if (other == nullptr) continue;
    AddSiblings(c.get(), other.get());
  }
  for (const NodeCacheClass::Sibling& sib : c->siblings) SyncNodeCache(sib.c);
  cycle_class_ = c.get();
  if (slot != nullptr) {
    *slot = std::move(c);
  } else {
    node_cache_.push_back(std::move(c));
  }
}

void Framework::AddSiblings(NodeCacheClass* a, NodeCacheClass* b) const {
  if (a->ns != b->ns || a->local_filter != b->local_filter || a->score_slot != b->score_slot)
    return;
  const uint32_t differ = AspectsThatDiffer(a->spec, b->spec);
  if (differ == Plugin::kAllAspects) return;
  NodeCacheClass::Sibling sib;
  // A plugin that reads a differing aspect is run; so is one not kept.
  sib.lend_filter.resize(filter_.size());
  for (size_t p = 0; p < filter_.size(); ++p)
    sib.lend_filter[p] = a->local_filter[p] && (filter_[p]->NodeLocalAspects() & differ) == 0;
  sib.lend_score.resize(score_.size());
  for (size_t p = 0; p < score_.size(); ++p)
    sib.lend_score[p] = a->score_slot[p] >= 0 && (score_[p]->NodeLocalAspects() & differ) == 0;
  sib.c = b;
  a->siblings.push_back(sib);
  sib.c = a;
  b->siblings.push_back(std::move(sib));
}

bool Framework::HasNominatedPodsOn(const NodeInfo& node) const {
  const NominatedPods* nominated = options_.nominated;
  return nominated != nullptr && !nominated->empty() && !nominated->ForNode(node.name()).empty();
}

void Framework::SyncNodeCache(NodeCacheClass* c) const {
  const uint64_t now = cluster_->generation();
  if (c->synced == now) return;
  const std::vector<NodeId>& log = cluster_->change_log();
  auto drop = [&](NodeId id) {
    if (!c->filter_kept.empty() && c->filter_kept[id]) {
      c->filter_kept[id] = 0;
      SetFailAt(c, id, KeptVerdicts::kNotKept);
      c->unkept.fetch_add(1, std::memory_order_relaxed);
    }
    if (!c->score_kept.empty()) c->score_kept[id] = 0;
  };
  if (now - c->synced > cluster_->num_nodes()) {
    for (NodeId id = 0; id < cluster_->num_nodes(); ++id) drop(id);
  } else {
    for (uint64_t g = c->synced; g < now; ++g) drop(log[g]);
  }
  c->synced = now;
}

uint64_t Framework::SkippedFilters(const CycleState& state) const {
  uint64_t mask = 0;
  if (!state.any_filter_skipped()) return 0;
  for (size_t p = 0; p < filter_.size(); ++p)
    if (state.SkipsFilter(filter_[p])) mask |= uint64_t{1} << p;
  return mask;
}

uint64_t Framework::SkippedScores(const CycleState& state) const {
  uint64_t mask = 0;
  if (!state.any_score_skipped()) return 0;
  for (size_t p = 0; p < score_.size(); ++p)
    if (state.SkipsScore(score_[p])) mask |= uint64_t{1} << p;
  return mask;
}

void Framework::PlanCachedFilters(const CycleState& state) {
  NodeCacheClass* c = cycle_class_;
  if (c == nullptr) return;
  // Skips are kept as bits: a profile of more than 64 filter plugins that
  // skips one runs without the cache.
  if (filter_.size() > 64 && state.any_filter_skipped()) {
    cycle_class_ = nullptr;
    return;
  }
  const uint64_t skipped = SkippedFilters(state);
  uint64_t local_skipped = 0;
  for (size_t p = 0; p < filter_.size(); ++p)
    if (c->local_filter[p]) local_skipped |= skipped & (uint64_t{1} << p);
  if (local_skipped != c->skip_filter_mask) {
    // The kept verdicts counted other plugins: looked at again.
    c->skip_filter_mask = local_skipped;
    c->look_list.clear();
    for (uint32_t p : c->look_list_all)
      if (!(local_skipped >> p & 1)) c->look_list.push_back(p);
    if (!c->filter_kept.empty()) {
      std::fill(c->filter_kept.begin(), c->filter_kept.end(), 0);
      std::fill(c->fail_at.begin(), c->fail_at.end(), KeptVerdicts::kNotKept);
      c->by_pos_epoch = 0;  // laid out again when asked
      c->unkept = static_cast<int64_t>(c->filter_kept.size());
    }
  }
  c->any_run_now = false;
  c->run_list.clear();
  for (size_t p = 0; p < filter_.size(); ++p) {
    c->run_now[p] =
        !c->local_filter[p] && !(skipped >> p & 1) && !filter_[p]->PassesEveryNode(state);
    c->any_run_now = c->any_run_now || c->run_now[p];
    if (c->run_now[p]) c->run_list.push_back(static_cast<uint32_t>(p));
  }
}

void Framework::FilterCodesCached(const CycleState& state, const Pod& pod, const NodeId* ids,
                                  size_t count, Code* out) const {
  NodeCacheClass* c = cycle_class_;
  const NominatedPods* nominated = options_.nominated;
  MetricsRecorder* const rec = plugin_recorder();
  if (c == nullptr || !c->any_local_filter || (nominated != nullptr && !nominated->empty())) {
    for (size_t i = 0; i < count; ++i) out[i] = FilterCodeCached(state, pod, ids[i]);
    return;
  }
  // FilterCodeCached with the class's checks made once: a kept node's code
  // is its kept failure, unless a plugin that runs this cycle and comes
  // before it rejects the node. A block of nodes at a time, plugin by
  // plugin: each plugin is asked (in one call where it has the batch form)
  // about the nodes no earlier plugin rejected and whose kept failure, if
  // any, comes after it, which is what the node-by-node order asks.
  const size_t kept_size = c->filter_kept.size();
  // First looks count the verdicts they keep here; `unkept` is shared by
  // the filter threads, so it is updated once, at the end.
  int64_t newly_kept = 0;
  constexpr size_t kBlock = 256;
  constexpr int32_t kNoKeptFailure = INT32_MAX;
  int32_t limit[kBlock];  // plugins before this index still run; -1: decided
  NodeId live_ids[kBlock];
  uint16_t live_at[kBlock];
  Code live[kBlock];
  for (size_t b = 0; b < count; b += kBlock) {
    const size_t m = std::min(kBlock, count - b);
    int32_t max_limit = -1;
    // First looks wait on memory: a node's NodeInfo and Node are rarely in
    // cache, nor what their vectors point to (taints, labels). While one
    // node is looked at, the vectors of the next one without a kept verdict
    // are fetched (its Node was asked for during the previous look), and the
    // NodeInfo and Node of the one after it, each within a few places.
    size_t fetched = 0;        // nodes before this index are fetched or kept
    NodeId shallow = kNoNode;  // the next first look's node, its vectors not asked for
    auto scan = [&]() -> NodeId {
      for (const size_t end = std::min(m, fetched + 8); fetched < end; ++fetched) {
        const NodeId next = ids[b + fetched];
        if (next < kept_size && !c->filter_kept[next]) {
          PrefetchNode(next);
          ++fetched;
          return next;
        }
      }
      return kNoNode;
    };
    auto fetch_next = [&](size_t from) {
      if (fetched < from) {
        fetched = from;
        shallow = kNoNode;
      }
      if (shallow != kNoNode) {
        PrefetchNodeVectors(shallow, /*images=*/false);
      } else {
        scan();  // the next one, whose vectors cannot be asked for yet
      }
      shallow = scan();
    };
    for (size_t k = 0; k < m; ++k) {
      const NodeId id = ids[b + k];
      if (id >= kept_size || !c->filter_kept[id]) {
        fetch_next(k + 1);
        out[b + k] = FilterCodeCounting(state, pod, id, &newly_kept);
        limit[k] = -1;
        continue;
      }
      const int16_t fail = c->fail_at[id];
      out[b + k] = fail < 0 ? Code::kSuccess : c->fail_code[id];
      limit[k] = fail < 0 ? kNoKeptFailure : fail;
      max_limit = std::max(max_limit, limit[k]);
    }
    for (uint32_t p : c->run_list) {
      if (static_cast<int32_t>(p) >= max_limit) break;  // run_list ascends
      size_t nl = 0;
      for (size_t k = 0; k < m; ++k) {
        if (static_cast<int32_t>(p) >= limit[k]) continue;
        live_ids[nl] = ids[b + k];
        live_at[nl] = static_cast<uint16_t>(k);
        ++nl;
      }
      if (nl == 0) continue;
      const FilterPlugin* pl = filter_[p];
      // A sampled cycle times each node's run, as upstream does, so it asks
      // node by node.
      const BatchFilterCodes* batch = rec == nullptr ? batch_filter_[p] : nullptr;
      if (batch == nullptr || !batch->FilterCodesOf(state, pod, live_ids, nl, live)) {
        for (size_t j = 0; j < nl; ++j) {
          live[j] = TimePlugin(rec, pl, ep::kFilter, [&] {
            std::optional<Code> by_id = pl->FilterCodeOf(state, pod, live_ids[j]);
            return by_id ? *by_id : pl->FilterCode(state, pod, cluster_->node_info(live_ids[j]));
          });
        }
      }
      for (size_t j = 0; j < nl; ++j) {
        const Code code = live[j];
        if (code == Code::kSuccess) continue;
        const size_t k = live_at[j];
        out[b + k] = code == Code::kUnschedulable || code == Code::kUnschedulableAndUnresolvable
                         ? code
                         : Code::kError;
        limit[k] = -1;
      }
    }
  }
  if (newly_kept != 0) c->unkept.fetch_sub(newly_kept, std::memory_order_relaxed);
}

void Framework::PrefetchNode(NodeId id) const {
  // Every line of the NodeInfo (the node-local plugins read most of it);
  // of the Node, the lines of what they read there: labels, unschedulable
  // and taints. More requests than lines in use would wait for free fill
  // buffers.
  const char* info = reinterpret_cast<const char*>(&cluster_->node_info(id));
  for (size_t off = 0; off < sizeof(NodeInfo); off += 64) __builtin_prefetch(info + off);
  const Node& node = cluster_->node(id);
  __builtin_prefetch(&node.meta.labels);
  __builtin_prefetch(&node.unschedulable);
  __builtin_prefetch(reinterpret_cast<const char*>(&node.taints + 1) - 1);
}

void Framework::PrefetchNodeVectors(NodeId id, bool images) const {
  // The first line of each: short lists fit in it.
  const Node& node = cluster_->node(id);
  __builtin_prefetch(node.taints.data());
  __builtin_prefetch(node.meta.labels.pairs().data());
  if (images) __builtin_prefetch(cluster_->node_info(id).images.data());
}

void Framework::PrefetchKeptScores(const NodeCacheClass& c, NodeId id) {
  // Columns lie num_nodes apart: one line per column, and the node's base.
  for (size_t col = 0; col < c.num_local_scores; ++col)
    __builtin_prefetch(c.raw.data() + col * c.num_nodes + id, 1);
  __builtin_prefetch(c.base.data() + id, 1);
}

Code Framework::FilterCodeCached(const CycleState& state, const Pod& pod, NodeId id) const {
  int64_t newly_kept = 0;
  const Code code = FilterCodeCounting(state, pod, id, &newly_kept);
  if (newly_kept != 0) cycle_class_->unkept.fetch_sub(newly_kept, std::memory_order_relaxed);
  return code;
}

Code Framework::FilterCodeCounting(const CycleState& state, const Pod& pod, NodeId id,
                                   int64_t* newly_kept) const {
  NodeCacheClass* c = cycle_class_;
  const NominatedPods* nominated = options_.nominated;
  if (c == nullptr || !c->any_local_filter || id >= c->filter_kept.size() ||
      (nominated != nullptr && !nominated->empty() &&
       HasNominatedPodsOn(cluster_->node_info(id)))) {
    Status failure;
    return RunFilterPluginsCached(state, pod, id, &failure) ? Code::kSuccess : failure.code();
  }
  if (!c->filter_kept[id] && !KeepNodeLocalVerdict(c, state, pod, cluster_->node_info(id),
                                                   /*with_status=*/false, newly_kept)) {
    // A plugin's Error: the full run, in order.
    Status failure = RunFilterPluginsWithNominatedPods(state, pod, cluster_->node_info(id));
    return failure.code();
  }
  // As RunFilterPluginsCached, codes only: the plugins that run this cycle
  // before the kept failure, then the kept failure.
  const int16_t fail = c->fail_at[id];
  MetricsRecorder* const rec = plugin_recorder();
  if (c->any_run_now) {
    const size_t end = fail < 0 ? filter_.size() : static_cast<size_t>(fail);
    for (size_t p = 0; p < end; ++p) {
      if (!c->run_now[p]) continue;
      const Code code = TimePlugin(rec, filter_[p], ep::kFilter, [&] {
        std::optional<Code> by_id = filter_[p]->FilterCodeOf(state, pod, id);
        return by_id ? *by_id : filter_[p]->FilterCode(state, pod, cluster_->node_info(id));
      });
      if (code == Code::kSuccess) continue;
      // RunFilterPlugins turns anything but a rejection into an Error.
      return code == Code::kUnschedulable || code == Code::kUnschedulableAndUnresolvable
                 ? code
                 : Code::kError;
    }
  }
  if (fail < 0) return Code::kSuccess;
  return c->fail_code[id];
}

bool Framework::KeepNodeLocalVerdict(NodeCacheClass* c, const CycleState& state, const Pod& pod,
                                     const NodeInfo& node, bool with_status,
                                     int64_t* newly_kept) const {
  // The node-local plugins in order, up to the first that fails; an Error
  // is left to the full run, which reports it in order.
  const NodeId id = node.id;
  MetricsRecorder* const rec = plugin_recorder();
  // The node fails at plugin `p`.
  auto keep = [&](size_t p, Code code, uint32_t status) {
    SetFailAt(c, id, static_cast<int16_t>(p));
    c->fail_code[id] = code;
    c->fail_status[id] = status;
    c->filter_kept[id] = 1;
    ++*newly_kept;
  };
  // A sibling's kept verdict answers for the plugins that read none of the
  // aspects the two differ in: each passes up to the sibling's failing
  // plugin (all of them when none failed), and that one fails the same way.
  // Plugins after it, and those reading a differing aspect, run.
  const NodeCacheClass::Sibling* donor = c->FilterDonor(id);
  const int32_t donor_fail =
      donor == nullptr ? -1 : (donor->c->fail_at[id] < 0 ? INT32_MAX : donor->c->fail_at[id]);
  for (const uint32_t p : c->look_list) {
    if (donor != nullptr && donor->lend_filter[p]) {
      const int32_t at = static_cast<int32_t>(p);
      if (at < donor_fail) continue;
      if (at == donor_fail && !with_status) {
        keep(p, donor->c->fail_code[id], NodeCacheClass::kStatusNotKept);
        return true;
      }
    }
    if (with_status) {
      Status failed = TimePlugin(rec, filter_[p], ep::kFilter,
                                 [&] { return filter_[p]->Filter(state, pod, node); });
      const Code code = failed.code();
      if (code == Code::kSuccess) continue;
      if (code != Code::kUnschedulable && code != Code::kUnschedulableAndUnresolvable) return false;
      keep(p, code, c->KeepStatus(WrapFilterStatus(filter_[p], std::move(failed))));
      return true;
    }
    // Most first looks come from cycles that count verdicts: the reasons
    // (formatted strings, for some plugins per node) wait for a cycle that
    // reports them (KeptFailure). No Status is made per plugin.
    const Code code = TimePlugin(rec, filter_[p], ep::kFilter,
                                 [&] { return filter_[p]->FilterCode(state, pod, node); });
    if (code == Code::kSuccess) continue;
    if (code != Code::kUnschedulable && code != Code::kUnschedulableAndUnresolvable) return false;
    keep(p, code, NodeCacheClass::kStatusNotKept);
    return true;
  }
  SetFailAt(c, id, -1);
  c->filter_kept[id] = 1;
  ++*newly_kept;
  return true;
}

void Framework::SetWalkPositions(const std::vector<uint32_t>* node_pos) {
  walk_pos_ = node_pos;
  ++walk_pos_epoch_;
}

void Framework::SetFailAt(NodeCacheClass* c, NodeId id, int16_t fail_at) const {
  c->fail_at[id] = fail_at;
  if (c->by_pos_epoch == walk_pos_epoch_ && walk_pos_ != nullptr)
    c->fail_at_by_pos[(*walk_pos_)[id]] = fail_at;
}

std::optional<Framework::KeptVerdicts> Framework::KeptVerdictsForCycle(size_t max_unkept) const {
  NodeCacheClass* c = cycle_class_;
  const NominatedPods* nominated = options_.nominated;
  if (c == nullptr || !c->any_local_filter || (nominated != nullptr && !nominated->empty()) ||
      c->filter_kept.size() != cluster_->num_nodes() ||
      c->unkept.load(std::memory_order_relaxed) > static_cast<int64_t>(max_unkept))
    return std::nullopt;
  if (c->any_run_now) {
    // A sampled cycle times each node's run of a plugin, as upstream does.
    if (c->run_list.size() > kMaxRunNow || plugin_recorder() != nullptr) return std::nullopt;
    for (uint32_t p : c->run_list)
      if (batch_filter_[p] == nullptr) return std::nullopt;
  }
  // By position: laid out again after a new order (once per order).
  const int16_t* by_pos = nullptr;
  if (walk_pos_ != nullptr && walk_pos_->size() == c->fail_at.size()) {
    if (c->by_pos_epoch != walk_pos_epoch_) {
      c->fail_at_by_pos.resize(c->fail_at.size());
      for (NodeId id = 0; id < c->fail_at.size(); ++id)
        c->fail_at_by_pos[(*walk_pos_)[id]] = c->fail_at[id];
      c->by_pos_epoch = walk_pos_epoch_;
    }
    by_pos = c->fail_at_by_pos.data();
  }
  return KeptVerdicts{c->filter_kept.data(), c->fail_at.data(), c->run_list.data(),
                      c->run_list.size(), by_pos};
}

bool Framework::RunNowFilterCodes(size_t j, const CycleState& state, const Pod& pod,
                                  const NodeId* ids, size_t count, Code* out) const {
  const BatchFilterCodes* batch = batch_filter_[cycle_class_->run_list[j]];
  return batch != nullptr && batch->FilterCodesOf(state, pod, ids, count, out);
}

bool Framework::RunNowCandidates(size_t j, const CycleState& state,
                                 std::vector<NodeId>* out) const {
  const BatchFilterCodes* batch = batch_filter_[cycle_class_->run_list[j]];
  return batch != nullptr && batch->CandidateNodes(state, out);
}

bool Framework::KeptFailure(NodeCacheClass* c, const CycleState& state, const Pod& pod,
                            const NodeInfo& node, Status* failure) const {
  const NodeId id = node.id;
  uint32_t k = c->fail_status[id];
  if (k == NodeCacheClass::kStatusNotKept) {
    // The node and the class's spec are as they were when the code was
    // kept, so the plugin returns that verdict again, now with its reasons.
    const FilterPlugin* pl = filter_[static_cast<size_t>(c->fail_at[id])];
    Status s = pl->Filter(state, pod, node);
    if (s.code() != c->fail_code[id]) return false;
    k = c->KeepStatus(WrapFilterStatus(pl, std::move(s)));
    c->fail_status[id] = k;
  }
  *failure = c->KeptStatus(k);
  return true;
}

bool Framework::RunFilterPluginsCached(const CycleState& state, const Pod& pod, NodeId id,
                                       Status* failure) const {
  const NodeInfo& node = cluster_->node_info(id);
  NodeCacheClass* c = cycle_class_;
  const NominatedPods* nominated = options_.nominated;
  if (c == nullptr || !c->any_local_filter || id >= c->filter_kept.size() ||
      (nominated != nullptr && !nominated->empty() && HasNominatedPodsOn(node))) {
    Status s = RunFilterPluginsWithNominatedPods(state, pod, node);
    if (s.IsSuccess()) return true;
    *failure = std::move(s);
    return false;
  }
  if (!c->filter_kept[id]) {
    int64_t newly_kept = 0;
    const bool kept = KeepNodeLocalVerdict(c, state, pod, node, /*with_status=*/true, &newly_kept);
    c->unkept.fetch_sub(newly_kept, std::memory_order_relaxed);
    if (!kept) {
      *failure = RunFilterPluginsWithNominatedPods(state, pod, node);
      return failure->IsSuccess();
    }
  }
  // The other plugins that run this cycle, before the kept failure (all of
  // them without one), in order: the first to fail is the node's status, as
  // in RunFilterPlugins.
  const int16_t fail = c->fail_at[id];
  if (c->any_run_now) {
    MetricsRecorder* const rec = plugin_recorder();
    const size_t end = fail < 0 ? filter_.size() : static_cast<size_t>(fail);
    for (size_t p = 0; p < end; ++p) {
      if (!c->run_now[p]) continue;
      Status s = TimePlugin(rec, filter_[p], ep::kFilter,
                            [&] { return filter_[p]->Filter(state, pod, node); });
      if (s.IsSuccess()) continue;
      *failure = WrapFilterStatus(filter_[p], std::move(s));
      return false;
    }
  }
  if (fail < 0) return true;
  if (!KeptFailure(c, state, pod, node, failure)) {
    *failure = RunFilterPluginsWithNominatedPods(state, pod, node);
    return failure->IsSuccess();
  }
  return false;
}

Status Framework::AddNominatedPods(const Pod& pod, const CycleState& state, const NodeInfo& node,
                                   bool* added, CycleState* state_out, NodeInfo* node_out) const {
  *added = false;
  const NominatedPods* nominated = options_.nominated;
  if (nominated == nullptr || nominated->empty() || node.node == nullptr) return Status();
  const auto& entries = nominated->ForNode(node.name());
  if (entries.empty()) return Status();
  const int32_t priority = PodPriority(pod);
  for (const NominatedPods::Entry& e : entries) {
    if (e.priority < priority || e.uid == pod.meta.uid) continue;
    if (!*added) {
      *node_out = node;
      *state_out = state.Clone();
      *added = true;
    }
    const PodInfo& info = cluster_->pod(e.pod);
    node_out->AddPod(e.pod, info);
    Status s = RunPreFilterExtensionAddPod(state_out, pod, info, *node_out);
    if (!s.IsSuccess()) {
      *added = false;
      return s;
    }
  }
  return Status();
}

Status Framework::RunFilterPluginsWithNominatedPods(const CycleState& state, const Pod& pod,
                                                    const NodeInfo& node) const {
  // First pass with the nominated pods of equal or higher priority added, so
  // the pod does not take room kept for them; then, if any were added and
  // that passed, a second pass without them, since filters like pod
  // affinity may only pass with them present.
  bool added = false;
  CycleState with_state;
  NodeInfo with_node;
  Status s = AddNominatedPods(pod, state, node, &added, &with_state, &with_node);
  if (!s.IsSuccess()) return s;
  Status status =
      added ? RunFilterPlugins(with_state, pod, with_node) : RunFilterPlugins(state, pod, node);
  if (!added || !status.IsSuccess()) return status;
  return RunFilterPlugins(state, pod, node);
}

Status Framework::RunPostFilterPlugins(CycleState* state, const Pod& pod,
                                       const NodeToStatusMap& filtered_node_status,
                                       PostFilterResult* result) const {
  return TimePoint(metrics_, ep::kPostFilter, profile_name_, [&] {
    return RunPostFilterPluginsUntimed(state, pod, filtered_node_status, result);
  });
}

Status Framework::RunPostFilterPluginsUntimed(CycleState* state, const Pod& pod,
                                              const NodeToStatusMap& filtered_node_status,
                                              PostFilterResult* result) const {
  // Upstream merges the unschedulable statuses (code of highest precedence,
  // every reason) and keeps the last result that nominates a node.
  // v1.35's RunPostFilterPlugins: an UnschedulableAndUnresolvable status
  // ends the run with its plugin, and the end status is Unschedulable with
  // every reason, its plugin the first that rejected.
  const bool v135 = options_.feature_gates.AtLeast(config::SchedulerVersion::kV135);
  Status merged;
  bool any = false;
  PostFilterResult last;
  for (PostFilterPlugin* pl : post_filter_) {
    PostFilterResult r;
    Status s = TimePlugin(plugin_recorder(), pl, ep::kPostFilter,
                          [&] { return pl->PostFilter(state, pod, filtered_node_status, &r); });
    if (s.IsSuccess()) {
      *result = std::move(r);
      return s;
    }
    if (v135 && s.code() == Code::kUnschedulableAndUnresolvable) {
      *result = std::move(r);
      return s.WithFailedPlugin(std::string(pl->Name()));
    }
    if (!s.IsUnschedulable()) {
      Status error = Status::Error(s.Message());
      if (v135) error.WithFailedPlugin(std::string(pl->Name()));
      return error;
    }
    if (v135) {
      if (r.nominating) last = std::move(r);
      if (!any) merged = Status(Code::kUnschedulable).WithFailedPlugin(std::string(pl->Name()));
      for (const auto& reason : s.reasons()) merged.AppendReason(reason);
      any = true;
      continue;
    }
    if (r.nominating) last = std::move(r);  // ModeOverride, "" included
    if (!any || (merged.code() == Code::kUnschedulable &&
                 s.code() == Code::kUnschedulableAndUnresolvable)) {
      Status next(s.code(), merged.reasons());
      next.WithFailedPlugin(std::string(pl->Name()));
      merged = std::move(next);
    }
    for (const auto& reason : s.reasons()) merged.AppendReason(reason);
    any = true;
  }
  *result = std::move(last);
  return merged;
}

// ---------------------------------------------------------------- score

Status Framework::RunPreScorePlugins(CycleState* state, const Pod& pod,
                                     const std::vector<NodeId>& nodes) const {
  return TimePoint(metrics_, ep::kPreScore, profile_name_, [&] {
    const bool v135 = options_.feature_gates.AtLeast(config::SchedulerVersion::kV135);
    for (PreScorePlugin* pl : pre_score_) {
      Status s = TimePlugin(plugin_recorder(), pl, ep::kPreScore,
                            [&] { return pl->PreScore(state, pod, nodes); });
      if (v135 && s.IsSkip()) {
        state->SkipScore(pl);
        continue;
      }
      if (!s.IsSuccess()) {
        return Status::Error("running PreScore plugin " + Quote(pl->Name()) + ": " + s.Message());
      }
    }
    return Status();
  });
}

// Upstream keeps one score list per plugin name: a plugin listed twice
// (MultiPoint re-ordering can do that) scores into the same list, whose
// NormalizeScore then runs once per listing, and each listing adds the
// list's final scores to the total. slot[p] is the list of listing p.
std::vector<size_t> Framework::ComputeScoreSlots() const {
  const size_t np = score_.size();
  std::vector<size_t> slot(np);
  for (size_t p = 0; p < np; ++p) {
    slot[p] = p;
    for (size_t q = 0; q < p; ++q)
      if (score_[q]->Name() == score_[p]->Name()) {
        slot[p] = q;
        break;
      }
  }
  return slot;
}

void Framework::SetSkipped(const CycleState& state, PluginScores* out) const {
  out->skipped.assign(score_.size(), 0);
  if (!state.any_score_skipped()) return;
  for (size_t p = 0; p < score_.size(); ++p) out->skipped[p] = state.SkipsScore(score_[p]);
}

Status Framework::RunScorePlugins(const CycleState& state, const Pod& pod,
                                  const std::vector<NodeId>& nodes, PluginScores* out,
                                  bool use_node_cache, bool want_weighted) const {
  return TimePoint(metrics_, ep::kScore, profile_name_, [&] {
    return RunScorePluginsUntimed(state, pod, nodes, out, use_node_cache, want_weighted);
  });
}

Status Framework::RunScorePluginsUntimed(const CycleState& state, const Pod& pod,
                                         const std::vector<NodeId>& nodes, PluginScores* out,
                                         bool use_node_cache, bool want_weighted) const {
  if (use_node_cache) {
    bool fell_back = false;
    Status s = RunScorePluginsReusing(state, pod, nodes, out, want_weighted, &fell_back);
    if (!fell_back) return s;
  }
  const size_t n = nodes.size(), np = score_.size();
  const std::vector<size_t>& slot = score_slots_;
  std::vector<NodeScoreList> raw(np, NodeScoreList(n));
  std::vector<Status> errors(n);
  MetricsRecorder* const rec = plugin_recorder();
  SetSkipped(state, out);
  const std::vector<uint8_t>& skipped = out->skipped;
  // Each node's scores, plugin by plugin; a failure stops that node.
  ParallelFor(n, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      const NodeInfo& info = cluster_->node_info(nodes[i]);
      for (size_t p = 0; p < np; ++p) {
        if (skipped[p]) {
          raw[slot[p]][i] = NodeScore{nodes[i], 0};
          continue;
        }
        int64_t score = 0;
        Status s = TimePlugin(rec, score_[p], ep::kScore,
                              [&] { return score_[p]->Score(state, pod, info, &score); });
        if (!s.IsSuccess()) {
          errors[i] =
              Status::Error("plugin " + Quote(score_[p]->Name()) + " failed with: " + s.Message());
          break;
        }
        raw[slot[p]][i] = NodeScore{nodes[i], score};
      }
    }
  });
  for (const Status& e : errors)
    if (!e.IsSuccess()) return Status::Error("running Score plugins: " + e.Message());
  return NormalizeAndWeigh(state, pod, slot, &raw, n, out, want_weighted);
}

Status Framework::NormalizeAndWeigh(const CycleState& state, const Pod& pod,
                                    const std::vector<size_t>& slot,
                                    std::vector<NodeScoreList>* raw, size_t n, PluginScores* out,
                                    bool want_weighted) const {
  const size_t np = score_.size();
  for (size_t p = 0; p < np; ++p) {
    const ScoreExtensions* ext = score_[p]->ScoreExt();
    if (ext == nullptr || out->skipped[p]) continue;
    Status s = TimePlugin(plugin_recorder(), score_[p], ep::kScoreExtensionNormalize,
                          [&] { return ext->NormalizeScore(state, pod, &(*raw)[slot[p]]); });
    if (!s.IsSuccess()) {
      return Status::Error("running Normalize on Score plugins: plugin " +
                           Quote(score_[p]->Name()) + " failed with: " + s.Message());
    }
  }
  out->num_nodes = n;
  if (want_weighted) {
    out->weighted.assign(np * n, 0);
  } else {
    out->weighted.clear();
  }
  out->total.assign(n, 0);
  // Plugin by plugin; the first out-of-range score in node order, then
  // plugin order, is the error upstream reports.
  bool out_of_range = false;
  for (size_t p = 0; p < np && !out_of_range; ++p) {
    const NodeScoreList& list = (*raw)[slot[p]];
    const int64_t weight = score_weights_[p];
    int64_t* weighted = want_weighted ? &out->weighted[p * n] : nullptr;
    int64_t* total = out->total.data();
    for (size_t i = 0; i < n; ++i) {
      const int64_t score = list[i].score;
      out_of_range |= score > kMaxNodeScore || score < kMinNodeScore;
      const int64_t w = score * weight;
      if (weighted != nullptr) weighted[i] = w;
      total[i] += w;
    }
  }
  if (out_of_range) {
    for (size_t i = 0; i < n; ++i) {
      for (size_t p = 0; p < np; ++p) {
        int64_t score = (*raw)[slot[p]][i].score;
        if (score > kMaxNodeScore || score < kMinNodeScore) {
          return Status::Error("applying score defaultWeights on Score plugins: plugin " +
                               Quote(score_[p]->Name()) + " returns an invalid score " +
                               std::to_string(score) + ", it should in the range of [" +
                               std::to_string(kMinNodeScore) + ", " +
                               std::to_string(kMaxNodeScore) + "] after normalizing");
        }
      }
    }
  }
  return Status();
}

Status Framework::RunScorePluginsReusing(const CycleState& state, const Pod& pod,
                                         const std::vector<NodeId>& nodes, PluginScores* out,
                                         bool want_weighted, bool* fell_back) const {
  *fell_back = false;
  NodeCacheClass* c = cycle_class_;
  if (c != nullptr && c->num_local_scores == 0) c = nullptr;
  const size_t n = nodes.size(), np = score_.size();
  const std::vector<size_t>& slot = score_slots_;
  MetricsRecorder* const rec = plugin_recorder();
  SetSkipped(state, out);
  const std::vector<uint8_t>& skipped = out->skipped;
  if (c != nullptr && state.any_score_skipped()) {
    if (np > 64) {
      *fell_back = true;  // skips are kept as bits
      return Status();
    }
    // Only the node-local plugins' skips matter to the kept scores: the
    // others (PodTopologySpread, InterPodAffinity, whose Skip depends on
    // the cluster too) are not kept.
    uint64_t mask = SkippedScores(state);
    for (size_t p = 0; p < np; ++p)
      if (c->score_slot[p] < 0) mask &= ~(uint64_t{1} << p);
    if (mask != c->skip_score_mask) {
      // Kept scores (and their fused sums) counted other plugins.
      c->skip_score_mask = mask;
      std::fill(c->score_kept.begin(), c->score_kept.end(), 0);
    }
  } else if (c != nullptr && c->skip_score_mask != 0) {
    c->skip_score_mask = 0;
    std::fill(c->score_kept.begin(), c->score_kept.end(), 0);
  }
  // Each list is sized when its plugin's column is written below: lists of
  // plugins that are fused or constant this cycle are left alone.
  std::vector<NodeScoreList>& raw = score_scratch_;
  if (raw.size() < np) raw.resize(np);
  std::atomic<bool> failed{false};

  // The node-local plugins' scores of nodes without kept ones, computed and
  // kept (node by node, as they are on the other path).
  // Most nodes are kept: the others are listed first, then computed.
  std::vector<NodeId>& stale = stale_scratch_;
  stale.clear();
  if (c != nullptr) {
    // Read through locals: push_back's stores could alias the class's
    // vectors, which the loop would otherwise reload per node.
    const uint8_t* kept = c->score_kept.data();
    const NodeId* ids = nodes.data();
    for (size_t i = 0; i < n; ++i) {
      if (kept[ids[i]]) continue;
      // Most cycles score one or two stale nodes: they are fetched now,
      // while the rest of the list is found (the loop below fetches ahead).
      if (stale.size() < 2) {
        PrefetchNode(ids[i]);
        PrefetchKeptScores(*c, ids[i]);
      }
      stale.push_back(ids[i]);
    }
  }
  if (!stale.empty()) {
    ParallelFor(stale.size(), [&](size_t begin, size_t end) {
      // Per column, the change in non-zero scores, added to `nonzero` once
      // (see KeepNodeLocalVerdict on atomic writes per node).
      std::vector<int64_t> nonzero_delta(c->num_local_scores, 0);
      for (size_t i = begin; i < end; ++i) {
        const NodeId id = stale[i];
        // As in FilterCodesCached: the vectors of the next node, the node
        // after it; the next node's kept scores are as cold.
        if (i + 2 < end) {
          PrefetchNode(stale[i + 2]);
          PrefetchKeptScores(*c, stale[i + 2]);
        }
        if (i + 1 < end) PrefetchNodeVectors(stale[i + 1], /*images=*/true);
        const NodeInfo& info = cluster_->node_info(id);
        // The node's score in column `col`.
        auto kept = [&](size_t col) -> int64_t& { return c->raw[col * c->num_nodes + id]; };
        // A sibling's kept scores stand for those of the plugins that read
        // none of the aspects the two differ in (as in KeepNodeLocalVerdict).
        const NodeCacheClass::Sibling* donor = c->ScoreDonor(id);
        bool ok = true;
        for (size_t p = 0; p < np && ok; ++p) {
          const int32_t col = c->score_slot[p];
          if (col < 0 || skipped[p]) continue;
          int64_t& score = kept(static_cast<size_t>(col));
          const int64_t old = score;
          if (donor != nullptr && donor->lend_score[p]) {
            score = donor->c->raw[static_cast<size_t>(col) * c->num_nodes + id];
          } else {
            ok = TimePlugin(rec, score_[p], ep::kScore, [&] {
                   return score_[p]->Score(state, pod, info, &score);
                 }).IsSuccess();
          }
          if ((old != 0) != (score != 0)) nonzero_delta[col] += score != 0 ? 1 : -1;
        }
        if (ok) {
          c->score_kept[id] = 1;
          int64_t base = 0;
          bool in_range = true;
          for (size_t p = 0; p < np; ++p) {
            if (!c->fused[p] || skipped[p]) continue;
            const int64_t score = kept(static_cast<size_t>(c->score_slot[p]));
            in_range = in_range && score >= kMinNodeScore && score <= kMaxNodeScore;
            base += score * score_weights_[p];
          }
          c->base[id] = base;
          c->base_ok[id] = in_range;
        } else {
          failed.store(true, std::memory_order_relaxed);
        }
      }
      for (size_t col = 0; col < nonzero_delta.size(); ++col)
        if (nonzero_delta[col] != 0)
          c->nonzero[col].fetch_add(nonzero_delta[col], std::memory_order_relaxed);
    });
  }
  // Without the weighted matrix, the fused plugins' part of each total is
  // the kept base, when every one of them is in range (checked below, as
  // the totals start from the bases).
  bool fuse = !want_weighted && c != nullptr && c->fusable && !failed.load();
  // Each listing's column: kept scores, zeros for plugins that score 0
  // everywhere this cycle (PodTopologySpread and InterPodAffinity without
  // terms), else the plugin on every node.
  // Without the matrix, a plugin whose raw scores are all 0 (kept columns
  // without a non-zero value, plugins that score 0 everywhere) adds the
  // same normalized score to every total, when the plugin can tell it.
  int64_t constant = 0;
  // Per listing, how its column reaches the totals when fused: through
  // `raw` (0), as a constant (kConstant), or normalized and added in place
  // from the kept column (kInPlace, BatchNormalizeAdd).
  constexpr uint8_t kConstant = 1, kInPlace = 2;
  std::vector<uint8_t>& column_use = column_use_scratch_;
  column_use.assign(np, 0);
  bool in_place_out_of_range = false;
  for (size_t p = 0; fuse && p < np; ++p) {
    if (skipped[p]) {
      column_use[p] = kConstant;  // adds nothing
      continue;
    }
    if (c->fused[p]) continue;
    const int32_t col = c->score_slot[p];
    const bool all_zero =
        col >= 0 ? c->nonzero[col].load() == 0 : score_[p]->ScoresZeroEverywhere(state);
    if (!all_zero) continue;
    const ScoreExtensions* ext = score_[p]->ScoreExt();
    const std::optional<int64_t> k =
        ext != nullptr ? ext->NormalizedZero(state, pod) : std::optional<int64_t>(0);
    if (!k || *k < kMinNodeScore || *k > kMaxNodeScore) continue;
    constant += *k * score_weights_[p];
    column_use[p] = kConstant;
  }
  if (fuse) {
    out->total.resize(n);
    int64_t* total = out->total.data();
    const int64_t* base = c->base.data();
    const uint8_t* base_ok = c->base_ok.data();
    uint8_t all_ok = 1;
    for (size_t i = 0; i < n; ++i) {
      const NodeId id = nodes[i];
      total[i] = base[id] + constant;
      all_ok &= base_ok[id];
    }
    fuse = all_ok != 0;
  }
  for (size_t p = 0; p < np && !failed.load(std::memory_order_relaxed); ++p) {
    if (fuse && (c->fused[p] || column_use[p])) continue;
    if (skipped[p]) {
      NodeScoreList& list = raw[slot[p]];
      list.resize(n);
      for (size_t i = 0; i < n; ++i) list[i] = NodeScore{nodes[i], 0};
      continue;
    }
    const int32_t col = c != nullptr ? c->score_slot[p] : -1;
    // A kept column the plugin normalizes from the scores alone: onto the
    // totals in place, without a list (a sampled cycle times NormalizeScore).
    if (fuse && col >= 0 && rec == nullptr) {
      const BatchNormalizeAdd* in_place = batch_normalize_[p];
      if (in_place != nullptr &&
          in_place->NormalizeAndAdd(state, pod, c->Column(static_cast<size_t>(col)), nodes.data(),
                                    n, score_weights_[p], out->total.data(),
                                    &in_place_out_of_range)) {
        column_use[p] = kInPlace;
        continue;
      }
    }
    // A plugin that scores, normalizes and weighs in one pass, onto the
    // totals without a list.
    if (fuse && col < 0 && rec == nullptr && batch_scores_[p] != nullptr &&
        batch_scores_[p]->ScoreNormalizeAndAdd(state, pod, nodes.data(), n, score_weights_[p],
                                               out->total.data(), &in_place_out_of_range)) {
      column_use[p] = kInPlace;
      continue;
    }
    NodeScoreList& list = raw[slot[p]];
    list.resize(n);
    if (col >= 0) {
      const int64_t* column = c->Column(static_cast<size_t>(col));
      for (size_t i = 0; i < n; ++i) list[i] = NodeScore{nodes[i], column[nodes[i]]};
    } else if (score_[p]->ScoresZeroEverywhere(state)) {
      for (size_t i = 0; i < n; ++i) list[i] = NodeScore{nodes[i], 0};
    } else {
      const ScorePlugin* pl = score_[p];
      // The batch form where the plugin has one, else node by node (and on
      // a sampled cycle, which times each node's run).
      if (const BatchScores* batch = rec == nullptr ? batch_scores_[p] : nullptr) {
        std::atomic<bool> answered{true};
        ParallelFor(n, [&](size_t begin, size_t end) {
          if (!batch->ScoresOf(state, pod, nodes.data() + begin, end - begin, list.data() + begin))
            answered.store(false, std::memory_order_relaxed);
        });
        if (answered.load()) continue;
      }
      ParallelFor(n, [&](size_t begin, size_t end) {
        for (size_t i = begin; i < end; ++i) {
          int64_t score = 0;
          const Status s = TimePlugin(rec, pl, ep::kScore, [&] {
            if (std::optional<int64_t> by_id = pl->ScoreOf(state, pod, nodes[i])) {
              score = *by_id;
              return Status();
            }
            return pl->Score(state, pod, cluster_->node_info(nodes[i]), &score);
          });
          if (!s.IsSuccess()) failed.store(true, std::memory_order_relaxed);
          list[i] = NodeScore{nodes[i], score};
        }
      });
    }
  }
  // A plugin failed: the other path runs them all again, node by node, and
  // reports the first failure as upstream does.
  if (failed.load()) {
    *fell_back = true;
    return Status();
  }
  if (!fuse) return NormalizeAndWeigh(state, pod, slot, &raw, n, out, want_weighted);
  // The other plugins' normalized scores, weighted, onto the bases; an
  // out-of-range score is reported by the full path.
  out->num_nodes = n;
  out->weighted.clear();
  bool out_of_range = in_place_out_of_range;
  for (size_t p = 0; p < np; ++p) {
    if (c->fused[p] || column_use[p]) continue;
    NodeScoreList& list = raw[p];
    if (const ScoreExtensions* ext = score_[p]->ScoreExt()) {
      const Status s = TimePlugin(rec, score_[p], ep::kScoreExtensionNormalize,
                                  [&] { return ext->NormalizeScore(state, pod, &list); });
      if (!s.IsSuccess()) out_of_range = true;
    }
    const int64_t weight = score_weights_[p];
    int64_t* total = out->total.data();
    for (size_t i = 0; i < n; ++i) {
      const int64_t score = list[i].score;
      out_of_range |= score > kMaxNodeScore || score < kMinNodeScore;
      total[i] += score * weight;
    }
  }
  if (out_of_range) {
    *fell_back = true;
    return Status();
  }
  return Status();
}

// ---------------------------------------------------------------- binding cycle

Status Framework::RunReservePluginsReserve(CycleState* state, const Pod& pod, NodeId node) const {
  return TimePoint(metrics_, ep::kReserve, profile_name_, [&] {
    const bool v135 = options_.feature_gates.AtLeast(config::SchedulerVersion::kV135);
    for (ReservePlugin* pl : reserve_) {
      Status s = TimePlugin(plugin_recorder(), pl, ep::kReserve,
                            [&] { return pl->Reserve(state, pod, node); });
      if (!s.IsSuccess()) {
        // v1.35 returns a rejection as it is (the pod is unschedulable, not
        // in error).
        if (v135 && s.IsUnschedulable()) return s.WithFailedPlugin(std::string(pl->Name()));
        return Status::Error("running Reserve plugin " + Quote(pl->Name()) + ": " + s.Message());
      }
    }
    return Status();
  });
}

void Framework::RunReservePluginsUnreserve(CycleState* state, const Pod& pod, NodeId node) const {
  // Upstream reports Unreserve as a Success whatever the plugins did.
  TimePoint(metrics_, ep::kUnreserve, profile_name_, [&] {
    for (size_t i = reserve_.size(); i-- > 0;) {
      TimePlugin(plugin_recorder(), reserve_[i], ep::kUnreserve, [&] {
        reserve_[i]->Unreserve(state, pod, node);
        return Status();
      });
    }
    return Status();
  });
}

Status Framework::RunPermitPlugins(CycleState* state, const Pod& pod, NodeId node,
                                   int64_t* timeout_ns) const {
  return TimePoint(metrics_, ep::kPermit, profile_name_,
                   [&] { return RunPermitPluginsUntimed(state, pod, node, timeout_ns); });
}

Status Framework::RunPermitPluginsUntimed(CycleState* state, const Pod& pod, NodeId node,
                                          int64_t* timeout_ns) const {
  bool wait = false;
  int64_t longest = 0;
  for (PermitPlugin* pl : permit_) {
    int64_t timeout = 0;
    Status s = TimePlugin(plugin_recorder(), pl, ep::kPermit,
                          [&] { return pl->Permit(state, pod, node, &timeout); });
    if (s.IsSuccess()) continue;
    if (s.IsUnschedulable()) return s.WithFailedPlugin(std::string(pl->Name()));
    if (s.IsWait()) {
      wait = true;
      longest = std::max(longest, std::min(timeout, kMaxPermitTimeoutNs));
      continue;
    }
    return Status::Error("running Permit plugin " + Quote(pl->Name()) + ": " + s.Message())
        .WithFailedPlugin(std::string(pl->Name()));
  }
  if (timeout_ns != nullptr) *timeout_ns = longest;
  if (wait) {
    return Status(Code::kWait, "one or more plugins asked to wait and no plugin rejected pod " +
                                   Quote(pod.meta.name));
  }
  return Status();
}

Status Framework::RunPreBindPlugins(CycleState* state, const Pod& pod, NodeId node) const {
  return TimePoint(metrics_, ep::kPreBind, profile_name_, [&] {
    for (PreBindPlugin* pl : pre_bind_) {
      Status s = TimePlugin(plugin_recorder(), pl, ep::kPreBind,
                            [&] { return pl->PreBind(state, pod, node); });
      if (s.IsSuccess()) continue;
      if (s.IsUnschedulable()) return s.WithFailedPlugin(std::string(pl->Name()));
      return Status::Error("running PreBind plugin " + Quote(pl->Name()) + ": " + s.Message());
    }
    return Status();
  });
}

Status Framework::RunClusterPreBind(CycleState* state, const Pod& pod, NodeId node,
                                    ClusterState* cluster) const {
  for (PreBindPlugin* pl : pre_bind_) {
    auto* writer = dynamic_cast<ClusterWritingPlugin*>(pl);
    if (writer == nullptr) continue;
    Status s = writer->PreBindToCluster(state, pod, node, cluster);
    if (s.IsSuccess()) continue;
    if (s.IsUnschedulable()) return s.WithFailedPlugin(std::string(pl->Name()));
    return Status::Error("running PreBind plugin " + Quote(pl->Name()) + ": " + s.Message());
  }
  return Status();
}

void Framework::ApplyPostFilterWrites(CycleState* state, const Pod& pod,
                                      ClusterState* cluster) const {
  for (PostFilterPlugin* pl : post_filter_) {
    if (auto* writer = dynamic_cast<ClusterWritingPlugin*>(pl))
      writer->ApplyPostFilterWrites(state, pod, cluster);
  }
}

Status Framework::RunBindPlugins(CycleState* state, const Pod& pod, NodeId node) const {
  return TimePoint(metrics_, ep::kBind, profile_name_,
                   [&] { return RunBindPluginsUntimed(state, pod, node); });
}

Status Framework::RunBindPluginsUntimed(CycleState* state, const Pod& pod, NodeId node) const {
  if (bind_.empty()) return Status(Code::kSkip);
  Status last;
  for (BindPlugin* pl : bind_) {
    Status s =
        TimePlugin(plugin_recorder(), pl, ep::kBind, [&] { return pl->Bind(state, pod, node); });
    if (s.IsSkip()) {
      last = std::move(s);
      continue;
    }
    if (s.IsSuccess()) return s;
    if (s.IsUnschedulable()) return s.WithFailedPlugin(std::string(pl->Name()));
    return Status::Error("running Bind plugin " + Quote(pl->Name()) + ": " + s.Message());
  }
  return last;
}

void Framework::RunPostBindPlugins(CycleState* state, const Pod& pod, NodeId node) const {
  TimePoint(metrics_, ep::kPostBind, profile_name_, [&] {
    for (PostBindPlugin* pl : post_bind_) {
      TimePlugin(plugin_recorder(), pl, ep::kPostBind, [&] {
        pl->PostBind(state, pod, node);
        return Status();
      });
    }
    return Status();
  });
}

}  // namespace ksched::framework
