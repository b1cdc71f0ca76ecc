#include "engine/engine.h"

namespace ksched {
namespace {

class V115Engine final : public Engine {
 public:
  V115Engine(SchedulerConfig config, TieBreak tie_break)
      : scheduler_(std::move(config), tie_break), columns_(ScoreColumnsOf(scheduler_.config())) {}

  std::string_view version() const override { return "v1.15"; }
  CacheOptions cache_options() const override { return {}; }
  const ScoreColumns& score_columns() const override { return columns_; }

  ScheduleResult Schedule(const Pod& pod, const ClusterState& cluster, NodeTree* tree,
                          bool record_details, const NominatedPods* nominated) override {
    return scheduler_.Schedule(pod, cluster, tree, record_details, nominated);
  }

  PreemptionResult Preempt(const Pod& pod, const ScheduleResult& fit_error,
                           const ClusterState& cluster, const NominatedPods* nominated,
                           const PreemptOptions& options,
                           std::string* post_filter_message) override {
    post_filter_message->clear();
    return ksched::Preempt(pod, fit_error, cluster, scheduler_.config(), nominated,
                           cluster.pod_disruption_budgets(), options);
  }

  PodId Assume(Pod pod, NodeId node, ClusterState* cluster) override {
    return cluster->Assume(std::move(pod), node);
  }

  GenericScheduler* scheduler() { return &scheduler_; }

 private:
  GenericScheduler scheduler_;
  ScoreColumns columns_;
};

}  // namespace

ScoreColumns ScoreColumnsOf(const SchedulerConfig& config) {
  ScoreColumns out;
  for (const PriorityConfig& p : config.priorities) out.columns.push_back({p.name, p.weight});
  return out;
}

std::unique_ptr<Engine> MakeV115Engine(SchedulerConfig config, TieBreak tie_break) {
  return std::make_unique<V115Engine>(std::move(config), tie_break);
}

GenericScheduler* V115Scheduler(Engine* engine) {
  auto* v115 = dynamic_cast<V115Engine*>(engine);
  return v115 ? v115->scheduler() : nullptr;
}

}  // namespace ksched
