// The scheduler's Prometheus metrics, under the names of the upstream
// scheduler the engine reimplements (pkg/scheduler/metrics/metrics.go).
// v1.15:
//   scheduler_schedule_attempts_total{result=scheduled|unschedulable|error}
//   scheduler_e2e_scheduling_duration_seconds        (algorithm + binding)
//   scheduler_scheduling_algorithm_duration_seconds
//   scheduler_scheduling_algorithm_preemption_evaluation_seconds
//   scheduler_binding_duration_seconds
//   scheduler_pending_pods{queue=active|backoff|unschedulable}
//   scheduler_total_preemption_attempts
//   scheduler_pod_preemption_victims                 (gauge: the last preemption's count)
// v1.26 (every profile of one process has its own `profile` series):
//   scheduler_schedule_attempts_total{result,profile}
//   scheduler_scheduling_attempt_duration_seconds{result,profile}
//   scheduler_scheduling_algorithm_duration_seconds
//   scheduler_framework_extension_point_duration_seconds{extension_point,status,profile}
//                                                    (the framework's points; Bind around
//                                                    the binding call)
//   scheduler_plugin_execution_duration_seconds{plugin,extension_point,status}
//                                                    (10 % of cycles, framework/runtime/
//                                                    metrics_recorder.h)
//   scheduler_pod_scheduling_duration_seconds{attempts}  (queue entry to bound)
//   scheduler_pod_scheduling_attempts                (attempts of each bound pod)
//   scheduler_unschedulable_pods{plugin,profile}     (pods waiting, by rejecting plugin)
//   scheduler_goroutines{operation=binding}, scheduler_scheduler_goroutines{work=binding}
//                                                    (bindings in flight)
//   scheduler_pending_pods{queue=active|backoff|unschedulable|gated}
//   scheduler_preemption_attempts_total
//   scheduler_preemption_victims                     (histogram, buckets 1..64)
//   scheduler_scheduler_cache_size{type=nodes|pods|assumed_pods}
//   scheduler_queue_incoming_pods_total{queue,event}  (pods entering a queue part, and why)
// v1.35, where they differ from v1.26's:
//   scheduler_cache_size{type}                       (was scheduler_scheduler_cache_size)
//   scheduler_pod_scheduling_sli_duration_seconds{attempts}
//                                                    (was ..._pod_scheduling_duration_seconds)
//   no scheduler_scheduler_goroutines
//   scheduler_queueing_hint_execution_duration_seconds{plugin,event,hint}
//   scheduler_inflight_events{event}
//   scheduler_preemption_goroutines_duration_seconds{result},
//   scheduler_preemption_goroutines_execution_total{result}  (asynchronous preemption)
//   queue_incoming_pods_total's events are v1.35's labels (UnschedulablePodAdd,
//   AssignedPodDelete, NodeUpdateNodeLabel, PopFromBackoffQ, ...)
// and ksched's own (all):
//   ksched_leader                                    (1 while this replica schedules)
//   ksched_cache_nodes, ksched_cache_pods, ksched_cache_assumed_pods
//   ksched_events_dropped_total
// Histograms have upstream's buckets: attempts and the algorithm 1 ms doubling
// (15), extension points 0.1 ms doubling (12), plugins 0.01 ms times 1.5
// (20), a pod's scheduling 10 ms doubling (20).
#pragma once

#include <prometheus/counter.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>

#include <memory>
#include <string>
#include <string_view>

#include "framework/runtime/metrics_recorder.h"

namespace ksched::live {

// Also the framework's sink (v1.26): extension point and plugin timings.
class Metrics final : public framework::MetricsSink {
 public:
  // `version`: "v1.15", "v1.26" or "v1.35", the names to use.
  explicit Metrics(std::string_view version = "v1.15");

  // The text exposition format (what /metrics serves).
  std::string Serialize() const;

  // One attempt's end: `result` is scheduled, unschedulable or error,
  // `profile` the pod's schedulerName. `seconds` (algorithm + binding) is
  // observed for v1.15's e2e histogram (not for unschedulable attempts, as
  // v1.15) or v1.26's attempt histogram (every result).
  void Attempt(std::string_view result, std::string_view profile, double seconds);
  // One preemption (PostFilter) run, its time (v1.15's evaluation
  // histogram; v1.26's framework times PostFilter itself) and how many
  // victims it chose.
  void Preemption(double seconds, size_t victims);
  // A pod bound after `attempts` attempts, `seconds` after it first entered
  // the queue (v1.26; no-op for v1.15).
  void PodScheduled(int attempts, double seconds);
  // `delta` pods rejected by `plugin` of `profile` (v1.26; no-op for v1.15).
  void UnschedulablePods(std::string_view plugin, std::string_view profile, int delta);
  // Bindings in flight: +1 when one starts, -1 when it ends (v1.26).
  void BindingsInFlight(int delta);

  // ---- framework::MetricsSink (v1.26; thread-safe)
  void ExtensionPointDuration(std::string_view point, std::string_view status,
                              std::string_view profile, double seconds) override;
  void PluginExecutionDuration(std::string_view plugin, std::string_view point,
                               std::string_view status, double seconds) override;
  void PendingPods(size_t active, size_t backoff, size_t unschedulable, size_t gated);
  void CacheSize(size_t nodes, size_t pods, size_t assumed);
  // A pod entered the queue's part `queue` on `event` (v1.26; no-op for v1.15).
  void QueueIncoming(std::string_view queue, std::string_view event);

  bool v126() const { return v126_; }  // v1.26 or later: the framework's metrics
  bool v135() const { return v135_; }

  // ---- v1.35 (no-ops before)
  void QueueingHint(std::string_view plugin, std::string_view event, std::string_view hint,
                    double seconds);
  void InFlightEvents(std::string_view event, int delta);
  // One asynchronous preemption ended: all victims deleted (ok) or not.
  void PreemptionGoroutine(bool ok, double seconds);

  prometheus::Histogram* algorithm_duration;
  prometheus::Histogram* binding_duration;  // v1.15 only (null for v1.26)
  prometheus::Counter* preemption_attempts;
  prometheus::Gauge* leader;
  prometheus::Counter* events_dropped;

 private:
  void AddV126Families();

  bool v126_;
  bool v135_;
  std::shared_ptr<prometheus::Registry> registry_;
  prometheus::Family<prometheus::Counter>* attempts_;
  prometheus::Family<prometheus::Histogram>* attempt_duration_;            // v1.26
  prometheus::Histogram* e2e_duration_ = nullptr;                          // v1.15
  prometheus::Histogram* preemption_evaluation_ = nullptr;                 // v1.15
  prometheus::Family<prometheus::Histogram>* extension_point_ = nullptr;   // v1.26
  prometheus::Family<prometheus::Histogram>* plugin_execution_ = nullptr;  // v1.26
  prometheus::Family<prometheus::Histogram>* pod_duration_ = nullptr;      // v1.26
  prometheus::Histogram* pod_attempts_ = nullptr;                          // v1.26
  prometheus::Family<prometheus::Gauge>* unschedulable_pods_ = nullptr;    // v1.26
  prometheus::Gauge *goroutines_binding_ = nullptr,
                    *scheduler_goroutines_binding_ = nullptr;  // v1.26
  prometheus::Gauge* preemption_victims_gauge_ = nullptr;      // v1.15
  prometheus::Histogram* preemption_victims_ = nullptr;        // v1.26
  prometheus::Gauge *pending_active_, *pending_backoff_, *pending_unschedulable_;
  prometheus::Gauge* pending_gated_ = nullptr;                         // v1.26
  prometheus::Family<prometheus::Counter>* queue_incoming_ = nullptr;  // v1.26
  prometheus::Gauge *cache_nodes_, *cache_pods_, *cache_assumed_;
  prometheus::Gauge *cache_size_nodes_ = nullptr, *cache_size_pods_ = nullptr,
                    *cache_size_assumed_ = nullptr;  // v1.26

  // v1.35
  prometheus::Family<prometheus::Histogram>* queueing_hint_ = nullptr;
  prometheus::Family<prometheus::Gauge>* inflight_events_ = nullptr;
  prometheus::Family<prometheus::Histogram>* preemption_goroutines_duration_ = nullptr;
  prometheus::Family<prometheus::Counter>* preemption_goroutines_total_ = nullptr;
};

}  // namespace ksched::live
