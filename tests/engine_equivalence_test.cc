// The engine's speed-ups (the equivalence-class cache and parallel filtering
// and scoring) must never change a decision. The conformance clusters are too
// small to exercise the parallel paths, so this replays the first pods of
// large perf scenarios with every combination and compares each cycle's full
// result: chosen node, feasible set, every failure reason and every total.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "api/scenario.h"
#include "cache/node_tree.h"
#include "cli/replay.h"
#include "cli/step_writer.h"
#include "tests/fixtures.h"

namespace ksched {
namespace engine_equivalence_test {

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
                                           "perf-pod-anti-affinity-5000n-1000e-1000p.json",
                                           "perf-taints-5000n-1000e-1000p.json",
                                           "perf-spreading-5000n-1000e-1000p.json"),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return ::ksched::testing::ReadableTestName(info.param);
                         });

// Decisions taken without a report may come from the per-class ScoreIndex
// instead of the full map/reduce; both must always choose the same node.
struct Decisions {
  std::vector<std::string> chosen;  // node name, or "error: ..." when none
  uint64_t from_index = 0;
};

Decisions Decide(Scenario scenario, size_t pods, bool cache, bool details) {
  Decisions out;
  auto config = ScenarioConfig(scenario, ReplayOptions{});
  EXPECT_TRUE(config.ok()) << (config.ok() ? "" : config.error().message);
  if (!config.ok()) return out;
  auto cluster = ClusterState::Build(std::move(scenario.cluster));
  EXPECT_TRUE(cluster.ok());
  if (!cluster.ok()) return out;
  NodeTree tree(*cluster);
  GenericScheduler scheduler(std::move(config).value(), TieBreak::kName);
  scheduler.set_equivalence_cache(cache);
  for (size_t i = 0; i < std::min(pods, scenario.pending.size()); ++i) {
    Pod pod = scenario.pending[i];
    ScheduleResult r = scheduler.Schedule(pod, *cluster, &tree, details);
    out.chosen.push_back(r.chosen == kNoNode ? "error: " + r.error
                                             : cluster->node(r.chosen).meta.name);
    if (r.chosen != kNoNode) cluster->Assume(std::move(pod), r.chosen);
  }
  out.from_index = scheduler.index_decisions();
  return out;
}

void ExpectSameDecisions(const Decisions& full, const Decisions& fast, const std::string& what) {
  ASSERT_EQ(full.chosen.size(), fast.chosen.size()) << what;
  for (size_t i = 0; i < full.chosen.size(); ++i)
    ASSERT_EQ(full.chosen[i], fast.chosen[i]) << what << ": pod " << i;
}

class DecisionOnly : public ::testing::TestWithParam<std::string> {};

TEST_P(DecisionOnly, ScoreIndexChoosesAsFullScoring) {
  auto scenario = LoadScenario(std::string(KSCHED_SHARED_DIR) + "/perf/" + GetParam());
  ASSERT_TRUE(scenario.ok());
#ifdef __SANITIZE_ADDRESS__
  const size_t pods = 40;
#else
  const size_t pods = 300;
#endif
  Decisions full = Decide(*scenario, pods, /*cache=*/false, /*details=*/true);
  Decisions fast = Decide(*scenario, pods, /*cache=*/true, /*details=*/false);
  ExpectSameDecisions(full, fast, GetParam());
  EXPECT_EQ(full.from_index, 0u);
}

INSTANTIATE_TEST_SUITE_P(Perf, DecisionOnly,
                         ::testing::Values("perf-basic-5000n-1000e-1000p.json",
                                           "perf-spreading-5000n-1000e-1000p.json",
                                           "perf-taints-5000n-1000e-1000p.json",
                                           "perf-node-affinity-5000n-1000e-1000p.json",
                                           "perf-mixed-5000n-1000e-1000p.json",
                                           "perf-pod-affinity-5000n-1000e-1000p.json",
                                           "perf-pod-anti-affinity-5000n-1000e-1000p.json",
                                           "perf-preferred-pod-affinity-5000n-1000e-1000p.json",
                                           "perf-preferred-anti-affinity-5000n-1000e-1000p.json"),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return ::ksched::testing::ReadableTestName(info.param);
                         });

// Small random clusters that fill up: nodes leave and rejoin the feasible set,
// the largest raw scores move, zones gain pods, classes interleave with pods
// the index cannot score (preferred pod affinity), and Policy weights vary.
std::string RandomScenario(uint32_t seed) {
  using nlohmann::json;
  std::mt19937 rng(seed);
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<uint32_t>(n)); };
  json nodes = json::array();
  const int num_nodes = 6 + pick(20);
  const int num_zones = 1 + pick(4);
  for (int i = 0; i < num_nodes; ++i) {
    json labels = {{"kubernetes.io/hostname", "n" + std::to_string(i)}};
    if (pick(6) != 0)
      labels["failure-domain.beta.kubernetes.io/zone"] = "z" + std::to_string(pick(num_zones));
    if (pick(2) == 0) labels["disk"] = pick(2) == 0 ? "ssd" : "hdd";
    if (pick(3) == 0) labels["gpu"] = "true";
    json node = {{"metadata", {{"name", "n" + std::to_string(i)}, {"labels", labels}}},
                 {"status",
                  {{"allocatable",
                    {{"cpu", std::to_string(1 + pick(4))}, {"memory", "8Gi"}, {"pods", "110"}}},
                   {"conditions", json::array({{{"type", "Ready"}, {"status", "True"}}})}}}};
    if (pick(4) == 0) {
      json taints = json::array();
      for (int t = 0, n = 1 + pick(2); t < n; ++t)
        taints.push_back(
            {{"key", "k" + std::to_string(t)}, {"value", "v"}, {"effect", "PreferNoSchedule"}});
      node["spec"] = {{"taints", taints}};
    }
    nodes.push_back(node);
  }
  auto pod = [&](const std::string& name, const std::string& app, int kind) {
    json spec = {
        {"containers", json::array({{{"name", "c"},
                                     {"image", "pause"},
                                     {"resources",
                                      {{"requests",
                                        {{"cpu", std::to_string(100 * (1 + 4 * pick(2))) + "m"},
                                         {"memory", "100Mi"}}}}}}})}};
    if (kind == 1) {
      spec["affinity"] = {
          {"nodeAffinity",
           {{"preferredDuringSchedulingIgnoredDuringExecution",
             json::array(
                 {{{"weight", 5},
                   {"preference",
                    {{"matchExpressions", json::array({{{"key", "disk"},
                                                        {"operator", "In"},
                                                        {"values", json::array({"ssd"})}}})}}}},
                  {{"weight", 2},
                   {"preference",
                    {{"matchExpressions",
                      json::array({{{"key", "gpu"}, {"operator", "Exists"}}})}}}}})}}}};
      spec["tolerations"] = json::array({{{"key", "k0"}, {"operator", "Exists"}}});
    } else if (kind == 3) {
      spec["affinity"] = {
          {"podAntiAffinity",
           {{"requiredDuringSchedulingIgnoredDuringExecution",
             json::array(
                 {{{"labelSelector", {{"matchLabels", {{"app", app}}}}},
                   {"topologyKey", pick(2) == 0 ? "kubernetes.io/hostname"
                                                : "failure-domain.beta.kubernetes.io/zone"}}})}}}};
    } else if (kind == 2) {
      spec["affinity"] = {
          {"podAffinity",
           {{"preferredDuringSchedulingIgnoredDuringExecution",
             json::array({{{"weight", 3},
                           {"podAffinityTerm",
                            {{"labelSelector", {{"matchLabels", {{"app", app}}}}},
                             {"topologyKey", "failure-domain.beta.kubernetes.io/zone"}}}}})}}}};
    }
    json meta = {{"name", name}, {"namespace", "default"}, {"labels", {{"app", app}}}};
    if (app == "web")
      meta["ownerReferences"] = json::array(
          {{{"kind", "ReplicaSet"}, {"name", "web"}, {"uid", "rs-web"}, {"controller", true}}});
    return json{{"metadata", meta}, {"spec", spec}};
  };
  json existing = json::array();
  for (int i = 0, n = pick(10); i < n; ++i) {
    json p = pod("old-" + std::to_string(i), pick(2) == 0 ? "web" : "db", 0);
    p["spec"]["nodeName"] = "n" + std::to_string(pick(num_nodes));
    existing.push_back(p);
  }
  json pending = json::array();
  const char* apps[] = {"web", "db", "cache"};
  for (int i = 0; i < 160; ++i) {
    int kind = pick(25) == 0 ? 2 : pick(6) == 0 ? 3 : pick(2);
    pending.push_back(pod("p-" + std::to_string(i), apps[pick(3)], kind));
  }
  json scenario = {
      {"name", "random-" + std::to_string(seed)},
      {"cluster",
       {{"nodes", nodes},
        {"pods", existing},
        {"services", json::array({{{"metadata", {{"name", "web"}, {"namespace", "default"}}},
                                   {"spec", {{"selector", {{"app", "web"}}}}}}})},
        {"replicaSets",
         json::array({{{"metadata", {{"name", "web"}, {"namespace", "default"}, {"uid", "rs-web"}}},
                       {"spec", {{"selector", {{"matchLabels", {{"app", "web"}}}}}}}}})}}},
      {"pending", pending}};
  if (seed % 2 == 1) {
    scenario["policy"] = {
        {"kind", "Policy"},
        {"apiVersion", "v1"},
        {"priorities", json::array({{{"name", "SelectorSpreadPriority"}, {"weight", 2}},
                                    {{"name", "NodeAffinityPriority"}, {"weight", 3}},
                                    {{"name", "TaintTolerationPriority"}, {"weight", 2}},
                                    {{"name", "MostRequestedPriority"}, {"weight", 1}},
                                    {{"name", "InterPodAffinityPriority"}, {"weight", 1}}})}};
  }
  return scenario.dump();
}

// What a person reads (the steps `ksched replay` prints, through the
// streaming writer) must name the node the decision path chooses.
class PrintedSteps : public ::testing::TestWithParam<std::string> {};

TEST_P(PrintedSteps, NameTheNodesTheDecisionPathChooses) {
  auto scenario = LoadScenario(std::string(KSCHED_SHARED_DIR) + "/perf/" + GetParam());
  ASSERT_TRUE(scenario.ok());
#ifdef __SANITIZE_ADDRESS__
  const size_t pods = 15;
#else
  const size_t pods = 150;
#endif
  Decisions fast = Decide(*scenario, pods, /*cache=*/true, /*details=*/false);
  scenario->pending.resize(std::min(pods, scenario->pending.size()));

  std::vector<std::string> printed;
  std::string text;
  OutputBuffer buffer(&text);
  auto writer = MakeJsonWriter(&buffer, JsonStyle::kCompact);
  Status s =
      RunReplay(std::move(scenario).value(), ReplayOptions{},
                [&](const Pod& pod, const ScheduleResult& r, const ClusterState& c,
                    const ScoreColumns& cfg, const PreemptionResult*) {
                  WriteStep(writer.get(), pod, r, c, cfg);
                  writer->EndDocument();
                  buffer.Flush();
                  // {"pod":"...","node":"..." or null,...: a quote inside
                  // a JSON string is escaped, so the first ,"node": is the
                  // field.
                  size_t at = text.find(",\"node\":");
                  ASSERT_NE(at, std::string::npos);
                  at += 8;
                  size_t end = text[at] == 'n' ? at + 4 : text.find('"', at + 1) + 1;
                  auto node = nlohmann::json::parse(text.substr(at, end - at));
                  if (printed.size() < 3) {  // a few whole steps: valid, consistent
                    auto step = nlohmann::json::parse(text);
                    EXPECT_EQ(step["node"], node);
                    if (step.contains("maxNodes")) {
                      EXPECT_EQ(step["scores"][node.get<std::string>()],
                                step["scores"][step["maxNodes"][0].get<std::string>()]);
                    }
                  }
                  ASSERT_EQ(text.back(), '\n');
                  printed.push_back(node.is_null() ? "error: " + r.error : node.get<std::string>());
                  text.clear();
                });
  ASSERT_TRUE(s.ok());
  ASSERT_EQ(printed.size(), fast.chosen.size());
  for (size_t i = 0; i < printed.size(); ++i)
    ASSERT_EQ(printed[i], fast.chosen[i]) << GetParam() << ": pod " << i;
  EXPECT_GT(fast.from_index, 0u) << "the decision path never used its index";
}

INSTANTIATE_TEST_SUITE_P(Perf, PrintedSteps,
                         ::testing::Values("perf-basic-5000n-1000e-1000p.json",
                                           "perf-mixed-5000n-1000e-1000p.json",
                                           "perf-taints-5000n-1000e-1000p.json",
                                           "perf-pod-anti-affinity-5000n-1000e-1000p.json"),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return ::ksched::testing::ReadableTestName(info.param);
                         });

TEST(DecisionOnly, RandomFillingClusters) {
  uint64_t from_index = 0;
  for (uint32_t seed = 1; seed <= 60; ++seed) {
    auto scenario = ParseScenario(RandomScenario(seed), "random");
    ASSERT_TRUE(scenario.ok()) << scenario.error().message;
    Decisions full = Decide(*scenario, 1000, /*cache=*/false, /*details=*/true);
    Decisions fast = Decide(*scenario, 1000, /*cache=*/true, /*details=*/false);
    ExpectSameDecisions(full, fast, "seed " + std::to_string(seed));
    from_index += fast.from_index;
  }
  // The comparison is only worth something if the index decided often.
  EXPECT_GT(from_index, 2000u);
}

}  // namespace engine_equivalence_test
}  // namespace ksched
