#include "live/metrics.h"

#include <prometheus/text_serializer.h>

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

Metrics::Metrics() : registry_(std::make_shared<prometheus::Registry>()) {
  prometheus::Registry& r = *registry_;
  auto& attempts = prometheus::BuildCounter()
                       .Name("scheduler_schedule_attempts_total")
                       .Help(
                           "Number of attempts to schedule pods, by the result. 'unschedulable' "
                           "means a pod could not be scheduled, while 'error' means an internal "
                           "scheduler problem.")
                       .Register(r);
  attempts_scheduled = &attempts.Add({{"result", "scheduled"}});
  attempts_unschedulable = &attempts.Add({{"result", "unschedulable"}});
  attempts_error = &attempts.Add({{"result", "error"}});
  e2e_duration = NewHistogram(r, "scheduler_e2e_scheduling_duration_seconds",
                              "E2e scheduling latency in seconds (scheduling algorithm + binding)");
  algorithm_duration = NewHistogram(r, "scheduler_scheduling_algorithm_duration_seconds",
                                    "Scheduling algorithm latency in seconds");
  preemption_evaluation_duration =
      NewHistogram(r, "scheduler_scheduling_algorithm_preemption_evaluation_seconds",
                   "Scheduling algorithm preemption evaluation duration in seconds");
  binding_duration =
      NewHistogram(r, "scheduler_binding_duration_seconds", "Binding latency in seconds");
  auto& pending = prometheus::BuildGauge()
                      .Name("scheduler_pending_pods")
                      .Help(
                          "Number of pending pods, by the queue type. 'active' means number of "
                          "pods in activeQ; 'backoff' means number of pods in backoffQ; "
                          "'unschedulable' means number of pods in unschedulableQ.")
                      .Register(r);
  pending_active = &pending.Add({{"queue", "active"}});
  pending_backoff = &pending.Add({{"queue", "backoff"}});
  pending_unschedulable = &pending.Add({{"queue", "unschedulable"}});
  preemption_attempts = NewCounter(r, "scheduler_total_preemption_attempts",
                                   "Total preemption attempts in the cluster till now");
  preemption_victims =
      NewGauge(r, "scheduler_pod_preemption_victims", "Number of selected preemption victims");
  leader = NewGauge(r, "ksched_leader", "1 while this replica holds the lease and schedules");
  cache_nodes = NewGauge(r, "ksched_cache_nodes", "Nodes in the scheduler's cache");
  cache_pods = NewGauge(r, "ksched_cache_pods",
                        "Pods in the scheduler's cache (any phase but "
                        "Succeeded/Failed)");
  cache_assumed = NewGauge(r, "ksched_cache_assumed_pods",
                           "Pods decided and assumed on a node, binding not yet confirmed");
  events_dropped = NewCounter(r, "ksched_events_dropped_total",
                              "Events not written because the event queue was full");
}

std::string Metrics::Serialize() const {
  prometheus::TextSerializer serializer;
  return serializer.Serialize(registry_->Collect());
}

}  // namespace ksched::live
