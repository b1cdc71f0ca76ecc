#include "live/worker_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

namespace ksched::live {
namespace worker_pool_test {

using namespace std::chrono_literals;

// A shutdown past its bound: the wait gives up at the deadline, the queued
// jobs are dropped (counted), the running one finishes.
TEST(WorkerPool, BoundedWaitThenDropQueued) {
  WorkerPool pool(1);
  std::atomic<bool> release{false};
  std::atomic<int> ran{0};
  pool.Submit([&] {
    while (!release.load()) std::this_thread::sleep_for(1ms);
    ++ran;
  });
  for (int i = 0; i < 5; ++i) pool.Submit([&] { ++ran; });
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_FALSE(pool.WaitIdleUntil(t0 + 50ms));
  EXPECT_GE(std::chrono::steady_clock::now() - t0, 50ms);
  EXPECT_EQ(pool.DropQueued(), 5u);
  release.store(true);
  EXPECT_TRUE(pool.WaitIdleUntil(std::chrono::steady_clock::now() + 5s));
  EXPECT_EQ(ran.load(), 1);
  EXPECT_EQ(pool.pending(), 0u);
}

}  // namespace worker_pool_test
}  // namespace ksched::live
