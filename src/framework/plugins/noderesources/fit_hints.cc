#include "framework/plugins/noderesources/fit_hints.h"

#include "cache/resource.h"
#include "framework/plugins/helper/hints.h"
#include "framework/plugins/noderesources/fit.h"

namespace ksched::framework::noderesources {
namespace {

// computePodResourceRequest of a pending pod (no status resources).
Resource PendingPodRequest(const FitHintOptions& options, const Pod& pod) {
  return PodRequestV135(
      pod, PodRequestOptions{/*use_status_resources=*/false, options.pod_level_resources});
}

Resource NodeAllocatable(const Node& node) {
  Resource r;
  r.Add(node.allocatable);
  return r;
}

// isFit: the pod fits the node with no pod on it.
bool FitsEmptyNode(const Resource& request, const Resource& alloc) {
  if (alloc.allowed_pod_number < 1) return false;
  if (request.milli_cpu > 0 && request.milli_cpu > alloc.milli_cpu) return false;
  if (request.memory > 0 && request.memory > alloc.memory) return false;
  if (request.ephemeral_storage > 0 && request.ephemeral_storage > alloc.ephemeral_storage)
    return false;
  for (const auto& [name, quantity] : request.scalars)
    if (quantity != 0 && quantity > alloc.Scalar(name)) return false;
  return true;
}

// haveAnyRequestedResourcesIncreased.
bool RequestedResourcesIncreased(const Resource& request, const Resource& before,
                                 const Resource& after) {
  if (after.allowed_pod_number > before.allowed_pod_number) return true;
  if (request.milli_cpu == 0 && request.memory == 0 && request.ephemeral_storage == 0 &&
      request.scalars.empty())
    return false;
  if ((request.milli_cpu > 0 && after.milli_cpu > before.milli_cpu) ||
      (request.memory > 0 && after.memory > before.memory) ||
      (request.ephemeral_storage > 0 && after.ephemeral_storage > before.ephemeral_storage))
    return true;
  for (const auto& [name, quantity] : request.scalars)
    if (quantity != 0 && after.Scalar(name) > before.Scalar(name)) return true;
  return false;
}

// isSchedulableAfterPodScaleDown.
bool ScaleDownHelps(const FitHintOptions& options, const Pod& target, const Pod& original,
                    const Pod& modified) {
  if (modified.meta.uid == target.meta.uid) return true;
  if (modified.spec.node_name.empty()) return false;
  const PodRequestOptions bound{options.in_place_pod_vertical_scaling, options.pod_level_resources};
  const Resource before = PodRequestV135(original, bound);
  const Resource after = PodRequestV135(modified, bound);
  const ResourceNames& rn = ResourceNames::Get();
  for (const ResourceQuantity& q : PodRequestsV135(target, bound)) {
    if (q.value == 0 && q.milli == 0) continue;
    if (q.name == rn.cpu) {
      if (before.milli_cpu > after.milli_cpu) return true;
    } else if (q.name == rn.memory) {
      if (before.memory > after.memory) return true;
    } else if (q.name == rn.ephemeral_storage) {
      if (before.ephemeral_storage > after.ephemeral_storage) return true;
    } else if (IsScalarResourceName(q.name) && before.Scalar(q.name) > after.Scalar(q.name)) {
      return true;
    }
  }
  return false;
}

}  // namespace

std::vector<ClusterEventWithHint> Fit::EventsToRegisterWithHints() const {
  return FitEventsToRegister(hint_options_);
}

std::vector<ClusterEventWithHint> FitEventsToRegister(const FitHintOptions& options) {
  uint32_t pod_actions = kDelete;
  // A resize in place (KEP 1287) can free room too.
  if (options.in_place_pod_vertical_scaling) pod_actions |= kUpdatePodScaleDown;
  auto pod_hint = [options](const Pod& pod, const EventObject& o, const EventObject& n) {
    return FitAfterPodEvent(options, pod, o, n);
  };
  auto node_hint = [options](const Pod& pod, const EventObject& o, const EventObject& n) {
    return FitAfterNodeChange(options, pod, o, n);
  };
  // Without preCheck (QueueingHints) only Add and allocatable changes matter.
  return {
      {{EventResource::kPod, pod_actions, ""}, pod_hint},
      {{EventResource::kNode, kAdd | kUpdateNodeAllocatable, ""}, node_hint},
  };
}

QueueingHint FitAfterPodEvent(const FitHintOptions& options, const Pod& pod,
                              const EventObject& old_obj, const EventObject& new_obj) {
  const Pod *original, *modified;
  if (!helper::As(old_obj, new_obj, &original, &modified) || original == nullptr)
    return QueueingHint::kError;
  if (modified == nullptr) {  // deleted
    return helper::QueueIf(!original->spec.node_name.empty() ||
                           !original->nominated_node_name.empty());
  }
  if (!options.in_place_pod_vertical_scaling) return QueueingHint::kQueueSkip;
  return helper::QueueIf(ScaleDownHelps(options, pod, *original, *modified));
}

QueueingHint FitAfterNodeChange(const FitHintOptions& options, const Pod& pod,
                                const EventObject& old_obj, const EventObject& new_obj) {
  const Node *original, *modified;
  if (!helper::As(old_obj, new_obj, &original, &modified) || modified == nullptr)
    return QueueingHint::kError;
  const Resource request = PendingPodRequest(options, pod);
  const Resource after = NodeAllocatable(*modified);
  if (!FitsEmptyNode(request, after)) return QueueingHint::kQueueSkip;
  if (original == nullptr) return QueueingHint::kQueue;
  return helper::QueueIf(RequestedResourcesIncreased(request, NodeAllocatable(*original), after));
}

}  // namespace ksched::framework::noderesources
