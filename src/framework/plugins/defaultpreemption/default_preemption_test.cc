#include "framework/plugins/defaultpreemption/default_preemption.h"

#include <gtest/gtest.h>

#include "tests/fixtures.h"

namespace ksched::framework::plugins {
namespace {

using ksched::testing::TestCluster;

ClusterState Cluster() {
  return TestCluster(R"({"kind":"List","items":[
    {"kind":"Node","metadata":{"name":"n1"},"status":{"allocatable":{"cpu":"4","pods":"10"}}},
    {"kind":"Node","metadata":{"name":"n2"},"status":{"allocatable":{"cpu":"4","pods":"10"}}},
    {"kind":"Node","metadata":{"name":"n3"},"status":{"allocatable":{"cpu":"4","pods":"10"}}},
    {"kind":"Pod","metadata":{"name":"a","namespace":"default","labels":{"app":"web"}},
     "spec":{"nodeName":"n1","priority":5,"containers":[{"name":"c"}]},
     "status":{"startTime":"2020-01-01T00:00:00Z"}},
    {"kind":"Pod","metadata":{"name":"b","namespace":"default","labels":{"app":"web"}},
     "spec":{"nodeName":"n2","priority":5,"containers":[{"name":"c"}]},
     "status":{"startTime":"2020-01-02T00:00:00Z"}},
    {"kind":"Pod","metadata":{"name":"c","namespace":"default","labels":{"app":"web"}},
     "spec":{"nodeName":"n3","priority":1,"containers":[{"name":"c"}]}},
    {"kind":"Pod","metadata":{"name":"d","namespace":"default"},
     "spec":{"nodeName":"n3","priority":1,"containers":[{"name":"c"}]}}
  ]})");
}

PodId PodNamed(const ClusterState& c, std::string_view name) {
  for (PodId id = 0; id < c.num_pods(); ++id)
    if (c.pod(id).pod.meta.name == name) return id;
  return PodId(-1);
}

TEST(DefaultPreemption, NumCandidates) {
  DefaultPreemption pl(config::DefaultPreemptionArgs{}, nullptr);
  EXPECT_EQ(pl.CalculateNumCandidates(50), 50);     // absolute 100 capped by the node count
  EXPECT_EQ(pl.CalculateNumCandidates(5000), 500);  // 10 %
  EXPECT_EQ(pl.CalculateNumCandidates(1000), 100);  // the absolute floor
  EXPECT_EQ(pl.GetOffsetAndNumCandidates(7).first, 0);
}

TEST(DefaultPreemption, PDBBudgetIsSharedBetweenVictims) {
  ClusterState c = Cluster();
  PodDisruptionBudget pdb;
  pdb.meta.ns = Intern("default");
  pdb.selector = LabelSelector{{{"app", "web"}}, {}};
  pdb.disruptions_allowed = 1;
  std::vector<PodId> violating, ok;
  FilterPodsWithPDBViolation(c, {PodNamed(c, "a"), PodNamed(c, "b"), PodNamed(c, "d")}, {pdb},
                             &violating, &ok);
  // "a" uses the one allowed disruption, "b" then violates; "d" has no labels.
  EXPECT_EQ(violating, (std::vector<PodId>{PodNamed(c, "b")}));
  EXPECT_EQ(ok, (std::vector<PodId>{PodNamed(c, "a"), PodNamed(c, "d")}));
}

TEST(PickOneNodeForPreemption, Criteria) {
  ClusterState c = Cluster();
  using preemption::Candidate;
  const NodeId n1 = c.FindNode("n1"), n2 = c.FindNode("n2"), n3 = c.FindNode("n3");
  // Fewest PDB violations first.
  EXPECT_EQ(preemption::PickOneNodeForPreemption(
                c, {{n1, {PodNamed(c, "a")}, 1}, {n3, {PodNamed(c, "c"), PodNamed(c, "d")}, 0}}),
            n3);
  // Then the lowest priority of the most important victim.
  EXPECT_EQ(preemption::PickOneNodeForPreemption(
                c, {{n1, {PodNamed(c, "a")}, 0}, {n3, {PodNamed(c, "c"), PodNamed(c, "d")}, 0}}),
            n3);
  // Equal on everything but start time: the later earliest start wins.
  EXPECT_EQ(preemption::PickOneNodeForPreemption(
                c, {{n1, {PodNamed(c, "a")}, 0}, {n2, {PodNamed(c, "b")}, 0}}),
            n2);
}

TEST(MoreImportantPod126, OrderAndTieBreak) {
  ClusterState c = Cluster();
  const Pod& a = c.pod(PodNamed(c, "a")).pod;
  const Pod& b = c.pod(PodNamed(c, "b")).pod;
  const Pod& cc = c.pod(PodNamed(c, "c")).pod;
  const Pod& d = c.pod(PodNamed(c, "d")).pod;
  EXPECT_TRUE(preemption::MoreImportantPod126(a, b));   // earlier start
  EXPECT_TRUE(preemption::MoreImportantPod126(b, cc));  // higher priority
  EXPECT_TRUE(preemption::MoreImportantPod126(cc, d));  // no start times: by name
  EXPECT_FALSE(preemption::MoreImportantPod126(d, cc));
}

}  // namespace
}  // namespace ksched::framework::plugins
