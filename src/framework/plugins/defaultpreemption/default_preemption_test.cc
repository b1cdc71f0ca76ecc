#include "framework/plugins/defaultpreemption/default_preemption.h"

#include <gtest/gtest.h>

#include "tests/fixtures.h"

namespace ksched::framework::plugins {
namespace default_preemption_test {

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
  for (auto v : {config::SchedulerVersion::kV126, config::SchedulerVersion::kV135}) {
    EXPECT_EQ(
        preemption::PickOneNodeForPreemption(
            c, {{n1, {PodNamed(c, "a")}, 1}, {n3, {PodNamed(c, "c"), PodNamed(c, "d")}, 0}}, v),
        n3);
    // Then the lowest priority of the most important victim.
    EXPECT_EQ(
        preemption::PickOneNodeForPreemption(
            c, {{n1, {PodNamed(c, "a")}, 0}, {n3, {PodNamed(c, "c"), PodNamed(c, "d")}, 0}}, v),
        n3);
    // Equal on everything but start time: the later earliest start wins.
    EXPECT_EQ(preemption::PickOneNodeForPreemption(
                  c, {{n1, {PodNamed(c, "a")}, 0}, {n2, {PodNamed(c, "b")}, 0}}, v),
              n2);
  }
}

TEST(MoreImportantPod, OrderAndTieBreak) {
  ClusterState c = Cluster();
  const Pod& a = c.pod(PodNamed(c, "a")).pod;
  const Pod& b = c.pod(PodNamed(c, "b")).pod;
  const Pod& cc = c.pod(PodNamed(c, "c")).pod;
  const Pod& d = c.pod(PodNamed(c, "d")).pod;
  for (auto v : {config::SchedulerVersion::kV126, config::SchedulerVersion::kV135}) {
    EXPECT_TRUE(preemption::MoreImportantPodByName(a, b, v));   // earlier start
    EXPECT_TRUE(preemption::MoreImportantPodByName(b, cc, v));  // higher priority
    EXPECT_TRUE(preemption::MoreImportantPodByName(cc, d, v));  // no start times: by name
    EXPECT_FALSE(preemption::MoreImportantPodByName(d, cc, v));
    EXPECT_FALSE(preemption::MoreImportantPod(cc, d, v));  // equal without the name
    EXPECT_FALSE(preemption::MoreImportantPod(d, cc, v));
  }
}

// A pod without status.startTime starts after every pod with one: at the
// int64 maximum for v1.26's vectors (9999-12-31), at 2262-01-01 for v1.35's.
// Only a start time between the two tells them apart.
TEST(MoreImportantPod, StartTimePlaceholderPerRelease) {
  ClusterState c = TestCluster(R"({"kind":"List","items":[
    {"kind":"Node","metadata":{"name":"n1"}},
    {"kind":"Pod","metadata":{"name":"late","namespace":"default"},
     "spec":{"nodeName":"n1","containers":[{"name":"c"}]},
     "status":{"startTime":"2262-02-01T00:00:00Z"}},
    {"kind":"Pod","metadata":{"name":"unstarted","namespace":"default"},
     "spec":{"nodeName":"n1","containers":[{"name":"c"}]}}]})");
  const Pod& late = c.pod(PodNamed(c, "late")).pod;
  const Pod& unstarted = c.pod(PodNamed(c, "unstarted")).pod;
  using config::SchedulerVersion;
  EXPECT_EQ(preemption::PodStartTime(unstarted, SchedulerVersion::kV135),
            int64_t{9214646400} * 1000000000);
  EXPECT_TRUE(preemption::MoreImportantPod(late, unstarted, SchedulerVersion::kV126));
  EXPECT_FALSE(preemption::MoreImportantPod(late, unstarted, SchedulerVersion::kV135));
  EXPECT_TRUE(preemption::MoreImportantPod(unstarted, late, SchedulerVersion::kV135));
}

}  // namespace default_preemption_test
}  // namespace ksched::framework::plugins
