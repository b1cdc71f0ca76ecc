// `ksched capacity`: how many more copies of a pod the cluster can take, in
// the manner of upstream's cluster-capacity tool: copies are scheduled one by
// one, each bound before the next, until one does not fit.
#include <fmt/format.h>

#include <cstdio>
#include <iostream>
#include <limits>
#include <map>

#include "api/decode.h"
#include "cache/node_tree.h"
#include "cli/commands.h"
#include "cli/input.h"
#include "cli/output.h"

namespace ksched {

CLI::App* AddCapacityCommand(CLI::App* app, CapacityArgs* args) {
  CLI::App* cmd = app->add_subcommand(
      "capacity",
      "Count how many more copies of a pod template fit in a cluster snapshot.\n"
      "  example: ksched capacity -f snap.yaml --pod web-pod.yaml --max 500");
  cmd->add_option("-f,--filename", args->files, "Snapshot file(s): YAML or JSON; - for stdin")
      ->required();
  cmd->add_option("--pod", args->pod_template, "File with exactly one Pod: the template")
      ->required();
  cmd->add_option("--max", args->max, "Stop after this many copies (default: until one fails)")
      ->check(IntegerIn(0, std::numeric_limits<int64_t>::max()));
  cmd->add_option("-o,--output", args->output, "Output format: table, json or yaml")
      ->check(CLI::IsMember({"table", "json", "yaml"}))
      ->capture_default_str();
  AddWarningsFlag(cmd, &args->warnings);
  args->flags.AddTo(cmd);
  return cmd;
}

int RunCapacity(const CapacityArgs& args) {
  // Decoded, defaulted and validated as the API server would store them.
  Diagnostics diag;
  auto loaded = LoadSnapshot(args.files, &diag);
  if (!loaded.ok()) {
    std::cerr << "ksched: " << loaded.error().message << "\n";
    return kExitBadInput;
  }
  ObjectSet objects = std::move(loaded).value();
  auto tmpl = LoadPods(args.pod_template, &diag);
  if (!tmpl.ok()) {
    std::cerr << "ksched: " << tmpl.error().message << "\n";
    return kExitBadInput;
  }
  if (tmpl->size() != 1) {
    std::cerr << "ksched: " << args.pod_template << ": expected exactly one Pod, found "
              << tmpl->size() << "\n";
    return kExitBadInput;
  }
  // Pending pods of the snapshot do not take part: the question is about the
  // room left next to what is running.
  auto cluster = ClusterState::Build(std::move(objects));
  if (!cluster.ok()) {
    std::cerr << "ksched: " << cluster.error().message << "\n";
    return kExitBadInput;
  }
  auto config = args.flags.Build();
  if (!config.ok()) {
    std::cerr << "ksched: " << config.error().message << "\n";
    return kExitBadInput;
  }
  Pod base = (*tmpl)[0];
  base.spec.node_name.clear();
  CheckOwners({base}, *cluster, &diag);
  if (args.warnings) diag.Print();
  NodeTree tree(*cluster);
  GenericScheduler scheduler(std::move(config).value(), args.flags.tie());
  std::map<std::string, int64_t> per_node;
  int64_t placed = 0;
  std::string stop_reason;
  ProgressBar progress(args.max > 0 ? static_cast<size_t>(args.max) : 0, "copies");
  while (args.max == 0 || placed < args.max) {
    Pod copy = base;
    copy.meta.name = fmt::format("{}-{}", base.meta.name, placed + 1);
    copy.meta.uid = copy.Key();
    ScheduleResult r = scheduler.Schedule(copy, *cluster, &tree);
    if (r.chosen == kNoNode) {
      stop_reason = r.error;
      break;
    }
    ++per_node[cluster->node(r.chosen).meta.name];
    cluster->Assume(std::move(copy), r.chosen);
    ++placed;
    progress.Update(static_cast<size_t>(placed));
  }
  if (stop_reason.empty()) stop_reason = fmt::format("reached --max {}", args.max);

  std::string out;
  if (args.output == "table") {
    out += fmt::format("{} more cop{} of {} fit.\n", placed, placed == 1 ? "y" : "ies", base.Key());
    out += fmt::format("Stopped: {}\n", stop_reason);
    if (!per_node.empty()) {
      out += "\n";
      TextTable table({"NODE", "COPIES"});
      for (const auto& [node, n] : per_node) table.AddRow({node, std::to_string(n)});
      out += table.Render();
    }
  } else {
    nlohmann::ordered_json j;
    j["pod"] = base.Key();
    j["count"] = placed;
    j["stopReason"] = stop_reason;
    nlohmann::ordered_json nodes = nlohmann::ordered_json::object();
    for (const auto& [node, n] : per_node) nodes[node] = n;
    j["perNode"] = std::move(nodes);
    if (std::vector<std::string> lines = diag.Lines(); args.warnings && !lines.empty())
      j["warnings"] = lines;
    out = args.output == "json" ? j.dump(2) + "\n" : JsonToYaml(j);
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
  return kExitOk;
}

}  // namespace ksched
