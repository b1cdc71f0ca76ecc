// The framework engine's reuse of node-local plugins' results between cycles
// (Framework::BeginCycle, the node cache) never changes a cycle: on the
// 5,000-node mperf scenarios of ../shared/perf, cut to their first pods,
// every field of every CycleResult is the same with the cache as without it
// (every plugin on every node, every cycle), at percentageOfNodesToScore 100
// and at the adaptive default, and with more pod classes than the cache keeps;
// without details (bench's cycles) the decisions, errors and totals are too.
// The same on the v1.35 cperf scenarios and vectors, where PodTopologySpread
// and InterPodAffinity also Skip, keep a slot per spread constraint and read
// namespace selectors as v1.35 does: their sums kept between cycles
// (Handle::reuse_between_cycles, on with the cache) must give what walking
// every pod gives.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "api/scenario.h"
#include "cli/replay.h"

namespace ksched {
namespace framework_equivalence_test {

namespace fs = std::filesystem;

fs::path PerfDir() {
  for (fs::path dir : {fs::path(KSCHED_SHARED_DIR), fs::path(KSCHED_SOURCE_DIR) / "../../shared"})
    if (fs::is_directory(dir / "perf")) return dir / "perf";
  return fs::path(KSCHED_SHARED_DIR) / "perf";
}

// Everything a report reads from one cycle, flattened for comparison.
struct Cycle {
  std::string pod, chosen, error;
  bool fit_error = false;
  std::vector<NodeId> feasible;
  std::vector<std::string> failures;  // "node plugin: reason, reason"
  std::string pre_filter_msg;
  std::vector<std::string> unschedulable_plugins;
  int evaluated = 0;
  bool scored = false;
  std::vector<int64_t> weighted, totals;
  std::vector<uint8_t> skipped;  // score plugins whose PreScore skipped
  std::vector<NodeId> max_nodes;
  bool operator==(const Cycle&) const = default;
};

std::vector<Cycle> Replay(const Scenario& scenario, bool reuse, std::optional<int> percentage,
                          bool record_details = true) {
  FrameworkReplayOptions options;
  options.reuse_node_results = reuse;
  options.record_details = record_details;
  options.percentage_of_nodes_to_score = percentage;
  std::vector<Cycle> out;
  Status s = RunFrameworkReplay(scenario, options,
                                [&](const Pod& pod, const framework::CycleResult& r,
                                    const ClusterState& c, const FrameworkPreemption*) {
                                  Cycle cy;
                                  cy.pod = pod.Key();
                                  cy.chosen = r.chosen == kNoNode ? "" : c.node(r.chosen).meta.name;
                                  cy.error = r.error;
                                  cy.fit_error = r.fit_error;
                                  cy.feasible = r.feasible;
                                  for (const framework::NodeStatus& f : r.failures) {
                                    std::string line = std::string(c.node(f.node).meta.name) + " " +
                                                       f.status.failed_plugin() + ": " +
                                                       f.status.Message();
                                    cy.failures.push_back(std::move(line));
                                  }
                                  cy.pre_filter_msg = r.pre_filter_msg;
                                  cy.unschedulable_plugins = r.unschedulable_plugins;
                                  cy.evaluated = r.evaluated_nodes;
                                  cy.scored = r.scored;
                                  cy.weighted = r.plugin_scores.weighted;
                                  cy.skipped = r.plugin_scores.skipped;
                                  cy.totals = r.totals;
                                  cy.max_nodes = r.max_nodes;
                                  out.push_back(std::move(cy));
                                });
  EXPECT_TRUE(s.ok()) << s.error().message;
  return out;
}

void ExpectSameCycles(const Scenario& scenario, std::optional<int> percentage) {
  std::vector<Cycle> cached = Replay(scenario, true, percentage);
  std::vector<Cycle> full = Replay(scenario, false, percentage);
  ASSERT_EQ(cached.size(), full.size());
  for (size_t i = 0; i < cached.size(); ++i) {
    EXPECT_TRUE(cached[i] == full[i])
        << scenario.name << " step " << i << " (" << full[i].pod << "): cached chose "
        << cached[i].chosen << ", full " << full[i].chosen;
  }
  // Without details (bench): the same decisions and errors.
  std::vector<Cycle> lean = Replay(scenario, true, percentage, false);
  ASSERT_EQ(lean.size(), full.size());
  for (size_t i = 0; i < lean.size(); ++i) {
    EXPECT_EQ(lean[i].chosen, full[i].chosen) << scenario.name << " step " << i;
    EXPECT_EQ(lean[i].error, full[i].error) << scenario.name << " step " << i;
    EXPECT_EQ(lean[i].feasible, full[i].feasible) << scenario.name << " step " << i;
    EXPECT_EQ(lean[i].totals, full[i].totals) << scenario.name << " step " << i;
  }
}

// Cycles run without a report (lean) decide as full ones: the same node,
// error and, for a FitError, the same failures.
void ExpectLeanDecidesAsFull(const std::vector<Cycle>& lean, const std::vector<Cycle>& full,
                             const std::string& name) {
  ASSERT_EQ(lean.size(), full.size()) << name;
  for (size_t i = 0; i < lean.size(); ++i) {
    EXPECT_EQ(lean[i].chosen, full[i].chosen) << name << " step " << i;
    EXPECT_EQ(lean[i].error, full[i].error) << name << " step " << i;
    if (full[i].fit_error) EXPECT_EQ(lean[i].failures, full[i].failures) << name << " step " << i;
  }
}

// `prefix` "mperf" (v1.26) or "cperf" (v1.35).
Scenario Load(const std::string& family, size_t pending, const std::string& prefix = "mperf") {
  const fs::path file = PerfDir() / (prefix + "-" + family + "-5000n-1000e-1000p.json");
  Result<Scenario> sc = LoadScenario(file.string());
  EXPECT_TRUE(sc.ok()) << sc.error().message;
  if (!sc.ok()) return Scenario();
  if (sc->pending.size() > pending) sc->pending.resize(pending);
  return std::move(sc).value();
}

class NodeCacheEquivalence : public ::testing::TestWithParam<std::string> {};

TEST_P(NodeCacheEquivalence, SameCyclesWithAndWithoutTheCache) {
  if (!fs::is_directory(PerfDir())) GTEST_SKIP() << PerfDir() << " not found";
  Scenario sc = Load(GetParam(), 40);
  ExpectSameCycles(sc, std::nullopt);  // the scenario's 100
  ExpectSameCycles(sc, 0);             // adaptive: 10% of 5,000 nodes, from a rotating start
}

INSTANTIATE_TEST_SUITE_P(Mperf, NodeCacheEquivalence,
                         ::testing::Values("basic", "mixed", "pod-anti-affinity", "topology-spread",
                                           "preferred-topology-spread"),
                         [](const auto& info) {
                           std::string name = info.param;
                           for (char& ch : name)
                             if (ch == '-') ch = '_';
                           return name;
                         });

// The same on v1.35's cperf scenarios: node-local plugins that Skip for some
// pods (NodePorts, NodeAffinity, NodeResourcesBalancedAllocation), sidecars
// counted by NodeResourcesFit and NodePorts.
class NodeCacheEquivalence135 : public ::testing::TestWithParam<std::string> {};

TEST_P(NodeCacheEquivalence135, SameCyclesWithAndWithoutTheCache) {
  if (!fs::is_directory(PerfDir())) GTEST_SKIP() << PerfDir() << " not found";
  Scenario sc = Load(GetParam(), 40, "cperf");
  ASSERT_EQ(sc.scheduler_version, "v1.35");
  ExpectSameCycles(sc, std::nullopt);
  ExpectSameCycles(sc, 0);
}

INSTANTIATE_TEST_SUITE_P(Cperf, NodeCacheEquivalence135,
                         ::testing::Values("basic", "mixed", "pod-anti-affinity", "topology-spread",
                                           "preferred-topology-spread"),
                         [](const auto& info) {
                           std::string name = info.param;
                           for (char& ch : name)
                             if (ch == '-') ch = '_';
                           return name;
                         });

// More classes than the cache keeps (each pod tolerates its own taint key,
// cycling through 24), so classes are evicted and built again.
TEST(NodeCacheEquivalenceClasses, MoreClassesThanKept) {
  if (!fs::is_directory(PerfDir())) GTEST_SKIP() << PerfDir() << " not found";
  Scenario sc = Load("mixed", 60);
  for (size_t i = 0; i < sc.pending.size(); ++i) {
    Toleration t;
    t.key = Intern("k" + std::to_string(i % 24));
    t.op = "Exists";
    sc.pending[i].spec.tolerations.push_back(t);
  }
  ExpectSameCycles(sc, std::nullopt);
}

// Pods whose specs differ only in tolerations and node selection (classes
// that lend each other the verdicts and scores of the plugins reading
// neither): every seventh node is cordoned and some pods tolerate that, so
// a lending class's verdict fails at a plugin the borrower runs itself. Pods
// that also ask for a host port are in no other pod's family.
TEST(NodeCacheEquivalenceSiblings, ClassesDifferingInTolerationsAndNodeSelection) {
  if (!fs::is_directory(PerfDir())) GTEST_SKIP() << PerfDir() << " not found";
  Scenario sc = Load("mixed", 48);
  for (size_t i = 0; i < sc.cluster.nodes.size(); i += 7) sc.cluster.nodes[i].unschedulable = true;
  Toleration cordon;
  cordon.key = Intern("node.kubernetes.io/unschedulable");
  cordon.op = "Exists";
  cordon.effect = TaintEffect::kNoSchedule;
  Toleration dedicated;
  dedicated.key = Intern("dedicated");
  dedicated.op = "Exists";
  for (size_t i = 0; i < sc.pending.size(); ++i) {
    PodSpec& spec = sc.pending[i].spec;
    spec.tolerations.clear();
    if (spec.affinity) spec.affinity->node_affinity.reset();
    if (i % 4 == 1 || i % 4 == 3) spec.tolerations.push_back(i % 8 == 1 ? cordon : dedicated);
    if (i % 4 >= 2) {
      spec.node_selector =
          Labels({{Intern("failure-domain.beta.kubernetes.io/zone"), Intern("zone1")}});
      spec.has_node_selector = true;
    }
    // Alike in those parts but not otherwise: no sibling of the others.
    if (i % 5 == 4) {
      ContainerPort port;
      port.container_port = 8080;
      port.host_port = 8080;
      spec.containers[0].ports.push_back(port);
    }
  }
  ExpectSameCycles(sc, std::nullopt);
  ExpectSameCycles(sc, 0);
}

// Pods with required pod affinity alone: after the first, each may pass only
// in the zones of the pods before it, so a lean cycle walks those zones'
// nodes (InterPodAffinity's CandidateNodes) instead of the whole cluster,
// and must find what a walk over every node finds, from the same rotating
// start at the adaptive default.
TEST(NodeCacheEquivalenceNarrowed, RequiredAffinityPodsWalkTheirZones) {
  if (!fs::is_directory(PerfDir())) GTEST_SKIP() << PerfDir() << " not found";
  Scenario sc = Load("mixed", 1000);
  std::vector<Pod> kept;
  for (Pod& p : sc.pending)
    if (p.spec.affinity && p.spec.affinity->pod_affinity &&
        !p.spec.affinity->pod_affinity->required.empty() && kept.size() < 12)
      kept.push_back(std::move(p));
  ASSERT_EQ(kept.size(), 12u);
  sc.pending = std::move(kept);
  ExpectSameCycles(sc, std::nullopt);
  ExpectSameCycles(sc, 0);
}

// Every vector of ../shared/framework (file order and the scheduler loop
// with preemption): without details the same decisions and errors, and on a
// FitError the same failures (preemption reads them).
TEST(NodeCacheEquivalenceVectors, LeanCyclesDecideAsFullOnes) {
  fs::path dir = PerfDir().parent_path() / "framework";
  if (!fs::is_directory(dir)) GTEST_SKIP() << dir << " not found";
  size_t checked = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() != ".json" || name.find(".expected") != std::string::npos)
      continue;
    Result<Scenario> sc = LoadScenario(entry.path().string());
    ASSERT_TRUE(sc.ok()) << sc.error().message;
    std::vector<Cycle> full = Replay(*sc, true, std::nullopt, true);
    std::vector<Cycle> lean = Replay(*sc, true, std::nullopt, false);
    ExpectLeanDecidesAsFull(lean, full, name);
    ++checked;
  }
  EXPECT_EQ(checked, 320u / 2);
}

// Every vector of ../shared/framework-v1.35: every field of every cycle the
// same with what is kept between cycles (node cache, spread counts,
// affinity sums) as without, and lean cycles decide as full ones. Not
// whether they match upstream (framework_vectors_test), only that the
// fast paths agree with the plain ones on v1.35 inputs.
TEST(NodeCacheEquivalenceVectors, V135CyclesSameWithAndWithoutReuse) {
  fs::path dir = PerfDir().parent_path() / "framework-v1.35";
  if (!fs::is_directory(dir)) GTEST_SKIP() << dir << " not found";
  size_t checked = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() != ".json" || name.find(".expected") != std::string::npos)
      continue;
    Result<Scenario> sc = LoadScenario(entry.path().string());
    ASSERT_TRUE(sc.ok()) << name << ": " << sc.error().message;
    std::vector<Cycle> kept = Replay(*sc, true, std::nullopt, true);
    std::vector<Cycle> walked = Replay(*sc, false, std::nullopt, true);
    ASSERT_EQ(kept.size(), walked.size()) << name;
    for (size_t i = 0; i < kept.size(); ++i) {
      EXPECT_TRUE(kept[i] == walked[i])
          << name << " step " << i << " (" << walked[i].pod << "): kept chose " << kept[i].chosen
          << ", walked " << walked[i].chosen;
    }
    std::vector<Cycle> lean = Replay(*sc, true, std::nullopt, false);
    ExpectLeanDecidesAsFull(lean, walked, name);
    ++checked;
  }
  EXPECT_EQ(checked, 320u / 2);
}

}  // namespace framework_equivalence_test
}  // namespace ksched
