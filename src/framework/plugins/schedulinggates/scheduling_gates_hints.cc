#include "framework/plugins/schedulinggates/scheduling_gates_hints.h"

#include "framework/plugins/helper/hints.h"

namespace ksched::framework::plugins {

std::vector<ClusterEventWithHint> SchedulingGatesEventsToRegister() {
  return {{{EventResource::kPod, kUpdatePodSchedulingGatesEliminated, ""},
           SchedulingGatesAfterGatesEliminated}};
}

QueueingHint SchedulingGatesAfterGatesEliminated(const Pod& pod, const EventObject& old_obj,
                                                 const EventObject& new_obj) {
  const Pod *original, *modified;
  if (!helper::As(old_obj, new_obj, &original, &modified) || modified == nullptr)
    return QueueingHint::kError;
  return helper::QueueIf(modified->meta.uid == pod.meta.uid);
}

}  // namespace ksched::framework::plugins
