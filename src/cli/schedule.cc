// `ksched schedule`: where would the pending pods of a snapshot land, and why not.
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <optional>
#include <set>

#include "api/decode.h"
#include "api/priority_admission.h"
#include "cache/node_tree.h"
#include "cli/commands.h"
#include "cli/document_writer.h"
#include "cli/input.h"
#include "cli/output.h"
#include "cli/replay.h"
#include "cli/step_writer.h"
#include "loop/snapshot_loop.h"
#include "preemption/nodes_where_preemption_might_help.h"

namespace ksched {
namespace {

struct Decision {
  Pod pod;
  ScheduleResult result;
  int64_t score = 0;  // total of the chosen node, when scored
  std::optional<PreemptionResult> preemption;
};

// Strips the "Priority" suffix upstream names carry, for narrow columns.
std::string ShortName(const std::string& name) {
  std::string s = name;
  const std::string suffix = "Priority";
  if (s.size() > suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0)
    s.resize(s.size() - suffix.size());
  return s;
}

std::string PodNames(const ClusterState& cluster, const std::vector<PodId>& pods) {
  std::string out;
  for (PodId id : pods) out += (out.empty() ? "" : ", ") + cluster.pod(id).pod.Key();
  return out;
}

// Why each node was or was not a place to preempt, for --explain.
std::string ExplainPreemption(const Decision& d, const ClusterState& cluster) {
  const PreemptionResult& p = *d.preemption;
  std::string out = "\nPreemption: ";
  if (!p.error.empty()) return out + "failed: " + p.error + "\n";
  if (!p.eligible) {
    return out + fmt::format(
                     "not attempted: the pod is nominated to {} where a lower-priority pod is "
                     "still terminating (it waits for its earlier victims to go).\n",
                     d.pod.nominated_node_name);
  }
  if (p.node != kNoNode) {
    out += fmt::format("nominated to {}, deleting {}", cluster.node(p.node).meta.name,
                       PodNames(cluster, p.victims));
    if (p.num_pdb_violations > 0)
      out += fmt::format(" ({} against a PodDisruptionBudget)", p.num_pdb_violations);
    out += ".\n";
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
    std::string why;
    switch (c->verdict) {
      case PreemptionCandidate::Verdict::kUnresolvable: {
        why = "not a candidate: removing pods cannot cure";
        std::string reasons;
        for (const NodeFailure& f : d.result.failures) {
          if (f.node != c->node) continue;
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
        why = c->victims.pods.empty()
                  ? "candidate: fits without victims"
                  : fmt::format("candidate: victims {}", PodNames(cluster, c->victims.pods));
        if (c->victims.num_pdb_violations > 0)
          why += fmt::format(" ({} violate a PodDisruptionBudget)", c->victims.num_pdb_violations);
        if (c->node == p.node) why += " (chosen)";
        break;
    }
    table.AddRow({cluster.node(c->node).meta.name, why});
  }
  return out + table.Render();
}

std::string Explain(const Decision& d, const ClusterState& cluster, const SchedulerConfig& config) {
  const ScheduleResult& r = d.result;
  std::string out;
  if (r.chosen != kNoNode) {
    out += fmt::format("Pod {} -> {}", d.pod.Key(), cluster.node(r.chosen).meta.name);
    if (r.scored) out += fmt::format(" (score {})", d.score);
    out += "\n\n";
  } else {
    out += fmt::format("Pod {} cannot be scheduled: {}\n\n", d.pod.Key(), r.error);
  }
  std::vector<std::string> header = {"NODE", "RESULT"};
  if (r.scored) {
    header.push_back("TOTAL");
    for (const PriorityConfig& p : config.priorities) {
      std::string h = ShortName(p.name);
      if (p.weight != 1) h += fmt::format("(x{})", p.weight);
      header.push_back(h);
    }
  }
  TextTable table(header);
  // Feasible nodes first, best total first, then by name.
  std::vector<size_t> order(r.feasible.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (r.scored && r.totals[a] != r.totals[b]) return r.totals[a] > r.totals[b];
    return cluster.node(r.feasible[a]).meta.name < cluster.node(r.feasible[b]).meta.name;
  });
  for (size_t i : order) {
    NodeId n = r.feasible[i];
    std::vector<std::string> row = {cluster.node(n).meta.name,
                                    n == r.chosen ? "fits (chosen)" : "fits"};
    if (r.scored) {
      row.push_back(std::to_string(r.totals[i]));
      for (size_t p = 0; p < config.priorities.size(); ++p)
        row.push_back(std::to_string(r.priority_scores[p][i]));
    }
    table.AddRow(std::move(row));
  }
  std::vector<const NodeFailure*> failures;
  for (const NodeFailure& f : r.failures) failures.push_back(&f);
  std::sort(failures.begin(), failures.end(), [&](const NodeFailure* a, const NodeFailure* b) {
    return cluster.node(a->node).meta.name < cluster.node(b->node).meta.name;
  });
  for (const NodeFailure* f : failures) {
    std::string why = f->predicate.empty() ? "" : f->predicate + ": ";
    for (size_t i = 0; i < f->reasons.size(); ++i) why += (i ? "; " : "") + f->reasons[i];
    table.AddRow({cluster.node(f->node).meta.name, why});
  }
  size_t seen = r.feasible.size() + r.failures.size();
  out += table.Render();
  if (seen < cluster.num_nodes()) {
    out += fmt::format(
        "\n{} of {} nodes were not evaluated: percentageOfNodesToScore stopped the search once "
        "enough feasible nodes were found.\n",
        cluster.num_nodes() - seen, cluster.num_nodes());
  }
  if (d.preemption) out += ExplainPreemption(d, cluster);
  return out;
}

}  // namespace

CLI::App* AddScheduleCommand(CLI::App* app, ScheduleArgs* args) {
  CLI::App* cmd = app->add_subcommand(
      "schedule",
      "Schedule the pending pods of a cluster snapshot and explain the decisions.\n"
      "  example: kubectl get nodes,pods,services,rc,rs,statefulsets,pv,pvc,storageclasses -A "
      "-o yaml > snap.yaml\n"
      "           ksched schedule -f snap.yaml --explain default/web-3");
  cmd->add_option("-f,--filename", args->files,
                  "Snapshot file(s): YAML or JSON, List or multi-document; - for stdin")
      ->required();
  cmd->add_option("--pending", args->pending_file,
                  "Pods to schedule, in order (default: the snapshot's pods without a node, "
                  "oldest first)");
  cmd->add_option("-o,--output", args->output, "Output format: table, json or yaml")
      ->check(CLI::IsMember({"table", "json", "yaml"}))
      ->capture_default_str();
  cmd->add_option("--explain", args->explain,
                  "namespace/name of one pending pod: show every node's verdict and scores");
  cmd->add_option("--scheduler-name", args->scheduler_name,
                  "Schedule only pods whose spec.schedulerName is this (as kube-scheduler's "
                  "flag); others are listed as left to their scheduler")
      ->capture_default_str();
  cmd->add_flag("--disable-preemption", args->disable_preemption,
                "Do not preempt lower-priority pods for a pod that fits nowhere (as "
                "kube-scheduler's flag)");
  AddWarningsFlag(cmd, &args->warnings);
  args->flags.AddTo(cmd);
  return cmd;
}

int RunSchedule(const ScheduleArgs& args) {
  // Decoded, defaulted and validated as the API server would store them.
  Diagnostics diag;
  auto loaded = LoadSnapshot(args.files, &diag);
  if (!loaded.ok()) {
    std::cerr << "ksched: " << loaded.error().message << "\n";
    return kExitBadInput;
  }
  ObjectSet objects = std::move(loaded).value();
  // As the Priority admission plugin: pods with a class but no priority.
  if (Status s = ApplyPriorityClasses(objects.priority_classes, &objects.pods, ""); !s.ok()) {
    std::cerr << "ksched: " << s.error().message << "\n";
    return kExitBadInput;
  }
  std::vector<Pod> pending;
  auto cluster = ClusterState::Build(std::move(objects), &pending);
  if (!cluster.ok()) {
    std::cerr << "ksched: " << cluster.error().message << "\n";
    return kExitBadInput;
  }
  if (!args.pending_file.empty()) {
    auto pods = LoadPods(args.pending_file, &diag);
    if (!pods.ok()) {
      std::cerr << "ksched: " << pods.error().message << "\n";
      return kExitBadInput;
    }
    pending = std::move(pods).value();
    if (Status s = ApplyPriorityClasses(cluster->priority_classes(), &pending, args.pending_file);
        !s.ok()) {
      std::cerr << "ksched: " << s.error().message << "\n";
      return kExitBadInput;
    }
  } else {
    // Arrival order: the API server's creation time, then namespace/name.
    std::stable_sort(pending.begin(), pending.end(), [](const Pod& a, const Pod& b) {
      if (a.meta.creation_timestamp != b.meta.creation_timestamp)
        return a.meta.creation_timestamp < b.meta.creation_timestamp;
      return a.Key() < b.Key();
    });
  }
  // Which pending pods are this scheduler's, as upstream decides: its
  // schedulerName, and not being deleted.
  std::vector<std::pair<Pod, std::string>> skipped;
  {
    std::vector<Pod> mine;
    for (Pod& p : pending) {
      const std::string& name =
          p.spec.scheduler_name.empty() ? std::string("default-scheduler") : p.spec.scheduler_name;
      if (p.meta.has_deletion_timestamp) {
        skipped.emplace_back(std::move(p), "being deleted (metadata.deletionTimestamp is set)");
      } else if (name != args.scheduler_name) {
        std::string why = fmt::format(
            "left to scheduler \"{}\" (spec.schedulerName; this run is "
            "--scheduler-name {})",
            name, args.scheduler_name);
        skipped.emplace_back(std::move(p), std::move(why));
      } else {
        mine.push_back(std::move(p));
      }
    }
    pending = std::move(mine);
  }
  for (Pod& p : pending)
    if (p.meta.uid.empty()) p.meta.uid = p.Key();
  CheckOwners(pending, *cluster, &diag);
  if (!args.explain.empty()) {
    bool found = std::any_of(pending.begin(), pending.end(),
                             [&](const Pod& p) { return p.Key() == args.explain; });
    if (!found) {
      for (const auto& [p, why] : skipped) {
        if (p.Key() == args.explain) {
          std::cerr << "ksched: --explain " << args.explain << ": not scheduled here: " << why
                    << "\n";
          return kExitBadInput;
        }
      }
      std::cerr << "ksched: --explain " << args.explain
                << ": no such pending pod (use namespace/name of a pod without spec.nodeName)\n";
      return kExitBadInput;
    }
  }
  auto config = args.flags.Build();
  if (!config.ok()) {
    std::cerr << "ksched: " << config.error().message << "\n";
    return kExitBadInput;
  }

  if (args.warnings) diag.Print();
  NodeTree tree(*cluster);
  GenericScheduler scheduler(std::move(config).value(), args.flags.tie());
  const SchedulerConfig& cfg = scheduler.config();
  ProgressBar progress(pending.size(), "pods");
  std::string explained;
  TextTable table({"POD", "NODE", "SCORE", "MESSAGE"});
  std::set<std::string> unscheduled;  // pods whose last attempt failed
  size_t done = 0;
  // JSON and YAML are streamed, one step at a time: at 5,000 nodes a step
  // is most of a megabyte.
  OutputBuffer out(stdout);
  std::unique_ptr<DocumentWriter> writer;
  if (args.explain.empty() && args.output != "table") {
    writer =
        args.output == "json" ? MakeJsonWriter(&out, JsonStyle::kIndented) : MakeYamlWriter(&out);
    writer->BeginArray();
  }
  LoopOptions loop_options;
  loop_options.preemption = !args.disable_preemption;
  loop_options.record_preemption_details = !args.explain.empty();
  SnapshotLoop loop(&scheduler, &*cluster, &tree, loop_options);
  loop.Run(std::move(pending), [&](const Attempt& a) {
    Decision d;
    d.pod = *a.pod;
    d.result = a.result;
    d.preemption = a.preemption;
    const ScheduleResult& r = d.result;
    if (r.scored) {
      for (size_t k = 0; k < r.feasible.size(); ++k)
        if (r.feasible[k] == r.chosen) d.score = r.totals[k];
    }
    const PreemptionResult* p = d.preemption ? &*d.preemption : nullptr;
    const bool preempted = p != nullptr && p->error.empty() && p->node != kNoNode;
    if (args.explain.empty() && args.output == "table") {
      std::string message;
      if (r.chosen == kNoNode) {
        message = r.error;
        if (preempted) {
          message += fmt::format(" Preempting: nominated to {}, deleting {}.",
                                 cluster->node(p->node).meta.name, PodNames(*cluster, p->victims));
        }
      } else if (a.number == 2) {
        message = "scheduled after preemption";
      } else if (!r.scored) {
        message = "the only node that fits (not scored)";
      }
      table.AddRow({d.pod.Key(), r.chosen == kNoNode ? "<none>" : cluster->node(r.chosen).meta.name,
                    r.scored ? std::to_string(d.score) : "", message});
    } else if (writer) {
      WriteStep(writer.get(), d.pod, r, *cluster, cfg, [&](DocumentWriter* w) {
        if (p != nullptr) WritePreemptionField(w, *p, *cluster);
        if (r.scored) {
          w->Key("score");
          w->Int(d.score);
        }
        if (a.number == 2) {
          w->Key("attempt");
          w->Int(2);
        }
        if (std::vector<std::string> lines = diag.LinesFor(d.pod.Key());
            args.warnings && !lines.empty()) {
          w->Key("warnings");
          w->BeginArray();
          for (const std::string& l : lines) w->String(l);
          w->EndArray();
        }
        w->Key("failedPredicates");
        w->BeginObject();
        std::vector<size_t> order = FailuresByNodeName(r, *cluster);
        for (size_t k = 0; k < order.size(); ++k) {
          const NodeFailure& f = r.failures[order[k]];
          // A node listed twice keeps its last entry, as a JSON object would.
          if (k + 1 < order.size() && r.failures[order[k + 1]].node == f.node) continue;
          w->Key(cluster->node(f.node).meta.name);
          w->String(f.predicate);
        }
        w->EndObject();
      });
    }
    if (d.pod.Key() == args.explain) explained = Explain(d, *cluster, cfg);
    if (r.chosen == kNoNode) {
      unscheduled.insert(d.pod.Key());
    } else {
      unscheduled.erase(d.pod.Key());
    }
    if (a.number == 1) progress.Update(++done);
  });
  for (const auto& [p, why] : skipped) {
    if (args.explain.empty() && args.output == "table") {
      table.AddRow({p.Key(), "-", "", "not scheduled: " + why});
    } else if (writer) {
      writer->BeginObject();
      writer->Key("pod");
      writer->String(p.Key());
      writer->Key("node");
      writer->Null();
      writer->Key("skipped");
      writer->String(why);
      writer->EndObject();
    }
  }

  if (writer) {
    writer->EndArray();
    writer->EndDocument();
  } else if (!args.explain.empty()) {
    out.Write(explained);
  } else {
    out.Write(done == 0 && skipped.empty() ? "No pending pods.\n" : table.Render());
  }
  out.Flush();
  if (!out.ok()) return ReportWriteError(out);
  return unscheduled.empty() ? kExitOk : kExitUnschedulable;
}

}  // namespace ksched
