#include "preemption/preempt.h"

#include "api/priority_admission.h"
#include "preemption/nodes_where_preemption_might_help.h"
#include "preemption/pick_one_node_for_preemption.h"
#include "preemption/pod_eligible_to_preempt_others.h"
#include "preemption/process_preemption_with_extenders.h"

namespace ksched {
namespace {

// Upstream's getLowerPriorityNominatedPods.
std::vector<PreemptionResult::PodRef> LowerPriorityNominatedPods(const Pod& pod,
                                                                 const ClusterState& cluster,
                                                                 const NominatedPods* nominated,
                                                                 NodeId node) {
  std::vector<PreemptionResult::PodRef> out;
  if (nominated == nullptr) return out;
  const int32_t priority = PodPriority(pod);
  for (const NominatedPods::Entry& e : nominated->ForNode(cluster.node(node).meta.name)) {
    if (e.priority < priority) out.push_back({e.uid, cluster.pod(e.pod).pod.Key()});
  }
  return out;
}

}  // namespace

PreemptionResult Preempt(const Pod& pod, const ScheduleResult& fit_error,
                         const ClusterState& cluster, const SchedulerConfig& config,
                         const NominatedPods* nominated,
                         const std::vector<PodDisruptionBudget>& pdbs,
                         const PreemptOptions& options) {
  PreemptionResult result;
  if (!fit_error.fit_error) return result;  // only a FitError may preempt
  if (!PodEligibleToPreemptOthers(pod, cluster)) {
    result.eligible = false;
    return result;
  }
  if (cluster.num_nodes() == 0) {
    result.error = "no nodes available to schedule pods";
    return result;
  }
  std::vector<NodeId> potential = NodesWherePreemptionMightHelp(cluster, fit_error.failures);
  if (options.record_details) {
    result.candidates.resize(cluster.num_nodes());
    for (NodeId n = 0; n < cluster.num_nodes(); ++n) result.candidates[n].node = n;
  }
  if (potential.empty()) {
    result.nominated_pods_to_clear.push_back({pod.meta.uid, pod.Key()});
    return result;
  }

  // Upstream's selectNodesForPreemption: fresh metadata for the pod, then
  // each potential node on its own copy.
  PodInfo info = MakePodInfo(pod);
  PodToSchedule target;
  target.info = &info;
  target.request = PodRequestToSchedule(pod);
  auto predicates = CyclePredicates::Prepare(config, target, cluster);
  if (!predicates.ok()) {
    result.error = predicates.error().message;
    return result;
  }
  predicates->PrepareCopies();
  CycleNominations nominations(nominated, pod, cluster);
  std::vector<std::pair<NodeId, Victims>> candidates;
  for (NodeId n : potential) {
    Victims v;
    const bool fits = SelectVictimsOnNode(*predicates, cluster.node_info(n), nominations, pdbs, &v);
    if (options.record_details) {
      PreemptionCandidate& c = result.candidates[n];
      c.verdict = fits ? PreemptionCandidate::Verdict::kCandidate
                       : PreemptionCandidate::Verdict::kDoesNotFit;
      if (fits) c.victims = v;
    }
    if (fits) candidates.emplace_back(n, std::move(v));
  }
  if (Status s = ProcessPreemptionWithExtenders(pod, cluster, config.extenders, &candidates);
      !s.ok()) {
    result.error = s.error().message;
    return result;
  }
  NodeId chosen = PickOneNodeForPreemption(cluster, candidates);
  if (chosen == kNoNode) return result;
  for (auto& [n, v] : candidates) {
    if (n != chosen) continue;
    result.victims = std::move(v.pods);
    result.num_pdb_violations = v.num_pdb_violations;
  }
  result.node = chosen;
  result.nominated_pods_to_clear = LowerPriorityNominatedPods(pod, cluster, nominated, chosen);
  return result;
}

}  // namespace ksched
