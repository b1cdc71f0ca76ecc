// A sequence that only grows at the back and never moves its elements:
// references to them stay valid as it grows, as with std::deque, but the
// elements are allocated kChunk at a time. std::deque (libstdc++) gives every
// element of more than 512 bytes a block of its own, so a cache appending
// large records (ClusterState's pods) paid one allocation per record.
#pragma once

#include <cstddef>
#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace ksched {

template <typename T, size_t kChunk = 64>
class StableVector {
 public:
  StableVector() = default;
  StableVector(StableVector&& other) noexcept
      : chunks_(std::move(other.chunks_)), size_(std::exchange(other.size_, 0)) {}
  StableVector& operator=(StableVector&& other) noexcept {
    if (this != &other) {
      clear();
      chunks_ = std::move(other.chunks_);
      size_ = std::exchange(other.size_, 0);
    }
    return *this;
  }
  StableVector(const StableVector&) = delete;
  StableVector& operator=(const StableVector&) = delete;
  ~StableVector() { clear(); }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T& operator[](size_t i) { return *Slot(i); }
  const T& operator[](size_t i) const { return *Slot(i); }
  T& back() { return *Slot(size_ - 1); }
  const T& back() const { return *Slot(size_ - 1); }

  // Constructs the new last element in place.
  template <typename... Args>
  T& emplace_back(Args&&... args) {
    if (size_ == chunks_.size() * kChunk) chunks_.push_back(std::unique_ptr<Chunk>(new Chunk));
    T* slot = ::new (static_cast<void*>(Raw(size_))) T(std::forward<Args>(args)...);
    ++size_;
    return *slot;
  }
  void push_back(T&& value) { emplace_back(std::move(value)); }

  // Destroys every element, last first, and frees the chunks.
  void clear() {
    while (size_ > 0) Slot(--size_)->~T();
    chunks_.clear();
  }

 private:
  // Raw storage: elements are constructed in it one by one.
  struct Chunk {
    alignas(T) std::byte bytes[sizeof(T) * kChunk];
  };
  void* Raw(size_t i) const { return chunks_[i / kChunk]->bytes + sizeof(T) * (i % kChunk); }
  T* Slot(size_t i) const { return std::launder(static_cast<T*>(Raw(i))); }

  std::vector<std::unique_ptr<Chunk>> chunks_;
  size_t size_ = 0;
};

}  // namespace ksched
