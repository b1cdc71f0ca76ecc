// The engine's speed-ups (the equivalence-class cache and parallel filtering
// and scoring) must never change a decision. The conformance clusters are too
// small to exercise the parallel paths, so this replays the first pods of
// large perf scenarios with every combination and compares each cycle's full
// result: chosen node, feasible set, every failure reason and every total.
#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "api/scenario.h"
#include "cache/node_tree.h"
#include "cli/replay.h"

namespace ksched {
namespace {

struct Cycle {
  std::string chosen;
  std::string error;
  std::vector<std::string> feasible;
  std::vector<std::string> failures;  // "node: reason; reason"
  std::vector<std::string> totals;    // "node=total"
};

std::vector<Cycle> ReplayCycles(const std::string& file, size_t pods, bool cache, bool parallel) {
  auto scenario = LoadScenario(file);
  EXPECT_TRUE(scenario.ok());
  if (!scenario.ok()) return {};
  auto config = ScenarioConfig(*scenario, ReplayOptions{});
  EXPECT_TRUE(config.ok());
  auto cluster = ClusterState::Build(std::move(scenario->cluster));
  EXPECT_TRUE(cluster.ok());
  NodeTree tree(*cluster);
  GenericScheduler scheduler(std::move(config).value(), TieBreak::kName);
  scheduler.set_equivalence_cache(cache);
  scheduler.set_parallel(parallel);
  std::vector<Cycle> out;
  auto name = [&](NodeId n) { return cluster->node(n).meta.name; };
  for (size_t i = 0; i < std::min(pods, scenario->pending.size()); ++i) {
    Pod pod = scenario->pending[i];
    ScheduleResult r = scheduler.Schedule(pod, *cluster, &tree);
    Cycle c;
    c.chosen = r.chosen == kNoNode ? "" : name(r.chosen);
    c.error = r.error;
    for (NodeId n : r.feasible) c.feasible.push_back(name(n));
    for (const NodeFailure& f : r.failures) {
      std::string s = name(f.node) + ":";
      for (const auto& reason : f.reasons) s += " " + reason;
      c.failures.push_back(s);
    }
    for (size_t k = 0; k < r.totals.size(); ++k)
      c.totals.push_back(name(r.feasible[k]) + "=" + std::to_string(r.totals[k]));
    std::sort(c.feasible.begin(), c.feasible.end());
    std::sort(c.failures.begin(), c.failures.end());
    std::sort(c.totals.begin(), c.totals.end());
    out.push_back(std::move(c));
    if (r.chosen != kNoNode) cluster->Assume(std::move(pod), r.chosen);
  }
  return out;
}

void ExpectSame(const std::vector<Cycle>& a, const std::vector<Cycle>& b, const char* what) {
  ASSERT_EQ(a.size(), b.size()) << what;
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].chosen, b[i].chosen) << what << " pod " << i;
    EXPECT_EQ(a[i].error, b[i].error) << what << " pod " << i;
    EXPECT_EQ(a[i].feasible, b[i].feasible) << what << " pod " << i;
    EXPECT_EQ(a[i].failures, b[i].failures) << what << " pod " << i;
    EXPECT_EQ(a[i].totals, b[i].totals) << what << " pod " << i;
  }
}

class EngineEquivalence : public ::testing::TestWithParam<std::string> {};

TEST_P(EngineEquivalence, SpeedUpsDoNotChangeDecisions) {
  std::string file = std::string(KSCHED_SHARED_DIR) + "/perf/" + GetParam();
#ifdef __SANITIZE_ADDRESS__
  const size_t pods = 24;
#else
  const size_t pods = 120;
#endif
  std::vector<Cycle> plain = ReplayCycles(file, pods, /*cache=*/false, /*parallel=*/false);
  ASSERT_FALSE(plain.empty());
  ExpectSame(plain, ReplayCycles(file, pods, true, false), "cache");
  ExpectSame(plain, ReplayCycles(file, pods, false, true), "parallel");
  ExpectSame(plain, ReplayCycles(file, pods, true, true), "cache+parallel");
}

INSTANTIATE_TEST_SUITE_P(Perf, EngineEquivalence,
                         ::testing::Values("perf-mixed-5000n-1000e-1000p.json",
                                           "perf-taints-5000n-1000e-1000p.json",
                                           "perf-spreading-5000n-1000e-1000p.json"));

}  // namespace
}  // namespace ksched
