// ScoreIndex against a from-scratch computation of the same decision: random
// raw scores and feasibility, changed a few nodes at a time.
#include "algorithm/score_index.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "priorities/reduce_by_shape_test_util.h"
#include "tests/fixtures.h"

namespace ksched {
namespace score_index_test {

ClusterState Cluster(int nodes, int zones) {
  std::string items;
  for (int i = 0; i < nodes; ++i) {
    std::string zone = i % 5 == 4 ? ""
                                  : R"(,"failure-domain.beta.kubernetes.io/zone":"z)" +
                                        std::to_string(i % zones) + "\"";
    if (!items.empty()) items += ",";
    // Names out of index order, so the name tie-break is not index order.
    items += R"({"kind":"Node","metadata":{"name":"n)" + std::to_string((i * 37) % 100) + "-" +
             std::to_string(i) + R"(","labels":{"a":"b","rack":"r)" + std::to_string(i % 5) + "\"" +
             zone + "}}}";
  }
  return testing::TestCluster(R"({"kind":"List","items":[)" + items + "]}");
}

struct Model {
  std::vector<ScoreIndex::Term> terms;
  std::vector<uint8_t> fits;
  std::vector<uint64_t> domain_pairs;  // sorted
  std::vector<int64_t> domain_weights;
};

int64_t DomainRaw(const Model& m, const ClusterState& cluster, NodeId n) {
  int64_t sum = 0;
  for (size_t i = 0; i < m.domain_pairs.size(); ++i) {
    uint64_t p = m.domain_pairs[i];
    std::optional<StrId> v = cluster.node(n).meta.labels.Get(static_cast<StrId>(p >> 32));
    if (v && *v == static_cast<StrId>(p)) sum += m.domain_weights[i];
  }
  return sum;
}

NodeId BruteForce(const Model& m, const ClusterState& cluster) {
  std::vector<NodeId> feasible;
  for (NodeId n = 0; n < m.fits.size(); ++n)
    if (m.fits[n]) feasible.push_back(n);
  if (feasible.size() < 2) return kNoNode;
  std::vector<int64_t> total(feasible.size(), 0);
  for (const ScoreIndex::Term& t : m.terms) {
    std::vector<int64_t> raw;
    for (NodeId n : feasible)
      raw.push_back(t.shape == ReduceShape::kDomainMinMax ? DomainRaw(m, cluster, n) : (*t.raw)[n]);
    std::vector<int64_t> reduced = testing::ReduceByShape(t.shape, cluster, feasible, raw);
    for (size_t i = 0; i < feasible.size(); ++i) {
      // The index leaves cycles with a score outside 0-10 to the caller.
      if (reduced[i] < 0 || reduced[i] > kMaxPriority) return kNoNode;
      total[i] += t.weight * reduced[i];
    }
  }
  NodeId best = kNoNode;
  int64_t best_total = 0;
  for (size_t i = 0; i < feasible.size(); ++i) {
    NodeId n = feasible[i];
    if (best == kNoNode || total[i] > best_total ||
        (total[i] == best_total && cluster.name_rank()[n] < cluster.name_rank()[best])) {
      best = n;
      best_total = total[i];
    }
  }
  return best;
}

TEST(ScoreIndex, SupportsAtMostOneSpreadAndNoOther) {
  std::vector<int64_t> raw;
  using T = ScoreIndex::Term;
  EXPECT_TRUE(ScoreIndex::Supports({T{ReduceShape::kIdentity, 1, &raw}}));
  EXPECT_TRUE(ScoreIndex::Supports({T{ReduceShape::kZoneSpread, 1, &raw}}));
  EXPECT_FALSE(ScoreIndex::Supports(
      {T{ReduceShape::kZoneSpread, 1, &raw}, T{ReduceShape::kZoneSpread, 1, &raw}}));
  EXPECT_FALSE(ScoreIndex::Supports({T{ReduceShape::kOther, 1, &raw}}));
  EXPECT_TRUE(ScoreIndex::Supports(
      {T{ReduceShape::kDomainMinMax, 1, nullptr}, T{ReduceShape::kZoneSpread, 1, &raw}}));
  EXPECT_FALSE(ScoreIndex::Supports(
      {T{ReduceShape::kDomainMinMax, 1, nullptr}, T{ReduceShape::kDomainMinMax, 1, nullptr}}));
}

TEST(ScoreIndex, FewerThanTwoFeasibleNodesIsLeftToTheCaller) {
  ClusterState cluster = Cluster(4, 2);
  std::vector<int64_t> raw(4, 1);
  ScoreIndex index;
  index.Reset({{ReduceShape::kIdentity, 1, &raw}}, cluster);
  EXPECT_EQ(index.Best(), kNoNode);
  index.Update(2, true);
  EXPECT_EQ(index.Best(), kNoNode);
  index.Update(3, true);
  EXPECT_NE(index.Best(), kNoNode);
  index.Update(3, false);
  EXPECT_EQ(index.num_feasible(), 1u);
  EXPECT_EQ(index.Best(), kNoNode);
}

TEST(ScoreIndex, MatchesFromScratchUnderRandomUpdates) {
  std::mt19937 rng(11);
  int decided = 0, undecided = 0;
  for (int trial = 0; trial < 40; ++trial) {
    const int nodes = 3 + static_cast<int>(rng() % 40);
    ClusterState cluster = Cluster(nodes, 1 + static_cast<int>(rng() % 4));
    const ReduceShape shapes[] = {ReduceShape::kIdentity, ReduceShape::kNormalize,
                                  ReduceShape::kNormalizeReverse, ReduceShape::kZoneSpread};
    std::vector<std::vector<int64_t>> raw(1 + rng() % 4, std::vector<int64_t>(nodes));
    Model m;
    bool spread = false;
    for (auto& r : raw) {
      ReduceShape s = shapes[rng() % 4];
      if (s == ReduceShape::kZoneSpread && spread) s = ReduceShape::kNormalize;
      spread |= s == ReduceShape::kZoneSpread;
      m.terms.push_back({s, static_cast<int64_t>(1 + rng() % 4), &r});
    }
    const bool with_domains = rng() % 2 == 0;
    if (with_domains) {
      m.terms.push_back({ReduceShape::kDomainMinMax, static_cast<int64_t>(1 + rng() % 3), nullptr});
    }
    // Candidate domains: every zone and rack value the nodes carry.
    std::vector<uint64_t> candidates;
    for (NodeId n = 0; n < static_cast<NodeId>(nodes); ++n) {
      for (const char* key : {"rack", "failure-domain.beta.kubernetes.io/zone"}) {
        if (auto v = cluster.node(n).meta.labels.Get(Intern(key)))
          candidates.push_back((uint64_t{Intern(key)} << 32) | *v);
      }
    }
    std::sort(candidates.begin(), candidates.end());
    candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
    auto new_domains = [&] {
      m.domain_pairs.clear();
      m.domain_weights.clear();
      for (uint64_t p : candidates) {
        if (rng() % 3 == 0) continue;
        m.domain_pairs.push_back(p);
        m.domain_weights.push_back(static_cast<int64_t>(rng() % 11) - 4);
      }
    };
    m.fits.assign(nodes, 0);
    const int spread_of_values = 2 + static_cast<int>(rng() % 10);
    auto randomize = [&](NodeId n) {
      m.fits[n] = rng() % 4 != 0;
      // Now and then a score outside 0-10 (as wrapped resource sums give).
      for (auto& r : raw) {
        r[n] = static_cast<int64_t>(rng() % spread_of_values);
        if (rng() % 300 == 0) r[n] = rng() % 2 ? -1 : kMaxPriority + 1;
      }
    };
    ScoreIndex index;
    index.Reset(m.terms, cluster);
    if (with_domains) {
      new_domains();
      index.SetDomains({m.domain_pairs, m.domain_weights});
    }
    for (NodeId n = 0; n < static_cast<NodeId>(nodes); ++n) {
      randomize(n);
      index.Update(n, m.fits[n]);
    }
    for (int step = 0; step < 200; ++step) {
      if (with_domains && step % 3 == 0) {
        new_domains();
        index.SetDomains({m.domain_pairs, m.domain_weights});
      }
      NodeId want = BruteForce(m, cluster);
      ASSERT_EQ(index.Best(), want) << "trial " << trial << " step " << step;
      ++(want == kNoNode ? undecided : decided);
      for (int k = 0, changes = 1 + static_cast<int>(rng() % 3); k < changes; ++k) {
        NodeId n = static_cast<NodeId>(rng() % nodes);
        randomize(n);
        index.Update(n, m.fits[n]);
      }
    }
  }
  // Both kinds of cycle occur, most of them decided by the index.
  EXPECT_GT(decided, 4000);
  EXPECT_GT(undecided, 100);
}

}  // namespace score_index_test
}  // namespace ksched
