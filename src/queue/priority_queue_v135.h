// kube-scheduler v1.35's scheduling queue (pkg/scheduler/backend/queue),
// for `ksched run` with the v1.35 engine.
//
// Where a pending pod waits, and what moves it (upstream's rules):
//   active         pods to attempt: highest priority first, then the one
//                  (re)queued first. A pod enters only past the PreEnqueue
//                  plugins of its profile (SchedulingGates, DynamicResources,
//                  DefaultPreemption); one they hold back is "gated" and
//                  waits among the unschedulable, never attempted, until an
//                  event its gating plugin registered for (or its own update)
//                  lets it through.
//   backoff        pods rejected by plugins, until their backoff is over
//                  (initial doubled per failure, at most max; the count is
//                  UnschedulableCount). With PopFromBackoffQ expirations are
//                  truncated to whole seconds, pods of one second ordered as
//                  active orders them, and Pop takes the head of backoff when
//                  active is empty. FlushBackoffCompleted moves the expired.
//   error backoff  pods that failed with an error (no plugin rejected them:
//                  an API error, a failed binding): backoff by their count of
//                  consecutive errors; never popped before it ends.
//   unschedulable  pods rejected by plugins, until a cluster event that one
//                  of those plugins registered for, and whose QueueingHint
//                  says it may help (MoveAllToActive with the event's old and
//                  new object), moves them to active, or to backoff while
//                  they back off; or the pod's own update does
//                  (PodSchedulingPropertiesChange: label, scale-down,
//                  toleration, gates removed); or, after 5 minutes, the
//                  leftover flush.
// A pod is "in flight" from Pop until Done (the end of its scheduling cycle;
// a failure calls it through AddUnschedulableIfNotPresent). Events that move
// pods are kept while any pod is in flight, and a pod that fails is judged
// against those that came after it was popped, so an event it raced with is
// not lost.
//
// Thread-safe; Pop() blocks until a pod can be popped or Close() is called.
#pragma once

#include <condition_variable>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

#include "queue/nominator.h"
#include "queue/scheduling_queue.h"

namespace ksched {

// Upstream's PodSchedulingPropertiesChange: the events an update of a pod
// raises (UpdatePodLabel, UpdatePodScaleDown, UpdatePodSchedulingGates-
// Eliminated, UpdatePodToleration, UpdatePodGeneratedResourceClaim; a plain
// Update when none applies), as kAssignedPod or kUnschedulablePod events
// by the new version's spec.nodeName.
std::vector<framework::ClusterEvent> PodSchedulingPropertiesChange(const Pod& new_pod,
                                                                   const Pod& old_pod);

class PriorityQueueV135 final : public SchedulingQueue {
 public:
  PriorityQueueV135(const Clock* clock, Options options);

  void Add(PodPtr pod) override;
  bool AddUnschedulableIfNotPresent(PodPtr pod, int64_t cycle,
                                    std::vector<std::string> unschedulable_plugins = {}) override;
  // v1.35 backs every error off by its count of consecutive errors: the same
  // as AddUnschedulableIfNotPresent with no plugins.
  bool AddBackoffIfNotPresent(PodPtr pod) override;
  void Update(const PodPtr& old_pod, PodPtr new_pod) override;
  void Delete(const Pod& pod) override;

  void MoveAllToActive(const framework::ClusterEvent& event, const framework::EventObject& old_obj,
                       const framework::EventObject& new_obj,
                       const PreEnqueueCheck& check) override;
  using SchedulingQueue::MoveAllToActive;
  void MoveAllToActive() override;
  // v1.35 raises assigned pods' events through MoveAllToActive; these are
  // the same with the pod as the new object.
  void AssignedPodAdded(const Pod& pod) override;
  void AssignedPodUpdated(const Pod& pod) override;
  void FlushBackoffCompleted() override;
  void FlushUnschedulableLeftover() override;

  PodPtr Pop() override;
  PodPtr TryPop() override;
  void Close() override;
  int64_t SchedulingCycle() const override;
  void Done(const std::string& uid) override;
  void Activate(const Pod& pod) override;

  void UpdateNominatedPodForNode(PodPtr pod, const std::string& node) override;
  void DeleteNominatedPodIfExists(const Pod& pod) override;
  std::vector<std::pair<std::string, PodPtr>> NominatedPods() const override;

  Sizes sizes() const override;
  Attempts AttemptsOf(const Pod& pod) const override;

  // For tests: the time the pod's backoff ends (nullopt: none, or unknown pod).
  std::optional<Clock::TimePoint> BackoffExpiration(const Pod& pod) const;
  // For tests: where the pod is ("active", "backoff", "errorBackoff",
  // "unschedulable", "gated", "inFlight" or "").
  std::string PartOf(const Pod& pod) const;
  // For tests: events kept for pods in flight.
  size_t InFlightEvents() const;

 private:
  enum class Part : uint8_t { kNone, kActive, kBackoff, kErrorBackoff, kUnschedulable };
  // Upstream's QueuedPodInfo.
  struct Info {
    PodPtr pod;
    Clock::TimePoint timestamp{};  // when it was (re)queued
    std::optional<Clock::TimePoint> initial_attempt;
    int attempts = 0;
    int unschedulable_count = 0;
    int consecutive_errors = 0;
    std::vector<std::string> unschedulable_plugins;  // sorted, unique
    std::vector<std::string> pending_plugins;        // sorted, unique
    std::string gating_plugin;
    std::vector<framework::ClusterEvent> gating_plugin_events;
    std::optional<Clock::TimePoint> backoff_expiration;  // cached; reset when requeued
    uint64_t seq = 0;
    Part part = Part::kNone;

    bool Gated() const { return !gating_plugin.empty(); }
  };
  struct ActiveLess {
    bool operator()(const Info* a, const Info* b) const;
  };
  struct BackoffLess {
    const PriorityQueueV135* q;
    bool with_priority;
    bool operator()(const Info* a, const Info* b) const;
  };
  enum class Strategy : uint8_t { kSkip, kAfterBackoff, kImmediately };

  static std::string KeyOf(const Pod& pod) { return pod.Key(); }
  std::unique_ptr<Info> NewInfo(PodPtr pod);
  Info* Find(const std::string& key) const;
  // Takes the pod out of whatever part holds it; the caller owns it then.
  std::unique_ptr<Info> Detach(const std::string& key);
  void Attach(std::unique_ptr<Info> info, Part part, std::string_view event);
  void CountPlugins(const Info& info, int delta) const;

  Clock::TimePoint AlignToWindow(Clock::TimePoint t) const;
  // getBackoffTime; Clock::TimePoint::min() when the pod does not back off.
  Clock::TimePoint BackoffTime(const Info& info) const;
  bool IsBackingOff(const Info& info) const;
  std::chrono::nanoseconds BackoffDuration(int count) const;

  void RunPreEnqueue(Info* info) const;
  // moveToActiveQ / moveToBackoffQ: false when PreEnqueue held it back
  // (then it is among the unschedulable, gated).
  bool MoveToActive(std::unique_ptr<Info> info, std::string_view event, bool from_backoff);
  bool MoveToBackoff(std::unique_ptr<Info> info, std::string_view event);
  // requeuePodWithQueueingStrategy: the part it went to.
  Part Requeue(std::unique_ptr<Info> info, Strategy strategy, std::string_view event);
  Strategy WorthRequeuing(const Info& info, const framework::ClusterEvent& event,
                          const framework::EventObject& old_obj,
                          const framework::EventObject& new_obj) const;
  bool Interested(const framework::ClusterEvent& event) const;
  void MovePods(const std::vector<std::string>& keys, const framework::ClusterEvent& event,
                const framework::EventObject& old_obj, const framework::EventObject& new_obj);
  Strategy InFlightHint(const Info& info) const;
  void RecordInFlight(const framework::ClusterEvent& event, const framework::EventObject& old_obj,
                      const framework::EventObject& new_obj);
  void DoneLocked(const std::string& uid);
  PodPtr PopLocked();
  bool CanPopLocked() const;

  const Clock* clock_;
  Options options_;
  // pluginToEventsMap: the events each plugin registered, over all profiles.
  std::map<std::string, std::vector<framework::ClusterEvent>, std::less<>> plugin_events_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool closed_ = false;
  uint64_t next_seq_ = 0;
  int64_t scheduling_cycle_ = 0;

  // Every queued pod, by key; the parts hold pointers into it.
  std::unordered_map<std::string, std::unique_ptr<Info>> queued_;
  std::set<Info*, ActiveLess> active_;
  std::set<Info*, BackoffLess> backoff_;
  std::set<Info*, BackoffLess> error_backoff_;
  std::map<std::string, Info*> unschedulable_;
  // Popped pods until they come back, are bound or are deleted, by key: their
  // counts outlive the attempt (a binding may still fail after Done).
  std::unordered_map<std::string, std::unique_ptr<Info>> popped_;

  // In-flight pods (by uid) and the events seen since each was popped: a
  // list of pod markers and events, in arrival order.
  struct EventRecord {
    framework::ClusterEvent event;
    framework::EventObject old_obj, new_obj;
  };
  using InFlightItem = std::variant<std::string, EventRecord>;  // uid, or an event
  std::list<InFlightItem> in_flight_;
  std::unordered_map<std::string, std::list<InFlightItem>::iterator> in_flight_pods_;

  Nominator nominator_;
};

}  // namespace ksched
