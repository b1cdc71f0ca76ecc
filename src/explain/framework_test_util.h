// Test helper for the v1.26 explainers: schedules one pending pod with
// kube-scheduler v1.26's framework (the default profile, or a
// KubeSchedulerConfiguration given as YAML) on a cluster built from JSON as
// the v1.26 engine builds it, then explains every failing node with the
// cycle's own record, so each test checks causes against the plugin and
// reasons the real framework gave.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "api/decode.h"
#include "config/feature_gates.h"
#include "config/load.h"
#include "engine/engine.h"
#include "explain/explain.h"
#include "explain/explain_test_util.h"
#include "framework/schedule_one.h"

namespace ksched::explain::testing {

struct Explained126 {
  std::map<std::string, std::vector<std::string>> reasons;  // by node name
  std::map<std::string, std::string> plugins;               // failing plugin by node name
  std::map<std::string, std::vector<Cause>> causes;         // by node name
  // A PreFilter rejection of the whole pod: the plugin, its message, causes.
  std::string pre_filter_plugin, pre_filter_msg;
  std::vector<Cause> pre_filter_causes;
  std::optional<std::vector<std::string>> pre_filter_nodes;
  std::string chosen;  // "" when none

  std::vector<std::string> Messages(const std::string& node) const {
    std::vector<std::string> out;
    auto it = causes.find(node);
    if (it != causes.end())
      for (const Cause& c : it->second) out.push_back(c.message);
    return out;
  }
};

// `objects_json`: a List of nodes, pods and the rest; `pod_json`: the pod.
// `config_yaml` ("" for the defaults) and `gates` ("" for the release's
// defaults); `version`: the release whose framework schedules.
inline Explained126 ScheduleAndExplainV126(
    const std::string& objects_json, const std::string& pod_json,
    const std::string& config_yaml = "", const std::string& gates = "",
    config::SchedulerVersion version = config::SchedulerVersion::kV126) {
  Explained126 out;
  auto fg = config::ParseFeatureGates(gates, version);
  EXPECT_TRUE(fg.ok()) << (fg.ok() ? "" : fg.error().message);
  if (!fg.ok()) return out;
  config::KubeSchedulerConfiguration cfg = config::DefaultConfiguration(*fg);
  if (!config_yaml.empty()) {
    auto loaded = config::LoadConfiguration(config_yaml, "test-config", *fg);
    EXPECT_TRUE(loaded.ok()) << (loaded.ok() ? "" : loaded.error().message);
    if (!loaded.ok()) return out;
    cfg = std::move(loaded).value();
  }
  framework::FrameworkOptions fw_options;
  fw_options.feature_gates = *fg;
  framework::SchedulerOptions options;
  options.percentage_of_nodes_to_score = 100;
  auto scheduler = framework::Scheduler::New(cfg, fw_options, options);
  EXPECT_TRUE(scheduler.ok()) << (scheduler.ok() ? "" : scheduler.error().message);
  if (!scheduler.ok()) return out;
  std::unique_ptr<Engine> engine = MakeFrameworkEngine(std::move(scheduler).value());

  ObjectSet objects;
  Status s = DecodeObjects(objects_json, "test-input", &objects);
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().message);
  ObjectSet pod_set;
  s = DecodeObjects(pod_json, "test-pod", &pod_set);
  EXPECT_TRUE(s.ok() && pod_set.pods.size() == 1);
  if (pod_set.pods.size() != 1) return out;
  Pod pod = std::move(pod_set.pods[0]);
  if (pod.meta.uid.empty()) pod.meta.uid = pod.Key();
  auto cluster = ClusterState::Build(std::move(objects), nullptr, engine->cache_options());
  EXPECT_TRUE(cluster.ok()) << (cluster.ok() ? "" : cluster.error().message);
  if (!cluster.ok()) return out;

  ScheduleResult r = engine->Schedule(pod, *cluster, nullptr, true, nullptr);
  const framework::CycleResult* cycle = engine->LastCycle();
  EXPECT_NE(cycle, nullptr);
  if (r.chosen != kNoNode) out.chosen = std::string(cluster->node(r.chosen).meta.name);
  if (cycle != nullptr && !cycle->pre_filter_msg.empty()) {
    out.pre_filter_plugin =
        cycle->unschedulable_plugins.empty() ? "" : cycle->unschedulable_plugins.front();
    out.pre_filter_msg = cycle->pre_filter_msg;
    out.pre_filter_causes =
        ExplainPreFilterRejection(pod, *cluster, out.pre_filter_plugin, out.pre_filter_msg);
  }
  if (cycle != nullptr) out.pre_filter_nodes = cycle->pre_filter_node_names;
  PodExplainer explainer(pod, *cluster, nullptr, cycle);
  for (const NodeFailure& f : r.failures) {
    std::string name(cluster->node(f.node).meta.name);
    out.reasons[name] = f.reasons;
    out.plugins[name] = f.predicate;
    out.causes[name] = explainer.Explain(f);
    ExpectCausesDetailReasons(f, out.causes[name]);
  }
  return out;
}

}  // namespace ksched::explain::testing
