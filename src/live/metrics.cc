#include "live/metrics.h"

#include <prometheus/text_serializer.h>

#include <map>

namespace ksched::live {

namespace {

prometheus::Histogram::BucketBoundaries UpstreamBuckets() {
  // prometheus.ExponentialBuckets(0.001, 2, 15)
  prometheus::Histogram::BucketBoundaries b;
  double v = 0.001;
  for (int i = 0; i < 15; ++i, v *= 2) b.push_back(v);
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
    : v126_(version == "v1.26"), registry_(std::make_shared<prometheus::Registry>()) {
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
                            .Help(
                                "Time an extension point's plugins took, in seconds (ksched "
                                "times PostFilter)")
                            .Register(r);
    preemption_attempts = NewCounter(r, "scheduler_preemption_attempts_total",
                                     "Preemption (PostFilter) runs since the process started");
    preemption_victims_ =
        &prometheus::BuildHistogram()
             .Name("scheduler_preemption_victims")
             .Help("Victims chosen by each preemption that chose a node")
             .Register(r)
             .Add({}, prometheus::Histogram::BucketBoundaries{1, 2, 4, 8, 16, 32, 64});
    auto& cache = prometheus::BuildGauge()
                      .Name("scheduler_scheduler_cache_size")
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

void Metrics::Preemption(std::string_view profile, std::string_view status, double seconds,
                         size_t victims) {
  preemption_attempts->Increment();
  if (v126_) {
    extension_point_
        ->Add(
            {{"extension_point", "PostFilter"},
             {"status", std::string(status)},
             {"profile", std::string(profile)}},
            prometheus::Histogram::BucketBoundaries{0.0001, 0.0002, 0.0004, 0.0008, 0.0016, 0.0032,
                                                    0.0064, 0.0128, 0.0256, 0.0512, 0.1024, 0.2048})
        .Observe(seconds);
    if (victims > 0) preemption_victims_->Observe(static_cast<double>(victims));
    return;
  }
  preemption_evaluation_->Observe(seconds);
  preemption_victims_gauge_->Set(static_cast<double>(victims));
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
