#include "framework/plugins/nodeunschedulable/node_unschedulable_hints.h"

#include "api/intern.h"
#include "framework/plugins/helper/hints.h"
#include "predicates/tolerations.h"

namespace ksched::framework::plugins {

std::vector<ClusterEventWithHint> NodeUnschedulableEventsToRegister() {
  // With QueueingHints there is no preCheck, so no UpdateNodeLabel.
  return {
      {{EventResource::kNode, kAdd | kUpdateNodeTaint, ""}, NodeUnschedulableAfterNodeChange},
      {{EventResource::kPod, kUpdatePodToleration, ""}, NodeUnschedulableAfterPodTolerationChange},
  };
}

QueueingHint NodeUnschedulableAfterNodeChange(const Pod&, const EventObject& old_obj,
                                              const EventObject& new_obj) {
  const Node *original, *modified;
  if (!helper::As(old_obj, new_obj, &original, &modified) || modified == nullptr)
    return QueueingHint::kError;
  return helper::QueueIf(
      (original != nullptr && original->unschedulable && !modified->unschedulable) ||
      (original == nullptr && !modified->unschedulable));
}

QueueingHint NodeUnschedulableAfterPodTolerationChange(const Pod& pod, const EventObject& old_obj,
                                                       const EventObject& new_obj) {
  const Pod *original, *modified;
  if (!helper::As(old_obj, new_obj, &original, &modified) || modified == nullptr)
    return QueueingHint::kError;
  if (modified->meta.uid != pod.meta.uid) return QueueingHint::kQueueSkip;
  Taint unschedulable;
  unschedulable.key = Intern("node.kubernetes.io/unschedulable");
  unschedulable.effect = TaintEffect::kNoSchedule;
  unschedulable.effect_str = "NoSchedule";
  return helper::QueueIf(TolerationsTolerateTaint(modified->spec.tolerations, unschedulable));
}

}  // namespace ksched::framework::plugins
