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
#include "priorities/reduce_by_shape_test_util.h"
#include "tests/fixtures.h"

namespace ksched {
namespace reduce_shape_test {

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
      ASSERT_EQ(reduced, testing::ReduceByShape(prio->Shape(), cluster, nodes, raw))
          << name << " round " << round;
    }
  }
}

}  // namespace reduce_shape_test
}  // namespace ksched
