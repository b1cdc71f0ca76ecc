#include "cli/replay.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "api/priority_admission.h"
#include "cache/node_tree.h"
#include "cache/nominated_pods.h"
#include "config/default_plugins.h"
#include "config/feature_gates.h"
#include "config/load.h"
#include "dra/release_claims.h"
#include "extender/config_extenders.h"
#include "extender/http_extender.h"
#include "framework/cache_options.h"
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
                 const std::function<void()>& on_ready, const std::function<void()>& on_done) {
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
    if (on_done) on_done();
    return Status::Ok();
  }
  // Conformance scenarios: pods in file order, no queue, no preemption.
  for (Pod& pod : scenario.pending) {
    ScheduleResult result = scheduler.Schedule(pod, *cluster, &tree, options.record_details);
    if (on_step) on_step(pod, result, *cluster, columns, nullptr);
    if (result.chosen != kNoNode) cluster->Assume(std::move(pod), result.chosen);
  }
  if (on_done) on_done();
  return Status::Ok();
}

// ---------------------------------------------------------------- v1.26

namespace {

// "namespace/name" of each pod, sorted.
std::vector<std::string> SortedKeys(const ClusterState& cluster, const std::vector<PodId>& pods) {
  std::vector<std::string> keys;
  for (PodId id : pods) keys.push_back(cluster.pod(id).pod.Key());
  std::sort(keys.begin(), keys.end());
  return keys;
}

// The scheduler loop of ../shared/framework/README.md (mpre-*) and
// ../shared/framework-v1.35/README.md (cpre-*): pods in queue order
// (priority, then arrival), each attempted as it now stands; a FitError runs
// the profile's PostFilter plugins, whose nomination, victims and cleared
// nominations are applied before the next attempt (v1.35's asynchronous
// preemption included: the vectors wait for it); a pod that got a node
// nominated is attempted once more, at once.
// v1.35's queue runs the profile's PreEnqueue plugins before a pod may be
// attempted: a held pod is reported once and never attempted (nothing in a
// replay lifts a gate). v1.26's replay runs no PreEnqueue (its vectors were
// made without the queue).
bool HeldByPreEnqueue(framework::Scheduler* scheduler, const Pod& pod, const ClusterState& cluster,
                      const FrameworkStepCallback& on_step) {
  framework::Framework* fwk = scheduler->FrameworkForPod(pod);
  if (fwk == nullptr || !fwk->feature_gates().AtLeast(config::SchedulerVersion::kV135))
    return false;
  framework::Status s = fwk->RunPreEnqueuePlugins(pod);
  if (s.IsSuccess()) return false;
  framework::CycleResult held;
  held.pre_enqueue = std::move(s);
  if (on_step) on_step(pod, held, cluster, nullptr);
  return true;
}

// handleSchedulingFailure's nomination when no PostFilter result decides it:
// v1.35's schedulingCycle clears it after any failure but a FitError that
// PostFilter handled (an error, or a FitError without PostFilter plugins);
// v1.26 leaves it.
void ClearNominationAfterFailure(const framework::CycleResult& r, Pod* pod, ClusterState* cluster,
                                 NominatedPods* nominated) {
  if (r.framework == nullptr ||
      !r.framework->feature_gates().AtLeast(config::SchedulerVersion::kV135))
    return;
  pod->nominated_node_name.clear();
  nominated->Remove(cluster, pod->meta.uid);
}

void RunFrameworkLoop(framework::Scheduler* scheduler, ClusterState* cluster,
                      std::vector<Pod> pending, const FrameworkStepCallback& on_step) {
  NominatedPods nominated;
  std::unordered_map<std::string, size_t> by_uid;
  for (size_t i = 0; i < pending.size(); ++i) {
    by_uid.emplace(pending[i].meta.uid, i);
    if (!pending[i].nominated_node_name.empty())
      nominated.Add(cluster, pending[i], pending[i].nominated_node_name);
  }
  scheduler->SetNominated(&nominated);
  std::vector<size_t> order(pending.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return PodPriority(pending[a]) > PodPriority(pending[b]);
  });
  for (size_t i : order) {
    if (HeldByPreEnqueue(scheduler, pending[i], *cluster, on_step)) continue;
    for (int attempt = 1; attempt <= 2; ++attempt) {
      Pod& pod = pending[i];
      framework::CycleResult r = scheduler->ScheduleOne(pod, cluster);
      if (r.chosen != kNoNode) {
        nominated.Remove(cluster, pod.meta.uid);
        if (on_step) on_step(pod, r, *cluster, nullptr);
        break;
      }
      if (r.framework == nullptr) {
        // No profile: upstream drops the pod before any cycle.
        if (on_step) on_step(pod, r, *cluster, nullptr);
        break;
      }
      if (!r.fit_error || !r.framework->HasPostFilterPlugins()) {
        if (on_step) on_step(pod, r, *cluster, nullptr);
        ClearNominationAfterFailure(r, &pod, cluster, &nominated);
        break;
      }
      const bool v135 = r.framework->feature_gates().AtLeast(config::SchedulerVersion::kV135);
      framework::NodeToStatusMap statuses = framework::PostFilterStatuses(r, cluster->num_nodes());
      if (!v135 && !r.pre_filter_msg.empty() && statuses.empty()) {
        // A PreFilter rejection gives every node the same status.
        for (NodeId n = 0; n < cluster->num_nodes(); ++n)
          statuses.push_back({n, framework::Status(framework::Code::kUnschedulableAndUnresolvable,
                                                   r.pre_filter_msg)});
      }
      framework::PostFilterResult pf;
      framework::Status s = r.framework->RunPostFilterPlugins(&r.state, pod, statuses, &pf);
      // DynamicResources' deallocation, written through the API at once.
      r.framework->ApplyPostFilterWrites(&r.state, pod, cluster);
      if (!s.Message().empty()) r.error = framework::CycleFitError(r, s.Message());
      FrameworkPreemption p;
      const bool chose = pf.nominating && !pf.nominated_node_name.empty();
      if (chose) {
        p.nominated = true;
        p.node = pf.nominated_node_name;
        p.victims = SortedKeys(*cluster, pf.victims);
        p.nominated_pods_to_clear = SortedKeys(*cluster, pf.nominated_pods_to_clear);
      }
      if (on_step) on_step(pod, r, *cluster, &p);
      // handleSchedulingFailure: the nomination the PostFilter asked for
      // ("" clears the pod's own).
      if (pf.nominating) {
        pod.nominated_node_name = pf.nominated_node_name;
        if (chose) {
          nominated.Add(cluster, pod, pod.nominated_node_name);
        } else {
          nominated.Remove(cluster, pod.meta.uid);
        }
      }
      std::unordered_set<std::string> gone;
      for (PodId victim : pf.victims) {
        gone.insert(cluster->pod(victim).pod.meta.uid);
        cluster->RemovePod(victim);
      }
      // The resourceclaim controller and the garbage collector on the
      // victims' claims, done before the next attempt (refsched135).
      dra::ReleaseClaimsOfDeletedPods(cluster->mutable_dra(), gone);
      for (PodId cleared : pf.nominated_pods_to_clear) {
        const std::string uid = cluster->pod(cleared).pod.meta.uid;
        auto it = by_uid.find(uid);
        if (it != by_uid.end()) pending[it->second].nominated_node_name.clear();
        nominated.Remove(cluster, uid);
      }
      if (!chose) break;
    }
  }
  scheduler->SetNominated(nullptr);
}

}  // namespace

Result<config::SchedulerVersion> ScenarioSchedulerVersion(const Scenario& scenario) {
  std::optional<config::SchedulerVersion> v =
      config::ParseSchedulerVersion(scenario.scheduler_version);
  if (!v)
    return MakeError("schedulerVersion: unsupported value \"" + scenario.scheduler_version +
                     "\": ksched emulates v1.35 and v1.26 (and v1.15 for scenarios without "
                     "schedulerVersion)");
  return *v;
}

Result<config::FeatureGates> ScenarioFeatureGates(const Scenario& scenario) {
  auto version = ScenarioSchedulerVersion(scenario);
  if (!version.ok()) return version.error();
  config::FeatureGates gates = config::DefaultFeatureGates(*version);
  // Scenarios are the reference harness's input: its gate registry.
  if (Status st = config::SetFeatureGatesFromMap(scenario.feature_gates, &gates,
                                                 config::GateRegistry::kReferenceHarness);
      !st.ok())
    return MakeError("featureGates: " + st.error().message);
  return gates;
}

Result<config::KubeSchedulerConfiguration> ScenarioSchedulerConfiguration(
    const Scenario& scenario, const config::FeatureGates& gates) {
  if (!scenario.config_json) return config::DefaultConfiguration(gates);
  return config::LoadConfiguration(*scenario.config_json, scenario.name + " (config)", gates);
}

Status RunFrameworkReplay(Scenario scenario, const FrameworkReplayOptions& options,
                          const FrameworkStepCallback& on_step,
                          const std::function<void()>& on_ready,
                          const std::function<void()>& on_done) {
  auto gates = ScenarioFeatureGates(scenario);
  if (!gates.ok()) return gates.error();
  auto cfg = ScenarioSchedulerConfiguration(scenario, *gates);
  if (!cfg.ok()) return cfg.error();
  auto extenders = MakeConfigExtenders(cfg->extenders);
  if (!extenders.ok()) return extenders.error();

  auto cluster = ClusterState::Build(std::move(scenario.cluster), nullptr,
                                     framework::FrameworkCacheOptions(*gates));
  if (!cluster.ok()) return cluster.error();

  framework::FrameworkOptions fw_options;
  fw_options.feature_gates = *gates;
  fw_options.parallelism = cfg->parallelism;
  framework::SchedulerOptions sched_options;
  sched_options.percentage_of_nodes_to_score = cfg->percentage_of_nodes_to_score;
  if (options.percentage_of_nodes_to_score)
    sched_options.percentage_of_nodes_to_score = *options.percentage_of_nodes_to_score;
  sched_options.host_selection = options.host_selection;
  sched_options.record_details = options.record_details;
  sched_options.reuse_node_results = options.reuse_node_results;
  auto scheduler =
      framework::Scheduler::New(*cfg, fw_options, sched_options, std::move(extenders).value());
  if (!scheduler.ok()) return scheduler.error();
  (*scheduler)->SetCluster(&*cluster);
  if (on_ready) on_ready();
  if (scenario.preemption) {
    RunFrameworkLoop(scheduler->get(), &*cluster, std::move(scenario.pending), on_step);
    if (on_done) on_done();
    return Status::Ok();
  }
  for (Pod& pod : scenario.pending) {
    if (HeldByPreEnqueue(scheduler->get(), pod, *cluster, on_step)) continue;
    // Each pod is done with once attempted: an assumed one is moved into
    // the cluster (copying it was a tenth of a cheap cycle) and read there.
    framework::CycleResult result = (*scheduler)->ScheduleOne(std::move(pod), &*cluster);
    const Pod& attempted = result.assumed ? cluster->pod(*result.assumed).pod : pod;
    if (on_step) on_step(attempted, result, *cluster, nullptr);
  }
  if (on_done) on_done();
  return Status::Ok();
}

}  // namespace ksched
