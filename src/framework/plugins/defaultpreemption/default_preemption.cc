#include "framework/plugins/defaultpreemption/default_preemption.h"

#include <algorithm>

#include "api/priority_admission.h"
#include "framework/plugins/defaultpreemption/default_preemption_hints.h"
#include "framework/plugins/names/names.h"
#include "framework/plugins/registry_factories.h"
#include "labels/label_selector.h"

namespace ksched::framework::plugins {

std::string_view DefaultPreemption::Name() const { return names::kDefaultPreemption; }

Status DefaultPreemption::PostFilter(CycleState* state, const Pod& pod,
                                     const NodeToStatusMap& filtered, PostFilterResult* result) {
  preemption::Evaluator evaluator(names::kDefaultPreemption, handle_, state, this);
  Status status = evaluator.Preempt(pod, filtered, result);
  if (status.Message().empty()) return status;
  Status prefixed(status.code(), "preemption: " + status.Message());
  return prefixed;
}

config::SchedulerVersion DefaultPreemption::version() const {
  return handle_ != nullptr ? handle_->feature_gates().version : config::SchedulerVersion::kV126;
}

int32_t DefaultPreemption::CalculateNumCandidates(int32_t num_nodes) const {
  int32_t n = num_nodes * args_.min_candidate_nodes_percentage / 100;
  n = std::max(n, args_.min_candidate_nodes_absolute);
  return std::min(n, num_nodes);
}

std::pair<int32_t, int32_t> DefaultPreemption::GetOffsetAndNumCandidates(int32_t num_nodes) const {
  // Upstream starts at a random node; the vectors (and ksched, for runs that
  // repeat) start at the first.
  return {0, CalculateNumCandidates(num_nodes)};
}

bool DefaultPreemption::PodEligibleToPreemptOthers(const Pod& pod, const Status* nominated_status,
                                                   std::string* message) const {
  if (pod.spec.preemption_policy == "Never") {
    *message = "not eligible due to preemptionPolicy=Never.";
    return false;
  }
  if (pod.nominated_node_name.empty()) return true;
  const bool v135 = version() >= config::SchedulerVersion::kV135;
  // A nominated node the filters now call unresolvable is worth preempting
  // elsewhere again. v1.35 reads the node's status from NodeToStatus, where
  // a node without one has the absent status (UnschedulableAndUnresolvable
  // unless PreFilter said otherwise).
  if (v135 && nominated_status == nullptr) return true;
  if (nominated_status && nominated_status->code() == Code::kUnschedulableAndUnresolvable)
    return true;
  const ClusterState& cluster = handle_->cluster();
  const NodeId nominated = cluster.FindNode(pod.nominated_node_name);
  if (nominated == kNoNode) return true;
  const int32_t priority = PodPriority(pod);
  for (PodId id : cluster.node_info(nominated).pods) {
    const PodInfo& p = cluster.pod(id);
    if (PodPriority(p.pod) >= priority) continue;
    // v1.26 waits for any terminating lower-priority pod; v1.35 only for one
    // that preemption is terminating.
    if (v135 ? PodTerminatingByPreemption(p) : p.terminating) {
      *message = "not eligible due to a terminating pod on the nominated node.";
      return false;
    }
  }
  return true;
}

Status DefaultPreemption::SelectVictimsOnNode(CycleState* state, const Pod& pod, NodeInfo* node,
                                              const std::vector<PodDisruptionBudget>& pdbs,
                                              std::vector<PodId>* victims,
                                              int* num_violating) const {
  const ClusterState& cluster = handle_->cluster();
  auto remove = [&](PodId id) {
    node->RemovePod(id, cluster.pod(id));
    return handle_->RunPreFilterExtensionRemovePod(state, pod, cluster.pod(id), *node);
  };
  auto add = [&](PodId id) {
    node->AddPod(id, cluster.pod(id));
    return handle_->RunPreFilterExtensionAddPod(state, pod, cluster.pod(id), *node);
  };

  // First remove every lower-priority pod and see whether the pod fits.
  const int32_t priority = PodPriority(pod);
  std::vector<PodId> potential;
  for (PodId id : node->pods)
    if (PodPriority(cluster.pod(id).pod) < priority) potential.push_back(id);
  for (PodId id : potential) {
    Status s = remove(id);
    if (!s.IsSuccess()) return Status::Error(s.Message());
  }
  if (potential.empty())
    return Status(Code::kUnschedulableAndUnresolvable,
                  "No preemption victims found for incoming pod");
  Status fits = handle_->RunFilterPluginsWithNominatedPods(*state, pod, *node);
  if (!fits.IsSuccess()) return fits;

  // Then put back as many as possible, most important first, pods that a
  // budget protects before the others.
  const config::SchedulerVersion v = version();
  std::sort(potential.begin(), potential.end(), [&](PodId a, PodId b) {
    return preemption::MoreImportantPodByName(cluster.pod(a).pod, cluster.pod(b).pod, v);
  });
  std::vector<PodId> violating, non_violating;
  FilterPodsWithPDBViolation(cluster, potential, pdbs, &violating, &non_violating);
  victims->clear();
  *num_violating = 0;
  auto reprieve = [&](PodId id, bool* fit) -> Status {
    Status s = add(id);
    if (!s.IsSuccess()) return Status::Error(s.Message());
    *fit = handle_->RunFilterPluginsWithNominatedPods(*state, pod, *node).IsSuccess();
    if (!*fit) {
      s = remove(id);
      if (!s.IsSuccess()) return Status::Error(s.Message());
      victims->push_back(id);
    }
    return Status::Success();
  };
  for (PodId id : violating) {
    bool fit = false;
    if (Status s = reprieve(id, &fit); !s.IsSuccess()) return s;
    if (!fit) ++*num_violating;
  }
  for (PodId id : non_violating) {
    bool fit = false;
    if (Status s = reprieve(id, &fit); !s.IsSuccess()) return s;
  }
  // v1.35 sorts the victims again when both groups had pods, so that the
  // first is the most important (pickOneNodeForPreemption reads its
  // priority); v1.26 keeps the budget-violating ones first. Upstream's
  // sort.Slice (no name tie-break here) is an insertion sort up to 12 pods,
  // stable like this one; beyond that only the order of equal pods could
  // differ, and the first victim's priority stays the same.
  if (v >= config::SchedulerVersion::kV135 && !violating.empty() && !non_violating.empty()) {
    std::stable_sort(victims->begin(), victims->end(), [&](PodId a, PodId b) {
      return preemption::MoreImportantPod(cluster.pod(a).pod, cluster.pod(b).pod, v);
    });
  }
  return Status::Success();
}

bool PodTerminatingByPreemption(const PodInfo& pod) {
  if (!pod.terminating) return false;
  for (const PodCondition& c : pod.pod.conditions) {
    if (c.type != "DisruptionTarget") continue;
    // The first DisruptionTarget condition decides.
    return c.status == "True" && c.reason == "PreemptionByScheduler";
  }
  return false;
}

void FilterPodsWithPDBViolation(const ClusterState& cluster, const std::vector<PodId>& pods,
                                const std::vector<PodDisruptionBudget>& pdbs,
                                std::vector<PodId>* violating, std::vector<PodId>* non_violating) {
  // Compile each budget's selector once; an invalid or empty one matches
  // nothing.
  std::vector<std::optional<labels::Selector>> selectors;
  std::vector<int32_t> allowed;
  for (const PodDisruptionBudget& pdb : pdbs) {
    std::optional<labels::Selector> sel;
    if (pdb.selector) {
      Result<labels::Selector> s = labels::FromLabelSelector(pdb.selector);
      if (s.ok() && !s->Empty()) sel = std::move(s).value();
    }
    selectors.push_back(std::move(sel));
    allowed.push_back(pdb.disruptions_allowed);
  }
  for (PodId id : pods) {
    const Pod& pod = cluster.pod(id).pod;
    bool violated = false;
    if (!pod.meta.labels.empty()) {
      for (size_t i = 0; i < pdbs.size(); ++i) {
        if (pdbs[i].meta.ns != pod.meta.ns || !selectors[i]) continue;
        if (!selectors[i]->Matches(pod.meta.labels)) continue;
        if (--allowed[i] < 0) violated = true;
      }
    }
    (violated ? violating : non_violating)->push_back(id);
  }
}

std::unique_ptr<Plugin> NewDefaultPreemption(const config::PluginArgs& args, Handle* handle,
                                             Status* error) {
  config::DefaultPreemptionArgs a;
  if (const auto* given = std::get_if<config::DefaultPreemptionArgs>(&args)) {
    a = *given;
  } else if (!std::holds_alternative<std::monostate>(args)) {
    *error = Status::Error("got args of the wrong type, want DefaultPreemptionArgs");
    return nullptr;
  }
  // v1.35's plugin is also a PreEnqueue plugin (asynchronous preemption).
  if (handle != nullptr && handle->feature_gates().AtLeast(config::SchedulerVersion::kV135))
    return std::make_unique<DefaultPreemptionV135>(a, handle);
  return std::make_unique<DefaultPreemption>(a, handle);
}

}  // namespace ksched::framework::plugins
