// Upstream's plugins/helper.DefaultNormalizeScore, which score plugins use to
// map their raw per-node scores onto 0..max_priority.
#pragma once

#include <cstdint>

#include "framework/interface.h"

namespace ksched::framework::helper {

// Scales every score by max_priority / (the highest score), integer
// division as upstream (so scores must be non-negative for upstream's
// results). With `reverse`, each result r becomes max_priority - r. When the
// highest score is 0 (or negative), scores stay as they are, or all become
// max_priority with `reverse`. Always Success.
Status DefaultNormalizeScore(int64_t max_priority, bool reverse, NodeScoreList* scores);

}  // namespace ksched::framework::helper
