// A fixed set of threads running submitted jobs in submission order (each
// job on whichever thread is free): the binder pool, so that bindings run
// concurrently and the bind rate is bounded by the API server, not by a
// round trip at a time; and a pool for the other API writes of a cycle.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace ksched::live {

class WorkerPool {
 public:
  explicit WorkerPool(size_t threads);
  ~WorkerPool();  // finishes queued jobs, then joins
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  void Submit(std::function<void()> job);
  // Blocks until every job submitted so far has finished.
  void WaitIdle();
  // WaitIdle up to `deadline`: false when jobs remain then.
  bool WaitIdleUntil(std::chrono::steady_clock::time_point deadline);
  // Forgets the jobs not yet started (shutdown past its bound); returns how
  // many. Running jobs finish.
  size_t DropQueued();
  // Jobs queued or running.
  size_t pending() const;

 private:
  void Loop();

  mutable std::mutex mu_;
  std::condition_variable cv_, idle_cv_;
  std::deque<std::function<void()>> jobs_;
  size_t running_ = 0;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace ksched::live
