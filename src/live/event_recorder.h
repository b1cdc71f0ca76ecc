// Events about pods, written as upstream's event broadcaster writes them: by
// one background thread, in order, from a bounded queue that drops new
// events when full (client-go's broadcaster drops too, DropIfChannelFull),
// so that events never slow down scheduling.
//
// Bindings come first. While bindings are in flight (BindingStarted and
// BindingFinished bracket each), the writer holds events back, up to
// `max_delay` for the oldest, so that a burst of bindings does not share
// the API server with a Scheduled event per pod: on two cores an event
// costs the server about what a binding costs. Each event keeps the time it
// was recorded (eventTime), so a late write does not misdate it. The queue
// is sized for `max_delay` of bindings at a few thousand pods/s; when it is
// three-quarters full the writer stops holding back.
//
// Series, as upstream's events broadcaster (client-go tools/events) keeps
// them where the API writes events.k8s.io/v1 Events: an event isomorphic to
// one written before (same type, reason, reporting controller, regarding
// object and note) is not created again. Its second occurrence patches
// the first's series {count: 2, lastObservedTime}; later ones only count,
// written every 30 min and when the series ends (6 min without one, then
// forgotten). Singletons are forgotten after 6 min. (Upstream's key holds the
// regarding object's resourceVersion instead of the note, which ksched does
// not track; the note changes when the scheduler's own condition write
// changes it. A pod changed by others between two attempts with the same
// message joins the series here, where upstream starts a new Event.)
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <thread>

#include "api/types.h"
#include "live/scheduler_api.h"

namespace ksched::live {

class EventRecorder {
 public:
  EventRecorder(SchedulerApi* api, std::string component, size_t capacity = 10000,
                std::chrono::milliseconds max_delay = std::chrono::seconds(5));
  ~EventRecorder();  // writes what is queued, then stops

  // Queues an event about `pod` ("Normal" or "Warning"). False when dropped.
  // Its source is `component`, else the pod's spec.schedulerName (the
  // profile that scheduled it, as each upstream profile has its recorder),
  // else the recorder's component.
  bool Record(const Pod& pod, std::string_view type, std::string_view reason, std::string message,
              std::string_view component = {});
  // A binding began / ended (any thread): events wait while any is in flight.
  void BindingStarted();
  void BindingFinished();
  // Blocks until the queue is empty and no write is in flight (held events
  // are written at once).
  void Flush();
  // Flush up to `deadline`: false when events remain then.
  bool FlushUntil(std::chrono::steady_clock::time_point deadline);
  // Forgets the queued events (shutdown past its bound); returns how many.
  size_t DropQueued();
  uint64_t dropped() const;
  // Events queued, not yet written.
  size_t queued() const;
  uint64_t failed() const;

 private:
  void Loop();
  // The series step of the front event (mu_ not held): false when it needs
  // no write (counted into its series).
  bool Aggregate(client::EventRecord* e, bool* patch);
  // Writes the series due (30 min refresh, 6 min end) and forgets ended ones.
  void MaintainSeries(std::chrono::system_clock::time_point now);
  // Whether the writer should hold the front event back now (mu_ held).
  bool HoldBack(std::chrono::steady_clock::time_point now) const;

  struct Queued {
    client::EventRecord event;
    std::chrono::steady_clock::time_point recorded;
  };

  SchedulerApi* api_;
  std::string component_;
  size_t capacity_;
  std::chrono::milliseconds max_delay_;
  mutable std::mutex mu_;
  std::condition_variable cv_, idle_cv_;
  std::deque<Queued> queue_;
  int64_t bindings_ = 0;  // in flight
  int flushing_ = 0;      // Flush callers waiting
  bool writing_ = false;
  bool stopping_ = false;
  uint64_t dropped_ = 0, failed_ = 0;
  // The writer thread's own: isomorphic key -> the event as written.
  struct Series {
    client::EventRecord event;                      // object_name and series_* as last known
    std::chrono::system_clock::time_point written;  // last write
  };
  std::map<std::string, Series> series_;
  std::chrono::system_clock::time_point last_maintenance_{};
  std::thread thread_;
};

}  // namespace ksched::live
