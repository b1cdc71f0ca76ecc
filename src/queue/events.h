// The cluster events the scheduler's handlers raise (upstream's
// internal/queue/events.go), by the labels metrics and logs use.
#pragma once

#include "framework/cluster_event.h"

namespace ksched::queue_events {

using framework::ClusterEvent;
using framework::EventResource;

inline const ClusterEvent kAssignedPodAdd{EventResource::kPod, framework::kAdd, "AssignedPodAdd"};
inline const ClusterEvent kAssignedPodUpdate{EventResource::kPod, framework::kUpdate,
                                             "AssignedPodUpdate"};
inline const ClusterEvent kAssignedPodDelete{EventResource::kPod, framework::kDelete,
                                             "AssignedPodDelete"};
inline const ClusterEvent kNodeAdd{EventResource::kNode, framework::kAdd, "NodeAdd"};
inline const ClusterEvent kNodeSpecUnschedulableChange{
    EventResource::kNode, framework::kUpdateNodeTaint, "NodeSpecUnschedulableChange"};
inline const ClusterEvent kNodeAllocatableChange{
    EventResource::kNode, framework::kUpdateNodeAllocatable, "NodeAllocatableChange"};
inline const ClusterEvent kNodeLabelChange{EventResource::kNode, framework::kUpdateNodeLabel,
                                           "NodeLabelChange"};
inline const ClusterEvent kNodeTaintChange{EventResource::kNode, framework::kUpdateNodeTaint,
                                           "NodeTaintChange"};
inline const ClusterEvent kNodeConditionChange{
    EventResource::kNode, framework::kUpdateNodeCondition, "NodeConditionChange"};
inline const ClusterEvent kWildCard{EventResource::kWildCard, framework::kAll, "WildCardEvent"};
inline const ClusterEvent kUnschedulableTimeout{EventResource::kWildCard, framework::kAll,
                                                "UnschedulableTimeout"};

// The queue's own moves, for scheduler_queue_incoming_pods_total.
inline constexpr const char* kPodAdd = "PodAdd";
inline constexpr const char* kScheduleAttemptFailure = "ScheduleAttemptFailure";
inline constexpr const char* kBackoffComplete = "BackoffComplete";

}  // namespace ksched::queue_events
