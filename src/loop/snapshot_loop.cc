#include "loop/snapshot_loop.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "api/priority_admission.h"
#include "dra/release_claims.h"

namespace ksched {

bool QueueLess(int32_t priority_a, size_t arrival_a, int32_t priority_b, size_t arrival_b) {
  if (priority_a != priority_b) return priority_a > priority_b;
  return arrival_a < arrival_b;
}

SnapshotLoop::SnapshotLoop(Engine* engine, ClusterState* cluster, NodeTree* tree,
                           LoopOptions options)
    : engine_(engine), cluster_(cluster), tree_(tree), options_(options) {}

void SnapshotLoop::Run(std::vector<Pod> pending,
                       const std::function<void(const Attempt&)>& on_attempt) {
  std::unordered_map<std::string, size_t> by_uid;
  for (size_t i = 0; i < pending.size(); ++i) {
    by_uid.emplace(pending[i].meta.uid, i);
    if (!pending[i].nominated_node_name.empty()) {
      nominated_.Add(cluster_, pending[i], pending[i].nominated_node_name);
    }
  }
  std::vector<size_t> order(pending.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return QueueLess(PodPriority(pending[a]), a, PodPriority(pending[b]), b);
  });

  for (size_t next = 0; next < order.size(); ++next) {
    const size_t i = order[next];
    for (int number = 1; number <= 2; ++number) {
      Pod& pod = pending[i];
      Attempt a;
      a.pod = &pod;
      a.index = i;
      a.number = number;
      a.result = engine_->Schedule(pod, *cluster_, tree_, options_.record_details,
                                   options_.preemption ? &nominated_ : nullptr);
      if (a.result.chosen != kNoNode) {
        on_attempt(a);
        nominated_.Remove(cluster_, pod.meta.uid);
        engine_->Assume(pod, a.result.chosen, cluster_);
        break;
      }
      if (!options_.preemption || !a.result.fit_error) {
        on_attempt(a);
        if (engine_->FailureClearsNomination() && !pod.nominated_node_name.empty()) {
          nominated_.Remove(cluster_, pod.meta.uid);
          pod.nominated_node_name.clear();
        }
        break;
      }
      PreemptOptions popts;
      popts.record_details = options_.record_preemption_details;
      std::string post_filter_message;
      a.preemption =
          engine_->Preempt(pod, a.result, *cluster_, &nominated_, popts, &post_filter_message);
      a.result.error = engine_->WithPostFilterMessage(a.result.error, post_filter_message);
      on_attempt(a);
      engine_->ApplyPostFilterWrites(pod, cluster_);
      const PreemptionResult& p = *a.preemption;
      const bool chose = p.error.empty() && p.node != kNoNode;
      if (chose) {
        pod.nominated_node_name = cluster_->node(p.node).meta.name;
        nominated_.Add(cluster_, pod, pod.nominated_node_name);
        std::unordered_set<std::string> gone;
        for (PodId victim : p.victims) {
          gone.insert(cluster_->pod(victim).pod.meta.uid);
          cluster_->RemovePod(victim);
        }
        // The victims' claims, as the resourceclaim controller and the
        // garbage collector release them.
        dra::ReleaseClaimsOfDeletedPods(cluster_->mutable_dra(), gone);
      }
      for (const PreemptionResult::PodRef& ref : p.nominated_pods_to_clear) {
        auto it = by_uid.find(ref.uid);
        if (it == by_uid.end() || pending[it->second].nominated_node_name.empty()) continue;
        nominated_.Remove(cluster_, ref.uid);
        pending[it->second].nominated_node_name.clear();
      }
      if (!chose) break;  // only a pod whose first attempt preempted retries
    }
  }
}

}  // namespace ksched
