// `ksched capacity`: how many copies of some workloads a cluster snapshot
// takes, where they land and what stopped them (planning/capacity.h), or
// with --add-node how many nodes must be added for all of them to fit
// (planning/add_node.h).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdio>
#include <iostream>
#include <limits>

#include "api/defaults.h"
#include "api/validation.h"
#include "cli/commands.h"
#include "cli/input.h"
#include "cli/output.h"
#include "cli/planning_output.h"
#include "cli/simulated.h"

namespace ksched {
namespace {

nlohmann::ordered_json PodRecordJson(const planning::PodRecord& r) {
  nlohmann::ordered_json j;
  j["pod"] = r.pod;
  j["node"] = r.node.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(r.node);
  if (!r.error.empty()) j["error"] = r.error;
  if (!r.preempted_on.empty()) {
    j["nominatedNode"] = r.preempted_on;
    j["victims"] = r.victims;
  }
  return j;
}

}  // namespace

CLI::App* AddCapacityCommand(CLI::App* app, CapacityArgs* args) {
  CLI::App* cmd = app->add_subcommand(
      "capacity",
      "How many copies of some workloads fit in a cluster snapshot, and where.\n"
      "  --pod takes a Pod or a Deployment, ReplicaSet, StatefulSet, ReplicationController\n"
      "  or Job (its template; copies get the labels and owner its controller gives them).\n"
      "  FILE=N asks for N copies, FILE=max for as many as fit; without either, a\n"
      "  workload's spec.replicas (a Job's parallelism) is the count, and a bare Pod\n"
      "  is copied until one does not fit. The snapshot's pending pods go first, as\n"
      "  `ksched schedule` places them (preempting unless --disable-preemption).\n"
      "  examples:\n"
      "    ksched capacity -f snap.yaml --pod web-pod.yaml --max 500\n"
      "    ksched capacity -f snap.yaml --pod web-deploy.yaml=30 --pod db-sts.yaml -o json\n"
      "    ksched capacity -f snap.yaml --pod web-deploy.yaml=300 --add-node node-tmpl.yaml\n"
      "    ksched capacity -f snap.yaml --pod web-deploy.yaml=max -o html > capacity.html");
  cmd->add_option("-f,--filename", args->files,
                  "Snapshot file(s): YAML or JSON; a directory or a,b as kubectl reads them; - "
                  "for stdin")
      ->required();
  cmd->add_option("--pod", args->pods,
                  "Workload file, FILE[=N|=max]; repeat for several (queued by priority, then "
                  "in the order given)")
      ->required();
  cmd->add_option("-n,--namespace", args->ns,
                  "Namespace of the --pod objects that name none (default: default); an object "
                  "naming another is an error, as kubectl's -n. Objects of --pod files that are "
                  "not workloads (a Helm render's Service, ConfigMap, ...) are skipped, named "
                  "in one warning");
  cmd->add_option("--max", args->max,
                  "Stop a workload without a count after this many copies (default: until one "
                  "fails)")
      ->check(IntegerIn(0, std::numeric_limits<int64_t>::max()));
  cmd->add_option("-o,--output", args->output, "Output format: table, json, yaml or html")
      ->check(CLI::IsMember({"table", "json", "yaml", "html"}))
      ->capture_default_str();
  cmd->add_flag("--ignore-pending", args->ignore_pending,
                "Leave the snapshot's pending pods out (default: schedule them first, as "
                "`ksched schedule` does)");
  cmd->add_flag("--disable-preemption", args->disable_preemption,
                "The snapshot's pending pods do not preempt lower-priority pods (as `schedule "
                "--disable-preemption`; default: they do, as in `schedule`)");
  cmd->add_flag("--preemption", args->preemption,
                "Let copies preempt lower-priority pods, as the scheduler would (default: off, "
                "as cluster-capacity counts)");
  cmd->add_option(
         "--scheduler-name", args->scheduler_name,
         "Whose pending pods go first: spec.schedulerName of this scheduler. Default: "
         "every profile's schedulerName of --config (without --config: the default profile, named "
         "this, default-scheduler when not given)")
      ->each([args](const std::string& name) { args->flags.profile_name = name; });
  cmd->add_option("--add-node", args->add_node,
                  "Node template FILE[=MAX]: the fewest copies (0..MAX, default 1000) to add so "
                  "that every pending pod and every requested copy fits; repeat for several "
                  "templates (each answered on its own). -o html draws the first answer's run");
  cmd->add_option("--add-node-search", args->add_node_search,
                  "bisect (exponential then binary search) or linear (every k from 0: "
                  "exactly the smallest, more runs)")
      ->check(CLI::IsMember({"bisect", "linear"}))
      ->capture_default_str();
  AddWarningsFlag(cmd, &args->warnings);
  args->flags.AddTo(cmd);
  return cmd;
}

int RunCapacity(const CapacityArgs& args) {
  auto served = CheckFlagsAndServedNames(args.flags, args.scheduler_name);
  if (!served.ok()) {
    std::cerr << "ksched: " << served.error().message << "\n";
    return kExitBadInput;
  }
  // One Diagnostics for the snapshot and the workloads: printed once, and
  // the same lines in -o json|yaml|html.
  Diagnostics diag(args.flags);
  diag.set_shown(args.warnings);
  auto snap = LoadPlanningSnapshot(args.files, "", *served, &diag);
  if (!snap.ok()) {
    std::cerr << "ksched: " << snap.error().message << "\n";
    return kExitBadInput;
  }
  std::vector<planning::Workload> workloads;
  for (const std::string& p : args.pods) {
    auto ws = LoadWorkloadArg(p, args.ns, &diag);
    if (!ws.ok()) {
      std::cerr << "ksched: " << ws.error().message << "\n";
      return kExitBadInput;
    }
    for (planning::Workload& w : *ws) workloads.push_back(std::move(w));
  }
  planning::UseCurrentReplicaSets(snap->objects.replica_sets, &workloads);
  diag.Print();
  const std::vector<std::string> warnings = diag.Lines();
  planning::CapacityOptions options;
  options.schedule_pending = !args.ignore_pending;
  options.pending_preemption = !args.disable_preemption;
  options.preemption = args.preemption;
  options.max = args.max;
  if (!args.add_node.empty()) {
    return RunAddNode(*snap, workloads, args.add_node, args.add_node_search, args.flags, options,
                      args.output, warnings);
  }
  options.record_details = args.output == "html";
  TimedProgress progress;
  options.progress = [&](const planning::Workload& w, int64_t placed) {
    progress.Update(fmt::format("{}: {} copies placed", w.Label(), placed));
  };
  const size_t num_pending = snap->pending.size();
  auto r = planning::PlanCapacity(std::move(snap->objects), std::move(snap->pending), workloads,
                                  MakeSchedulerFactory(args.flags), options);
  if (!r.ok()) {
    std::cerr << "ksched: " << r.error().message << "\n";
    return kExitBadInput;
  }
  bool some_none = false;
  for (const planning::WorkloadOutcome& w : r->workloads)
    some_none = some_none || (w.placed == 0 && (!w.requested || *w.requested > 0));
  const int status = some_none ? kExitUnschedulable : kExitOk;

  std::string pending_line;
  if (!r->pending_scheduled) {
    pending_line = fmt::format("left out (--ignore-pending; the snapshot has {})", num_pending);
  } else if (num_pending == 0) {
    pending_line = "none in the snapshot";
  } else {
    pending_line =
        fmt::format("{} scheduled first, as `ksched schedule` would{}: {} placed, {} did not fit",
                    num_pending, args.disable_preemption ? " with --disable-preemption" : "",
                    num_pending - r->pending_unscheduled, r->pending_unscheduled);
  }

  if (args.output == "html") {
    planning::HtmlReport page;
    page.title = "ksched capacity";
    page.simulated = SimulatedText(SimulatedBy(args.flags));
    page.warnings = warnings;
    page.verdict_ok = !some_none;
    for (const planning::WorkloadOutcome& w : r->workloads) {
      page.verdict += fmt::format("{}{}: {}{} fit", page.verdict.empty() ? "" : "; ", w.label,
                                  w.placed, w.requested ? fmt::format(" of {}", *w.requested) : "");
    }
    page.summary.push_back({"pending pods", pending_line});
    for (const planning::WorkloadOutcome& w : r->workloads)
      page.summary.push_back({w.label + " stopped", w.stop_reason});
    AddCapacityRun(*r, &page);
    return WriteHtml(page, status);
  }

  std::string out;
  if (args.output == "table") {
    out += SimulatedLine(SimulatedBy(args.flags)) + "\n";
    out += "Pending pods: " + pending_line + "\n";
    for (const planning::PodRecord& p : r->pending) {
      if (!p.victims.empty()) {
        out += fmt::format("  {} preempted {} on {}{}\n", p.pod, fmt::join(p.victims, ", "),
                           p.preempted_on, p.node.empty() ? " (and still did not fit)" : "");
      }
      if (p.node.empty()) out += fmt::format("  {} did not fit: {}\n", p.pod, p.error);
    }
    for (const planning::WorkloadOutcome& w : r->workloads) {
      out += "\n";
      if (w.requested) {
        out += fmt::format("{}: {} of {} requested cop{} fit.\n", w.label, w.placed, *w.requested,
                           *w.requested == 1 ? "y" : "ies");
      } else {
        out +=
            fmt::format("{}: {} more cop{} fit.\n", w.label, w.placed, w.placed == 1 ? "y" : "ies");
      }
      out += fmt::format("Stopped: {}\n", w.stop_reason);
      if (!w.per_node.empty()) {
        TextTable table({"NODE", "COPIES"});
        for (const auto& [node, n] : w.per_node) table.AddRow({node, std::to_string(n)});
        out += table.Render();
      }
    }
  } else {
    nlohmann::ordered_json j;
    AddSimulated(&j, SimulatedBy(args.flags));
    nlohmann::ordered_json pending;
    pending["scheduledFirst"] = r->pending_scheduled;
    pending["count"] = r->pending_scheduled ? num_pending : 0;
    pending["unscheduled"] = r->pending_unscheduled;
    nlohmann::ordered_json pods = nlohmann::ordered_json::array();
    for (const planning::PodRecord& p : r->pending) pods.push_back(PodRecordJson(p));
    pending["pods"] = std::move(pods);
    j["pending"] = std::move(pending);
    nlohmann::ordered_json ws = nlohmann::ordered_json::array();
    for (const planning::WorkloadOutcome& w : r->workloads) {
      nlohmann::ordered_json e;
      e["workload"] = w.label;
      e["file"] = w.file;
      e["priority"] = w.priority;
      e["requested"] =
          w.requested ? nlohmann::ordered_json(*w.requested) : nlohmann::ordered_json();
      e["count"] = w.placed;
      e["stopReason"] = w.stop_reason;
      if (!w.failed_pod.empty()) e["failedPod"] = w.failed_pod;
      nlohmann::ordered_json nodes = nlohmann::ordered_json::object();
      for (const auto& [node, n] : w.per_node) nodes[node] = n;
      e["perNode"] = std::move(nodes);
      ws.push_back(std::move(e));
    }
    j["workloads"] = std::move(ws);
    AddWarningsJson(warnings, &j);
    out = args.output == "json" ? j.dump(2) + "\n" : JsonToYaml(j);
  }
  OutputBuffer buf(stdout);
  buf.Write(out);
  buf.Flush();
  if (!buf.ok()) return ReportWriteError(buf);
  return status;
}

}  // namespace ksched
