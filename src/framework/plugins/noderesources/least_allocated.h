// The LeastAllocated scoring strategy (upstream's least_allocated.go):
// nodes with more of each resource left free score higher.
#pragma once

#include <cstdint>

namespace ksched::framework::noderesources {

// (capacity - requested) * 100 / capacity; 0 when the node has no capacity
// or would be over-committed.
int64_t LeastRequestedScore(int64_t requested, int64_t capacity);

}  // namespace ksched::framework::noderesources
