// Client-side request rate limit: a token bucket, as client-go's
// flowcontrol.NewTokenBucketRateLimiter(qps, burst). The bucket starts full
// (`burst` tokens) and refills at `qps` tokens per second; Wait() takes one
// token, sleeping until one is available. qps <= 0 disables the limit.
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>

namespace ksched::client {

class RateLimiter {
 public:
  using Clock = std::chrono::steady_clock;

  RateLimiter(double qps, int burst);

  // Takes a token; blocks until one is available.
  void Wait();

  // Reserves a token at time `now` and returns how long the caller must wait
  // before using it (zero when one was available). Wait() is this plus a sleep;
  // tests call it with their own clock.
  Clock::duration Reserve(Clock::time_point now);

 private:
  const double qps_;
  const double burst_;
  std::mutex mu_;
  double tokens_;  // may go negative: tokens promised to waiting callers
  Clock::time_point last_;
  bool started_ = false;
};

}  // namespace ksched::client
