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
#include "planning/html_report.h"
#include "preemption/preempt.h"

namespace ksched {

// What v1.26's PreFilter plugins decided before any node was filtered.
struct PreFilterVerdict {
  // A plugin that rejected the whole pod (then no node has a verdict), its
  // message and the causes behind it; "" when none did.
  std::string plugin;
  std::string message;
  std::vector<explain::Cause> causes;
  // Set when a PreFilter plugin (NodeAffinity) named the only nodes worth
  // filtering: those nodes, by name, and `narrowed_by` the plugin.
  std::optional<std::vector<std::string>> nodes;
  std::string narrowed_by;
  // The nodes so left out, by name, each with the requirement it fails
  // (filled for --explain only: a cluster may have thousands).
  std::vector<std::pair<NodeId, std::vector<explain::Cause>>> left_out;
};

// One attempt of one pod, as the reports show it.
struct Decision {
  Pod pod;
  ScheduleResult result;
  int64_t score = 0;  // total of the chosen node, when scored
  std::optional<PreemptionResult> preemption;
  // Decided by the v1.26 framework: nodes fail in plugins (failedPlugin),
  // scores are weighted per plugin.
  bool framework = false;
  std::optional<PreFilterVerdict> pre_filter;  // v1.26, when PreFilter rejected or narrowed
};

// The causes of each failing node, parallel to result.failures. Call while
// the cluster (and nominated pods) are as the cycle saw them; `cycle` is the
// v1.26 framework's record of the same cycle (Engine::LastCycle()), nullptr
// for v1.15.
std::vector<std::vector<explain::Cause>> ExplainFailures(
    const Pod& pod, const ScheduleResult& result, const ClusterState& cluster,
    const NominatedPods* nominated, const framework::CycleResult* cycle = nullptr);

// The PreFilter verdict of a v1.26 cycle, or nullopt when PreFilter let
// every node through. `left_out`: also explain each node it left out.
std::optional<PreFilterVerdict> ExplainPreFilter(const Pod& pod,
                                                 const framework::CycleResult& cycle,
                                                 const ScheduleResult& result,
                                                 const ClusterState& cluster, bool left_out);

// `"failedPredicates"` (v1.15) or `"failedPlugins"` (v1.26, as the
// framework's vectors name it): node -> the predicate or plugin that
// rejected it, by node name.
void WriteFailedByField(DocumentWriter* w, const ScheduleResult& result,
                        const ClusterState& cluster, bool framework);

// `"preFilter": {...}` of a v1.26 decision: the rejecting plugin with its
// message and causes, or the nodes PreFilter narrowed the search to.
void WritePreFilterField(DocumentWriter* w, const PreFilterVerdict& verdict,
                         const ClusterState& cluster);

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

// The --explain page (-o html): per attempt (two when the first preempted)
// the verdict, the scores of the nodes that fit, the failing plugin
// (predicate), reasons and causes of the others, and what preemption
// decided; `usage` is the cluster as the pod's first attempt saw it.
planning::HtmlReport ExplainHtml(
    const std::vector<Decision>& attempts,
    const std::vector<std::vector<std::vector<explain::Cause>>>& causes,
    const ClusterState& cluster, const ScoreColumns& config,
    std::vector<planning::NodeUsage> usage);

}  // namespace ksched
