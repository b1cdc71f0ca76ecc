// The engine's speed-ups (the equivalence-class cache, the score index,
// parallel filtering) must stay exact in the scheduler loop, where nominated
// pods change what fits on a node and preemption deletes pods. Random small
// clusters with priorities, budgets and nominations run through the loop
// with every combination; every attempt (chosen node, error, preemption
// decision) must agree with the plain engine.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "api/scenario.h"
#include "cli/replay.h"
#include "loop/snapshot_loop.h"

namespace ksched {
namespace loop_equivalence_test {

using nlohmann::json;

std::string RandomLoopScenario(uint32_t seed) {
  std::mt19937 rng(seed);
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<uint32_t>(n)); };
  const int priorities[] = {-100, 0, 10, 100, 1000};
  json nodes = json::array();
  const int num_nodes = 3 + pick(10);
  for (int i = 0; i < num_nodes; ++i) {
    std::string name = "n" + std::to_string(i);
    nodes.push_back(
        {{"metadata",
          {{"name", name},
           {"labels",
            {{"kubernetes.io/hostname", name},
             {"failure-domain.beta.kubernetes.io/zone", "z" + std::to_string(pick(3))}}}}},
         {"status",
          {{"allocatable",
            {{"cpu", std::to_string(1 + pick(3))}, {"memory", "8Gi"}, {"pods", "8"}}},
           {"conditions", json::array({{{"type", "Ready"}, {"status", "True"}}})}}}});
  }
  const char* apps[] = {"web", "db", "batch"};
  auto pod = [&](const std::string& name, int priority) {
    std::string app = apps[pick(3)];
    json spec = {
        {"priority", priority},
        {"containers",
         json::array(
             {{{"name", "c"},
               {"resources",
                {{"requests",
                  {{"cpu", std::to_string(250 * (1 + pick(4))) + "m"}, {"memory", "100Mi"}}}}}}})}};
    int kind = pick(6);
    if (kind == 0) {
      spec["affinity"] = {
          {"podAntiAffinity",
           {{"requiredDuringSchedulingIgnoredDuringExecution",
             json::array(
                 {{{"labelSelector", {{"matchLabels", {{"app", app}}}}},
                   {"topologyKey", pick(2) ? "kubernetes.io/hostname"
                                           : "failure-domain.beta.kubernetes.io/zone"}}})}}}};
    } else if (kind == 1) {
      spec["affinity"] = {
          {"podAffinity",
           {{"preferredDuringSchedulingIgnoredDuringExecution",
             json::array({{{"weight", 2},
                           {"podAffinityTerm",
                            {{"labelSelector", {{"matchLabels", {{"app", app}}}}},
                             {"topologyKey", "failure-domain.beta.kubernetes.io/zone"}}}}})}}}};
    } else if (kind == 2) {
      spec["containers"][0]["ports"] = json::array({{{"containerPort", 80}, {"hostPort", 8080}}});
    }
    return json{
        {"metadata", {{"name", name}, {"namespace", "default"}, {"labels", {{"app", app}}}}},
        {"spec", spec}};
  };
  json existing = json::array();
  for (int i = 0, n = num_nodes * (1 + pick(3)); i < n; ++i) {
    json p = pod("run-" + std::to_string(i), priorities[pick(4)]);
    p["spec"]["nodeName"] = "n" + std::to_string(pick(num_nodes));
    if (pick(3) != 0)
      p["status"] = {{"startTime", "2020-01-01T00:0" + std::to_string(pick(10)) + ":00Z"}};
    if (pick(12) == 0) p["metadata"]["deletionTimestamp"] = "2020-01-02T00:00:00Z";
    existing.push_back(p);
  }
  json pending = json::array();
  for (int i = 0, n = 10 + pick(30); i < n; ++i) {
    json p = pod("pend-" + std::to_string(i), priorities[pick(5)]);
    if (pick(5) == 0)
      p["status"] = {{"nominatedNodeName", "n" + std::to_string(pick(num_nodes + 1))}};
    pending.push_back(p);
  }
  json pdbs = json::array();
  for (int i = 0; i < 2; ++i) {
    pdbs.push_back({{"metadata", {{"name", "pdb-" + std::to_string(i)}, {"namespace", "default"}}},
                    {"spec", {{"selector", {{"matchLabels", {{"app", apps[pick(3)]}}}}}}},
                    {"status", {{"disruptionsAllowed", pick(2)}}}});
  }
  return json{{"name", "loop-" + std::to_string(seed)},
              {"preemption", true},
              {"cluster", {{"nodes", nodes}, {"pods", existing}, {"podDisruptionBudgets", pdbs}}},
              {"pending", pending}}
      .dump();
}

// One line per attempt: pod, chosen node or error, and Preempt's decision.
std::vector<std::string> RunAttempts(const std::string& text, bool cache, bool parallel,
                                     bool details) {
  auto scenario = ParseScenario(text, "random");
  EXPECT_TRUE(scenario.ok());
  if (!scenario.ok()) return {};
  auto config = ScenarioConfig(*scenario, ReplayOptions{});
  EXPECT_TRUE(config.ok());
  auto cluster = ClusterState::Build(std::move(scenario->cluster));
  EXPECT_TRUE(cluster.ok());
  NodeTree tree(*cluster);
  std::unique_ptr<Engine> engine = MakeV115Engine(std::move(config).value(), TieBreak::kName);
  V115Scheduler(engine.get())->set_equivalence_cache(cache);
  V115Scheduler(engine.get())->set_parallel(parallel);
  LoopOptions options;
  options.record_details = details;
  SnapshotLoop loop(engine.get(), &*cluster, &tree, options);
  std::vector<std::string> out;
  loop.Run(std::move(scenario->pending), [&](const Attempt& a) {
    std::string line = a.pod->Key() + " #" + std::to_string(a.number) + " ";
    line += a.result.chosen == kNoNode ? "error: " + a.result.error
                                       : cluster->node(a.result.chosen).meta.name;
    if (a.preemption) {
      const PreemptionResult& p = *a.preemption;
      line +=
          " | preempt " + (p.node == kNoNode ? std::string("-") : cluster->node(p.node).meta.name);
      for (PodId v : p.victims) line += " " + cluster->pod(v).pod.Key();
      line += " | clear";
      for (const auto& r : p.nominated_pods_to_clear) line += " " + r.key;
    }
    out.push_back(std::move(line));
  });
  return out;
}

TEST(LoopEquivalence, NominatedPodsAndDeletionsKeepTheSpeedUpsExact) {
  size_t preemptions = 0, attempts = 0;
  for (uint32_t seed = 1; seed <= 80; ++seed) {
    std::string text = RandomLoopScenario(seed);
    std::vector<std::string> plain = RunAttempts(text, false, false, true);
    ASSERT_FALSE(plain.empty());
    EXPECT_EQ(plain, RunAttempts(text, true, false, true)) << "cache, seed " << seed;
    EXPECT_EQ(plain, RunAttempts(text, true, false, false)) << "index, seed " << seed;
    EXPECT_EQ(plain, RunAttempts(text, true, true, false)) << "index+parallel, seed " << seed;
    attempts += plain.size();
    for (const std::string& l : plain)
      if (l.find("| preempt n") != std::string::npos) ++preemptions;
  }
  // Worth something only if the loop preempted often.
  EXPECT_GT(preemptions, 50u) << "of " << attempts << " attempts";
}

}  // namespace loop_equivalence_test
}  // namespace ksched
