// Test helper: the reduced scores a ReduceShape promises, computed from
// scratch over `nodes` (raw scores parallel to them). The reference that
// priorities/reduce_shape_test.cc holds each Reduce() to, and that
// algorithm/score_index_test.cc holds the incremental ScoreIndex to.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "cache/cluster_state.h"
#include "priorities/priority.h"
#include "priorities/selector_spreading.h"

namespace ksched::testing {

inline std::vector<int64_t> ReduceByShape(ReduceShape shape, const ClusterState& cluster,
                                          const std::vector<NodeId>& nodes,
                                          const std::vector<int64_t>& raw) {
  std::vector<int64_t> out(raw.size());
  int64_t max_raw = 0, min_raw = 0;  // upstream starts both at 0
  for (int64_t v : raw) max_raw = std::max(max_raw, v);
  for (int64_t v : raw) min_raw = std::min(min_raw, v);
  spreading::SpreadTotals totals;
  totals.max_by_node = max_raw;
  std::vector<int64_t> zone_sum(cluster.num_zones() + 1, 0);
  std::vector<uint8_t> zone_seen(cluster.num_zones() + 1, 0);
  for (size_t i = 0; i < nodes.size(); ++i) {
    uint32_t z = cluster.zone_index(nodes[i]);
    if (z == 0) continue;
    zone_sum[z] += raw[i];
    zone_seen[z] = 1;
    totals.have_zones = true;
  }
  for (size_t z = 1; z < zone_sum.size(); ++z)
    if (zone_seen[z]) totals.max_by_zone = std::max(totals.max_by_zone, zone_sum[z]);
  for (size_t i = 0; i < raw.size(); ++i) {
    uint32_t z = cluster.zone_index(nodes[i]);
    switch (shape) {
      case ReduceShape::kIdentity:
        out[i] = raw[i];
        break;
      case ReduceShape::kNormalize:
        out[i] = NormalizedScore(raw[i], max_raw, false);
        break;
      case ReduceShape::kNormalizeReverse:
        out[i] = NormalizedScore(raw[i], max_raw, true);
        break;
      case ReduceShape::kZoneSpread:
        out[i] = spreading::SpreadScore(totals, raw[i], z != 0, zone_sum[z]);
        break;
      case ReduceShape::kDomainMinMax:
        out[i] = MinMaxScore(raw[i], min_raw, max_raw);
        break;
      case ReduceShape::kOther:
        break;
    }
  }
  return out;
}

}  // namespace ksched::testing
