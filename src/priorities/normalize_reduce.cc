#include <algorithm>

#include "priorities/priority.h"

namespace ksched {

void NormalizeReduce(std::span<int64_t> scores, bool reverse) {
  int64_t max_raw = 0;
  for (int64_t s : scores) max_raw = std::max(max_raw, s);
  for (int64_t& s : scores) s = NormalizedScore(s, max_raw, reverse);
}

}  // namespace ksched
