// Time as the scheduling queue sees it: injectable, so that tests and the
// snapshot front ends drive the queue deterministically and `run` drives it
// with the real clock.
#pragma once

#include <chrono>
#include <mutex>

namespace ksched {

class Clock {
 public:
  using TimePoint = std::chrono::steady_clock::time_point;
  virtual ~Clock() = default;
  virtual TimePoint Now() const = 0;
};

class RealClock : public Clock {
 public:
  TimePoint Now() const override { return std::chrono::steady_clock::now(); }
};

// A clock that moves only when told to.
class FakeClock : public Clock {
 public:
  TimePoint Now() const override {
    std::lock_guard<std::mutex> lock(mu_);
    return now_;
  }
  void Advance(std::chrono::nanoseconds d) {
    std::lock_guard<std::mutex> lock(mu_);
    now_ += d;
  }

 private:
  mutable std::mutex mu_;
  TimePoint now_{};
};

}  // namespace ksched
