// Every priority declares the shape of its Reduce() (priority.h); the
// scheduler's ScoreIndex relies on it to keep reduced scores between cycles.
// This checks each declaration against the Reduce() itself on random raw
// scores over a cluster with zoned and unzoned nodes.
#include <gtest/gtest.h>

#include <functional>
#include <random>
#include <string>
#include <vector>

#include "predicates/predicate.h"
#include "priorities/factories.h"
#include "priorities/selector_spreading.h"
#include "tests/fixtures.h"

namespace ksched {
namespace {

ClusterState ZonedCluster() {
  std::string items;
  for (int i = 0; i < 12; ++i) {
    std::string zone = i % 4 == 3 ? ""
                                  : R"(,"failure-domain.beta.kubernetes.io/zone":"z)" +
                                        std::to_string(i % 3) + "\"";
    if (!items.empty()) items += ",";
    items += R"({"kind":"Node","metadata":{"name":"n)" + std::to_string(i) +
             R"(","labels":{"kubernetes.io/hostname":"n)" + std::to_string(i) + "\"" + zone + "}}}";
  }
  return testing::TestCluster(R"({"kind":"List","items":[)" + items + "]}");
}

// What the declared shape says the reduced scores are.
std::vector<int64_t> ByShape(ReduceShape shape, const ClusterState& cluster,
                             const std::vector<NodeId>& nodes, const std::vector<int64_t>& raw) {
  std::vector<int64_t> out(raw.size());
  int64_t max_raw = 0, min_raw = 0;
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

TEST(ReduceShape, EveryDeclaredShapeMatchesReduce) {
  ClusterState cluster = ZonedCluster();
  ASSERT_EQ(cluster.num_nodes(), 12u);
  Pod pod = testing::TestPod(R"({"kind":"Pod","metadata":{"name":"p","namespace":"default"}})");
  PodInfo info = MakePodInfo(pod);
  PodToSchedule target;
  target.info = &info;

  std::vector<std::pair<std::string, std::function<std::unique_ptr<Priority>()>>> all = {
      {"SelectorSpreadPriority", NewSelectorSpreadPriority},
      {"ServiceSpreadingPriority", NewServiceSpreadingPriority},
      {"InterPodAffinityPriority", [] { return NewInterPodAffinityPriority(1); }},
      {"LeastRequestedPriority", NewLeastRequestedPriority},
      {"MostRequestedPriority", NewMostRequestedPriority},
      {"BalancedResourceAllocation", NewBalancedResourceAllocation},
      {"RequestedToCapacityRatioPriority", [] { return NewRequestedToCapacityRatioPriority({}); }},
      {"NodePreferAvoidPodsPriority", NewNodePreferAvoidPodsPriority},
      {"NodeAffinityPriority", NewNodeAffinityPriority},
      {"TaintTolerationPriority", NewTaintTolerationPriority},
      {"ImageLocalityPriority", NewImageLocalityPriority},
      {"EqualPriority", NewEqualPriority},
      {"ResourceLimitsPriority", NewResourceLimitsPriority},
      {"ServiceAntiAffinity", [] { return NewServiceAntiAffinityPriority("zone"); }},
      {"NodeLabelPriority", [] { return NewNodeLabelPriority("disk", true); }},
  };
  std::mt19937 rng(7);
  for (const auto& [name, make] : all) {
    std::unique_ptr<Priority> prio = make();
    if (prio->Shape() == ReduceShape::kOther) continue;
    std::unique_ptr<PriorityState> state = prio->Prepare(target, cluster);
    for (int round = 0; round < 300; ++round) {
      std::vector<NodeId> nodes;
      for (NodeId n = 0; n < cluster.num_nodes(); ++n)
        if (rng() % 3 != 0) nodes.push_back(n);
      std::vector<int64_t> raw(nodes.size());
      for (int64_t& v : raw) v = static_cast<int64_t>(rng() % 40) - (round % 5 == 0 ? 5 : 0);
      if (round % 7 == 0) std::fill(raw.begin(), raw.end(), 0);
      std::vector<int64_t> reduced = raw;
      prio->Reduce(target, state.get(), cluster, nodes, reduced);
      ASSERT_EQ(reduced, ByShape(prio->Shape(), cluster, nodes, raw)) << name << " round " << round;
    }
  }
}

}  // namespace
}  // namespace ksched
