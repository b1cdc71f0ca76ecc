#include "framework/plugins/interpodaffinity/topology.h"

#include <gtest/gtest.h>

#include "tests/fixtures.h"

namespace ksched::framework::interpodaffinity {
namespace topology_test {

// Shared sums as the kept sums hold them.
std::shared_ptr<DomainCounts> Sums(const std::vector<int64_t>& counts) {
  auto sums = std::make_shared<DomainCounts>();
  sums->counts = counts;
  for (int64_t c : counts) sums->nonzero += c != 0;
  return sums;
}

class TopologyCountsTest : public ::testing::Test {
 protected:
  // Three nodes, two zones; "c" lacks the key.
  ClusterState cluster = ksched::testing::TestCluster(R"({"kind":"List","items":[
      {"kind":"Node","metadata":{"name":"a","labels":{"zone":"z1"}}},
      {"kind":"Node","metadata":{"name":"b","labels":{"zone":"z2"}}},
      {"kind":"Node","metadata":{"name":"c"}}]})");
  std::shared_ptr<const TopologyIndex> zone =
      std::make_shared<const TopologyIndex>(cluster, Intern("zone"));
};

TEST_F(TopologyCountsTest, ANewSlotCountsZeroEverywhere) {
  TopologyCounts counts;
  const uint32_t slot = counts.Slot(zone);
  EXPECT_EQ(counts.Slot(zone), slot);  // found, not added again
  for (uint32_t d = 0; d < zone->num_domains(); ++d) EXPECT_EQ(counts.Get(slot, d), 0);
  EXPECT_EQ(counts.AtNodeId(slot, cluster.FindNode("c")), 0);
  EXPECT_EQ(counts.num_nonzero(), 0);
}

TEST(TopologyIndexTest, NodesInListsEachDomainsNodesAscending) {
  const ClusterState cluster = ksched::testing::TestCluster(R"({"kind":"List","items":[
      {"kind":"Node","metadata":{"name":"a","labels":{"zone":"z2"}}},
      {"kind":"Node","metadata":{"name":"b","labels":{"zone":"z1"}}},
      {"kind":"Node","metadata":{"name":"c"}},
      {"kind":"Node","metadata":{"name":"d","labels":{"zone":"z2"}}}]})");
  const TopologyIndex zone(cluster, Intern("zone"));
  ASSERT_EQ(zone.num_domains(), 2u);
  size_t listed = 0;
  for (uint32_t d = 0; d < zone.num_domains(); ++d) {
    NodeId last = 0;
    bool first = true;
    for (NodeId n : zone.NodesIn(d)) {
      EXPECT_EQ(zone.DomainOfId(n), d);
      EXPECT_TRUE(first || n > last);
      first = false;
      last = n;
      ++listed;
    }
  }
  EXPECT_EQ(listed, 3u);  // "c" lacks the key
  const uint32_t z2 = zone.DomainOfId(cluster.FindNode("a"));
  ASSERT_EQ(zone.NodesIn(z2).size(), 2u);
  EXPECT_EQ(zone.NodesIn(z2)[1], cluster.FindNode("d"));
}

TEST_F(TopologyCountsTest, AddAllIntoANewSlotSharesAndCountsPairs) {
  TopologyCounts counts;
  const uint32_t slot = counts.Slot(zone);
  const uint32_t z1 = zone->DomainOfId(cluster.FindNode("a"));
  const uint32_t z2 = zone->DomainOfId(cluster.FindNode("b"));
  std::vector<int64_t> values(zone->num_domains(), 0);
  values[z2] = 3;
  const std::shared_ptr<DomainCounts> kept = Sums(values);
  counts.AddAll(slot, kept);
  EXPECT_EQ(counts.counts(slot), kept->counts.data());  // shared, not copied
  EXPECT_EQ(counts.Get(slot, z1), 0);
  EXPECT_EQ(counts.Get(slot, z2), 3);
  EXPECT_EQ(counts.num_nonzero(), 1);
  // A second AddAll adds into the slot's own copy; a pair that returns to
  // zero leaves the map, and the shared sums are left as they were.
  values[z1] = 2;
  values[z2] = -3;
  counts.AddAll(slot, Sums(values));
  EXPECT_NE(counts.counts(slot), kept->counts.data());
  EXPECT_EQ(counts.Get(slot, z1), 2);
  EXPECT_EQ(counts.Get(slot, z2), 0);
  EXPECT_EQ(counts.num_nonzero(), 1);
  EXPECT_EQ(kept->counts[z2], 3);
  EXPECT_EQ(kept->counts[z1], 0);
}

TEST_F(TopologyCountsTest, AddToASharedSlotCopiesFirst) {
  TopologyCounts counts;
  const uint32_t slot = counts.Slot(zone);
  const uint32_t z1 = zone->DomainOfId(cluster.FindNode("a"));
  std::vector<int64_t> values(zone->num_domains(), 0);
  values[z1] = 1;
  const std::shared_ptr<DomainCounts> kept = Sums(values);
  counts.AddAll(slot, kept);
  TopologyCounts clone = counts;  // as a PreFilter state's Clone
  clone.Add(slot, z1, -1);        // as RemovePod in a preemption dry run
  EXPECT_EQ(clone.Get(slot, z1), 0);
  EXPECT_EQ(clone.num_nonzero(), 0);
  EXPECT_EQ(counts.Get(slot, z1), 1);
  EXPECT_EQ(kept->counts[z1], 1);
  EXPECT_EQ(kept->nonzero, 1);
}

TEST(DomainCountsTest, AddCountsNonZeroDomains) {
  DomainCounts sums(3);
  sums.Add(1, 2);
  sums.Add(2, 1);
  sums.Add(kNoDomain, 1);
  EXPECT_EQ(sums.nonzero, 2);
  sums.Add(1, -2);
  EXPECT_EQ(sums.nonzero, 1);
  EXPECT_EQ(sums.counts, (std::vector<int64_t>{0, 0, 1}));
}

TEST_F(TopologyCountsTest, AddIntoANewSlotAndOutsideTheDomains) {
  TopologyCounts counts;
  const uint32_t slot = counts.Slot(zone);
  counts.Add(slot, kNoDomain, 1);
  counts.Add(slot, kUnknownDomain, 1);
  EXPECT_EQ(counts.num_nonzero(), 0);
  const uint32_t z1 = zone->DomainOfId(cluster.FindNode("a"));
  counts.Add(slot, z1, 1);
  EXPECT_EQ(counts.AtNodeId(slot, cluster.FindNode("a")), 1);
  EXPECT_EQ(counts.AtNodeId(slot, cluster.FindNode("b")), 0);
  EXPECT_EQ(counts.num_nonzero(), 1);
  // Short sums (an index with fewer domains) add to the domains they cover.
  counts.AddAll(slot, Sums({5}));
  EXPECT_EQ(counts.Get(slot, 0), z1 == 0 ? 6 : 5);
}

}  // namespace topology_test
}  // namespace ksched::framework::interpodaffinity
