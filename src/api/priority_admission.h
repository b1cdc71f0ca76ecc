// What the Priority admission plugin of an API server does to a pod before
// any scheduler sees it: spec.priority comes from the pod's PriorityClass
// (or the cluster's globalDefault class, else 0), and since v1.19 the
// class's preemptionPolicy too.
//
// Snapshot pods were admitted already and carry spec.priority; hand-written
// pods (--pending, capacity templates) usually carry only a class name. Both
// go through here: a pod that already has a priority keeps it.
#pragma once

#include <string_view>
#include <vector>

#include "api/types.h"
#include "util/result.h"

namespace ksched {

// The built-in classes every v1.15 cluster has, whether or not a snapshot
// lists them.
inline constexpr std::string_view kSystemClusterCritical = "system-cluster-critical";
inline constexpr std::string_view kSystemNodeCritical = "system-node-critical";
inline constexpr int32_t kSystemClusterCriticalValue = 2000000000;
inline constexpr int32_t kSystemNodeCriticalValue = 2000001000;

// Sets spec.priority (and, for the global default, spec.priorityClassName) on
// every pod of `pods` that has no priority yet, as the admission plugin would.
// A class name that is neither in `classes` nor built in is an error naming
// the pod (`source` names where it came from, e.g. the file), as admission
// rejects such a pod.
Status ApplyPriorityClasses(const std::vector<PriorityClass>& classes, std::vector<Pod>* pods,
                            std::string_view source);

// The priority the scheduler uses: spec.priority, or 0 when absent
// (upstream's util.GetPodPriority).
inline int32_t PodPriority(const Pod& pod) { return pod.spec.priority.value_or(0); }

}  // namespace ksched
