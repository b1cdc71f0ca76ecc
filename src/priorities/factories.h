// Constructors of every priority, one per upstream name. Each is defined in
// the file named after the priority (e.g. least_requested.cc); the registry
// in algorithm/registry.cc maps upstream names onto them.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "priorities/priority.h"

namespace ksched {

std::unique_ptr<Priority> NewSelectorSpreadPriority();    // SelectorSpreadPriority
std::unique_ptr<Priority> NewServiceSpreadingPriority();  // ServiceSpreadingPriority
std::unique_ptr<Priority> NewInterPodAffinityPriority(int hard_pod_affinity_weight);
// The same priority without the weights it keeps between cycles (every cycle
// walks every pod, as upstream does). For tests that compare the two.
std::unique_ptr<Priority> NewInterPodAffinityPriorityWalkingEveryPod(int hard_pod_affinity_weight);
std::unique_ptr<Priority> NewLeastRequestedPriority();      // LeastRequestedPriority
std::unique_ptr<Priority> NewMostRequestedPriority();       // MostRequestedPriority
std::unique_ptr<Priority> NewBalancedResourceAllocation();  // BalancedResourceAllocation
// RequestedToCapacityRatioPriority: `shape` is (utilization 0..100, score 0..10)
// points; empty means upstream's default shape {(0,10),(100,0)}.
std::unique_ptr<Priority> NewRequestedToCapacityRatioPriority(
    std::vector<std::pair<int64_t, int64_t>> shape);
std::unique_ptr<Priority> NewNodePreferAvoidPodsPriority();  // NodePreferAvoidPodsPriority
std::unique_ptr<Priority> NewNodeAffinityPriority();         // NodeAffinityPriority
std::unique_ptr<Priority> NewTaintTolerationPriority();      // TaintTolerationPriority
std::unique_ptr<Priority> NewImageLocalityPriority();        // ImageLocalityPriority
std::unique_ptr<Priority> NewEqualPriority();                // EqualPriority
std::unique_ptr<Priority> NewResourceLimitsPriority();       // ResourceLimitsPriority
std::unique_ptr<Priority> NewServiceAntiAffinityPriority(std::string label);  // serviceAntiAffinity
std::unique_ptr<Priority> NewNodeLabelPriority(std::string label,
                                               bool presence);  // labelPreference

}  // namespace ksched
