// Constructors of every predicate, one per upstream name. Each is defined in
// the file named after the predicate (e.g. pod_fits_resources.cc); the
// registry in algorithm/registry.cc maps upstream names onto them.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "predicates/predicate.h"

namespace ksched {

// Node state
std::unique_ptr<Predicate> NewCheckNodeConditionPredicate();       // CheckNodeCondition
std::unique_ptr<Predicate> NewCheckNodeUnschedulablePredicate();   // CheckNodeUnschedulable
std::unique_ptr<Predicate> NewCheckNodeMemoryPressurePredicate();  // CheckNodeMemoryPressure
std::unique_ptr<Predicate> NewCheckNodeDiskPressurePredicate();    // CheckNodeDiskPressure
std::unique_ptr<Predicate> NewCheckNodePIDPressurePredicate();     // CheckNodePIDPressure

// General
std::unique_ptr<Predicate> NewGeneralPredicates();  // GeneralPredicates
// Variants that skip extended resources an extender manages (ignoredByScheduler).
std::unique_ptr<Predicate> NewGeneralPredicatesIgnoring(std::vector<std::string> ignored);
std::unique_ptr<Predicate> NewPodFitsResourcesIgnoring(std::vector<std::string> ignored);
std::unique_ptr<Predicate> NewPodFitsResources();        // PodFitsResources
std::unique_ptr<Predicate> NewPodFitsHost();             // HostName
std::unique_ptr<Predicate> NewPodFitsHostPorts();        // PodFitsHostPorts (and PodFitsPorts)
std::unique_ptr<Predicate> NewPodMatchNodeSelector();    // MatchNodeSelector
std::unique_ptr<Predicate> NewPodToleratesNodeTaints();  // PodToleratesNodeTaints
std::unique_ptr<Predicate> NewPodToleratesNodeNoExecuteTaints();  // PodToleratesNodeNoExecuteTaints

// Policy-configured
std::unique_ptr<Predicate> NewNodeLabelPredicate(std::vector<std::string> labels,
                                                 bool presence);  // labelsPresence
std::unique_ptr<Predicate> NewServiceAffinityPredicate(
    std::vector<std::string> labels);  // serviceAffinity

// Volumes
std::unique_ptr<Predicate> NewNoDiskConflict();           // NoDiskConflict
std::unique_ptr<Predicate> NewNoVolumeZoneConflict();     // NoVolumeZoneConflict
std::unique_ptr<Predicate> NewMaxEBSVolumeCount();        // MaxEBSVolumeCount
std::unique_ptr<Predicate> NewMaxGCEPDVolumeCount();      // MaxGCEPDVolumeCount
std::unique_ptr<Predicate> NewMaxAzureDiskVolumeCount();  // MaxAzureDiskVolumeCount
std::unique_ptr<Predicate> NewMaxCinderVolumeCount();     // MaxCinderVolumeCount
std::unique_ptr<Predicate> NewMaxCSIVolumeCount();        // MaxCSIVolumeCountPred
std::unique_ptr<Predicate> NewCheckVolumeBinding();       // CheckVolumeBinding

// Inter-pod affinity
std::unique_ptr<Predicate> NewMatchInterPodAffinity();  // MatchInterPodAffinity
// The same predicate without the counts it keeps between cycles: every cycle
// walks every pod, as upstream does. For tests that compare the two.
std::unique_ptr<Predicate> NewMatchInterPodAffinityWalkingEveryPod();

}  // namespace ksched
