#include "cli/replay.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "cache/node_tree.h"
#include "extender/http_extender.h"
#include "loop/snapshot_loop.h"

namespace ksched {

Result<SchedulerConfig> ScenarioConfig(const Scenario& scenario, const ReplayOptions& options) {
  BuildOptions build;
  build.gates = options.gates;
  build.hard_pod_affinity_symmetric_weight = scenario.hard_pod_affinity_symmetric_weight;
  build.percentage_of_nodes_to_score =
      options.percentage_of_nodes_to_score.value_or(scenario.percentage_of_nodes_to_score);
  if (!scenario.policy_json) return BuildFromProvider(scenario.provider, build);

  auto policy = ParsePolicy(*scenario.policy_json, scenario.name + " (policy)");
  if (!policy.ok()) return policy.error();
  auto config = BuildFromPolicy(*policy, build);
  if (!config.ok()) return config.error();
  auto extenders = MakeHttpExtenders(policy->extenders);
  if (!extenders.ok()) return extenders.error();
  config->extenders = std::move(extenders).value();
  return config;
}

Status RunReplay(Scenario scenario, const ReplayOptions& options, const StepCallback& on_step,
                 const std::function<void()>& on_ready) {
  auto config = ScenarioConfig(scenario, options);
  if (!config.ok()) return config.error();
  auto cluster = ClusterState::Build(std::move(scenario.cluster));
  if (!cluster.ok()) return cluster.error();
  NodeTree tree(*cluster);
  GenericScheduler scheduler(std::move(config).value(), options.tie_break);
  if (on_ready) on_ready();
  if (scenario.preemption) {
    LoopOptions loop_options;
    loop_options.record_details = options.record_details;
    SnapshotLoop loop(&scheduler, &*cluster, &tree, loop_options);
    loop.Run(std::move(scenario.pending), [&](const Attempt& a) {
      if (on_step) {
        on_step(*a.pod, a.result, *cluster, scheduler.config(),
                a.preemption ? &*a.preemption : nullptr);
      }
    });
    return Status::Ok();
  }
  // Conformance scenarios: pods in file order, no queue, no preemption.
  for (Pod& pod : scenario.pending) {
    ScheduleResult result = scheduler.Schedule(pod, *cluster, &tree, options.record_details);
    if (on_step) on_step(pod, result, *cluster, scheduler.config(), nullptr);
    if (result.chosen != kNoNode) cluster->Assume(std::move(pod), result.chosen);
  }
  return Status::Ok();
}

std::string StepToJson(const Pod& pod, const ScheduleResult& result, const ClusterState& cluster,
                       const SchedulerConfig& config, const PreemptionResult* preemption) {
  return StepObject(pod, result, cluster, config, preemption).dump();
}

nlohmann::ordered_json StepObject(const Pod& pod, const ScheduleResult& result,
                                  const ClusterState& cluster, const SchedulerConfig& config,
                                  const PreemptionResult* preemption) {
  using ojson = nlohmann::ordered_json;
  auto name = [&](NodeId id) { return cluster.node(id).meta.name; };
  ojson step;
  step["pod"] = pod.Key();
  step["node"] = result.chosen == kNoNode ? ojson(nullptr) : ojson(name(result.chosen));
  if (result.chosen == kNoNode) step["error"] = result.error;

  std::vector<std::string> feasible;
  feasible.reserve(result.feasible.size());
  for (NodeId id : result.feasible) feasible.push_back(name(id));
  std::sort(feasible.begin(), feasible.end());
  step["feasible"] = feasible;

  std::map<std::string, std::vector<std::string>> failures;
  for (const NodeFailure& f : result.failures) failures[name(f.node)] = f.reasons;
  // Extender reasons for nodes outside the cluster, as upstream's failure map has them.
  for (const auto& [n, reasons] : result.unknown_node_failures) failures[n] = reasons;
  ojson fj = ojson::object();
  for (auto& [n, r] : failures) fj[n] = r;
  step["failures"] = std::move(fj);

  if (result.scored) {
    std::map<std::string, int64_t> totals;
    for (size_t i = 0; i < result.feasible.size(); ++i)
      totals[name(result.feasible[i])] = result.totals[i];
    ojson sj = ojson::object();
    for (auto& [n, t] : totals) sj[n] = t;
    step["scores"] = std::move(sj);

    std::map<std::string, std::map<std::string, int64_t>> prios;
    for (size_t p = 0; p < config.priorities.size(); ++p) {
      auto& m = prios[config.priorities[p].name];
      for (size_t i = 0; i < result.feasible.size(); ++i)
        m[name(result.feasible[i])] = result.priority_scores[p][i];
    }
    ojson pj = ojson::object();
    for (auto& [pn, m] : prios) {
      ojson mj = ojson::object();
      for (auto& [n, s] : m) mj[n] = s;
      pj[pn] = std::move(mj);
    }
    step["priorities"] = std::move(pj);

    int64_t best = *std::max_element(result.totals.begin(), result.totals.end());
    std::vector<std::string> max_nodes;
    for (size_t i = 0; i < result.feasible.size(); ++i)
      if (result.totals[i] == best) max_nodes.push_back(name(result.feasible[i]));
    std::sort(max_nodes.begin(), max_nodes.end());
    step["maxNodes"] = max_nodes;
  }
  if (preemption != nullptr) {
    if (!preemption->error.empty() || preemption->node == kNoNode) {
      step["preemption"] = nullptr;
    } else {
      ojson pj;
      pj["node"] = name(preemption->node);
      std::vector<std::string> victims;
      for (PodId v : preemption->victims) victims.push_back(cluster.pod(v).pod.Key());
      pj["victims"] = victims;
      std::vector<std::string> clear;
      for (const auto& ref : preemption->nominated_pods_to_clear) clear.push_back(ref.key);
      pj["nominatedPodsToClear"] = clear;
      step["preemption"] = std::move(pj);
    }
  }
  return step;
}

}  // namespace ksched
