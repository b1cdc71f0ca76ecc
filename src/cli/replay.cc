#include "cli/replay.h"

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
  std::unique_ptr<Engine> engine = MakeV115Engine(std::move(config).value(), options.tie_break);
  GenericScheduler& scheduler = *V115Scheduler(engine.get());
  const ScoreColumns& columns = engine->score_columns();
  if (on_ready) on_ready();
  if (scenario.preemption) {
    LoopOptions loop_options;
    loop_options.record_details = options.record_details;
    SnapshotLoop loop(engine.get(), &*cluster, &tree, loop_options);
    loop.Run(std::move(scenario.pending), [&](const Attempt& a) {
      if (on_step) {
        on_step(*a.pod, a.result, *cluster, columns, a.preemption ? &*a.preemption : nullptr);
      }
    });
    return Status::Ok();
  }
  // Conformance scenarios: pods in file order, no queue, no preemption.
  for (Pod& pod : scenario.pending) {
    ScheduleResult result = scheduler.Schedule(pod, *cluster, &tree, options.record_details);
    if (on_step) on_step(pod, result, *cluster, columns, nullptr);
    if (result.chosen != kNoNode) cluster->Assume(std::move(pod), result.chosen);
  }
  return Status::Ok();
}

}  // namespace ksched
