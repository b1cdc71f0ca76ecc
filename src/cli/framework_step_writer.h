// One v1.26 framework cycle as a step of ../shared/framework/README.md's
// expected format: pod, node, error, feasible, failures, failedPlugins and,
// when two or more nodes were feasible and one was chosen, scores, plugins,
// extenders and maxNodes. Keys of maps are sorted as strings, as the
// reference harness's Go encoder prints them.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "cache/cluster_state.h"
#include "cli/document_writer.h"
#include "framework/schedule_one.h"

namespace ksched {

// The whole step object; `extra_fields`, if set, writes fields after the
// standard ones (a loop scenario's preemption) before the object ends.
void WriteFrameworkStep(DocumentWriter* w, const Pod& pod, const framework::CycleResult& result,
                        const ClusterState& cluster,
                        const std::function<void(DocumentWriter*)>& extra_fields = nullptr);

// What the PostFilter plugins (DefaultPreemption) decided after a FitError,
// in the scheduler-loop mode: `nominated` with the node, the victims and the
// lower-priority pods whose nomination is cleared ("namespace/name", sorted);
// not `nominated` when no node was chosen.
struct FrameworkPreemption {
  bool nominated = false;
  std::string node;
  std::vector<std::string> victims;
  std::vector<std::string> nominated_pods_to_clear;
};

// The `preemption` field of a loop step: the object, or null when no node
// was nominated.
void WriteFrameworkPreemptionField(DocumentWriter* w, const FrameworkPreemption& preemption);

// The step as one line of compact JSON, without the newline.
std::string FrameworkStepToJson(const Pod& pod, const framework::CycleResult& result,
                                const ClusterState& cluster,
                                const FrameworkPreemption* preemption = nullptr);

}  // namespace ksched
