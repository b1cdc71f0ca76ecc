#include "live/event_recorder.h"

#include <fmt/format.h>

#include "live/log.h"

namespace ksched::live {

EventRecorder::EventRecorder(SchedulerApi* api, std::string component, size_t capacity,
                             std::chrono::milliseconds max_delay)
    : api_(api), component_(std::move(component)), capacity_(capacity), max_delay_(max_delay) {
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
  e.time = std::chrono::system_clock::now();
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (queue_.size() >= capacity_) {
      ++dropped_;
      return false;
    }
    queue_.push_back(Queued{std::move(e), std::chrono::steady_clock::now()});
  }
  cv_.notify_one();
  return true;
}

void EventRecorder::BindingStarted() {
  std::lock_guard<std::mutex> lock(mu_);
  ++bindings_;
}

void EventRecorder::BindingFinished() {
  bool idle;
  {
    std::lock_guard<std::mutex> lock(mu_);
    idle = --bindings_ == 0;
  }
  if (idle) cv_.notify_one();
}

void EventRecorder::Flush() {
  std::unique_lock<std::mutex> lock(mu_);
  ++flushing_;
  cv_.notify_one();
  idle_cv_.wait(lock, [&] { return queue_.empty() && !writing_; });
  --flushing_;
}

bool EventRecorder::FlushUntil(std::chrono::steady_clock::time_point deadline) {
  std::unique_lock<std::mutex> lock(mu_);
  ++flushing_;
  cv_.notify_one();
  const bool done =
      idle_cv_.wait_until(lock, deadline, [&] { return queue_.empty() && !writing_; });
  --flushing_;
  return done;
}

size_t EventRecorder::DropQueued() {
  std::lock_guard<std::mutex> lock(mu_);
  const size_t n = queue_.size();
  queue_.clear();
  dropped_ += n;
  if (!writing_) idle_cv_.notify_all();
  return n;
}

bool EventRecorder::HoldBack(std::chrono::steady_clock::time_point now) const {
  return bindings_ > 0 && !stopping_ && flushing_ == 0 && queue_.size() < capacity_ / 4 * 3 &&
         now - queue_.front().recorded < max_delay_;
}

uint64_t EventRecorder::dropped() const {
  std::lock_guard<std::mutex> lock(mu_);
  return dropped_;
}

size_t EventRecorder::queued() const {
  std::lock_guard<std::mutex> lock(mu_);
  return queue_.size();
}

uint64_t EventRecorder::failed() const {
  std::lock_guard<std::mutex> lock(mu_);
  return failed_;
}

namespace {

constexpr auto kSeriesFinish = std::chrono::minutes(6);    // client-go's finishTime
constexpr auto kSeriesRefresh = std::chrono::minutes(30);  // client-go's refreshTime

std::string SeriesKey(const client::EventRecord& e) {
  const auto& io = e.involved_object;
  // The note stands in for the regarding object's resourceVersion, which
  // upstream's key holds: the PodScheduled condition is written again (a
  // new resourceVersion) exactly when the FailedScheduling message changes.
  return e.type + '\n' + e.action + '\n' + e.reason + '\n' + e.source_component + '\n' + io.kind +
         '\n' + io.api_version + '\n' + io.ns + '\n' + io.name + '\n' + io.uid + '\n' + e.message;
}

}  // namespace

bool EventRecorder::Aggregate(client::EventRecord* e, bool* patch) {
  *patch = false;
  if (!api_->EventSeriesSupported()) return true;
  const auto now = std::chrono::system_clock::now();
  const std::string key = SeriesKey(*e);
  auto it = series_.find(key);
  if (it == series_.end()) {
    const auto nanos =
        std::chrono::duration_cast<std::chrono::nanoseconds>(now.time_since_epoch()).count();
    e->object_name = fmt::format("{}.{:x}", e->involved_object.name, nanos);
    series_[key] = Series{*e, now};
    return true;
  }
  Series& s = it->second;
  s.event.series_last_observed = e->time == std::chrono::system_clock::time_point{} ? now : e->time;
  if (s.event.series_count > 0) {
    ++s.event.series_count;  // written by MaintainSeries
    return false;
  }
  s.event.series_count = 2;
  s.written = now;
  *e = s.event;
  *patch = true;
  return true;
}

void EventRecorder::MaintainSeries(std::chrono::system_clock::time_point now) {
  for (auto it = series_.begin(); it != series_.end();) {
    Series& s = it->second;
    const auto last = s.event.series_count > 0 ? s.event.series_last_observed : s.event.time;
    const bool ended = now - last > kSeriesFinish;
    if (s.event.series_count > 0 && (ended || now - s.written > kSeriesRefresh) &&
        s.written < s.event.series_last_observed) {
      if (Status st = api_->PatchEventSeries(s.event); !st.ok())
        Log('W', "event " + s.event.reason + " series not written: " + st.error().message);
      s.written = now;
    }
    it = ended ? series_.erase(it) : std::next(it);
  }
}

void EventRecorder::Loop() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    cv_.wait_for(lock, std::chrono::minutes(1), [&] { return stopping_ || !queue_.empty(); });
    if (const auto now = std::chrono::system_clock::now();
        now - last_maintenance_ > std::chrono::minutes(1) && !series_.empty()) {
      last_maintenance_ = now;
      lock.unlock();
      MaintainSeries(now);
      lock.lock();
    }
    if (queue_.empty()) {
      if (stopping_) return;
      continue;
    }
    // Bindings in flight: wait for them (BindingFinished notifies), for
    // the front event to reach max_delay_, or for a flush or stop.
    for (auto now = std::chrono::steady_clock::now(); HoldBack(now);
         now = std::chrono::steady_clock::now()) {
      cv_.wait_until(lock, queue_.front().recorded + max_delay_);
    }
    client::EventRecord e = std::move(queue_.front().event);
    queue_.pop_front();
    writing_ = true;
    lock.unlock();
    bool patch = false;
    Status s = Status::Ok();
    if (Aggregate(&e, &patch)) s = patch ? api_->PatchEventSeries(e) : api_->CreateEvent(e);
    if (!s.ok()) Log('W', "event " + e.reason + " not written: " + s.error().message);
    lock.lock();
    writing_ = false;
    if (!s.ok()) ++failed_;
    if (queue_.empty()) idle_cv_.notify_all();
  }
}

}  // namespace ksched::live
