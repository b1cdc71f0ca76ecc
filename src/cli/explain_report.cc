#include "cli/explain_report.h"

#include <fmt/format.h>

#include <algorithm>

#include "cli/output.h"
#include "cli/step_writer.h"
#include "explain/explain.h"
#include "framework/schedule_one.h"
#include "preemption/nodes_where_preemption_might_help.h"

namespace ksched {
namespace {

constexpr std::string_view kAvoidPods = "NodePreferAvoidPodsPriority";

// Strips the "Priority" suffix upstream names carry, for narrow columns.
std::string ShortName(const std::string& name) {
  std::string s = name;
  const std::string suffix = "Priority";
  if (s.size() > suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0)
    s.resize(s.size() - suffix.size());
  return s;
}

// "SelectorSpread" -> "SS": the capitals, for a table too wide otherwise.
std::string Initials(const std::string& name) {
  std::string out;
  for (char ch : name)
    if (ch >= 'A' && ch <= 'Z') out += ch;
  return out.empty() ? name.substr(0, 3) : out;
}

// The index of NodePreferAvoidPods among the priorities, or -1. Its weight
// (10000 in the providers) dwarfs the others: totals read naturally only
// with its term shown apart.
int AvoidPodsIndex(const ScoreColumns& config) {
  for (size_t p = 0; p < config.columns.size(); ++p)
    if (config.columns[p].name == kAvoidPods) return static_cast<int>(p);
  return -1;
}

int64_t AvoidTerm(const ScheduleResult& r, const ScoreColumns& config, int avoid, size_t i) {
  if (avoid < 0 || static_cast<size_t>(avoid) >= r.priority_scores.size()) return 0;
  return config.columns[avoid].weight * r.priority_scores[avoid][i];
}

std::string FailureText(const NodeFailure& f) {
  std::string why = f.predicate.empty() ? "" : f.predicate + ": ";
  for (size_t i = 0; i < f.reasons.size(); ++i) why += (i ? "; " : "") + f.reasons[i];
  return why;
}

// Why a node was or was not a place to preempt, in words.
std::string CandidateWhy(const Decision& d, const PreemptionCandidate& c,
                         const ClusterState& cluster) {
  const PreemptionResult& p = *d.preemption;
  std::string why;
  switch (c.verdict) {
    case PreemptionCandidate::Verdict::kUnresolvable: {
      why = "not a candidate: removing pods cannot cure";
      std::string reasons;
      for (const NodeFailure& f : d.result.failures) {
        if (f.node != c.node) continue;
        for (const std::string& r : f.reasons)
          if (IsUnresolvableReason(r)) reasons += (reasons.empty() ? " " : "; ") + r;
      }
      why += reasons.empty() ? " its failure" : reasons;
      break;
    }
    case PreemptionCandidate::Verdict::kDoesNotFit:
      why = "not a candidate: the pod does not fit even without every lower-priority pod";
      break;
    case PreemptionCandidate::Verdict::kCandidate:
      why = c.victims.pods.empty()
                ? "candidate: fits without victims"
                : fmt::format("candidate: victims {}", PodNames(cluster, c.victims.pods));
      if (c.victims.num_pdb_violations > 0)
        why += fmt::format(" ({} violate a PodDisruptionBudget)", c.victims.num_pdb_violations);
      if (c.node == p.node) why += " (chosen)";
      break;
  }
  return why;
}

// Why each node was or was not a place to preempt.
std::string ExplainPreemption(const Decision& d, const ClusterState& cluster, size_t width) {
  const PreemptionResult& p = *d.preemption;
  std::string out = "\nPreemption: ";
  if (!p.error.empty()) return out + "failed: " + p.error + "\n";
  if (!p.eligible) {
    return out +
           WrapText(fmt::format("not attempted: the pod is nominated to {} where a "
                                "lower-priority pod is still terminating (it waits for "
                                "its earlier victims to go).",
                                d.pod.nominated_node_name),
                    width, 0) +
           "\n";
  }
  if (p.node != kNoNode) {
    std::string s = fmt::format("nominated to {}, deleting {}", cluster.node(p.node).meta.name,
                                PodNames(cluster, p.victims));
    if (p.num_pdb_violations > 0)
      s += fmt::format(" ({} against a PodDisruptionBudget)", p.num_pdb_violations);
    out += WrapText(s + ".", width > 12 ? width - 12 : width, 0) + "\n";
  } else {
    out += "no node would help.\n";
  }
  if (p.candidates.empty()) return out;
  TextTable table({"NODE", "PREEMPTION"});
  std::vector<const PreemptionCandidate*> cs;
  for (const PreemptionCandidate& c : p.candidates) cs.push_back(&c);
  std::sort(cs.begin(), cs.end(), [&](const auto* a, const auto* b) {
    return cluster.node(a->node).meta.name < cluster.node(b->node).meta.name;
  });
  for (const PreemptionCandidate* c : cs) {
    const std::string why = CandidateWhy(d, *c, cluster);
    table.AddRow({std::string(cluster.node(c->node).meta.name), why});
  }
  return out + table.Render(width);
}

const char* VerdictName(PreemptionCandidate::Verdict v) {
  switch (v) {
    case PreemptionCandidate::Verdict::kUnresolvable:
      return "unresolvable";
    case PreemptionCandidate::Verdict::kDoesNotFit:
      return "doesNotFit";
    case PreemptionCandidate::Verdict::kCandidate:
      return "candidate";
  }
  return "";
}

void WriteCauseList(DocumentWriter* w, const std::vector<explain::Cause>& causes) {
  w->BeginArray();
  for (const explain::Cause& c : causes) {
    w->BeginObject();
    w->Key("reason");
    w->String(c.reason);
    w->Key("kind");
    w->String(c.kind);
    w->Key("message");
    w->String(c.message);
    for (const auto& [k, v] : c.details.items()) {
      w->Key(k);
      WriteJsonValue(w, v);
    }
    w->EndObject();
  }
  w->EndArray();
}

// Feasible nodes best total first, then by name.
std::vector<size_t> FeasibleOrder(const ScheduleResult& r, const ClusterState& cluster) {
  std::vector<size_t> order(r.feasible.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (r.scored && r.totals[a] != r.totals[b]) return r.totals[a] > r.totals[b];
    return cluster.node(r.feasible[a]).meta.name < cluster.node(r.feasible[b]).meta.name;
  });
  return order;
}

// v1.26 filters a pod's nominated node (status.nominatedNodeName) first and
// stops there when it fits: the other nodes get no verdict.
bool NominatedNodeFitFirst(const Decision& d, const ClusterState& cluster) {
  const ScheduleResult& r = d.result;
  return d.framework && !d.pod.nominated_node_name.empty() && r.failures.empty() &&
         r.feasible.size() == 1 &&
         cluster.node(r.feasible[0]).meta.name == d.pod.nominated_node_name;
}

// The cycle failed before any node was checked (a missing claim, an invalid
// affinity term): no node has a verdict.
bool FailedBeforeNodes(const ScheduleResult& r) {
  return r.chosen == kNoNode && !r.fit_error && r.feasible.empty() && r.failures.empty() &&
         r.unknown_node_failures.empty();
}

}  // namespace

std::vector<std::vector<explain::Cause>> ExplainFailures(const Pod& pod,
                                                         const ScheduleResult& result,
                                                         const ClusterState& cluster,
                                                         const NominatedPods* nominated,
                                                         const framework::CycleResult* cycle) {
  std::vector<std::vector<explain::Cause>> out;
  out.reserve(result.failures.size());
  explain::PodExplainer explainer(pod, cluster, nominated, cycle);
  for (const NodeFailure& f : result.failures) out.push_back(explainer.Explain(f));
  return out;
}

std::optional<PreFilterVerdict> ExplainPreFilter(const Pod& pod,
                                                 const framework::CycleResult& cycle,
                                                 const ScheduleResult& result,
                                                 const ClusterState& cluster, bool left_out) {
  if (cycle.pre_filter_msg.empty() && !cycle.pre_filter_node_names) return std::nullopt;
  PreFilterVerdict v;
  if (!cycle.pre_filter_msg.empty()) {
    // PreFilter stops at the first plugin that rejects the pod.
    v.plugin = cycle.unschedulable_plugins.empty() ? "" : cycle.unschedulable_plugins.front();
    v.message = cycle.pre_filter_msg;
    v.causes = explain::ExplainPreFilterRejection(pod, cluster, v.plugin, v.message);
    return v;
  }
  v.nodes = *cycle.pre_filter_node_names;
  // In-tree, only NodeAffinity's PreFilter names nodes (the pod's required
  // terms that all list metadata.name values).
  v.narrowed_by = "PreFilter";
  if (cycle.framework != nullptr) {
    for (const std::string& p : cycle.framework->PluginNames(framework::ExtensionPoint::kPreFilter))
      if (p == "NodeAffinity") v.narrowed_by = p;
  }
  if (!left_out) return v;
  std::vector<uint8_t> seen(cluster.num_nodes(), 0);
  for (NodeId n : result.feasible) seen[n] = 1;
  for (const NodeFailure& f : result.failures)
    if (f.node < seen.size()) seen[f.node] = 1;
  for (const std::string& name : *v.nodes)
    if (NodeId n = cluster.FindNode(name); n != kNoNode) seen[n] = 1;
  std::vector<NodeId> order;
  for (NodeId n = 0; n < cluster.num_nodes(); ++n)
    if (!seen[n]) order.push_back(n);
  std::sort(order.begin(), order.end(), [&](NodeId a, NodeId b) {
    return cluster.node(a).meta.name < cluster.node(b).meta.name;
  });
  for (NodeId n : order)
    v.left_out.emplace_back(n, explain::ExplainPreFilterNarrowing(pod, cluster, n));
  return v;
}

void WriteFailedByField(DocumentWriter* w, const ScheduleResult& r, const ClusterState& cluster,
                        bool framework) {
  w->Key(framework ? "failedPlugins" : "failedPredicates");
  w->BeginObject();
  std::vector<size_t> order = FailuresByNodeName(r, cluster);
  for (size_t k = 0; k < order.size(); ++k) {
    const NodeFailure& f = r.failures[order[k]];
    // A node listed twice keeps its last entry, as a JSON object would.
    if (k + 1 < order.size() && r.failures[order[k + 1]].node == f.node) continue;
    w->Key(cluster.node(f.node).meta.name);
    w->String(f.predicate);
  }
  w->EndObject();
}

void WritePreFilterField(DocumentWriter* w, const PreFilterVerdict& v,
                         const ClusterState& cluster) {
  w->Key("preFilter");
  w->BeginObject();
  if (!v.message.empty()) {
    w->Key("rejectedBy");
    w->String(v.plugin);
    w->Key("message");
    w->String(v.message);
    w->Key("causes");
    WriteCauseList(w, v.causes);
  }
  if (v.nodes) {
    w->Key("narrowedBy");
    w->String(v.narrowed_by);
    w->Key("nodes");
    w->BeginArray();
    for (const std::string& n : *v.nodes) w->String(n);
    w->EndArray();
    w->Key("nodesLeftOut");
    int64_t kept = 0;
    for (const std::string& n : *v.nodes) kept += cluster.FindNode(n) != kNoNode ? 1 : 0;
    w->Int(static_cast<int64_t>(cluster.num_nodes()) - kept);
  }
  w->EndObject();
}

std::string PodNames(const ClusterState& cluster, const std::vector<PodId>& pods) {
  std::string out;
  for (PodId id : pods) out += (out.empty() ? "" : ", ") + cluster.pod(id).pod.Key();
  return out;
}

std::string ExplainTable(const Decision& d, const std::vector<std::vector<explain::Cause>>& causes,
                         const ClusterState& cluster, const ScoreColumns& config, size_t width) {
  const ScheduleResult& r = d.result;
  const int avoid = r.scored ? AvoidPodsIndex(config) : -1;
  std::string out;
  if (r.chosen != kNoNode) {
    std::string head = fmt::format("Pod {} -> {}", d.pod.Key(), cluster.node(r.chosen).meta.name);
    if (r.scored) {
      size_t k = std::find(r.feasible.begin(), r.feasible.end(), r.chosen) - r.feasible.begin();
      int64_t term = k < r.feasible.size() ? AvoidTerm(r, config, avoid, k) : 0;
      if (avoid >= 0) {
        head +=
            fmt::format(" (score {}, plus NodePreferAvoidPods {} x {})", d.score - term,
                        config.columns[avoid].weight == 0 ? 0 : term / config.columns[avoid].weight,
                        config.columns[avoid].weight);
      } else {
        head += fmt::format(" (score {})", d.score);
      }
    }
    out += WrapText(head, width, 4) + "\n";
  } else {
    out += WrapText(fmt::format("Pod {} cannot be scheduled: {}", d.pod.Key(), r.error), width, 4) +
           "\n";
  }
  const PreFilterVerdict* pre = d.framework && d.pre_filter ? &*d.pre_filter : nullptr;
  const bool pre_rejected = pre != nullptr && !pre->message.empty();
  if (pre_rejected) {
    out += "\n" +
           WrapText(fmt::format("PreFilter: {} rejected the pod before any node was filtered: {}",
                                pre->plugin.empty() ? "a plugin" : pre->plugin, pre->message),
                    width, 4) +
           "\n";
    for (const explain::Cause& c : pre->causes) out += WrapText("  " + c.message, width, 4) + "\n";
  }

  if (!r.feasible.empty()) {
    std::vector<std::string> header = {"NODE", "RESULT"};
    std::vector<std::string> long_names, legend;
    // v1.26 columns hold weighted scores (what each plugin adds to TOTAL);
    // v1.15 columns its priorities' raw scores.
    const bool weighted = config.weighted;
    if (r.scored) {
      header.push_back("TOTAL");
      for (size_t p = 0; p < config.columns.size(); ++p) {
        const ScoreColumn& pc = config.columns[p];
        std::string h = ShortName(pc.name);
        if (pc.weight != 1) h += fmt::format("(x{})", pc.weight);
        long_names.push_back(h);
      }
    }
    std::vector<std::vector<std::string>> rows;
    for (size_t i : FeasibleOrder(r, cluster)) {
      NodeId n = r.feasible[i];
      std::vector<std::string> row = {std::string(cluster.node(n).meta.name),
                                      n == r.chosen ? "fits (chosen)" : "fits"};
      if (r.scored) {
        row.push_back(std::to_string(r.totals[i] - AvoidTerm(r, config, avoid, i)));
        for (size_t p = 0; p < config.columns.size(); ++p)
          row.push_back(
              std::to_string(r.priority_scores[p][i] * (weighted ? config.columns[p].weight : 1)));
      }
      rows.push_back(std::move(row));
    }
    auto render = [&](const std::vector<std::string>& names) {
      std::vector<std::string> h = header;
      h.insert(h.end(), names.begin(), names.end());
      TextTable t(h);
      for (const auto& row : rows) t.AddRow(row);
      return t.Render();
    };
    std::string table = render(long_names);
    size_t widest = 0;
    for (size_t pos = 0, next; pos < table.size(); pos = next + 1) {
      next = table.find('\n', pos);
      widest = std::max(widest, next - pos);
    }
    if (widest > width && !long_names.empty()) {
      // Too wide: initials in the header, the names in a legend.
      std::vector<std::string> short_names;
      for (size_t p = 0; p < config.columns.size(); ++p) {
        std::string a = Initials(ShortName(config.columns[p].name));
        std::string candidate = a;
        for (int k = 2;
             std::find(short_names.begin(), short_names.end(), candidate) != short_names.end(); ++k)
          candidate = a + std::to_string(k);
        short_names.push_back(candidate);
        legend.push_back(candidate + "=" + long_names[p]);
      }
      table = render(short_names);
    }
    out += "\n" + table;
    if (!legend.empty())
      out += WrapText(fmt::format("{}", fmt::join(legend, "  ")), width, 0) + "\n";
    if (r.scored && weighted && !config.columns.empty()) {
      out += WrapText(
                 "Plugin scores are weighted: the normalized score (0-100) times the "
                 "plugin's weight (xN, x1 when not shown), as in -o json's \"plugins\"; "
                 "TOTAL is their sum.",
                 width, 0) +
             "\n";
    }
    if (r.scored && avoid >= 0) {
      out += WrapText(fmt::format("TOTAL leaves out NodePreferAvoidPods (weight {}); nodes rank "
                                  "by TOTAL + {} x its score, so a node the "
                                  "preferAvoidPods annotation names (score 0) ranks last.",
                                  config.columns[avoid].weight, config.columns[avoid].weight),
                      width, 0) +
             "\n";
    }
  }

  const size_t left_out = pre != nullptr ? pre->left_out.size() : 0;
  if (!r.failures.empty() || left_out > 0) {
    std::vector<size_t> order = FailuresByNodeName(r, cluster);
    TextTable table({"NODE", "RESULT"});
    auto add_failure = [&](size_t k) {
      const NodeFailure& f = r.failures[k];
      table.AddRow({std::string(cluster.node(f.node).meta.name), FailureText(f)});
      if (k < causes.size())
        for (const explain::Cause& c : causes[k]) table.AddRow({"", "  " + c.message});
    };
    if (left_out == 0) {
      for (size_t k : order) add_failure(k);
    } else {
      // Nodes PreFilter left out, among the failing ones by name.
      size_t j = 0;
      for (size_t k = 0; k <= order.size(); ++k) {
        for (; j < left_out; ++j) {
          const auto& [node, node_causes] = pre->left_out[j];
          if (k < order.size() &&
              cluster.node(r.failures[order[k]].node).meta.name < cluster.node(node).meta.name)
            break;
          table.AddRow({std::string(cluster.node(node).meta.name),
                        fmt::format("{} (PreFilter): left out; only the {} node(s) the pod's "
                                    "required node affinity names by metadata.name are filtered",
                                    pre->narrowed_by, pre->nodes ? pre->nodes->size() : 0)});
          for (const explain::Cause& c : node_causes) table.AddRow({"", "  " + c.message});
        }
        if (k < order.size()) add_failure(order[k]);
      }
    }
    out += "\n" + table.Render(width);
  }
  if (!r.unknown_node_failures.empty()) {
    TextTable table({"NODE (not in the snapshot)", "RESULT"});
    for (const auto& [name, reasons] : r.unknown_node_failures) {
      std::string why;
      for (size_t i = 0; i < reasons.size(); ++i) why += (i ? "; " : "") + reasons[i];
      table.AddRow({name, why});
    }
    out += "\n" + table.Render(width);
  }

  const size_t seen = r.feasible.size() + r.failures.size() + left_out;
  const bool nominated_first = NominatedNodeFitFirst(d, cluster);
  if (pre_rejected) {
    out += WrapText(fmt::format("\nNo node was checked: PreFilter rejected the pod (above), so "
                                "every one of the {} nodes would give the same answer.",
                                cluster.num_nodes()),
                    width, 0) +
           "\n";
  } else if (nominated_first && seen < cluster.num_nodes()) {
    out += "\n" +
           WrapText(fmt::format("{} of {} nodes were not evaluated: the pod's nominated node "
                                "(status.nominatedNodeName {}) is filtered first, and when it "
                                "fits no other node is checked.",
                                cluster.num_nodes() - seen, cluster.num_nodes(),
                                d.pod.nominated_node_name),
                    width, 0) +
           "\n";
  } else if (FailedBeforeNodes(r)) {
    out += WrapText(
               "\nNo node was checked: the pod failed before filtering (the error above), "
               "so every node would give the same answer.",
               width, 0) +
           "\n";
  } else if (seen < cluster.num_nodes()) {
    out += "\n" +
           WrapText(fmt::format("{} of {} nodes were not evaluated: percentageOfNodesToScore "
                                "stopped the search once enough feasible nodes were found "
                                "(--percentage-of-nodes-to-score 100 checks every node).",
                                cluster.num_nodes() - seen, cluster.num_nodes()),
                    width, 0) +
           "\n";
  }
  if (d.preemption) out += ExplainPreemption(d, cluster, width);
  return out;
}

void WriteCausesField(DocumentWriter* w, const ScheduleResult& result,
                      const std::vector<std::vector<explain::Cause>>& causes,
                      const ClusterState& cluster) {
  w->Key("causes");
  w->BeginObject();
  std::vector<size_t> order = FailuresByNodeName(result, cluster);
  for (size_t k = 0; k < order.size(); ++k) {
    const NodeFailure& f = result.failures[order[k]];
    // A node listed twice keeps its last entry, as in "failures".
    if (k + 1 < order.size() && result.failures[order[k + 1]].node == f.node) continue;
    if (order[k] >= causes.size() || causes[order[k]].empty()) continue;
    w->Key(cluster.node(f.node).meta.name);
    WriteCauseList(w, causes[order[k]]);
  }
  w->EndObject();
}

void WriteExplain(DocumentWriter* w, const Decision& d,
                  const std::vector<std::vector<explain::Cause>>& causes,
                  const ClusterState& cluster, const ScoreColumns& config,
                  const std::function<void(DocumentWriter*)>& extra_fields) {
  const ScheduleResult& r = d.result;
  auto name = [&](NodeId n) { return std::string(cluster.node(n).meta.name); };
  w->BeginObject();
  w->Key("pod");
  w->String(d.pod.Key());
  w->Key("node");
  if (r.chosen == kNoNode) {
    w->Null();
    w->Key("error");
    w->String(r.error);
  } else {
    w->String(name(r.chosen));
  }
  if (r.chosen != kNoNode && r.scored) {
    w->Key("score");
    w->Int(d.score);
  }
  w->Key("nodes");
  w->BeginArray();
  for (size_t i : FeasibleOrder(r, cluster)) {
    w->BeginObject();
    w->Key("node");
    w->String(name(r.feasible[i]));
    w->Key("fits");
    w->Literal("true");
    w->Key("chosen");
    w->Literal(r.feasible[i] == r.chosen ? "true" : "false");
    if (r.scored) {
      w->Key("total");
      w->Int(r.totals[i]);
      w->Key(config.field);
      w->BeginObject();
      for (size_t p = 0; p < config.columns.size() && p < r.priority_scores.size(); ++p) {
        w->Key(config.columns[p].name);
        w->BeginObject();
        w->Key("score");
        w->Int(r.priority_scores[p][i]);
        w->Key("weight");
        w->Int(config.columns[p].weight);
        if (config.weighted) {
          // What the plugin adds to the total (v1.26's "plugins" of -o json).
          w->Key("weightedScore");
          w->Int(r.priority_scores[p][i] * config.columns[p].weight);
        }
        w->EndObject();
      }
      w->EndObject();
    }
    w->EndObject();
  }
  for (size_t k : FailuresByNodeName(r, cluster)) {
    const NodeFailure& f = r.failures[k];
    w->BeginObject();
    w->Key("node");
    w->String(name(f.node));
    w->Key("fits");
    w->Literal("false");
    w->Key(d.framework ? "failedPlugin" : "predicate");
    w->String(f.predicate);
    w->Key("reasons");
    w->BeginArray();
    for (const std::string& reason : f.reasons) w->String(reason);
    w->EndArray();
    w->Key("causes");
    WriteCauseList(w, k < causes.size() ? causes[k] : std::vector<explain::Cause>());
    w->EndObject();
  }
  const PreFilterVerdict* pre = d.framework && d.pre_filter ? &*d.pre_filter : nullptr;
  if (pre != nullptr) {
    for (const auto& [node, node_causes] : pre->left_out) {
      w->BeginObject();
      w->Key("node");
      w->String(name(node));
      w->Key("fits");
      w->Literal("false");
      w->Key("failedPlugin");
      w->String(pre->narrowed_by);
      w->Key("leftOutByPreFilter");
      w->Literal("true");
      w->Key("reasons");
      w->BeginArray();
      w->EndArray();
      w->Key("causes");
      WriteCauseList(w, node_causes);
      w->EndObject();
    }
  }
  for (const auto& [n, reasons] : r.unknown_node_failures) {
    w->BeginObject();
    w->Key("node");
    w->String(n);
    w->Key("fits");
    w->Literal("false");
    w->Key("inSnapshot");
    w->Literal("false");
    w->Key("reasons");
    w->BeginArray();
    for (const std::string& reason : reasons) w->String(reason);
    w->EndArray();
    w->EndObject();
  }
  w->EndArray();
  const bool pre_rejected = pre != nullptr && !pre->message.empty();
  const bool before = FailedBeforeNodes(r) || pre_rejected;
  const size_t seen =
      r.feasible.size() + r.failures.size() + (pre != nullptr ? pre->left_out.size() : 0);
  w->Key("failedBeforeFiltering");
  w->Literal(before ? "true" : "false");
  w->Key("nodesNotEvaluated");
  w->Int(before || seen >= cluster.num_nodes() ? 0
                                               : static_cast<int64_t>(cluster.num_nodes() - seen));
  if (d.framework && !before && seen < cluster.num_nodes()) {
    w->Key("nodesNotEvaluatedBecause");
    w->String(NominatedNodeFitFirst(d, cluster) ? "nominatedNodeFits" : "percentageOfNodesToScore");
  }
  if (d.framework) {
    WriteFailedByField(w, r, cluster, true);
    if (pre != nullptr) WritePreFilterField(w, *pre, cluster);
  }
  if (d.preemption) {
    const PreemptionResult& p = *d.preemption;
    WritePreemptionField(w, p, cluster);
    if (!p.error.empty()) {
      w->Key("preemptionError");
      w->String(p.error);
    }
    if (!p.candidates.empty()) {
      w->Key("preemptionCandidates");
      w->BeginArray();
      std::vector<const PreemptionCandidate*> cs;
      for (const PreemptionCandidate& c : p.candidates) cs.push_back(&c);
      std::sort(cs.begin(), cs.end(), [&](const auto* a, const auto* b) {
        return cluster.node(a->node).meta.name < cluster.node(b->node).meta.name;
      });
      for (const PreemptionCandidate* c : cs) {
        w->BeginObject();
        w->Key("node");
        w->String(name(c->node));
        w->Key("verdict");
        w->String(VerdictName(c->verdict));
        if (c->verdict == PreemptionCandidate::Verdict::kCandidate) {
          w->Key("victims");
          w->BeginArray();
          for (PodId v : c->victims.pods) w->String(cluster.pod(v).pod.Key());
          w->EndArray();
          w->Key("pdbViolations");
          w->Int(c->victims.num_pdb_violations);
        }
        w->EndObject();
      }
      w->EndArray();
    }
  }
  if (extra_fields) extra_fields(w);
  w->EndObject();
}

planning::HtmlReport ExplainHtml(
    const std::vector<Decision>& attempts,
    const std::vector<std::vector<std::vector<explain::Cause>>>& causes,
    const ClusterState& cluster, const ScoreColumns& config,
    std::vector<planning::NodeUsage> usage) {
  planning::HtmlReport page;
  if (attempts.empty()) return page;
  const Decision& last = attempts.back();
  page.title = "ksched schedule --explain " + last.pod.Key();
  // The headline of the text report: "Pod x -> node (score n)" or "Pod x
  // cannot be scheduled: <FitError>".
  const std::string text = ExplainTable(last, causes.back(), cluster, config, 0);
  page.verdict = text.substr(0, text.find('\n'));
  page.verdict_ok = last.result.chosen != kNoNode;
  page.after = std::move(usage);
  for (const ScoreColumn& c : config.columns) page.priorities.push_back(c.name);
  const bool several = attempts.size() > 1;
  for (size_t a = 0; a < attempts.size(); ++a) {
    const Decision& d = attempts[a];
    const ScheduleResult& r = d.result;
    std::string attempt;
    if (several) {
      attempt = a == 0 ? "Attempt 1 (it preempted, then was retried): "
                       : "Attempt 2 (after preemption): ";
    }
    page.summary.push_back({several ? fmt::format("attempt {}", a + 1) : "result",
                            r.chosen != kNoNode
                                ? fmt::format("{} (score {})", cluster.node(r.chosen).meta.name,
                                              r.scored ? std::to_string(d.score) : "not scored")
                                : r.error});
    if (d.pre_filter && !d.pre_filter->message.empty()) {
      page.summary.push_back(
          {"PreFilter", fmt::format("{} rejected the pod before any node was filtered: {}",
                                    d.pre_filter->plugin, d.pre_filter->message)});
    }
    // The nodes that fit, best first, with each plugin's (priority's) score.
    planning::HtmlSection fits{attempt + "Nodes that fit", {"node", "result", "total"}, {}};
    for (const ScoreColumn& c : config.columns)
      fits.headers.push_back(c.weight != 1 ? fmt::format("{} (x{})", c.name, c.weight) : c.name);
    for (size_t i : FeasibleOrder(r, cluster)) {
      const NodeId n = r.feasible[i];
      std::vector<std::string> row = {std::string(cluster.node(n).meta.name),
                                      n == r.chosen ? "fits (chosen)" : "fits"};
      if (r.scored) {
        row.push_back(std::to_string(r.totals[i]));
        for (size_t p = 0; p < config.columns.size() && p < r.priority_scores.size(); ++p) {
          row.push_back(std::to_string(r.priority_scores[p][i] *
                                       (config.weighted ? config.columns[p].weight : 1)));
        }
      }
      fits.rows.push_back(std::move(row));
    }
    page.sections.push_back(std::move(fits));
    planning::HtmlSection fails{
        attempt + "Nodes that do not fit",
        {"node", d.framework ? "plugin" : "predicate", "reasons", "what to change"},
        {}};
    for (size_t k : FailuresByNodeName(r, cluster)) {
      const NodeFailure& f = r.failures[k];
      std::string reasons, what;
      for (const std::string& reason : f.reasons) reasons += (reasons.empty() ? "" : "; ") + reason;
      if (k < causes[a].size())
        for (const explain::Cause& c : causes[a][k]) what += (what.empty() ? "" : "; ") + c.message;
      fails.rows.push_back(
          {std::string(cluster.node(f.node).meta.name), f.predicate, reasons, what});
    }
    page.sections.push_back(std::move(fails));
    if (d.preemption) {
      const PreemptionResult& p = *d.preemption;
      std::string verdict;
      if (!p.error.empty()) {
        verdict = "failed: " + p.error;
      } else if (!p.eligible) {
        verdict = fmt::format(
            "not attempted: nominated to {}, where a lower-priority pod is "
            "still terminating",
            d.pod.nominated_node_name);
      } else if (p.node != kNoNode) {
        verdict = fmt::format("nominated to {}, deleting {}", cluster.node(p.node).meta.name,
                              PodNames(cluster, p.victims));
      } else {
        verdict = "no node would help";
      }
      page.summary.push_back({attempt + "preemption", verdict});
      planning::HtmlSection candidates{attempt + "Preemption", {"node", "verdict"}, {}};
      std::vector<const PreemptionCandidate*> cs;
      for (const PreemptionCandidate& c : p.candidates) cs.push_back(&c);
      std::sort(cs.begin(), cs.end(), [&](const auto* x, const auto* y) {
        return cluster.node(x->node).meta.name < cluster.node(y->node).meta.name;
      });
      for (const PreemptionCandidate* c : cs)
        candidates.rows.push_back(
            {std::string(cluster.node(c->node).meta.name), CandidateWhy(d, *c, cluster)});
      if (!candidates.rows.empty()) page.sections.push_back(std::move(candidates));
    }
  }
  return page;
}

}  // namespace ksched
