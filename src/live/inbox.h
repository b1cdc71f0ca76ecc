// What the scheduling thread is told by other threads: watch events from the
// client's threads and the outcomes of bindings and API writes from the
// worker pools. Producers Push(); the scheduling thread drains everything at
// the start of a cycle, or waits for something to arrive.
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <vector>

namespace ksched::live {

template <typename T>
class Inbox {
 public:
  void Push(T item) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      items_.push_back(std::move(item));
    }
    cv_.notify_one();
  }
  // Moves everything queued into *out (appending), in arrival order.
  void Drain(std::vector<T>* out) {
    std::lock_guard<std::mutex> lock(mu_);
    for (T& item : items_) out->push_back(std::move(item));
    items_.clear();
  }
  // Waits until something is queued, Wake() is called or `timeout` passes.
  void Wait(std::chrono::nanoseconds timeout) {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait_for(lock, timeout, [&] { return !items_.empty() || woken_; });
    woken_ = false;
  }
  void Wake() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      woken_ = true;
    }
    cv_.notify_all();
  }
  size_t size() const {
    std::lock_guard<std::mutex> lock(mu_);
    return items_.size();
  }

 private:
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<T> items_;
  bool woken_ = false;
};

}  // namespace ksched::live
