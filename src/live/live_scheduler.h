// The live scheduling loop of `ksched run`: upstream's scheduleOne over the
// live cache, with the same Engine `ksched schedule` runs (v1.26's framework
// by default, v1.15's algorithm for a Policy or provider).
//
// One thread (Run) does everything that reads or changes the cache and the
// queue: it drains the inbox (watch events; outcomes of bindings and API
// writes), flushes the queue's backoff (every second) and unschedulable
// (every 30 s; pods that waited 60 s move) parts, expires assumed pods, and
// then, while this replica is the leader, pops one pod and runs one cycle:
//   - the pod is re-read from the cache (a pod deleted or bound meanwhile is
//     skipped; a terminating one gets upstream's "skip schedule deleting
//     pod" event);
//   - a pod the engine's PreEnqueue holds back (v1.26 SchedulingGates)
//     waits in the unschedulable part, never attempted, until an update
//     changes it;
//   - Engine::Schedule with the queue's nominated pods;
//   - success: the pod is assumed on the node at once, the engine reserves
//     it (Engine::Reserve: v1.26's Reserve plugins and the plan of its
//     PreBind work), and its binding goes to the binder pool: PreBind's work
//     (VolumeBinding: PV and claim writes, then the wait for the PV
//     controller), then POST pods/NAME/binding; the cycle does not wait for
//     it. A failed PreBind is answered as a failed binding (Unreserve, the
//     assumption forgotten, FailedScheduling with PreBind's message). A successful bind starts the
//     assumption's expiry clock and writes the Scheduled event; a failed one forgets the
//     assumption (v1.26 then moves the pods waiting for room, as an assigned pod's deletion
//     does), writes FailedScheduling ("Binding rejected: ...") and the PodScheduled=False
//     condition, and requeues the pod, if it is still pending, into backoff: a failed
//     binding is always one backoff from its next attempt;
//   - FitError: preemption unless disabled (Engine::Preempt: nominatedNodeName
//     set, victims deleted with a Preempted event each, stale nominations
//     cleared), then the FailedScheduling event with upstream's text (v1.26:
//     the FitError followed by PostFilter's message) and the
//     PodScheduled=False/Unschedulable condition (written only when it
//     changes), and the pod goes back to the queue as unschedulable.
// With the v1.35 engine the queue is v1.35's (queue/priority_queue_v135.h):
// PreEnqueue (SchedulingGates, DefaultPreemption) runs in the queue, pods
// move by QueueingHints, a failed attempt is Done at the end of its cycle,
// errors back off by their count, and preemption is asynchronous: the
// victims are deleted by a writer while the preemptor waits, held back by
// DefaultPreemption's PreEnqueue until the last victim is gone (activated
// again at once if a deletion failed).
// Every decision is logged as one line on stderr: "bound ns/name to node"
// when its binding succeeded, "unschedulable ns/name: <FitError>",
// "binding ns/name to node failed: ..." (plus a "preempting for ..." line
// when a preemption chose a node).
//
// Stop() makes Run stop popping, call its `stopped_scheduling` (run.cc
// releases the Lease there, so that a standby takes over while the backlog
// drains), then wait for in-flight bindings and queued writes, up to
// LiveOptions::shutdown_flush_timeout, apply their outcomes, drop what is
// still queued then (logged), and return.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <variant>

#include "client/cluster_client.h"
#include "engine/engine.h"
#include "framework/interface.h"
#include "framework/runtime/metrics_recorder.h"
#include "live/event_recorder.h"
#include "live/inbox.h"
#include "live/live_cache.h"
#include "live/metrics.h"
#include "live/scheduler_api.h"
#include "live/worker_pool.h"
#include "queue/clock.h"
#include "queue/priority_queue.h"
#include "queue/scheduling_queue.h"

namespace ksched::live {

struct LiveOptions {
  // The spec.schedulerName of the pods to schedule (v1.26: one per profile).
  std::vector<std::string> scheduler_names{"default-scheduler"};
  bool disable_preemption = false;
  size_t bind_workers = 16;  // concurrent bindings
  size_t write_workers = 4;  // conditions, nominations, victim deletions
  // Bindings with PreBind work (v1.26 VolumeBinding), which may wait for
  // the PV controller for minutes: a pool of their own, started on first
  // use, so that they never hold up other pods' bindings.
  size_t pre_bind_workers = 64;
  // v1.26 with PodDisruptionConditions (on by default): each victim gets
  // DisruptionTarget=True before it is deleted.
  bool disruption_target_condition = false;
  std::chrono::nanoseconds assumed_pod_ttl = std::chrono::seconds(30);
  SchedulingQueue::Options queue;
  bool log_decisions = true;
  // Tests: v1.26 times the plugins of every cycle, not of a 10 % sample.
  bool sample_every_cycle = false;
  // v1.35 (SchedulerAsyncPreemption, beta, on): victims deleted off the
  // scheduling thread while the preemptor is held back.
  bool async_preemption = false;
  // After Stop(): how long Run waits for queued bindings, status writes and
  // events before it drops them (a pod's termination grace period is 30 s).
  std::chrono::nanoseconds shutdown_flush_timeout = std::chrono::seconds(10);
};

// What worker threads report back to the scheduling thread.
struct BindOutcome {
  std::string key;
  std::string node;
  Status status;
  std::chrono::steady_clock::time_point cycle_start;
  double bind_seconds = 0;
  std::string profile;  // the pod's schedulerName (metrics)
  // The pod's attempts and when it first entered the queue (metrics).
  SchedulingQueue::Attempts attempts;
  // What the engine reserved for the pod (Engine::Reserve; may be null),
  // unreserved when the binding failed.
  std::shared_ptr<Reservation> reservation;
  bool pre_bind_failed = false;  // the status is PreBind's, not the Binding's
};
struct NominationFailed {  // status.nominatedNodeName could not be written
  std::string key;
};
struct PreemptionDone {  // v1.35: an asynchronous preemption's victims are handled
  std::string uid, key;
  bool ok = true;  // every victim deleted (else the preemptor is activated)
  double seconds = 0;
};
using InboxItem = std::variant<client::WatchEvent, BindOutcome, NominationFailed, PreemptionDone>;

class LiveScheduler {
 public:
  // `metrics` may be null. All pointers must outlive the scheduler.
  LiveScheduler(Engine* engine, SchedulerApi* api, const Clock* clock, Metrics* metrics,
                LiveOptions options);
  ~LiveScheduler();

  // The client's watch sink (any thread).
  void OnWatchEvent(client::WatchEvent event) { inbox_.Push(std::move(event)); }

  // Runs until Stop(). `may_schedule` is asked before every pop (leader
  // election); while it is false events are still applied.
  void Run(const std::function<bool()>& may_schedule,
           const std::function<void()>& stopped_scheduling = {});
  void Stop();

  // One pass of Run's loop without waiting: applies what the inbox holds and,
  // when `schedule` is true, schedules until the active queue is empty.
  // Returns the number of cycles run. For tests.
  size_t RunOnce(bool schedule);
  // Waits for in-flight bindings and writes, then applies their outcomes.
  void WaitForBindings();

  LiveCache& cache() { return cache_; }
  SchedulingQueue& queue() { return *queue_; }
  uint64_t bound() const { return bound_.load(); }
  // Every expected resource has been listed (any thread).
  bool synced() const { return synced_.load(); }
  uint64_t cycles() const { return cycles_; }

 private:
  void DrainInbox();
  // Run's end: WaitForBindings within shutdown_flush_timeout, then drops.
  void FlushForShutdown();
  void Apply(InboxItem item);
  void OnBindOutcome(const BindOutcome& outcome);
  void Periodic();
  void ScheduleOne(SchedulingQueue::PodPtr popped);
  // Upstream's recordSchedulingFailure: the FailedScheduling event and the
  // PodScheduled=False condition (written only when it changes).
  void RecordFailure(const PodPtr& pod, const std::string& reason, const std::string& message);
  // Upstream's error func: back to the queue as unschedulable, if the pod is
  // still pending (`pod` is the version to queue).
  // `unschedulable_plugins`: the FitError's, which pick the events that
  // move the pod (v1.26).
  // `to_backoff`: to backoff whatever the move requests say
  // (SchedulingQueue::AddBackoffIfNotPresent).
  void Requeue(const PodPtr& pod, int64_t cycle,
               std::vector<std::string> unschedulable_plugins = {}, bool to_backoff = false);
  // Upstream's handleBindingCycleError: a failed PreBind or Binding is
  // unreserved and forgotten, v1.26 moves the pods waiting for room
  // (AssignedPodDelete), and the failure handler records it and requeues the
  // pod into backoff (never unschedulable, so an API server outage strands
  // no pod until the unschedulable flush).
  void HandleBindingCycleError(const BindOutcome& outcome);
  void HandleBindingCycleErrorV135(const BindOutcome& outcome);
  // PostFilter: returns what v1.26 appends to the FitError ("" for v1.15).
  std::string Preempt(const PodPtr& pod, const ScheduleResult& result, PodPtr* requeue);
  void UpdateGauges();
  // A pod PreEnqueue holds back / no longer (scheduler_unschedulable_pods).
  void Gate(const std::string& key, const Pod& pod);
  void Ungate(const std::string& key);
  // v1.35: DefaultPreemption's PreEnqueue hold (Evaluator.IsPodRunningPreemption),
  // over the preemptions this scheduler started; read on the scheduling thread.
  class RunningPreemptions final : public framework::AsyncPreemptions {
   public:
    explicit RunningPreemptions(const LiveCache* cache) : cache_(cache) {}
    bool IsPodRunningPreemption(std::string_view pod_uid) const override;
    void Start(const std::string& uid, const PodPtr& last_victim);
    void Finish(const std::string& uid);

   private:
    const LiveCache* cache_;
    std::unordered_map<std::string, PodPtr> last_victim_;  // preemptor uid -> victim
  };
  // v1.35's preemption: the victims deleted by a writer, the preemptor held.
  void PreemptAsync(const PodPtr& preemptor, const std::string& node, std::vector<PodPtr> victims,
                    std::vector<PreemptionResult::PodRef> to_clear);
  Engine* engine_;
  SchedulerApi* api_;
  const Clock* clock_;
  Metrics* metrics_;
  LiveOptions options_;
  std::unique_ptr<SchedulingQueue> queue_;
  LiveCache cache_;
  Inbox<InboxItem> inbox_;
  EventRecorder recorder_;
  std::unique_ptr<WorkerPool> binders_;
  std::unique_ptr<WorkerPool> writers_;
  std::unique_ptr<WorkerPool> pre_binders_;  // see LiveOptions::pre_bind_workers
  bool v126_;  // the engine is the framework, v1.26 or later (its event texts)
  bool v135_;  // v1.35's queue and preemption
  RunningPreemptions preemptions_;
  int64_t last_backoff_window_ = 0;  // v1.35: the second of the last backoff flush
  std::atomic<bool> stop_{false};
  std::atomic<uint64_t> bound_{0};
  std::atomic<bool> synced_{false};
  uint64_t cycles_ = 0;
  Clock::TimePoint last_backoff_flush_{}, last_unschedulable_flush_{}, last_expiry_{};
  // The PodScheduled condition message last written per pod (only changes
  // are written, as upstream's UpdatePodCondition).
  std::unordered_map<std::string, std::string> condition_written_;
  // Pods PreEnqueue holds back (scheduler_pending_pods{queue="gated"}),
  // with the plugin and profile they are counted under.
  struct Gated {
    std::string plugin, profile;
  };
  std::unordered_map<std::string, Gated> gated_;
  // v1.26: the framework's timings (null without metrics).
  std::unique_ptr<framework::MetricsRecorder> timings_;
  Clock::TimePoint last_metrics_flush_{};
};

}  // namespace ksched::live
