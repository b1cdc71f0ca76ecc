// The MostAllocated scoring strategy (upstream's most_allocated.go): nodes
// with more of each resource already requested score higher (bin packing).
#pragma once

#include <cstdint>

namespace ksched::framework::noderesources {

// min(requested, capacity) * 100 / capacity; 0 when the node has no capacity.
int64_t MostRequestedScore(int64_t requested, int64_t capacity);

}  // namespace ksched::framework::noderesources
