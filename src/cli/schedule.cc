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
#include "cli/explain_report.h"
#include "cli/input.h"
#include "cli/output.h"
#include "cli/replay.h"
#include "cli/simulated.h"
#include "cli/step_writer.h"
#include "loop/snapshot_loop.h"
#include "planning/html_report.h"
#include "planning/report.h"
#include "planning/snapshot.h"

namespace ksched {

CLI::App* AddScheduleCommand(CLI::App* app, ScheduleArgs* args) {
  CLI::App* cmd = app->add_subcommand(
      "schedule",
      "Schedule the pending pods of a cluster snapshot and explain the decisions (as\n"
      "  kube-scheduler v1.35 does; --scheduler-version v1.26 or v1.15 for those).\n"
      "  example: kubectl get "
      "nodes,pods,services,rc,rs,statefulsets,daemonsets,pv,pvc,storageclasses,pdb,"
      "priorityclasses,namespaces,csinodes,csidrivers -A -o yaml > snap.yaml\n"
      "           ksched schedule -f snap.yaml --explain default/web-3\n"
      "           ksched schedule -f snap.yaml -o html > report.html\n"
      "           ksched schedule -f snap.yaml --add-node node-template.yaml=200");
  cmd->add_option("-f,--filename", args->files,
                  "Snapshot file(s): YAML or JSON, List or multi-document; a directory (its .yaml, "
                  ".yml and .json files) or a,b as kubectl reads them; - for stdin")
      ->required();
  cmd->add_option("--pending", args->pending_file,
                  "Pods to schedule instead of the snapshot's pending pods. They go in queue "
                  "order, as kube-scheduler's queue takes them: higher spec.priority first, "
                  "then the order in the file (default: the snapshot's pods without a node, "
                  "priority first, then oldest first). The snapshot's pending pods are left "
                  "out, named in a warning, unless --keep-pending");
  cmd->add_flag("--keep-pending", args->keep_pending,
                "With --pending: the snapshot's pending pods stay and compete with the file's "
                "(queue order: priority, then the snapshot's pods by age, then the file's)");
  cmd->add_option("-o,--output", args->output, "Output format: table, json, yaml or html")
      ->check(CLI::IsMember({"table", "json", "yaml", "html"}))
      ->capture_default_str();
  cmd->add_option("--add-node", args->add_node,
                  "Node template FILE[=MAX]: the fewest copies (0..MAX, default 1000) to add so "
                  "that every pending pod fits; repeat for several templates (each answered "
                  "on its own). -o html draws the first answer's run");
  cmd->add_option("--add-node-search", args->add_node_search,
                  "bisect (exponential then binary search) or linear (every k from 0: "
                  "exactly the smallest, more runs)")
      ->check(CLI::IsMember({"bisect", "linear"}))
      ->capture_default_str();
  cmd->add_option("--explain", args->explain,
                  "namespace/name (or name, in default) of one pending pod: every node's verdict, "
                  "the cause of each failure and the scores; honours -o json|yaml|html");
  cmd->add_option(
         "--scheduler-name", args->scheduler_name,
         "Schedule only pods whose spec.schedulerName is this (as kube-scheduler's "
         "flag); others are listed as left to their scheduler. Default: every "
         "profile's schedulerName of --config (without --config: the default profile, named "
         "this, default-scheduler when not given)")
      ->each([args](const std::string& name) { args->flags.profile_name = name; });
  cmd->add_flag("--disable-preemption", args->disable_preemption,
                "Do not preempt lower-priority pods for a pod that fits nowhere (as "
                "kube-scheduler's flag)");
  AddWarningsFlag(cmd, &args->warnings);
  args->flags.AddTo(cmd);
  return cmd;
}

int RunSchedule(const ScheduleArgs& args) {
  if (!args.add_node.empty()) return RunScheduleAddNode(args);
  if (args.output == "html" && args.explain.empty()) return RunScheduleHtml(args);
  auto engine = args.flags.BuildEngine();
  if (!engine.ok()) {
    std::cerr << "ksched: " << engine.error().message << "\n";
    return kExitBadInput;
  }
  // Decoded, defaulted and validated as the API server would store them.
  Diagnostics diag(args.flags);
  diag.set_shown(args.warnings);
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
  auto cluster = ClusterState::Build(std::move(objects), &pending, (*engine)->cache_options());
  if (!cluster.ok()) {
    std::cerr << "ksched: " << cluster.error().message << "\n";
    return kExitBadInput;
  }
  // Arrival order: the API server's creation time, then namespace/name.
  std::stable_sort(pending.begin(), pending.end(), [](const Pod& a, const Pod& b) {
    if (a.meta.creation_timestamp != b.meta.creation_timestamp)
      return a.meta.creation_timestamp < b.meta.creation_timestamp;
    return a.Key() < b.Key();
  });
  if (!args.pending_file.empty()) {
    NotePendingLeftOut(pending, args.pending_file, args.keep_pending, &diag);
    if (!args.keep_pending) pending.clear();
    // The file's pods after the snapshot's (kept by --keep-pending), in the
    // file's order.
    auto pods = LoadPods(args.pending_file, &diag);
    if (!pods.ok()) {
      std::cerr << "ksched: " << pods.error().message << "\n";
      return kExitBadInput;
    }
    if (Status s = ApplyPriorityClasses(cluster->priority_classes(), &*pods, args.pending_file);
        !s.ok()) {
      std::cerr << "ksched: " << s.error().message << "\n";
      return kExitBadInput;
    }
    for (Pod& p : *pods) pending.push_back(std::move(p));
  }
  // Which pending pods are this scheduler's, as upstream decides: its
  // schedulerName, and not being deleted.
  std::vector<std::pair<Pod, std::string>> skipped;
  const std::vector<std::string> served = ServedSchedulerNames(args.scheduler_name, **engine);
  {
    std::vector<Pod> mine;
    for (Pod& p : pending) {
      const std::string& name =
          p.spec.scheduler_name.empty() ? std::string("default-scheduler") : p.spec.scheduler_name;
      if (p.meta.has_deletion_timestamp) {
        skipped.emplace_back(std::move(p), "being deleted (metadata.deletionTimestamp is set)");
      } else if (std::find(served.begin(), served.end(), name) == served.end()) {
        skipped.emplace_back(std::move(p), planning::LeftToOtherScheduler(name, served));
      } else {
        mine.push_back(std::move(p));
      }
    }
    pending = std::move(mine);
  }
  for (Pod& p : pending)
    if (p.meta.uid.empty()) p.meta.uid = p.Key();
  CheckOwners(pending, *cluster, &diag);
  // As kubectl: a name without a namespace is in "default".
  const std::string explain_key =
      args.explain.empty() || args.explain.find('/') != std::string::npos
          ? args.explain
          : "default/" + args.explain;
  if (!explain_key.empty()) {
    bool found = std::any_of(pending.begin(), pending.end(),
                             [&](const Pod& p) { return p.Key() == explain_key; });
    if (!found) {
      for (const auto& [p, why] : skipped) {
        if (p.Key() == explain_key) {
          std::cerr << "ksched: --explain " << explain_key << ": not scheduled here: " << why
                    << "\n";
          return kExitBadInput;
        }
      }
      // The same name in other namespaces, as a hint: kubectl's default
      // namespace is the usual slip.
      const std::string name = explain_key.substr(explain_key.find('/') + 1);
      std::set<std::string> namespaces;
      for (const Pod& p : pending)
        if (p.meta.name == name) namespaces.insert(std::string(Str(p.meta.ns)));
      std::string hint;
      for (const std::string& ns : namespaces) hint += (hint.empty() ? "" : ", ") + ns + "/" + name;
      std::cerr << "ksched: --explain " << explain_key
                << ": no such pending pod (use namespace/name of a pod without spec.nodeName)"
                << (hint.empty() ? "" : "; pending in another namespace: " + hint) << "\n";
      return kExitBadInput;
    }
  }
  diag.Print();
  NodeTree tree(*cluster);
  const ScoreColumns& cfg = (*engine)->score_columns();
  const Simulated simulated = SimulatedBy(**engine);
  ProgressBar progress(pending.size(), "pods");
  // The explained pod's attempts (two when the first preempted).
  struct ExplainedAttempt {
    Decision decision;
    std::vector<std::vector<explain::Cause>> causes;
  };
  std::vector<ExplainedAttempt> explained;
  std::vector<planning::NodeUsage> explained_usage;  // the cluster its first attempt saw
  TextTable table({"POD", "NODE", "SCORE", "MESSAGE"});
  std::set<std::string> unscheduled;  // pods whose last attempt failed
  size_t done = 0;
  // JSON and YAML are streamed, one step at a time: at 5,000 nodes a step
  // is most of a megabyte.
  OutputBuffer out(stdout);
  std::unique_ptr<DocumentWriter> writer;
  const bool explain = !explain_key.empty();
  if (!explain && args.output != "table") {
    writer =
        args.output == "json" ? MakeJsonWriter(&out, JsonStyle::kIndented) : MakeYamlWriter(&out);
    writer->BeginArray();
  }
  LoopOptions loop_options;
  loop_options.preemption = !args.disable_preemption;
  loop_options.record_preemption_details = !explain_key.empty();
  SnapshotLoop loop(engine->get(), &*cluster, &tree, loop_options);
  loop.Run(std::move(pending), [&](const Attempt& a) {
    Decision d;
    d.pod = *a.pod;
    d.result = a.result;
    d.preemption = a.preemption;
    // The v1.26 framework's own record of this cycle (its CycleState, the
    // PreFilter outcome): plugin causes read it.
    const framework::CycleResult* cycle = (*engine)->LastCycle();
    d.framework = (*engine)->framework();
    const bool explaining = explain && d.pod.Key() == explain_key;
    if (cycle != nullptr && (writer || explaining))
      d.pre_filter = ExplainPreFilter(d.pod, *cycle, d.result, *cluster, explaining);
    const ScheduleResult& r = d.result;
    if (r.scored) {
      for (size_t k = 0; k < r.feasible.size(); ++k)
        if (r.feasible[k] == r.chosen) d.score = r.totals[k];
    }
    const PreemptionResult* p = d.preemption ? &*d.preemption : nullptr;
    const bool preempted = p != nullptr && p->error.empty() && p->node != kNoNode;
    if (explain_key.empty() && args.output == "table") {
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
        WriteSimulatedFields(w, simulated);
        if (p != nullptr) WritePreemptionField(w, *p, *cluster);
        if (r.scored) {
          w->Key("score");
          w->Int(d.score);
        }
        if (a.number == 2) {
          w->Key("attempt");
          w->Int(2);
        }
        if (std::vector<std::string> lines = diag.LinesFor(d.pod.Key()); !lines.empty()) {
          w->Key("warnings");
          w->BeginArray();
          for (const std::string& l : lines) w->String(l);
          w->EndArray();
        }
        // v1.15 names the failing predicate, v1.26 the failing plugin.
        WriteFailedByField(w, r, *cluster, d.framework);
        // Beside upstream's reasons, what caused them (detailed path only).
        WriteCausesField(w, r, ExplainFailures(d.pod, r, *cluster, &loop.nominated(), cycle),
                         *cluster);
        if (d.pre_filter) WritePreFilterField(w, *d.pre_filter, *cluster);
      });
    }
    if (explaining) {
      // The cluster changes after this call (binding, victims): explain now.
      explained.push_back({d, ExplainFailures(d.pod, r, *cluster, &loop.nominated(), cycle)});
      if (args.output == "html" && explained.size() == 1)
        explained_usage = planning::TakeUsage(*cluster);
    }
    if (r.chosen == kNoNode) {
      unscheduled.insert(d.pod.Key());
    } else {
      unscheduled.erase(d.pod.Key());
    }
    if (a.number == 1) progress.Update(++done);
  });
  for (const auto& [p, why] : skipped) {
    if (explain_key.empty() && args.output == "table") {
      table.AddRow({p.Key(), "-", "", "not scheduled: " + why});
    } else if (writer) {
      writer->BeginObject();
      writer->Key("pod");
      writer->String(p.Key());
      writer->Key("node");
      writer->Null();
      writer->Key("skipped");
      writer->String(why);
      WriteSimulatedFields(writer.get(), simulated);
      writer->EndObject();
    }
  }

  if (writer) {
    writer->EndArray();
    writer->EndDocument();
  } else if (explain) {
    std::string text;
    if (args.output == "table") {
      for (size_t i = 0; i < explained.size(); ++i) {
        if (explained.size() > 1) {
          text += i == 0 ? "Attempt 1 (it preempted, then was retried):\n\n"
                         : "\nAttempt 2 (after preemption):\n\n";
        }
        text += ExplainTable(explained[i].decision, explained[i].causes, *cluster, cfg,
                             TerminalWidth());
      }
      text = SimulatedLine(simulated) + "\n" + text;
    } else if (args.output == "html") {
      std::vector<Decision> decisions;
      std::vector<std::vector<std::vector<explain::Cause>>> causes;
      for (const ExplainedAttempt& e : explained) {
        decisions.push_back(e.decision);
        causes.push_back(e.causes);
      }
      planning::HtmlReport page =
          ExplainHtml(decisions, causes, *cluster, cfg, std::move(explained_usage));
      page.warnings = diag.Lines();
      page.simulated = SimulatedText(simulated);
      text = planning::RenderHtml(page);
    } else if (!explained.empty()) {
      // One document: the last attempt, earlier ones inside it.
      OutputBuffer buffer(&text);
      auto w = args.output == "json" ? MakeJsonWriter(&buffer, JsonStyle::kIndented)
                                     : MakeYamlWriter(&buffer);
      const ExplainedAttempt& last = explained.back();
      WriteExplain(w.get(), last.decision, last.causes, *cluster, cfg, [&](DocumentWriter* dw) {
        dw->Key("attempt");
        dw->Int(static_cast<int64_t>(explained.size()));
        WriteSimulatedFields(dw, simulated);
        // Every warning about the input, as stderr has them.
        if (std::vector<std::string> lines = diag.Lines(); !lines.empty()) {
          dw->Key("warnings");
          dw->BeginArray();
          for (const std::string& l : lines) dw->String(l);
          dw->EndArray();
        }
        if (explained.size() < 2) return;
        dw->Key("earlierAttempts");
        dw->BeginArray();
        for (size_t i = 0; i + 1 < explained.size(); ++i)
          WriteExplain(dw, explained[i].decision, explained[i].causes, *cluster, cfg);
        dw->EndArray();
      });
      w->EndDocument();
    }
    out.Write(text);
  } else {
    out.Write(SimulatedLine(simulated) + "\n" +
              (done == 0 && skipped.empty() ? "No pending pods.\n" : table.Render()));
  }
  out.Flush();
  if (!out.ok()) return ReportWriteError(out);
  return unscheduled.empty() ? kExitOk : kExitUnschedulable;
}

}  // namespace ksched
