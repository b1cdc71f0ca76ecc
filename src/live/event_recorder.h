// core/v1 Events about pods, written as upstream's event broadcaster writes
// them: by one background thread, in order, from a bounded queue that drops
// new events when full (client-go's 1,000-event queue with
// DropIfChannelFull), so that events never slow down scheduling or
// compete with bindings for more than one connection.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <thread>

#include "api/types.h"
#include "live/scheduler_api.h"

namespace ksched::live {

class EventRecorder {
 public:
  EventRecorder(SchedulerApi* api, std::string component, size_t capacity = 1000);
  ~EventRecorder();  // writes what is queued, then stops

  // Queues an event about `pod` ("Normal" or "Warning"). False when dropped.
  // Its source is `component`, else the pod's spec.schedulerName (the
  // profile that scheduled it, as each upstream profile has its recorder),
  // else the recorder's component.
  bool Record(const Pod& pod, std::string_view type, std::string_view reason, std::string message,
              std::string_view component = {});
  // Blocks until the queue is empty and no write is in flight.
  void Flush();
  uint64_t dropped() const;
  uint64_t failed() const;

 private:
  void Loop();

  SchedulerApi* api_;
  std::string component_;
  size_t capacity_;
  mutable std::mutex mu_;
  std::condition_variable cv_, idle_cv_;
  std::deque<client::EventRecord> queue_;
  bool writing_ = false;
  bool stopping_ = false;
  uint64_t dropped_ = 0, failed_ = 0;
  std::thread thread_;
};

}  // namespace ksched::live
