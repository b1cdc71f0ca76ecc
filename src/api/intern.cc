#include "api/intern.h"

#include <array>
#include <atomic>
#include <deque>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <unordered_map>

namespace ksched {
namespace {

// Strings live in fixed-size chunks that are never reallocated, and the chunk
// table is sized up front, so a reader can index it without taking the lock.
constexpr size_t kChunkBits = 14;
constexpr size_t kChunkSize = size_t{1} << kChunkBits;
constexpr size_t kMaxChunks = size_t{1} << 14;  // 2^28 strings: far beyond any cluster

struct Table {
  std::shared_mutex mu;
  std::unordered_map<std::string_view, StrId> ids;
  std::array<std::atomic<std::string*>, kMaxChunks> chunks{};
  std::atomic<uint32_t> size{0};

  Table() { Add(""); }

  StrId Add(std::string_view s) {
    uint32_t id = size.load(std::memory_order_relaxed);
    size_t chunk = id >> kChunkBits;
    if (chunk >= kMaxChunks) abort();  // 268M distinct strings: out of memory long before
    std::string* c = chunks[chunk].load(std::memory_order_relaxed);
    if (c == nullptr) {
      c = new std::string[kChunkSize];
      chunks[chunk].store(c, std::memory_order_release);
    }
    std::string& slot = c[id & (kChunkSize - 1)];
    slot.assign(s);
    ids.emplace(std::string_view(slot), id);
    size.store(id + 1, std::memory_order_release);
    return id;
  }
};

Table& GetTable() {
  static Table* table = new Table();  // never destroyed: ids outlive everything
  return *table;
}

}  // namespace

StrId Intern(std::string_view s) {
  Table& t = GetTable();
  {
    std::shared_lock lock(t.mu);
    auto it = t.ids.find(s);
    if (it != t.ids.end()) return it->second;
  }
  std::unique_lock lock(t.mu);
  auto it = t.ids.find(s);
  if (it != t.ids.end()) return it->second;
  return t.Add(s);
}

StrId FindInterned(std::string_view s) {
  Table& t = GetTable();
  std::shared_lock lock(t.mu);
  auto it = t.ids.find(s);
  return it == t.ids.end() ? kNoStr : it->second;
}

std::string_view Str(StrId id) {
  Table& t = GetTable();
  const std::string* c = t.chunks[id >> kChunkBits].load(std::memory_order_acquire);
  return c[id & (kChunkSize - 1)];
}

size_t InternedCount() { return GetTable().size.load(std::memory_order_acquire); }

}  // namespace ksched
