#include "priorities/priority.h"

namespace ksched {

void NormalizeReduce(std::span<int64_t> scores, bool reverse) {
  int64_t max_count = 0;
  for (int64_t s : scores) max_count = std::max(max_count, s);
  if (max_count == 0) {
    if (reverse)
      for (int64_t& s : scores) s = kMaxPriority;
    return;
  }
  for (int64_t& s : scores) {
    // Integer division truncates toward zero, exactly as Go's int division.
    int64_t v = kMaxPriority * s / max_count;
    s = reverse ? kMaxPriority - v : v;
  }
}

}  // namespace ksched
