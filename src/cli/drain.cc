// `ksched drain`: what `kubectl drain` of some nodes would do
// (planning/drain.h).
#include "planning/drain.h"

#include <fmt/format.h>

#include <algorithm>
#include <iostream>

#include "cli/commands.h"
#include "cli/input.h"
#include "cli/output.h"
#include "cli/planning_output.h"
#include "cli/simulated.h"

namespace ksched {

CLI::App* AddDrainCommand(CLI::App* app, DrainArgs* args) {
  CLI::App* cmd = app->add_subcommand(
      "drain",
      "Simulate kubectl drain --force --ignore-daemonsets: cordon the nodes, evict their\n"
      "  pods (DaemonSet and mirror pods stay; pods without a controller are deleted),\n"
      "  check PodDisruptionBudgets (one that blocks for good, or one kubectl's retries\n"
      "  get through once replacements are Ready), and schedule the replacements on the\n"
      "  rest of the cluster. A pod with an emptyDir volume stops kubectl unless\n"
      "  --delete-emptydir-data. The snapshot's pending pods are left out (counted).\n"
      "  Exit 0 when it is safe (every replacement fits, no budget blocks for good, no\n"
      "  local data in the way), 1 otherwise.\n"
      "  examples:\n"
      "    ksched drain -f snap.yaml node-a1\n"
      "    ksched drain -f snap.yaml node-a1 node-a2 -o json\n"
      "    ksched drain -f snap.yaml node-a1 -o html > drain.html");
  // One file per -f, so that the node names after it stay positional.
  cmd->add_option("-f,--filename", args->files,
                  "Snapshot file: YAML or JSON, a directory or a,b as kubectl reads them; - for "
                  "stdin; repeat -f for several")
      ->required()
      ->allow_extra_args(false)
      ->take_all();
  cmd->add_option("NODE", args->nodes, "Node(s) to drain")->required();
  cmd->add_option("-o,--output", args->output, "Output format: table, json, yaml or html")
      ->check(CLI::IsMember({"table", "json", "yaml", "html"}))
      ->capture_default_str();
  cmd->add_flag("--disable-preemption", args->disable_preemption,
                "Replacements do not preempt lower-priority pods (as kube-scheduler's flag)");
  cmd->add_flag("--delete-emptydir-data", args->delete_emptydir_data,
                "Go on with pods whose emptyDir volumes hold local data, deleting it (as "
                "kubectl drain's flag; without it such a pod stops the drain)");
  AddWarningsFlag(cmd, &args->warnings);
  args->flags.AddTo(cmd);
  return cmd;
}

int RunDrain(const DrainArgs& args) {
  if (auto config = args.flags.BuildEngine(); !config.ok()) {
    std::cerr << "ksched: " << config.error().message << "\n";
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
  // The evicted pods' replacements are scheduled like pending pods: warn,
  // as for those, when their controller is not in the snapshot.
  std::vector<Pod> evicted;
  for (const Pod& p : objects.pods) {
    if (std::find(args.nodes.begin(), args.nodes.end(), p.spec.node_name) != args.nodes.end())
      evicted.push_back(p);
  }
  CheckOwners(evicted, objects, &diag);
  diag.Print();
  planning::DrainOptions options;
  options.preemption = !args.disable_preemption;
  options.delete_emptydir_data = args.delete_emptydir_data;
  options.record_details = args.output == "html";
  auto r = planning::PlanDrain(std::move(objects), args.nodes, MakeSchedulerFactory(args.flags),
                               options);
  if (!r.ok()) {
    std::cerr << "ksched: " << r.error().message << "\n";
    return kExitBadInput;
  }
  const int status = r->safe ? kExitOk : kExitUnschedulable;
  if (args.output == "html") {
    planning::HtmlReport page;
    page.title = "ksched drain " + fmt::format("{}", fmt::join(args.nodes, " "));
    page.simulated = SimulatedText(SimulatedBy(args.flags));
    page.verdict = r->verdict;
    page.verdict_ok = r->safe;
    page.warnings = diag.Lines();
    page.summary = {
        {"evicted", std::to_string(r->evicted.size())},
        {"did not fit", std::to_string(r->unschedulable)},
        {"deleted (no controller)", std::to_string(r->deleted.size())},
        {"staying (DaemonSet, mirror)", std::to_string(r->staying.size())},
        {"with local data (emptyDir)", std::to_string(r->local_data.size())},
        {"the snapshot's pending pods (left out)", std::to_string(r->pending_left_out)}};
    page.before = r->before;
    page.after = r->after;
    page.marked_nodes = r->nodes;
    page.marked_as = "drained";
    page.priorities = r->priorities;
    for (const planning::EvictedPod& e : r->evicted) page.pods.push_back(e.record);
    planning::HtmlSection pdbs{
        "PodDisruptionBudgets that block", {"budget", "blocks", "why", "pods"}, {}};
    for (const planning::BlockingBudget& b : r->blocking)
      pdbs.rows.push_back({b.pdb, b.permanent ? "for good" : "until replacements are Ready", b.why,
                           fmt::format("{}", fmt::join(b.pods, ", "))});
    planning::HtmlSection local{
        "Local data (emptyDir) deleted by the eviction", {"pod", "node", "volumes"}, {}};
    for (const planning::LocalDataPod& l : r->local_data)
      local.rows.push_back({l.pod, l.node, fmt::format("{}", fmt::join(l.volumes, ", "))});
    planning::HtmlSection gone{"Deleted, not recreated (no controller)", {"pod", "node"}, {}};
    for (const planning::DeletedPod& d : r->deleted) gone.rows.push_back({d.pod, d.node});
    planning::HtmlSection stay{"Staying on the drained nodes", {"pod", "node", "why"}, {}};
    for (const planning::StayingPod& s : r->staying) stay.rows.push_back({s.pod, s.node, s.why});
    page.sections = {std::move(pdbs), std::move(local), std::move(gone), std::move(stay)};
    return WriteHtml(page, status);
  }
  std::string out;
  if (args.output == "table") {
    out += SimulatedLine(SimulatedBy(args.flags)) + "\n";
    out += r->verdict + "\n";
    if (!r->evicted.empty()) {
      out += "\n";
      TextTable table({"POD", "FROM", "NEW NODE", "MESSAGE"});
      for (const planning::EvictedPod& e : r->evicted) {
        std::string msg = e.record.error;
        if (!e.record.preempted_on.empty())
          msg += fmt::format("{}preempts {}", msg.empty() ? "" : " ",
                             fmt::join(e.record.victims, ", "));
        table.AddRow({e.record.pod, e.from, e.record.node.empty() ? "<none>" : e.record.node, msg});
      }
      out += table.Render();
    }
    if (!r->blocking.empty()) {
      out += "\n";
      TextTable table({"PODDISRUPTIONBUDGET", "BLOCKS", "WHY", "PODS"});
      for (const planning::BlockingBudget& b : r->blocking)
        table.AddRow({b.pdb, b.permanent ? "for good" : "until replacements are Ready", b.why,
                      fmt::format("{}", fmt::join(b.pods, ", "))});
      out += table.Render();
    }
    if (!r->local_data.empty()) {
      out += "\n";
      TextTable table({"POD", "NODE", "EMPTYDIR VOLUMES", "LOCAL DATA"});
      for (const planning::LocalDataPod& l : r->local_data)
        table.AddRow({l.pod, l.node, fmt::format("{}", fmt::join(l.volumes, ", ")),
                      r->local_data_blocks ? "stops kubectl drain (--delete-emptydir-data)"
                                           : "deleted (--delete-emptydir-data)"});
      out += table.Render();
    }
    if (!r->deleted.empty() || !r->staying.empty()) {
      out += "\n";
      TextTable table({"POD", "NODE", "FATE"});
      for (const planning::DeletedPod& d : r->deleted)
        table.AddRow({d.pod, d.node, "deleted, not recreated (no controller)"});
      for (const planning::StayingPod& s : r->staying)
        table.AddRow({s.pod, s.node, "stays (" + s.why + ")"});
      out += table.Render();
    }
  } else {
    using json = nlohmann::ordered_json;
    json j;
    AddSimulated(&j, SimulatedBy(args.flags));
    j["nodes"] = r->nodes;
    j["safe"] = r->safe;
    j["verdict"] = r->verdict;
    json ev = json::array();
    for (const planning::EvictedPod& e : r->evicted) {
      json x;
      x["pod"] = e.record.pod;
      x["from"] = e.from;
      x["priority"] = e.priority;
      x["node"] = e.record.node.empty() ? json() : json(e.record.node);
      if (!e.record.error.empty()) x["error"] = e.record.error;
      if (!e.record.preempted_on.empty()) {
        x["nominatedNode"] = e.record.preempted_on;
        x["victims"] = e.record.victims;
      }
      ev.push_back(std::move(x));
    }
    j["evicted"] = std::move(ev);
    json blocking = json::array();
    for (const planning::BlockingBudget& b : r->blocking) {
      json entry = {{"podDisruptionBudget", b.pdb},
                    {"disruptionsAllowed", b.disruptions_allowed},
                    {"permanent", b.permanent},
                    {"pods", b.pods},
                    {"reason", b.why}};
      if (!b.waits_for.empty()) entry["waitsFor"] = b.waits_for;
      blocking.push_back(std::move(entry));
    }
    j["blockingBudgets"] = std::move(blocking);
    json deleted = json::array();
    for (const planning::DeletedPod& d : r->deleted)
      deleted.push_back({{"pod", d.pod}, {"node", d.node}});
    j["deleted"] = std::move(deleted);
    json local = json::array();
    for (const planning::LocalDataPod& l : r->local_data)
      local.push_back({{"pod", l.pod}, {"node", l.node}, {"emptyDirVolumes", l.volumes}});
    j["localData"] = std::move(local);
    j["localDataBlocks"] = r->local_data_blocks;
    j["pendingLeftOut"] = r->pending_left_out;
    json stay = json::array();
    for (const planning::StayingPod& s : r->staying)
      stay.push_back({{"pod", s.pod}, {"node", s.node}, {"reason", s.why}});
    j["staying"] = std::move(stay);
    AddWarningsJson(diag.Lines(), &j);
    out = args.output == "json" ? j.dump(2) + "\n" : JsonToYaml(j);
  }
  OutputBuffer buf(stdout);
  buf.Write(out);
  buf.Flush();
  if (!buf.ok()) return ReportWriteError(buf);
  return status;
}

}  // namespace ksched
