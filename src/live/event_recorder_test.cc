#include "live/event_recorder.h"

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace ksched::live {
namespace event_recorder_test {

using std::chrono::milliseconds;

// The API calls other than events, answered Ok and otherwise ignored.
class EventsOnlyApi : public SchedulerApi {
 public:
  Status BindPod(std::string_view, std::string_view, std::string_view, std::string_view) override {
    return Status::Ok();
  }
  Status DeletePod(std::string_view, std::string_view, std::string_view) override {
    return Status::Ok();
  }
  Status SetNominatedNodeName(std::string_view, std::string_view, std::string_view) override {
    return Status::Ok();
  }
  Status SetPodScheduledCondition(std::string_view, std::string_view, std::string_view,
                                  std::string_view, std::string_view) override {
    return Status::Ok();
  }
  Status SetDisruptionTarget(std::string_view, std::string_view, std::string_view,
                             std::string_view) override {
    return Status::Ok();
  }
};

// Records the events written; everything else is never called.
class EventSink : public EventsOnlyApi {
 public:
  Status CreateEvent(const client::EventRecord& event) override {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [&] { return !blocked_; });
    written_.push_back(event);
    return Status::Ok();
  }
  // While blocked, a write waits (an API server that does not answer).
  void Block(bool blocked) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      blocked_ = blocked;
    }
    cv_.notify_all();
  }
  std::vector<client::EventRecord> written() const {
    std::lock_guard<std::mutex> lock(mu_);
    return written_;
  }
  // Waits up to `limit` for `n` events.
  bool WaitFor(size_t n, milliseconds limit) const {
    const auto end = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < end) {
      if (written().size() >= n) return true;
      std::this_thread::sleep_for(milliseconds(2));
    }
    return written().size() >= n;
  }

 private:
  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool blocked_ = false;
  std::vector<client::EventRecord> written_;
};

Pod MakePod(const std::string& name) {
  Pod pod;
  pod.meta.name = name;
  pod.meta.ns = Intern("default");
  pod.spec.scheduler_name = "ks";
  return pod;
}

TEST(EventRecorder, WritesInOrderWithTheRecordedTime) {
  EventSink sink;
  EventRecorder recorder(&sink, "default-scheduler");
  const auto before = std::chrono::system_clock::now();
  recorder.Record(MakePod("a"), "Normal", "Scheduled", "first");
  recorder.Record(MakePod("b"), "Warning", "FailedScheduling", "second");
  recorder.Flush();
  auto w = sink.written();
  ASSERT_EQ(w.size(), 2u);
  EXPECT_EQ(w[0].involved_object.name, "a");
  EXPECT_EQ(w[1].message, "second");
  EXPECT_EQ(w[1].source_component, "ks");  // the pod's profile
  EXPECT_GE(w[0].time, before);
  EXPECT_LE(w[0].time, std::chrono::system_clock::now());
}

TEST(EventRecorder, HoldsEventsWhileBindingsAreInFlight) {
  EventSink sink;
  EventRecorder recorder(&sink, "s", 100, std::chrono::seconds(60));
  recorder.BindingStarted();
  recorder.BindingStarted();
  recorder.Record(MakePod("a"), "Normal", "Scheduled", "m");
  EXPECT_FALSE(sink.WaitFor(1, milliseconds(100)));
  recorder.BindingFinished();  // one still in flight
  EXPECT_FALSE(sink.WaitFor(1, milliseconds(50)));
  recorder.BindingFinished();
  EXPECT_TRUE(sink.WaitFor(1, milliseconds(5000)));
}

TEST(EventRecorder, HeldEventIsWrittenAfterMaxDelay) {
  EventSink sink;
  EventRecorder recorder(&sink, "s", 100, milliseconds(150));
  recorder.BindingStarted();
  const auto t0 = std::chrono::steady_clock::now();
  recorder.Record(MakePod("a"), "Normal", "Scheduled", "m");
  ASSERT_TRUE(sink.WaitFor(1, milliseconds(5000)));
  EXPECT_GE(std::chrono::steady_clock::now() - t0, milliseconds(150));
  recorder.BindingFinished();
}

TEST(EventRecorder, StopsHoldingWhenThreeQuartersFull) {
  EventSink sink;
  EventRecorder recorder(&sink, "s", 8, std::chrono::seconds(60));
  recorder.BindingStarted();
  for (int i = 0; i < 5; ++i) recorder.Record(MakePod("p" + std::to_string(i)), "Normal", "S", "");
  EXPECT_FALSE(sink.WaitFor(1, milliseconds(100)));
  recorder.Record(MakePod("p5"), "Normal", "S", "");  // 6 of 8 queued
  EXPECT_TRUE(sink.WaitFor(1, milliseconds(5000)));
  recorder.BindingFinished();
  recorder.Flush();
  EXPECT_EQ(sink.written().size(), 6u);
}

TEST(EventRecorder, FlushWritesHeldEvents) {
  EventSink sink;
  EventRecorder recorder(&sink, "s", 100, std::chrono::seconds(60));
  recorder.BindingStarted();
  recorder.Record(MakePod("a"), "Normal", "Scheduled", "m");
  recorder.Flush();
  EXPECT_EQ(sink.written().size(), 1u);
  recorder.BindingFinished();
}

TEST(EventRecorder, DropsWhenFull) {
  EventSink sink;
  EventRecorder recorder(&sink, "s", 4, std::chrono::seconds(60));
  sink.Block(true);
  int kept = 0;
  // The writer takes at most one out (its write never returns), so the
  // queue fills and one is dropped.
  for (int i = 0; i < 6 && recorder.dropped() == 0; ++i)
    kept += recorder.Record(MakePod("p"), "Normal", "S", "") ? 1 : 0;
  EXPECT_EQ(recorder.dropped(), 1u);
  EXPECT_GE(kept, 4);
  sink.Block(false);
  recorder.Flush();
  EXPECT_EQ(sink.written().size(), static_cast<size_t>(kept));
}

TEST(EventRecorder, DestructorWritesHeldEvents) {
  EventSink sink;
  {
    EventRecorder recorder(&sink, "s", 100, std::chrono::seconds(60));
    recorder.BindingStarted();
    recorder.Record(MakePod("a"), "Normal", "Scheduled", "m");
  }
  EXPECT_EQ(sink.written().size(), 1u);
}

}  // namespace event_recorder_test
}  // namespace ksched::live

namespace ksched::live {
namespace event_recorder_test {

// An API writing events.k8s.io/v1: creates and series patches, recorded.
class SeriesApi : public EventsOnlyApi {
 public:
  Status CreateEvent(const client::EventRecord& e) override {
    std::lock_guard<std::mutex> lock(mu);
    created.push_back(e);
    return Status::Ok();
  }
  bool EventSeriesSupported() override { return true; }
  Status PatchEventSeries(const client::EventRecord& e) override {
    std::lock_guard<std::mutex> lock(mu);
    patched.push_back(e);
    return Status::Ok();
  }
  std::mutex mu;
  std::vector<client::EventRecord> created, patched;
};

TEST(EventRecorderSeries, ARecurringEventBecomesASeries) {
  SeriesApi api;
  {
    EventRecorder recorder(&api, "default-scheduler");
    Pod a, b;
    a.meta.name = "a";
    a.meta.uid = "ua";
    b.meta.name = "b";
    b.meta.uid = "ub";
    const std::string fit = "0/1 nodes are available: 1 Insufficient cpu.";
    for (int i = 0; i < 4; ++i) recorder.Record(a, "Warning", "FailedScheduling", fit);
    recorder.Record(b, "Warning", "FailedScheduling", fit);
    recorder.Record(a, "Warning", "FailedScheduling",
                    "0/2 nodes are available: 2 Insufficient cpu.");
    recorder.Flush();
  }
  ASSERT_EQ(api.created.size(), 3u);  // a, b, a's new message
  ASSERT_EQ(api.patched.size(), 1u);  // a's second occurrence; the 3rd and 4th only counted
  EXPECT_EQ(api.patched[0].object_name, api.created[0].object_name);
  EXPECT_EQ(api.patched[0].series_count, 2);
  EXPECT_EQ(api.created[0].object_name.rfind("a.", 0), 0u);
  EXPECT_NE(api.created[0].object_name, api.created[2].object_name);
}

}  // namespace event_recorder_test
}  // namespace ksched::live
