// One scheduling cycle as a step of the conformance format
// (../shared/conformance/README.md), written field by field to a
// DocumentWriter: `replay` streams steps as JSON lines, `schedule -o json|yaml`
// as the items of one list.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "algorithm/generic_scheduler.h"
#include "engine/engine.h"
#include "cache/cluster_state.h"
#include "cli/document_writer.h"
#include "preemption/preempt.h"

namespace ksched {

// Writes a step's fields into an object the caller has begun: pod, node,
// error (only when no node was chosen), feasible, failures and, when the
// cycle scored nodes, scores, priorities and maxNodes. Names are sorted as
// strings, as upstream's harness prints them. The caller may add fields after
// these (a loop scenario's preemption, `schedule`'s score) before ending the
// object.
void WriteStepFields(DocumentWriter* w, const Pod& pod, const ScheduleResult& result,
                     const ClusterState& cluster, const ScoreColumns& config);

// The whole step object; `extra_fields`, if set, writes fields after the
// standard ones.
void WriteStep(DocumentWriter* w, const Pod& pod, const ScheduleResult& result,
               const ClusterState& cluster, const ScoreColumns& config,
               const std::function<void(DocumentWriter*)>& extra_fields = nullptr);

// A loop scenario's `preemption` field (../shared/preemption/README.md): the
// node, victims and nominated pods to clear, or null when Preempt chose no
// node. Victims are named from `cluster`, which must still hold them.
void WritePreemptionField(DocumentWriter* w, const PreemptionResult& preemption,
                          const ClusterState& cluster);

// The step as one line of compact JSON, without the newline; with the
// `preemption` field when `preemption` is given.
std::string StepToJson(const Pod& pod, const ScheduleResult& result, const ClusterState& cluster,
                       const ScoreColumns& config, const PreemptionResult* preemption = nullptr);

// Indices into result.failures in node-name order (how reports list them).
std::vector<size_t> FailuresByNodeName(const ScheduleResult& result, const ClusterState& cluster);

}  // namespace ksched
