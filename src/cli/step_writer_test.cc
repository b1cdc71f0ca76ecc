// The step writer against the reference it replaced: the step built field by
// field with nlohmann, names sorted as strings (std::map), every value printed
// by nlohmann's dump(). Checked on 5,000-node perf clusters (every field large)
// and on hand-made results with the rare shapes: extender reasons for nodes
// outside the cluster, a node listed twice, a priority name used twice,
// control characters in messages.
#include "cli/step_writer.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "api/scenario.h"
#include "cache/node_tree.h"
#include "cli/replay.h"
#include "tests/fixtures.h"

namespace ksched {
namespace step_writer_test {

std::string Quote(const std::string& s) { return nlohmann::json(s).dump(); }

std::string ReferenceStep(const Pod& pod, const ScheduleResult& r, const ClusterState& cluster,
                          const ScoreColumns& config) {
  auto name = [&](NodeId id) { return cluster.node(id).meta.name; };
  std::string out = "{\"pod\":" + Quote(pod.Key()) + ",\"node\":";
  if (r.chosen == kNoNode) {
    out += "null,\"error\":" + Quote(r.error);
  } else {
    out += Quote(name(r.chosen));
  }
  std::vector<std::string> feasible;
  for (NodeId n : r.feasible) feasible.push_back(name(n));
  std::sort(feasible.begin(), feasible.end());
  out += ",\"feasible\":[";
  for (size_t i = 0; i < feasible.size(); ++i) out += (i ? "," : "") + Quote(feasible[i]);
  out += "],\"failures\":{";
  std::map<std::string, std::vector<std::string>> failures;
  for (const NodeFailure& f : r.failures) failures[name(f.node)] = f.reasons;
  for (const auto& [n, reasons] : r.unknown_node_failures) failures[n] = reasons;
  bool first = true;
  for (const auto& [n, reasons] : failures) {
    out += (first ? "" : ",") + Quote(n) + ":" + nlohmann::json(reasons).dump();
    first = false;
  }
  out += "}";
  if (r.scored) {
    std::map<std::string, int64_t> totals;
    for (size_t i = 0; i < r.feasible.size(); ++i) totals[name(r.feasible[i])] = r.totals[i];
    out += ",\"scores\":" + nlohmann::json(totals).dump();
    std::map<std::string, std::map<std::string, int64_t>> priorities;
    for (size_t p = 0; p < config.columns.size(); ++p) {
      auto& m = priorities[config.columns[p].name];
      for (size_t i = 0; i < r.feasible.size(); ++i)
        m[name(r.feasible[i])] = r.priority_scores[p][i];
    }
    out += ",\"priorities\":" + nlohmann::json(priorities).dump();
    int64_t best = *std::max_element(r.totals.begin(), r.totals.end());
    std::vector<std::string> max_nodes;
    for (size_t i = 0; i < r.feasible.size(); ++i)
      if (r.totals[i] == best) max_nodes.push_back(name(r.feasible[i]));
    std::sort(max_nodes.begin(), max_nodes.end());
    out += ",\"maxNodes\":" + nlohmann::json(max_nodes).dump();
  }
  return out + "}";
}

class StepWriterPerf : public ::testing::TestWithParam<std::string> {};

TEST_P(StepWriterPerf, SameBytesAsTheReference) {
  auto scenario = LoadScenario(std::string(KSCHED_SHARED_DIR) + "/perf/" + GetParam());
  ASSERT_TRUE(scenario.ok());
  scenario->pending.resize(3);
  size_t steps = 0;
  Status s = RunReplay(std::move(scenario).value(), ReplayOptions{},
                       [&](const Pod& pod, const ScheduleResult& r, const ClusterState& c,
                           const ScoreColumns& cfg, const PreemptionResult*) {
                         ++steps;
                         EXPECT_EQ(StepToJson(pod, r, c, cfg), ReferenceStep(pod, r, c, cfg));
                       });
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(steps, 3u);
}

INSTANTIATE_TEST_SUITE_P(Perf, StepWriterPerf,
                         ::testing::Values("perf-basic-5000n-1000e-1000p.json",
                                           "perf-mixed-5000n-1000e-1000p.json",
                                           "perf-taints-5000n-1000e-1000p.json"),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return ::ksched::testing::ReadableTestName(info.param);
                         });

struct SmallCluster {
  ClusterState cluster;
  SchedulerConfig config;
};

SmallCluster MakeSmallCluster() {
  std::string items;
  for (const char* n : {"node-c", "node-a", "node-b", "n\\\"q\\u0001", "node-\xc3\xa9"}) {
    items += std::string(items.empty() ? "" : ",") + R"({"kind":"Node","metadata":{"name":")" + n +
             R"("},"status":{"allocatable":{"cpu":"4","memory":"1Gi","pods":"10"}}})";
  }
  SmallCluster out{testing::TestCluster(R"({"kind":"List","items":[)" + items + "]}"), {}};
  EXPECT_EQ(out.cluster.num_nodes(), 5u);
  for (const char* p : {"Zeta", "Alpha", "Zeta", "Mid"})
    out.config.priorities.push_back(PriorityConfig{p, nullptr, 1});
  return out;
}

Pod MakePod(const std::string& ns_json, const std::string& name_json) {
  return testing::TestPod(R"({"kind":"Pod","metadata":{"namespace":")" + ns_json + R"(","name":")" +
                          name_json + R"("},"spec":{"containers":[{"name":"c"}]}})");
}

TEST(StepWriter, RareShapesAsTheReference) {
  SmallCluster sc = MakeSmallCluster();
  Pod pod = MakePod("ns\\u0002", "web \\\"1\\\"");
  ScheduleResult r;
  r.chosen = 1;
  // node-b listed twice (an extender returning it twice), the node with
  // control characters in its name feasible too.
  r.feasible = {2, 0, 2, 3, 1};
  r.failures = {NodeFailure{4, {"Insufficient cpu", "tab\there"}, "GeneralPredicates"}};
  r.unknown_node_failures = {{"node-bb", {"gone"}}, {"a-first", {"x", "y"}}, {"zzz", {}}};
  r.scored = true;
  r.totals = {5, 7, 7, 1, 7};
  for (size_t p = 0; p < sc.config.priorities.size(); ++p)
    r.priority_scores.push_back({int64_t(p), 1, 2, 3, -4});
  EXPECT_EQ(StepToJson(pod, r, sc.cluster, ScoreColumnsOf(sc.config)),
            ReferenceStep(pod, r, sc.cluster, ScoreColumnsOf(sc.config)));

  ScheduleResult failed;
  failed.error = "0/5 nodes are available: \x1f \xe2\x80\xa8.";
  failed.failures = {NodeFailure{3, {"a"}, "P"}, NodeFailure{0, {"b"}, "P"},
                     NodeFailure{2, {}, "P"}};
  failed.unknown_node_failures = {{"node-b", {"from an extender"}}};
  EXPECT_EQ(StepToJson(pod, failed, sc.cluster, ScoreColumnsOf(sc.config)),
            ReferenceStep(pod, failed, sc.cluster, ScoreColumnsOf(sc.config)));
}

TEST(StepWriter, ExtraFieldsComeLast) {
  SmallCluster sc = MakeSmallCluster();
  Pod pod = MakePod("ns", "p");
  ScheduleResult r;
  r.chosen = 1;
  r.feasible = {1};
  std::string out;
  {
    OutputBuffer buffer(&out);
    auto w = MakeJsonWriter(&buffer, JsonStyle::kCompact);
    WriteStep(w.get(), pod, r, sc.cluster, ScoreColumnsOf(sc.config), [](DocumentWriter* w) {
      w->Key("preemption");
      w->Null();
    });
    w->EndDocument();
  }
  EXPECT_EQ(out,
            "{\"pod\":\"ns/p\",\"node\":\"node-a\",\"feasible\":[\"node-a\"],\"failures\":{},"
            "\"preemption\":null}\n");
}

}  // namespace step_writer_test
}  // namespace ksched
