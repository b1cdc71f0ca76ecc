// The scheduler's Prometheus metrics, under upstream v1.15's names
// (pkg/scheduler/metrics/metrics.go) where upstream has one:
//   scheduler_schedule_attempts_total{result=scheduled|unschedulable|error}
//   scheduler_e2e_scheduling_duration_seconds        (algorithm + binding)
//   scheduler_scheduling_algorithm_duration_seconds
//   scheduler_scheduling_algorithm_preemption_evaluation_seconds
//   scheduler_binding_duration_seconds
//   scheduler_pending_pods{queue=active|backoff|unschedulable}
//   scheduler_total_preemption_attempts
//   scheduler_pod_preemption_victims                 (gauge: the last preemption's count)
// and ksched's own:
//   ksched_leader                                    (1 while this replica schedules)
//   ksched_cache_nodes, ksched_cache_pods, ksched_cache_assumed_pods
//   ksched_events_dropped_total
// Histograms use upstream's buckets (1 ms doubling, 15 buckets).
#pragma once

#include <prometheus/counter.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>

#include <memory>
#include <string>

namespace ksched::live {

class Metrics {
 public:
  Metrics();

  // The text exposition format (what /metrics serves).
  std::string Serialize() const;

  prometheus::Counter* attempts_scheduled;
  prometheus::Counter* attempts_unschedulable;
  prometheus::Counter* attempts_error;
  prometheus::Histogram* e2e_duration;
  prometheus::Histogram* algorithm_duration;
  prometheus::Histogram* preemption_evaluation_duration;
  prometheus::Histogram* binding_duration;
  prometheus::Gauge* pending_active;
  prometheus::Gauge* pending_backoff;
  prometheus::Gauge* pending_unschedulable;
  prometheus::Counter* preemption_attempts;
  prometheus::Gauge* preemption_victims;
  prometheus::Gauge* leader;
  prometheus::Gauge* cache_nodes;
  prometheus::Gauge* cache_pods;
  prometheus::Gauge* cache_assumed;
  prometheus::Counter* events_dropped;

 private:
  std::shared_ptr<prometheus::Registry> registry_;
};

}  // namespace ksched::live
