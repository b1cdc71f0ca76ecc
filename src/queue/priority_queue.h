// Upstream v1.15's PriorityQueue (pkg/scheduler/internal/queue): where
// pending pods wait between scheduling attempts.
//
// Three parts, and what moves a pod between them:
//   active         pods to attempt, highest priority first, then the one
//                  that entered the queue first (the timestamp is kept when a
//                  pod moves between parts). Pop() takes the head.
//   backoff        pods that failed recently: each failure doubles the pod's
//                  backoff (1 s, 2 s, ... at most 10 s); FlushBackoffCompleted()
//                  moves those whose backoff is over to active.
//   unschedulable  pods that failed and wait for the cluster to change.
//                  MoveAllToActive(event) (a node added or changed, a pod
//                  deleted, a PV/PVC/Service/StorageClass change) moves them
//                  to active, or to backoff while backing off;
//                  AssignedPodAdded/Updated moves those whose required pod
//                  affinity matches the pod; FlushUnschedulableLeftover()
//                  moves those that waited longer than the timeout (v1.15
//                  60 s, v1.26 5 minutes).
// With a ClusterEventMap (v1.26's framework) a move takes only the pods
// that one of the plugins that rejected them registered the event for
// (EventsToRegister); pods rejected by no plugin move on every event.
// Without one (v1.15) every move takes every pod.
// A pod that fails after a move request during its cycle goes to backoff
// rather than unschedulable, so the move is not missed (the scheduling
// cycle counter); a pod that came back because of an error, not because
// plugins rejected it, may be sent to backoff outright
// (AddBackoffIfNotPresent). The queue also keeps upstream's nominated-pods
// map.
//
// Thread-safe: informer threads add and update while the scheduling thread
// pops. Pop() blocks until a pod is active or Close() is called.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "api/types.h"
#include "framework/cluster_event.h"
#include "queue/clock.h"

namespace ksched {

class PriorityQueue {
 public:
  using PodPtr = std::shared_ptr<const Pod>;

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
  };
  // A node's check of a pod before a move (upstream's PreEnqueueCheck).
  using PreEnqueueCheck = std::function<bool(const Pod&)>;

  explicit PriorityQueue(const Clock* clock) : PriorityQueue(clock, Options()) {}
  PriorityQueue(const Clock* clock, Options options);

  // A new pending pod: to active (and, if it carries
  // status.nominatedNodeName, into the nominated map).
  void Add(PodPtr pod);
  // Adds unless the pod is in some part already.
  void AddIfNotPresent(PodPtr pod);
  // Filters moves by the plugins that rejected each pod (v1.26).
  void SetClusterEventMap(framework::ClusterEventMap map);

  // A pod that failed its cycle `cycle` (SchedulingCycle() when it was
  // popped): to backoff if a move request came since, else unschedulable.
  // Its backoff grows either way. `unschedulable_plugins` are the plugins
  // that rejected it (the FitError's). False when it is queued already.
  bool AddUnschedulableIfNotPresent(PodPtr pod, int64_t cycle,
                                    std::vector<std::string> unschedulable_plugins = {});
  // A pod that came back because of an error rather than its plugins'
  // verdict, to be retried once its backoff is over whatever the move
  // requests say (v1.35 queues every such pod so; `run`'s v1.15 engine a
  // pod whose binding failed, see LiveScheduler::HandleBindingCycleError).
  // Its backoff grows as above. v1.35's backoff by the count of consecutive
  // errors (ConsecutiveErrorsCount) belongs here. False when it is queued
  // already.
  bool AddBackoffIfNotPresent(PodPtr pod);
  // The pod changed: updated in place in active/backoff (backoff ones go to
  // active); an unschedulable one goes to active if its spec or metadata
  // changed (not only its status), resetting its backoff; a pod in no part
  // is added.
  void Update(const PodPtr& old_pod, PodPtr new_pod);
  // The pod is gone (deleted, or bound by someone): from every part and
  // from the nominated map.
  void Delete(const Pod& pod);

  // Cluster events. `check`, when given, must accept a pod for it to move.
  void MoveAllToActive(const framework::ClusterEvent& event, const PreEnqueueCheck& check = {});
  void MoveAllToActive();  // a wildcard event
  void AssignedPodAdded(const Pod& pod);
  void AssignedPodUpdated(const Pod& pod);
  void FlushBackoffCompleted();
  void FlushUnschedulableLeftover();

  // The head of active; blocks while active is empty. nullptr once closed.
  PodPtr Pop();
  // Non-blocking Pop(): nullptr when active is empty.
  PodPtr TryPop();
  void Close();
  int64_t SchedulingCycle() const;

  // The nominated-pods map (upstream's nominatedPodMap), by pod uid.
  void UpdateNominatedPodForNode(PodPtr pod, const std::string& node);
  void DeleteNominatedPodIfExists(const Pod& pod);
  // Every nominated pod with its node, in each node's nomination order.
  std::vector<std::pair<std::string, PodPtr>> NominatedPods() const;

  struct Sizes {
    size_t active = 0, backoff = 0, unschedulable = 0;
  };
  Sizes sizes() const;

  // Upstream's QueuedPodInfo.Attempts and InitialAttemptTimestamp: how
  // often the pod has been popped and when it first entered the queue
  // (kept while it moves between parts and through failed attempts;
  // forgotten when it is deleted). Zero attempts for a pod the queue does
  // not know.
  struct Attempts {
    int attempts = 0;
    Clock::TimePoint initial{};
  };
  Attempts AttemptsOf(const Pod& pod) const;
  // The pod just popped was not attempted (v1.26's PreEnqueue held it
  // back, which upstream checks before a pod is active): no attempt counts.
  void NotAttempted(const Pod& pod);

 private:
  struct Entry {
    PodPtr pod;
    Clock::TimePoint timestamp;                      // when it entered the queue
    uint64_t seq = 0;                                // ties between equal timestamps: arrival
    std::vector<std::string> unschedulable_plugins;  // of its last FitError
  };
  struct ActiveLess {
    bool operator()(const Entry& a, const Entry& b) const;
  };
  struct BackoffState {
    int attempts = 0;
    std::chrono::steady_clock::time_point last_update;
  };

  static std::string KeyOf(const Pod& pod) { return pod.Key(); }
  Entry NewEntry(PodPtr pod);
  bool InActive(const std::string& key) const { return active_index_.count(key) != 0; }
  void PushActive(Entry e);
  void EraseActive(const std::string& key);
  void PushBackoff(Entry e);
  void EraseBackoff(const std::string& key);
  std::optional<Clock::TimePoint> BackoffTime(const std::string& key) const;
  bool IsBackingOff(const std::string& key) const;
  void BackoffPod(const std::string& key);
  // AddUnschedulableIfNotPresent and AddBackoffIfNotPresent: to backoff
  // when `to_backoff`, else to unschedulable.
  bool AddFailedIfNotPresentLocked(PodPtr pod, bool to_backoff,
                                   std::vector<std::string> unschedulable_plugins);
  // Moves those of `keys` that `event` may help (all without an event map).
  void AssignedPodChanged(const Pod& pod, const framework::ClusterEvent& event);
  void MoveToActiveLocked(const std::vector<std::string>& keys,
                          const framework::ClusterEvent& event);
  void Incoming(std::string_view part, std::string_view event) const {
    if (options_.on_incoming) options_.on_incoming(part, event);
  }
  // The entry's rejecting plugins counted (+1) or no longer (-1).
  void CountUnschedulable(const Entry& e, int delta) const;
  // The pod entered the queue: its attempts start unless it is known.
  void StartAttemptsLocked(const Pod& pod);
  PodPtr PopLocked();
  void NominateLocked(const PodPtr& pod, const std::string& node);
  void UnnominateLocked(const Pod& pod);
  void UpdateNominationLocked(const Pod& old_pod, const PodPtr& new_pod);

  const Clock* clock_;
  Options options_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool closed_ = false;
  uint64_t next_seq_ = 0;
  int64_t scheduling_cycle_ = 0;
  int64_t move_request_cycle_ = -1;
  std::optional<framework::ClusterEventMap> event_map_;

  std::set<Entry, ActiveLess> active_;
  std::unordered_map<std::string, std::set<Entry, ActiveLess>::iterator> active_index_;
  std::map<std::string, Entry> backoff_;  // by key; flushed by backoff time
  std::map<std::string, Entry> unschedulable_;
  std::unordered_map<std::string, BackoffState> backoff_state_;
  struct PodAttempts {
    std::string uid;
    Attempts attempts;
  };
  std::unordered_map<std::string, PodAttempts> attempts_;  // by key

  std::map<std::string, std::vector<PodPtr>> nominated_;         // node -> pods
  std::unordered_map<std::string, std::string> nominated_node_;  // uid -> node
};

}  // namespace ksched
