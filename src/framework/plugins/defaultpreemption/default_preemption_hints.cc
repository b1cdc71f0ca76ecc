#include "framework/plugins/defaultpreemption/default_preemption_hints.h"

namespace ksched::framework::plugins {

DefaultPreemptionV135::DefaultPreemptionV135(config::DefaultPreemptionArgs args, Handle* handle)
    : DefaultPreemption(args, handle),
      handle_(handle),
      async_(handle->feature_gates().scheduler_async_preemption) {}

Status DefaultPreemptionV135::PreEnqueue(const Pod& pod) {
  if (!async_) return Status::Success();
  const AsyncPreemptions* running = handle_->async_preemptions();
  if (running != nullptr && running->IsPodRunningPreemption(pod.meta.uid))
    return Status::Unresolvable("waiting for the preemption for this pod to be finished");
  return Status::Success();
}

std::vector<ClusterEventWithHint> DefaultPreemptionV135::EventsToRegisterWithHints() const {
  if (!async_) return {};
  return {
      {{EventResource::kPod, kDelete, ""}, [](const Pod&, const EventObject&, const EventObject&) {
         return QueueingHint::kQueueSkip;
       }}};
}

}  // namespace ksched::framework::plugins
