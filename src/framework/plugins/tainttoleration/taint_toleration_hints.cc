#include "framework/plugins/tainttoleration/taint_toleration_hints.h"

#include "framework/plugins/helper/hints.h"
#include "framework/plugins/helper/taint.h"

namespace ksched::framework::plugins {

std::vector<ClusterEventWithHint> TaintTolerationEventsToRegister() {
  return {
      {{EventResource::kNode, kAdd | kUpdateNodeTaint, ""}, TaintTolerationAfterNodeChange},
      {{EventResource::kPod, kUpdatePodToleration, ""}, TaintTolerationAfterPodTolerationChange},
  };
}

QueueingHint TaintTolerationAfterNodeChange(const Pod& pod, const EventObject& old_obj,
                                            const EventObject& new_obj) {
  const Node *original, *modified;
  if (!helper::As(old_obj, new_obj, &original, &modified) || modified == nullptr)
    return QueueingHint::kError;
  const bool was_untolerated = original == nullptr || helper::FindMatchingUntoleratedTaint(
                                                          original->taints, pod.spec.tolerations,
                                                          helper::DoNotScheduleTaint) != nullptr;
  const bool is_untolerated =
      helper::FindMatchingUntoleratedTaint(modified->taints, pod.spec.tolerations,
                                           helper::DoNotScheduleTaint) != nullptr;
  return helper::QueueIf(was_untolerated && !is_untolerated);
}

QueueingHint TaintTolerationAfterPodTolerationChange(const Pod& pod, const EventObject& old_obj,
                                                     const EventObject& new_obj) {
  const Pod *original, *modified;
  if (!helper::As(old_obj, new_obj, &original, &modified) || modified == nullptr)
    return QueueingHint::kError;
  return helper::QueueIf(modified->meta.uid == pod.meta.uid);
}

}  // namespace ksched::framework::plugins
