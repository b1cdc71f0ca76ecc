#include <chrono>
#include <unordered_map>
#include <utility>

#include "config/feature_gates.h"
#include "engine/engine.h"
#include "engine/framework_metrics.h"
#include "framework/admission.h"
#include "framework/cache_options.h"
#include "framework/prebind.h"
#include "framework/runtime/metrics_recorder.h"
#include "framework/schedule_one.h"

namespace ksched {
namespace {

// The framework's cycle as ScheduleResult, the shape every report reads:
// the failing plugin stands where v1.15 names its predicate, and each score
// plugin's column holds its normalized score (the weight is the column's).
ScheduleResult ToScheduleResult(const framework::CycleResult& r, const framework::Framework* fwk,
                                const std::vector<size_t>& column_of, size_t num_columns) {
  ScheduleResult out;
  out.chosen = r.chosen;
  out.error = r.error;
  out.fit_error = r.fit_error;
  out.unschedulable_plugins = r.unschedulable_plugins;
  out.feasible = r.feasible;
  out.failures.reserve(r.failures.size());
  for (const framework::NodeStatus& ns : r.failures)
    out.failures.push_back({ns.node, ns.status.reasons(), ns.status.failed_plugin()});
  for (const auto& [name, status] : r.unknown_failures)
    out.unknown_node_failures.emplace_back(name, status.reasons());
  if (!r.scored || fwk == nullptr) return out;
  out.scored = true;
  out.totals = r.totals;
  const size_t n = r.feasible.size();
  out.priority_scores.assign(num_columns, std::vector<int64_t>(n, 0));
  for (size_t p = 0; p < fwk->num_score_plugins(); ++p) {
    const int64_t weight = fwk->score_weights()[p];
    std::vector<int64_t>& column = out.priority_scores[column_of[p]];
    for (size_t i = 0; i < n; ++i) column[i] = weight == 0 ? 0 : r.plugin_scores.At(p, i) / weight;
  }
  return out;
}

// A pod reserved by `ksched run`: the cycle's state (its Unreserve needs
// it) and the PreBind plugins' jobs, in their order.
class FrameworkReservation final : public Reservation {
 public:
  FrameworkReservation(framework::Framework* fwk, framework::CycleState state, Pod pod, NodeId node)
      : fwk_(fwk), state_(std::move(state)), pod_(std::move(pod)), node_(node) {}

  Status PreBind(framework::PreBindApi* api, const std::atomic<bool>& stop) override {
    if (api == nullptr && !jobs_.empty())
      return MakeError(
          PreBindError(jobs_.front().first, framework::Status::Error("no API server to write to")));
    for (const auto& [name, job] : jobs_) {
      framework::Status s = job->Run(api, stop);
      if (!s.IsSuccess()) return MakeError(PreBindError(name, s));
    }
    return Status::Ok();
  }

  bool has_pre_bind_work() const override { return !jobs_.empty(); }

  // Upstream's RunPreBindPlugins message.
  static std::string PreBindError(std::string_view plugin, const framework::Status& s) {
    return "running PreBind plugin \"" + std::string(plugin) + "\": " + s.Message();
  }

  void Unreserve() { fwk_->RunReservePluginsUnreserve(&state_, pod_, node_); }
  framework::CycleState* state() { return &state_; }
  framework::Framework* fwk() const { return fwk_; }
  void AddJob(std::string_view plugin, std::unique_ptr<framework::PreBindJob> job) {
    jobs_.emplace_back(std::string(plugin), std::move(job));
  }

 private:
  framework::Framework* fwk_;
  framework::CycleState state_;
  Pod pod_;
  NodeId node_;
  std::vector<std::pair<std::string, std::unique_ptr<framework::PreBindJob>>> jobs_;
};

class FrameworkEngine final : public Engine {
 public:
  explicit FrameworkEngine(std::unique_ptr<framework::Scheduler> scheduler)
      : scheduler_(std::move(scheduler)) {
    columns_.field = "plugins";
    columns_.weighted = true;
    // One column per score plugin of any profile, in the first profile's
    // order and then each later profile's new ones; a pod's result has 0 in
    // the columns its profile does not run. A plugin weighted differently
    // in a later profile gets its own column, "Name@profile".
    for (const auto& fwk : scheduler_->profiles()) {
      std::vector<size_t>& column_of = column_of_[fwk.get()];
      for (size_t p = 0; p < fwk->num_score_plugins(); ++p) {
        const std::string name(fwk->ScorePluginName(p));
        const int64_t weight = fwk->score_weights()[p];
        column_of.push_back(ColumnFor(name, weight, fwk->profile_name()));
      }
    }
  }

  std::string_view version() const override {
    return config::SchedulerVersionName(gates().version);
  }
  bool framework() const override { return true; }
  std::vector<std::pair<std::string, bool>> changed_feature_gates() const override {
    return config::NonDefaultFeatureGates(gates());
  }
  CacheOptions cache_options() const override { return framework::FrameworkCacheOptions(gates()); }
  const ScoreColumns& score_columns() const override { return columns_; }
  std::vector<std::string> profile_names() const override {
    std::vector<std::string> names;
    for (const auto& fwk : scheduler_->profiles()) names.push_back(fwk->profile_name());
    return names;
  }

  std::string PreEnqueue(const Pod& pod) override {
    framework::Framework* fwk = scheduler_->FrameworkForPod(pod);
    if (fwk == nullptr) return {};  // Schedule() reports the missing profile
    const auto start = std::chrono::steady_clock::now();
    framework::Status gate = fwk->RunPreEnqueuePlugins(pod);
    if (framework::MetricsRecorder* m = fwk->metrics_recorder()) {
      // As upstream's queue, labelled with the pod's schedulerName.
      m->ExtensionPoint(
          framework::extension_points::kPreEnqueue, gate.code(), fwk->profile_name(),
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    if (!gate.IsSuccess()) last_gate_plugin_ = gate.failed_plugin();
    return gate.IsSuccess() ? std::string() : gate.Message();
  }

  const std::string& last_gate_plugin() const { return last_gate_plugin_; }
  bool v135() const { return gates().AtLeast(config::SchedulerVersion::kV135); }
  framework::QueueingHintMaps QueueingHints() const { return scheduler_->QueueingHints(); }
  void SetAsyncPreemptions(const framework::AsyncPreemptions* p) {
    scheduler_->SetAsyncPreemptions(p);
  }
  void SetMetricsRecorder(framework::MetricsRecorder* recorder) {
    scheduler_->SetMetricsRecorder(recorder);
  }

  std::optional<framework::ClusterEventMap> ClusterEvents() const override {
    return scheduler_->ClusterEvents();
  }
  bool PassesNodePreCheck(const Pod& pod, const NodeInfo& node) const override {
    return framework::PassesNodePreCheck(pod, node);
  }

  ScheduleResult Schedule(const Pod& pod, const ClusterState& cluster, NodeTree* /*tree*/,
                          bool /*record_details*/, const NominatedPods* nominated) override {
    last_ = framework::CycleResult();
    last_pod_uid_ = pod.meta.uid;
    attempted_ = false;
    fwk_ = scheduler_->FrameworkForPod(pod);
    if (fwk_ == nullptr) {
      ScheduleResult out;
      out.error = "profile not found for scheduler name \"" + pod.spec.scheduler_name + "\"";
      return out;
    }
    // The queue's PreEnqueue (SchedulingGates, DynamicResources, which reads
    // the cluster's claims): a held pod is never attempted, so it neither
    // fails nor preempts.
    scheduler_->SetCluster(&cluster);
    if (framework::Status gate = fwk_->RunPreEnqueuePlugins(pod); !gate.IsSuccess()) {
      ScheduleResult out;
      out.error = gate.Message();
      return out;
    }
    scheduler_->SetNominated(nominated);
    attempted_ = true;
    scheduler_->SchedulePod(fwk_, pod, &last_);
    return ToScheduleResult(last_, fwk_, column_of_[fwk_], columns_.columns.size());
  }

  PreemptionResult Preempt(const Pod& pod, const ScheduleResult& /*fit_error*/,
                           const ClusterState& cluster, const NominatedPods* nominated,
                           const PreemptOptions& /*options*/,
                           std::string* post_filter_message) override {
    PreemptionResult out;
    post_filter_message->clear();
    if (fwk_ == nullptr || pod.meta.uid != last_pod_uid_) return out;
    if (!fwk_->HasPostFilterPlugins()) {
      // v1.35 clears the nomination of a pod whose FitError no PostFilter
      // handles.
      if (FailureClearsNomination() && !pod.nominated_node_name.empty())
        out.nominated_pods_to_clear.push_back({pod.meta.uid, pod.Key()});
      return out;
    }
    scheduler_->SetCluster(&cluster);
    scheduler_->SetNominated(nominated);
    framework::PostFilterResult pf;
    framework::Status s = fwk_->RunPostFilterPlugins(
        &last_.state, pod, framework::PostFilterStatuses(last_, cluster.num_nodes()), &pf);
    *post_filter_message = s.Message();
    if (s.IsError()) {
      out.error = s.Message();
      return out;
    }
    if (!pf.nominating) return out;
    if (pf.nominated_node_name.empty()) {
      // ModeOverride with no node: the pod's own nomination is cleared.
      if (!pod.nominated_node_name.empty())
        out.nominated_pods_to_clear.push_back({pod.meta.uid, pod.Key()});
      return out;
    }
    out.node = cluster.FindNode(pf.nominated_node_name);
    out.victims = pf.victims;
    for (PodId id : pf.nominated_pods_to_clear) {
      const Pod& p = cluster.pod(id).pod;
      out.nominated_pods_to_clear.push_back({p.meta.uid, p.Key()});
    }
    return out;
  }

  bool FailureClearsNomination() const override {
    return attempted_ && gates().AtLeast(config::SchedulerVersion::kV135);
  }

  std::string WithPostFilterMessage(const std::string& fit_error,
                                    const std::string& post_filter_message) const override {
    if (post_filter_message.empty()) return fit_error;
    // v1.35's FitError adds no "." after the PostFilter message.
    const bool v135 = gates().AtLeast(config::SchedulerVersion::kV135);
    return fit_error + " " + post_filter_message + (v135 ? "" : ".");
  }

  const framework::CycleResult* LastCycle() const override {
    return fwk_ != nullptr ? &last_ : nullptr;
  }

  Result<std::unique_ptr<Reservation>> Reserve(const Pod& pod, NodeId node,
                                               const ClusterState& cluster) override {
    if (fwk_ == nullptr || pod.meta.uid != last_pod_uid_) return std::unique_ptr<Reservation>();
    scheduler_->SetCluster(&cluster);
    auto r = std::make_unique<FrameworkReservation>(fwk_, std::move(last_.state), pod, node);
    last_ = framework::CycleResult();
    fwk_ = nullptr;
    framework::Framework* fwk = r->fwk();
    if (framework::Status s = fwk->RunReservePluginsReserve(r->state(), pod, node);
        !s.IsSuccess()) {
      r->Unreserve();
      return MakeError(s.Message());
    }
    for (framework::PreBindPlugin* pl : fwk->pre_bind_plugins()) {
      auto* planned = dynamic_cast<framework::PlannedPreBindPlugin*>(pl);
      if (planned == nullptr) continue;  // no in-tree plugin but VolumeBinding has PreBind work
      std::unique_ptr<framework::PreBindJob> job;
      if (framework::Status s = planned->PlanPreBind(r->state(), pod, node, &job); !s.IsSuccess()) {
        r->Unreserve();
        return MakeError(FrameworkReservation::PreBindError(pl->Name(), s));
      }
      if (job != nullptr) r->AddJob(pl->Name(), std::move(job));
    }
    return std::unique_ptr<Reservation>(std::move(r));
  }

  void Unreserve(Reservation* reservation) override {
    if (auto* r = dynamic_cast<FrameworkReservation*>(reservation)) r->Unreserve();
  }

  PodId Assume(Pod pod, NodeId node, ClusterState* cluster) override {
    PodId id = cluster->Assume(std::move(pod), node);
    if (fwk_ != nullptr) {
      const Pod& assumed = cluster->pod(id).pod;
      // Reserve, then the binding cycle's writes later cycles read
      // (DynamicResources' PreBind: the claims' allocation and reservation).
      if (!fwk_->RunReservePluginsReserve(&last_.state, assumed, node).IsSuccess() ||
          !fwk_->RunClusterPreBind(&last_.state, assumed, node, cluster).IsSuccess())
        fwk_->RunReservePluginsUnreserve(&last_.state, assumed, node);
    }
    return id;
  }

  void ApplyPostFilterWrites(const Pod& pod, ClusterState* cluster) override {
    if (fwk_ == nullptr || pod.meta.uid != last_pod_uid_) return;
    fwk_->ApplyPostFilterWrites(&last_.state, pod, cluster);
  }

 private:
  size_t ColumnFor(const std::string& name, int64_t weight, const std::string& profile) {
    for (size_t c = 0; c < columns_.columns.size(); ++c) {
      const ScoreColumn& col = columns_.columns[c];
      if ((col.name == name || col.name == name + "@" + profile) && col.weight == weight) return c;
    }
    bool taken = false;
    for (const ScoreColumn& col : columns_.columns) taken |= col.name == name;
    columns_.columns.push_back({taken ? name + "@" + profile : name, weight});
    return columns_.columns.size() - 1;
  }

  const config::FeatureGates& gates() const {
    return scheduler_->profiles().front()->feature_gates();
  }

  std::unique_ptr<framework::Scheduler> scheduler_;
  ScoreColumns columns_;
  std::unordered_map<const framework::Framework*, std::vector<size_t>> column_of_;
  framework::Framework* fwk_ = nullptr;
  framework::CycleResult last_;
  std::string last_pod_uid_;
  bool attempted_ = false;  // the last Schedule() ran a cycle
  std::string last_gate_plugin_;
};

}  // namespace

void SetFrameworkMetricsRecorder(Engine* engine, framework::MetricsRecorder* recorder) {
  if (auto* fw = dynamic_cast<FrameworkEngine*>(engine)) fw->SetMetricsRecorder(recorder);
}

std::string LastPreEnqueuePlugin(const Engine* engine) {
  auto* fw = dynamic_cast<const FrameworkEngine*>(engine);
  return fw != nullptr ? fw->last_gate_plugin() : std::string();
}

std::optional<framework::QueueingHintMaps> EngineQueueingHints(const Engine* engine) {
  auto* fw = dynamic_cast<const FrameworkEngine*>(engine);
  if (fw == nullptr || !fw->v135()) return std::nullopt;
  return fw->QueueingHints();
}

void SetEngineAsyncPreemptions(Engine* engine, const framework::AsyncPreemptions* preemptions) {
  if (auto* fw = dynamic_cast<FrameworkEngine*>(engine)) fw->SetAsyncPreemptions(preemptions);
}

std::unique_ptr<Engine> MakeFrameworkEngine(std::unique_ptr<framework::Scheduler> scheduler) {
  return std::make_unique<FrameworkEngine>(std::move(scheduler));
}

}  // namespace ksched
