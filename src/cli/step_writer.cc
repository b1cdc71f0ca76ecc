#include "cli/step_writer.h"

#include <algorithm>
#include <cstdint>
#include <string_view>

namespace ksched {
namespace {

// Positions [0, n) ordered by the name rank of node(i), ties (the same node
// listed twice) in position order. Ranks are the nodes' places in name order,
// so this is a sort by name without comparing a single string.
template <typename NodeOf>
std::vector<uint32_t> ByNodeName(size_t n, const ClusterState& cluster, NodeOf node_of) {
  const std::vector<uint32_t>& rank = cluster.name_rank();
  std::vector<uint64_t> keys(n);
  for (size_t i = 0; i < n; ++i) keys[i] = (uint64_t{rank[node_of(i)]} << 32) | i;
  std::sort(keys.begin(), keys.end());
  std::vector<uint32_t> order(n);
  for (size_t i = 0; i < n; ++i) order[i] = static_cast<uint32_t>(keys[i]);
  return order;
}

// A JSON object keyed by name keeps one entry per name, the last one written:
// in a run of equal entries of a sorted list only the last counts.
template <typename T, typename Same>
bool LastOfRun(const std::vector<T>& sorted, size_t k, Same same) {
  return k + 1 == sorted.size() || !same(sorted[k], sorted[k + 1]);
}

void WriteReasons(DocumentWriter* w, const std::vector<std::string>& reasons) {
  w->BeginArray();
  for (const std::string& r : reasons) w->String(r);
  w->EndArray();
}

}  // namespace

std::vector<size_t> FailuresByNodeName(const ScheduleResult& result, const ClusterState& cluster) {
  std::vector<uint32_t> order = ByNodeName(result.failures.size(), cluster,
                                           [&](size_t i) { return result.failures[i].node; });
  return std::vector<size_t>(order.begin(), order.end());
}

void WriteStepFields(DocumentWriter* w, const Pod& pod, const ScheduleResult& result,
                     const ClusterState& cluster, const ScoreColumns& config) {
  auto name = [&](NodeId id) -> std::string_view { return cluster.node(id).meta.name; };
  const std::vector<NodeId>& feasible = result.feasible;

  w->Key("pod");
  w->String(pod.Key());
  w->Key("node");
  if (result.chosen == kNoNode) {
    w->Null();
    w->Key("error");
    w->String(result.error);
  } else {
    w->String(name(result.chosen));
  }

  const std::vector<uint32_t> by_name =
      ByNodeName(feasible.size(), cluster, [&](size_t i) { return feasible[i]; });
  auto feasible_name = [&](uint32_t i) { return name(feasible[i]); };
  // Node names are unique: equal names are the same node listed twice.
  auto same_node = [&](uint32_t a, uint32_t b) { return feasible[a] == feasible[b]; };
  w->Key("feasible");
  w->BeginArray();
  for (uint32_t i : by_name) w->String(feasible_name(i));
  w->EndArray();

  // Failures of cluster nodes, then extender reasons for names the cluster
  // does not have (upstream's failure map holds both), merged by name.
  struct Failure {
    std::string_view node;
    NodeId id;  // kNoNode for names outside the cluster
    const std::vector<std::string>* reasons;
  };
  std::vector<Failure> failures;
  failures.reserve(result.failures.size() + result.unknown_node_failures.size());
  for (size_t i : FailuresByNodeName(result, cluster))
    failures.push_back(Failure{name(result.failures[i].node), result.failures[i].node,
                               &result.failures[i].reasons});
  if (!result.unknown_node_failures.empty()) {
    for (const auto& [n, reasons] : result.unknown_node_failures)
      failures.push_back(Failure{n, kNoNode, &reasons});
    std::stable_sort(failures.begin(), failures.end(),
                     [](const Failure& a, const Failure& b) { return a.node < b.node; });
  }
  auto same_failure_node = [](const Failure& a, const Failure& b) {
    return a.id != kNoNode && b.id != kNoNode ? a.id == b.id : a.node == b.node;
  };
  w->Key("failures");
  w->BeginObject();
  for (size_t k = 0; k < failures.size(); ++k) {
    if (!LastOfRun(failures, k, same_failure_node)) continue;
    w->Key(failures[k].node);
    WriteReasons(w, *failures[k].reasons);
  }
  w->EndObject();

  if (!result.scored) return;
  w->Key("scores");
  w->BeginObject();
  for (size_t k = 0; k < by_name.size(); ++k) {
    if (!LastOfRun(by_name, k, same_node)) continue;
    w->Key(feasible_name(by_name[k]));
    w->Int(result.totals[by_name[k]]);
  }
  w->EndObject();

  // Priorities by name; a name configured twice shows the last one's scores.
  std::vector<std::pair<std::string_view, size_t>> priorities;
  for (size_t p = 0; p < result.priority_scores.size() && p < config.columns.size(); ++p)
    priorities.emplace_back(config.columns[p].name, p);
  std::stable_sort(priorities.begin(), priorities.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  auto same_priority = [](const auto& a, const auto& b) { return a.first == b.first; };
  w->Key(config.field);
  w->BeginObject();
  for (size_t k = 0; k < priorities.size(); ++k) {
    if (!LastOfRun(priorities, k, same_priority)) continue;
    w->Key(priorities[k].first);
    const std::vector<int64_t>& scores = result.priority_scores[priorities[k].second];
    const int64_t weight = config.weighted ? config.columns[priorities[k].second].weight : 1;
    w->BeginObject();
    for (size_t j = 0; j < by_name.size(); ++j) {
      if (!LastOfRun(by_name, j, same_node)) continue;
      w->Key(feasible_name(by_name[j]));
      w->Int(scores[by_name[j]] * weight);
    }
    w->EndObject();
  }
  w->EndObject();

  const int64_t best = *std::max_element(result.totals.begin(), result.totals.end());
  w->Key("maxNodes");
  w->BeginArray();
  for (uint32_t i : by_name)
    if (result.totals[i] == best) w->String(feasible_name(i));
  w->EndArray();
}

void WriteStep(DocumentWriter* w, const Pod& pod, const ScheduleResult& result,
               const ClusterState& cluster, const ScoreColumns& config,
               const std::function<void(DocumentWriter*)>& extra_fields) {
  w->BeginObject();
  WriteStepFields(w, pod, result, cluster, config);
  if (extra_fields) extra_fields(w);
  w->EndObject();
}

void WritePreemptionField(DocumentWriter* w, const PreemptionResult& preemption,
                          const ClusterState& cluster) {
  w->Key("preemption");
  if (!preemption.error.empty() || preemption.node == kNoNode) {
    w->Null();
    return;
  }
  w->BeginObject();
  w->Key("node");
  w->String(cluster.node(preemption.node).meta.name);
  w->Key("victims");
  w->BeginArray();
  for (PodId v : preemption.victims) w->String(cluster.pod(v).pod.Key());
  w->EndArray();
  w->Key("nominatedPodsToClear");
  w->BeginArray();
  for (const PreemptionResult::PodRef& ref : preemption.nominated_pods_to_clear) w->String(ref.key);
  w->EndArray();
  w->EndObject();
}

std::string StepToJson(const Pod& pod, const ScheduleResult& result, const ClusterState& cluster,
                       const ScoreColumns& config, const PreemptionResult* preemption) {
  std::string out;
  {
    OutputBuffer buffer(&out);
    auto w = MakeJsonWriter(&buffer, JsonStyle::kCompact);
    WriteStep(w.get(), pod, result, cluster, config, [&](DocumentWriter* dw) {
      if (preemption != nullptr) WritePreemptionField(dw, *preemption, cluster);
    });
  }
  return out;
}

}  // namespace ksched
