#include "live/event_recorder.h"

#include <iostream>

namespace ksched::live {

EventRecorder::EventRecorder(SchedulerApi* api, std::string component, size_t capacity)
    : api_(api), component_(std::move(component)), capacity_(capacity) {
  thread_ = std::thread([this] { Loop(); });
}

EventRecorder::~EventRecorder() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

bool EventRecorder::Record(const Pod& pod, std::string_view type, std::string_view reason,
                           std::string message, std::string_view component) {
  client::EventRecord e;
  e.involved_object.kind = "Pod";
  e.involved_object.api_version = "v1";
  e.involved_object.ns = std::string(Str(pod.meta.ns));
  e.involved_object.name = pod.meta.name;
  e.involved_object.uid = pod.meta.uid;
  e.reason = std::string(reason);
  e.message = std::move(message);
  e.type = std::string(type);
  e.source_component = !component.empty()                 ? std::string(component)
                       : !pod.spec.scheduler_name.empty() ? pod.spec.scheduler_name
                                                          : component_;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (queue_.size() >= capacity_) {
      ++dropped_;
      return false;
    }
    queue_.push_back(std::move(e));
  }
  cv_.notify_one();
  return true;
}

void EventRecorder::Flush() {
  std::unique_lock<std::mutex> lock(mu_);
  idle_cv_.wait(lock, [&] { return queue_.empty() && !writing_; });
}

uint64_t EventRecorder::dropped() const {
  std::lock_guard<std::mutex> lock(mu_);
  return dropped_;
}

uint64_t EventRecorder::failed() const {
  std::lock_guard<std::mutex> lock(mu_);
  return failed_;
}

void EventRecorder::Loop() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    cv_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) return;
    client::EventRecord e = std::move(queue_.front());
    queue_.pop_front();
    writing_ = true;
    lock.unlock();
    Status s = api_->CreateEvent(e);
    if (!s.ok())
      std::cerr << "W event " << e.reason << " not written: " << s.error().message << "\n";
    lock.lock();
    writing_ = false;
    if (!s.ok()) ++failed_;
    if (queue_.empty()) idle_cv_.notify_all();
  }
}

}  // namespace ksched::live
