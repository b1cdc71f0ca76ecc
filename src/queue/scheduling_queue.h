// The scheduling queue as `ksched run` uses it (upstream's SchedulingQueue
// interface), with one implementation per queue generation:
//   PriorityQueue       (priority_queue.h)      v1.15's, and v1.26's with a
//                                               ClusterEventMap
//   PriorityQueueV135   (priority_queue_v135.h) v1.35's: QueueingHints,
//                                               PreEnqueue in the queue,
//                                               error backoff, popping from
//                                               backoff, in-flight events
// The live cache raises cluster events on it and the scheduling loop pops
// from it; neither branches on which one it is.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/types.h"
#include "framework/cluster_event.h"
#include "queue/clock.h"

namespace ksched {

class SchedulingQueue {
 public:
  using PodPtr = std::shared_ptr<const Pod>;
  // A node's check of a pod before a move (upstream's PreEnqueueCheck).
  using PreEnqueueCheck = std::function<bool(const Pod&)>;

  struct Options {
    std::chrono::nanoseconds initial_backoff = std::chrono::seconds(1);
    std::chrono::nanoseconds max_backoff = std::chrono::seconds(10);
    std::chrono::nanoseconds unschedulable_timeout = std::chrono::seconds(60);
    // Called (under the queue's lock: keep it short) for each pod entering
    // a part, with the part ("active", "backoff", "unschedulable") and the
    // event's label, for scheduler_queue_incoming_pods_total.
    std::function<void(std::string_view queue, std::string_view event)> on_incoming;
    // Called (under the queue's lock) with +1 for each plugin that rejected
    // a pod when it comes back as unschedulable (AddUnschedulableIfNotPresent)
    // and -1 for each when it leaves the queue (popped, as upstream, or
    // deleted or replaced), with its profile (spec.schedulerName), for
    // scheduler_unschedulable_pods.
    std::function<void(std::string_view plugin, std::string_view profile, int delta)>
        on_unschedulable_plugin;

    // ---- v1.35 (PriorityQueueV135)
    // SchedulerPopFromBackoffQ: backoff expirations in whole-second windows,
    // and Pop takes from backoff when active is empty.
    bool pop_from_backoff = true;
    // The PreEnqueue plugins of the pod's profile, run before a pod enters
    // active (and backoff, with pop_from_backoff): "" when the pod may
    // proceed, else the plugin that holds it back.
    std::function<std::string(const Pod&)> pre_enqueue;
    // Each profile's QueueingHints (Engine::QueueingHints()).
    framework::QueueingHintMaps hints;
    // Called (under the lock) per hint run: the plugin, the event's label,
    // the hint and its time (scheduler_queueing_hint_execution_duration_seconds).
    std::function<void(std::string_view plugin, std::string_view event, framework::QueueingHint,
                       double seconds)>
        on_hint;
    // Called (under the lock) when events kept for pods in flight change
    // (scheduler_inflight_events): the event's label ("PodPopped" for the
    // pods themselves) and the change.
    std::function<void(std::string_view event, int delta)> on_inflight;
  };

  struct Sizes {
    size_t active = 0, backoff = 0, unschedulable = 0;
    // Of the unschedulable: held back by PreEnqueue, never attempted
    // (v1.35; the v1.26 live scheduler counts its own).
    size_t gated = 0;
  };

  // Upstream's QueuedPodInfo.Attempts and InitialAttemptTimestamp: how
  // often the pod has been popped and when it first entered the queue
  // (kept while it moves between parts and through failed attempts;
  // forgotten when it is deleted). Zero attempts for a pod the queue does
  // not know.
  struct Attempts {
    int attempts = 0;
    Clock::TimePoint initial{};
  };

  virtual ~SchedulingQueue() = default;

  // A new pending pod: to active (v1.35: unless PreEnqueue holds it back)
  // and, with status.nominatedNodeName, into the nominated map.
  virtual void Add(PodPtr pod) = 0;
  // A pod that failed its cycle `cycle` (SchedulingCycle() when it was
  // popped), with the plugins that rejected it (the FitError's; none for an
  // error). False when it is queued already. v1.26: to backoff if a move
  // request came since, else unschedulable. v1.35: by the QueueingHints of
  // the events seen while it was in flight; an error backs off by the
  // count of consecutive errors.
  virtual bool AddUnschedulableIfNotPresent(
      PodPtr pod, int64_t cycle, std::vector<std::string> unschedulable_plugins = {}) = 0;
  // A pod that came back because of an error rather than its plugins'
  // verdict, to be retried once its backoff is over whatever the move
  // requests say. False when it is queued already.
  virtual bool AddBackoffIfNotPresent(PodPtr pod) = 0;
  // The pending pod changed (see each implementation).
  virtual void Update(const PodPtr& old_pod, PodPtr new_pod) = 0;
  // The pod is gone (deleted, or bound by someone): from every part and
  // from the nominated map.
  virtual void Delete(const Pod& pod) = 0;

  // A cluster event with its objects (v1.35's hints read them; v1.26 and
  // v1.15 only the event). `check`, when given, must accept a pod for it to
  // move.
  virtual void MoveAllToActive(const framework::ClusterEvent& event,
                               const framework::EventObject& old_obj,
                               const framework::EventObject& new_obj,
                               const PreEnqueueCheck& check) = 0;
  void MoveAllToActive(const framework::ClusterEvent& event, const PreEnqueueCheck& check = {}) {
    MoveAllToActive(event, {}, {}, check);
  }
  virtual void MoveAllToActive() = 0;  // a wildcard event
  virtual void AssignedPodAdded(const Pod& pod) = 0;
  virtual void AssignedPodUpdated(const Pod& pod) = 0;
  virtual void FlushBackoffCompleted() = 0;
  virtual void FlushUnschedulableLeftover() = 0;

  // The next pod to attempt; blocks while there is none. nullptr once closed.
  virtual PodPtr Pop() = 0;
  // Non-blocking Pop(): nullptr when there is none.
  virtual PodPtr TryPop() = 0;
  virtual void Close() = 0;
  virtual int64_t SchedulingCycle() const = 0;
  // The pod popped last with this uid is no longer in flight (v1.35's
  // Done; the others track nothing).
  virtual void Done(const std::string& /*uid*/) {}
  // Moves the pod to active now (v1.35's Activate: a preemption that
  // failed part-way); a pod in flight is queued again when it comes back.
  virtual void Activate(const Pod& /*pod*/) {}
  // The pod just popped was not attempted (v1.26's PreEnqueue held it
  // back, which upstream checks before a pod is active): no attempt counts.
  virtual void NotAttempted(const Pod& /*pod*/) {}

  // The nominated-pods map (upstream's nominator), by pod uid.
  virtual void UpdateNominatedPodForNode(PodPtr pod, const std::string& node) = 0;
  virtual void DeleteNominatedPodIfExists(const Pod& pod) = 0;
  // Every nominated pod with its node, in each node's nomination order.
  virtual std::vector<std::pair<std::string, PodPtr>> NominatedPods() const = 0;

  virtual Sizes sizes() const = 0;
  virtual Attempts AttemptsOf(const Pod& pod) const = 0;
};

}  // namespace ksched
