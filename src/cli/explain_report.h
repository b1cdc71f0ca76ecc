// `schedule --explain`: one pod's verdict on every node, as a table that fits
// the terminal or as a JSON/YAML document; and the per-node causes that
// `schedule -o json|yaml` adds beside upstream's reasons.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "algorithm/generic_scheduler.h"
#include "cache/cluster_state.h"
#include "cache/nominated_pods.h"
#include "cli/document_writer.h"
#include "engine/engine.h"
#include "explain/cause.h"
#include "preemption/preempt.h"

namespace ksched {

// One attempt of one pod, as the reports show it.
struct Decision {
  Pod pod;
  ScheduleResult result;
  int64_t score = 0;  // total of the chosen node, when scored
  std::optional<PreemptionResult> preemption;
};

// The causes of each failing node, parallel to result.failures. Call while
// the cluster (and nominated pods) are as the cycle saw them.
std::vector<std::vector<explain::Cause>> ExplainFailures(const Pod& pod,
                                                         const ScheduleResult& result,
                                                         const ClusterState& cluster,
                                                         const NominatedPods* nominated);

// "ns/a, ns/b".
std::string PodNames(const ClusterState& cluster, const std::vector<PodId>& pods);

// The --explain table, lines cut to `width` columns (long reasons wrapped).
std::string ExplainTable(const Decision& d, const std::vector<std::vector<explain::Cause>>& causes,
                         const ClusterState& cluster, const ScoreColumns& config, size_t width);

// The --explain document (-o json|yaml): one object; `extra_fields`, if
// set, writes fields after the standard ones.
void WriteExplain(DocumentWriter* w, const Decision& d,
                  const std::vector<std::vector<explain::Cause>>& causes,
                  const ClusterState& cluster, const ScoreColumns& config,
                  const std::function<void(DocumentWriter*)>& extra_fields = nullptr);

// `"causes": {node: [cause, ...]}` for the failing nodes, by node name; the
// key and value are written into the caller's open object.
void WriteCausesField(DocumentWriter* w, const ScheduleResult& result,
                      const std::vector<std::vector<explain::Cause>>& causes,
                      const ClusterState& cluster);

}  // namespace ksched
