#include "live/metrics.h"

#include <prometheus/text_serializer.h>

#include <map>

namespace ksched::live {

namespace {

// Prometheus' ExponentialBuckets(start, factor, count).
prometheus::Histogram::BucketBoundaries Exponential(double start, double factor, int count) {
  prometheus::Histogram::BucketBoundaries b;
  double v = start;
  for (int i = 0; i < count; ++i, v *= factor) b.push_back(v);
  return b;
}

// The scheduler's latency buckets: 1 ms doubling, 15 buckets.
prometheus::Histogram::BucketBoundaries UpstreamBuckets() { return Exponential(0.001, 2, 15); }

// framework_extension_point_duration_seconds: from 0.1 ms, 12 buckets.
const prometheus::Histogram::BucketBoundaries& ExtensionPointBuckets() {
  static const auto b = Exponential(0.0001, 2, 12);
  return b;
}

// plugin_execution_duration_seconds: from 0.01 ms by 1.5, 20 buckets.
const prometheus::Histogram::BucketBoundaries& PluginBuckets() {
  static const auto b = Exponential(0.00001, 1.5, 20);
  return b;
}

// pod_scheduling_duration_seconds: from 10 ms doubling, 20 buckets.
const prometheus::Histogram::BucketBoundaries& PodDurationBuckets() {
  static const auto b = Exponential(0.01, 2, 20);
  return b;
}

prometheus::Histogram* NewHistogram(prometheus::Registry& r, const std::string& name,
                                    const std::string& help) {
  return &prometheus::BuildHistogram().Name(name).Help(help).Register(r).Add({}, UpstreamBuckets());
}

prometheus::Gauge* NewGauge(prometheus::Registry& r, const std::string& name,
                            const std::string& help) {
  return &prometheus::BuildGauge().Name(name).Help(help).Register(r).Add({});
}

prometheus::Counter* NewCounter(prometheus::Registry& r, const std::string& name,
                                const std::string& help) {
  return &prometheus::BuildCounter().Name(name).Help(help).Register(r).Add({});
}

}  // namespace

Metrics::Metrics(std::string_view version)
    : v126_(version != "v1.15"),
      v135_(version == "v1.35"),
      registry_(std::make_shared<prometheus::Registry>()) {
  prometheus::Registry& r = *registry_;
  attempts_ = &prometheus::BuildCounter()
                   .Name("scheduler_schedule_attempts_total")
                   .Help(
                       "Scheduling attempts by their result: scheduled, unschedulable (no node "
                       "fits the pod) or error (the scheduler failed)")
                   .Register(r);
  algorithm_duration = NewHistogram(r, "scheduler_scheduling_algorithm_duration_seconds",
                                    "Time the scheduling algorithm took, in seconds");
  auto& pending = prometheus::BuildGauge()
                      .Name("scheduler_pending_pods")
                      .Help(v126_ ? "Pods waiting to be scheduled, by queue: active, backoff, "
                                    "unschedulable (attempted and failed) and gated (held by "
                                    "PreEnqueue, never attempted)"
                                  : "Pods waiting to be scheduled, by queue: active, backoff "
                                    "and unschedulable")
                      .Register(r);
  pending_active_ = &pending.Add({{"queue", "active"}});
  pending_backoff_ = &pending.Add({{"queue", "backoff"}});
  pending_unschedulable_ = &pending.Add({{"queue", "unschedulable"}});
  if (v126_) {
    pending_gated_ = &pending.Add({{"queue", "gated"}});
    attempt_duration_ = &prometheus::BuildHistogram()
                             .Name("scheduler_scheduling_attempt_duration_seconds")
                             .Help(
                                 "Time of one scheduling attempt (algorithm and binding), in "
                                 "seconds, by result and profile")
                             .Register(r);
    extension_point_ = &prometheus::BuildHistogram()
                            .Name("scheduler_framework_extension_point_duration_seconds")
                            .Help("Time all plugins of one extension point took, in seconds")
                            .Register(r);
    preemption_attempts = NewCounter(r, "scheduler_preemption_attempts_total",
                                     "Preemption (PostFilter) runs since the process started");
    preemption_victims_ =
        &prometheus::BuildHistogram()
             .Name("scheduler_preemption_victims")
             .Help("Victims chosen by each preemption that chose a node")
             .Register(r)
             .Add({}, prometheus::Histogram::BucketBoundaries{1, 2, 4, 8, 16, 32, 64});
    // v1.35 renamed it (Subsystem + "cache_size").
    auto& cache = prometheus::BuildGauge()
                      .Name(v135_ ? "scheduler_cache_size" : "scheduler_scheduler_cache_size")
                      .Help("Nodes, pods and assumed pods in the scheduler's cache")
                      .Register(r);
    cache_size_nodes_ = &cache.Add({{"type", "nodes"}});
    cache_size_pods_ = &cache.Add({{"type", "pods"}});
    cache_size_assumed_ = &cache.Add({{"type", "assumed_pods"}});
    queue_incoming_ = &prometheus::BuildCounter()
                           .Name("scheduler_queue_incoming_pods_total")
                           .Help("Pods added to a scheduling queue part, by part and event")
                           .Register(r);
    binding_duration = nullptr;
    AddV126Families();
  } else {
    attempt_duration_ = nullptr;
    e2e_duration_ = NewHistogram(r, "scheduler_e2e_scheduling_duration_seconds",
                                 "Time from a cycle's start to its binding, in seconds");
    preemption_evaluation_ =
        NewHistogram(r, "scheduler_scheduling_algorithm_preemption_evaluation_seconds",
                     "Time preemption took to choose a node and victims, in seconds");
    binding_duration =
        NewHistogram(r, "scheduler_binding_duration_seconds", "Time a binding took, in seconds");
    preemption_attempts = NewCounter(r, "scheduler_total_preemption_attempts",
                                     "Preemption attempts since the process started");
    preemption_victims_gauge_ =
        NewGauge(r, "scheduler_pod_preemption_victims", "Victims of the last preemption");
  }
  leader = NewGauge(r, "ksched_leader", "1 while this replica holds the lease and schedules");
  cache_nodes_ = NewGauge(r, "ksched_cache_nodes", "Nodes in the scheduler's cache");
  cache_pods_ = NewGauge(r, "ksched_cache_pods",
                         "Pods in the scheduler's cache (any phase but "
                         "Succeeded/Failed)");
  cache_assumed_ = NewGauge(r, "ksched_cache_assumed_pods",
                            "Pods decided and assumed on a node, binding not yet confirmed");
  events_dropped = NewCounter(r, "ksched_events_dropped_total",
                              "Events not written because the event queue was full");
}

void Metrics::AddV126Families() {
  prometheus::Registry& r = *registry_;
  plugin_execution_ = &prometheus::BuildHistogram()
                           .Name("scheduler_plugin_execution_duration_seconds")
                           .Help(
                               "Time one plugin took at one extension point, in seconds, "
                               "timed on a sample of the scheduling cycles (10 %)")
                           .Register(r);
  // v1.35 keeps only the SLI form of it.
  pod_duration_ = &prometheus::BuildHistogram()
                       .Name(v135_ ? "scheduler_pod_scheduling_sli_duration_seconds"
                                   : "scheduler_pod_scheduling_duration_seconds")
                       .Help(
                           "Time from a pod's entry into the scheduling queue to its binding, "
                           "in seconds, by the attempts it took (15+ for fifteen or more)")
                       .Register(r);
  pod_attempts_ = &prometheus::BuildHistogram()
                       .Name("scheduler_pod_scheduling_attempts")
                       .Help("Attempts each pod took until it was scheduled")
                       .Register(r)
                       .Add({}, prometheus::Histogram::BucketBoundaries{1, 2, 4, 8, 16});
  unschedulable_pods_ = &prometheus::BuildGauge()
                             .Name("scheduler_unschedulable_pods")
                             .Help(
                                 "Pods waiting after a failed attempt, counted once for each "
                                 "plugin that rejected them, by plugin and profile")
                             .Register(r);
  goroutines_binding_ = &prometheus::BuildGauge()
                             .Name("scheduler_goroutines")
                             .Help("Work in flight by operation (binding: bindings under way)")
                             .Register(r)
                             .Add({{"operation", "binding"}});
  if (!v135_) {  // removed by v1.35
    scheduler_goroutines_binding_ =
        &prometheus::BuildGauge()
             .Name("scheduler_scheduler_goroutines")
             .Help(
                 "(Deprecated since 1.26.0) Work in flight by kind (binding: bindings under way); "
                 "scheduler_goroutines replaces it")
             .Register(r)
             .Add({{"work", "binding"}});
    return;
  }
  // v1.35's queue (QueueingHints, in-flight events) and asynchronous preemption.
  queueing_hint_ = &prometheus::BuildHistogram()
                        .Name("scheduler_queueing_hint_execution_duration_seconds")
                        .Help("Time one plugin's QueueingHint took for one event, in seconds")
                        .Register(r);
  inflight_events_ = &prometheus::BuildGauge()
                          .Name("scheduler_inflight_events")
                          .Help(
                              "Events kept for pods in flight, by event (PodPopped: the pods "
                              "themselves)")
                          .Register(r);
  preemption_goroutines_duration_ =
      &prometheus::BuildHistogram()
           .Name("scheduler_preemption_goroutines_duration_seconds")
           .Help("Time the asynchronous deletion of a preemption's victims took, in seconds")
           .Register(r);
  preemption_goroutines_total_ = &prometheus::BuildCounter()
                                      .Name("scheduler_preemption_goroutines_execution_total")
                                      .Help("Asynchronous preemptions run, by result")
                                      .Register(r);
}

void Metrics::QueueingHint(std::string_view plugin, std::string_view event, std::string_view hint,
                           double seconds) {
  if (queueing_hint_ == nullptr) return;
  queueing_hint_
      ->Add({{"plugin", std::string(plugin)},
             {"event", std::string(event)},
             {"hint", std::string(hint)}},
            PluginBuckets())
      .Observe(seconds);
}

void Metrics::InFlightEvents(std::string_view event, int delta) {
  if (inflight_events_ == nullptr) return;
  inflight_events_->Add({{"event", std::string(event)}}).Increment(static_cast<double>(delta));
}

void Metrics::PreemptionGoroutine(bool ok, double seconds) {
  if (preemption_goroutines_total_ == nullptr) return;
  const std::string result = ok ? "success" : "error";
  preemption_goroutines_total_->Add({{"result", result}}).Increment();
  preemption_goroutines_duration_->Add({{"result", result}}, PodDurationBuckets()).Observe(seconds);
}

void Metrics::Attempt(std::string_view result, std::string_view profile, double seconds) {
  if (v126_) {
    const std::map<std::string, std::string> labels{{"result", std::string(result)},
                                                    {"profile", std::string(profile)}};
    attempts_->Add(labels).Increment();
    attempt_duration_->Add(labels, UpstreamBuckets()).Observe(seconds);
    return;
  }
  attempts_->Add({{"result", std::string(result)}}).Increment();
  if (result != "unschedulable") e2e_duration_->Observe(seconds);
}

void Metrics::Preemption(double seconds, size_t victims) {
  preemption_attempts->Increment();
  if (v126_) {
    if (victims > 0) preemption_victims_->Observe(static_cast<double>(victims));
    return;
  }
  preemption_evaluation_->Observe(seconds);
  preemption_victims_gauge_->Set(static_cast<double>(victims));
}

void Metrics::PodScheduled(int attempts, double seconds) {
  if (!v126_) return;
  pod_attempts_->Observe(static_cast<double>(attempts));
  const std::string label = attempts >= 15 ? "15+" : std::to_string(attempts);
  pod_duration_->Add({{"attempts", label}}, PodDurationBuckets()).Observe(seconds);
}

void Metrics::UnschedulablePods(std::string_view plugin, std::string_view profile, int delta) {
  if (!v126_) return;
  unschedulable_pods_->Add({{"plugin", std::string(plugin)}, {"profile", std::string(profile)}})
      .Increment(static_cast<double>(delta));
}

void Metrics::BindingsInFlight(int delta) {
  if (!v126_) return;
  goroutines_binding_->Increment(static_cast<double>(delta));
  if (scheduler_goroutines_binding_ != nullptr)
    scheduler_goroutines_binding_->Increment(static_cast<double>(delta));
}

void Metrics::ExtensionPointDuration(std::string_view point, std::string_view status,
                                     std::string_view profile, double seconds) {
  if (!v126_) return;
  extension_point_
      ->Add({{"extension_point", std::string(point)},
             {"status", std::string(status)},
             {"profile", std::string(profile)}},
            ExtensionPointBuckets())
      .Observe(seconds);
}

void Metrics::PluginExecutionDuration(std::string_view plugin, std::string_view point,
                                      std::string_view status, double seconds) {
  if (!v126_) return;
  plugin_execution_
      ->Add({{"plugin", std::string(plugin)},
             {"extension_point", std::string(point)},
             {"status", std::string(status)}},
            PluginBuckets())
      .Observe(seconds);
}

void Metrics::PendingPods(size_t active, size_t backoff, size_t unschedulable, size_t gated) {
  pending_active_->Set(static_cast<double>(active));
  pending_backoff_->Set(static_cast<double>(backoff));
  pending_unschedulable_->Set(static_cast<double>(unschedulable));
  if (pending_gated_ != nullptr) pending_gated_->Set(static_cast<double>(gated));
}

void Metrics::CacheSize(size_t nodes, size_t pods, size_t assumed) {
  cache_nodes_->Set(static_cast<double>(nodes));
  cache_pods_->Set(static_cast<double>(pods));
  cache_assumed_->Set(static_cast<double>(assumed));
  if (cache_size_nodes_ != nullptr) {
    cache_size_nodes_->Set(static_cast<double>(nodes));
    cache_size_pods_->Set(static_cast<double>(pods));
    cache_size_assumed_->Set(static_cast<double>(assumed));
  }
}

void Metrics::QueueIncoming(std::string_view queue, std::string_view event) {
  if (queue_incoming_ == nullptr) return;
  queue_incoming_->Add({{"queue", std::string(queue)}, {"event", std::string(event)}}).Increment();
}

std::string Metrics::Serialize() const {
  prometheus::TextSerializer serializer;
  return serializer.Serialize(registry_->Collect());
}

}  // namespace ksched::live
