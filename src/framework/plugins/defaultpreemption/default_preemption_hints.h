// DefaultPreemption as kube-scheduler v1.35 builds it: besides PostFilter,
// a PreEnqueue plugin that holds a pod back while the preemption it started
// is still deleting victims (SchedulerAsyncPreemption, beta, on), and the
// event that can release it.
#pragma once

#include <vector>

#include "framework/plugins/defaultpreemption/default_preemption.h"

namespace ksched::framework::plugins {

class DefaultPreemptionV135 final : public DefaultPreemption,
                                    public PreEnqueuePlugin,
                                    public EnqueueExtensions {
 public:
  DefaultPreemptionV135(config::DefaultPreemptionArgs args, Handle* handle);

  // UnschedulableAndUnresolvable "waiting for the preemption for this pod to
  // be finished" while Handle::async_preemptions() says so.
  Status PreEnqueue(const Pod& pod) override;
  // None (v1.26 had no such plugin; never used with v1.26).
  std::vector<ClusterEvent> EventsToRegister() const override { return {}; }
  // With asynchronous preemption: Pod/Delete, whose hint always skips (the
  // plugins that rejected the pod decide when it moves; this registration
  // only lets a pod it holds back be looked at again). Without: none.
  std::vector<ClusterEventWithHint> EventsToRegisterWithHints() const override;

 private:
  Handle* handle_;
  bool async_;
};

}  // namespace ksched::framework::plugins
