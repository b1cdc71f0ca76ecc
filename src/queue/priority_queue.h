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
#include "queue/nominator.h"
#include "queue/scheduling_queue.h"

namespace ksched {

class PriorityQueue final : public SchedulingQueue {
 public:
  explicit PriorityQueue(const Clock* clock) : PriorityQueue(clock, Options()) {}
  PriorityQueue(const Clock* clock, Options options);

  // A new pending pod: to active (and, if it carries
  // status.nominatedNodeName, into the nominated map).
  void Add(PodPtr pod) override;
  // Adds unless the pod is in some part already.
  void AddIfNotPresent(PodPtr pod);
  // Filters moves by the plugins that rejected each pod (v1.26).
  void SetClusterEventMap(framework::ClusterEventMap map);

  // A pod that failed its cycle `cycle` (SchedulingCycle() when it was
  // popped): to backoff if a move request came since, else unschedulable.
  // Its backoff grows either way. `unschedulable_plugins` are the plugins
  // that rejected it (the FitError's). False when it is queued already.
  bool AddUnschedulableIfNotPresent(PodPtr pod, int64_t cycle,
                                    std::vector<std::string> unschedulable_plugins = {}) override;
  // A pod that came back because of an error rather than its plugins'
  // verdict, to be retried once its backoff is over whatever the move
  // requests say (v1.35 queues every such pod so; `run`'s v1.15 engine a
  // pod whose binding failed, see LiveScheduler::HandleBindingCycleError).
  // Its backoff grows as above. v1.35's backoff by the count of consecutive
  // errors (ConsecutiveErrorsCount) belongs here. False when it is queued
  // already.
  bool AddBackoffIfNotPresent(PodPtr pod) override;
  // The pod changed: updated in place in active/backoff (backoff ones go to
  // active); an unschedulable one goes to active if its spec or metadata
  // changed (not only its status), resetting its backoff; a pod in no part
  // is added.
  void Update(const PodPtr& old_pod, PodPtr new_pod) override;
  // The pod is gone (deleted, or bound by someone): from every part and
  // from the nominated map.
  void Delete(const Pod& pod) override;

  // Cluster events (their objects are not read). `check`, when given, must
  // accept a pod for it to move.
  void MoveAllToActive(const framework::ClusterEvent& event, const framework::EventObject& old_obj,
                       const framework::EventObject& new_obj,
                       const PreEnqueueCheck& check) override;
  using SchedulingQueue::MoveAllToActive;
  void MoveAllToActive() override;  // a wildcard event
  void AssignedPodAdded(const Pod& pod) override;
  void AssignedPodUpdated(const Pod& pod) override;
  void FlushBackoffCompleted() override;
  void FlushUnschedulableLeftover() override;

  // The head of active; blocks while active is empty. nullptr once closed.
  PodPtr Pop() override;
  // Non-blocking Pop(): nullptr when active is empty.
  PodPtr TryPop() override;
  void Close() override;
  int64_t SchedulingCycle() const override;

  // The nominated-pods map (upstream's nominatedPodMap), by pod uid.
  void UpdateNominatedPodForNode(PodPtr pod, const std::string& node) override;
  void DeleteNominatedPodIfExists(const Pod& pod) override;
  // Every nominated pod with its node, in each node's nomination order.
  std::vector<std::pair<std::string, PodPtr>> NominatedPods() const override;

  Sizes sizes() const override;

  Attempts AttemptsOf(const Pod& pod) const override;
  void NotAttempted(const Pod& pod) override;

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

  Nominator nominator_;
};

}  // namespace ksched
