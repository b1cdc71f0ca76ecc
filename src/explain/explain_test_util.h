// Test helper: schedules one pending pod on a cluster built from JSON with
// the DefaultProvider, then explains every failing node, so each test checks
// causes against the reasons the real scheduler gave.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "algorithm/generic_scheduler.h"
#include "algorithm/provider.h"
#include "cache/node_tree.h"
#include "explain/explain.h"
#include "predicates/check_test_helper.h"
#include "tests/fixtures.h"

namespace ksched::explain::testing {

using ::ksched::testing::List;

// Every cause details one of the node's upstream reasons, with a message and
// a details object.
inline void ExpectCausesDetailReasons(const NodeFailure& f, const std::vector<Cause>& causes) {
  for (const Cause& c : causes) {
    EXPECT_NE(std::find(f.reasons.begin(), f.reasons.end(), c.reason), f.reasons.end()) << c.reason;
    EXPECT_FALSE(c.message.empty());
    EXPECT_TRUE(c.details.is_object());
  }
}

struct Explained {
  std::map<std::string, std::vector<std::string>> reasons;  // by node name
  std::map<std::string, std::vector<Cause>> causes;         // by node name
  std::vector<std::string> Messages(const std::string& node) const {
    std::vector<std::string> out;
    auto it = causes.find(node);
    if (it != causes.end())
      for (const Cause& c : it->second) out.push_back(c.message);
    return out;
  }
};

// `nominated`: (pod JSON, node name) of pods nominated to nodes, which the
// cycle leaves room for as the scheduler loop does.
inline Explained ScheduleAndExplain(
    const std::string& cluster_json, const std::string& pod_json,
    const std::vector<std::pair<std::string, std::string>>& nominated = {}) {
  ClusterState cluster = ::ksched::testing::TestCluster(cluster_json);
  Pod pod = ::ksched::testing::TestPod(pod_json);
  pod.meta.uid = pod.Key();
  NominatedPods nominations;
  for (const auto& [json, node] : nominated) {
    Pod p = ::ksched::testing::TestPod(json);
    p.meta.uid = p.Key();
    nominations.Add(&cluster, p, node);
  }
  auto config = BuildFromProvider("DefaultProvider", BuildOptions{});
  EXPECT_TRUE(config.ok());
  GenericScheduler scheduler(std::move(config).value(), TieBreak::kName);
  NodeTree tree(cluster);
  ScheduleResult r = scheduler.Schedule(pod, cluster, &tree, true, &nominations);
  Explained out;
  PodExplainer explainer(pod, cluster, &nominations);
  for (const NodeFailure& f : r.failures) {
    std::string name(cluster.node(f.node).meta.name);
    out.reasons[name] = f.reasons;
    out.causes[name] = explainer.Explain(f);
    ExpectCausesDetailReasons(f, out.causes[name]);
  }
  return out;
}

}  // namespace ksched::explain::testing
