// `ksched schedule`: where would the pending pods of a snapshot land, and why not.
#include <algorithm>
#include <cstdio>
#include <iostream>

#include <fmt/format.h>

#include "api/decode.h"
#include "cache/node_tree.h"
#include "cli/commands.h"
#include "cli/output.h"
#include "cli/replay.h"

namespace ksched {
namespace {

struct Decision {
  Pod pod;
  ScheduleResult result;
  int64_t score = 0;  // total of the chosen node, when scored
};

// Strips the "Priority" suffix upstream names carry, for narrow columns.
std::string ShortName(const std::string& name) {
  std::string s = name;
  const std::string suffix = "Priority";
  if (s.size() > suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0)
    s.resize(s.size() - suffix.size());
  return s;
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
    std::vector<std::string> row = {cluster.node(n).meta.name, n == r.chosen ? "fits (chosen)" : "fits"};
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
  args->flags.AddTo(cmd);
  return cmd;
}

int RunSchedule(const ScheduleArgs& args) {
  ObjectSet objects;
  for (const std::string& f : args.files) {
    if (Status s = DecodeFile(f, &objects); !s.ok()) {
      std::cerr << "ksched: " << s.error().message << "\n";
      return kExitBadInput;
    }
  }
  std::vector<Pod> pending;
  auto cluster = ClusterState::Build(std::move(objects), &pending);
  if (!cluster.ok()) {
    std::cerr << "ksched: " << cluster.error().message << "\n";
    return kExitBadInput;
  }
  if (!args.pending_file.empty()) {
    ObjectSet p;
    if (Status s = DecodeFile(args.pending_file, &p); !s.ok()) {
      std::cerr << "ksched: " << s.error().message << "\n";
      return kExitBadInput;
    }
    pending = std::move(p.pods);
  } else {
    std::stable_sort(pending.begin(), pending.end(), [](const Pod& a, const Pod& b) {
      if (a.meta.creation_timestamp != b.meta.creation_timestamp)
        return a.meta.creation_timestamp < b.meta.creation_timestamp;
      return a.Key() < b.Key();
    });
  }
  for (Pod& p : pending)
    if (p.meta.uid.empty()) p.meta.uid = p.Key();
  if (!args.explain.empty()) {
    bool found = std::any_of(pending.begin(), pending.end(),
                             [&](const Pod& p) { return p.Key() == args.explain; });
    if (!found) {
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

  NodeTree tree(*cluster);
  GenericScheduler scheduler(std::move(config).value(), args.flags.tie());
  const SchedulerConfig& cfg = scheduler.config();
  ProgressBar progress(pending.size(), "pods");
  bool all_fit = true;
  std::string explained;
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  TextTable table({"POD", "NODE", "SCORE", "MESSAGE"});
  for (size_t i = 0; i < pending.size(); ++i) {
    Decision d;
    d.result = scheduler.Schedule(pending[i], *cluster, &tree);
    const ScheduleResult& r = d.result;
    if (r.scored) {
      for (size_t k = 0; k < r.feasible.size(); ++k)
        if (r.feasible[k] == r.chosen) d.score = r.totals[k];
    }
    d.pod = pending[i];
    if (args.output == "table") {
      table.AddRow({d.pod.Key(), r.chosen == kNoNode ? "<none>" : cluster->node(r.chosen).meta.name,
                    r.scored ? std::to_string(d.score) : "",
                    r.chosen == kNoNode ? r.error
                    : r.scored          ? ""
                                        : "the only node that fits (not scored)"});
    } else {
      auto step = StepObject(d.pod, r, *cluster, cfg);
      if (r.scored) step["score"] = d.score;
      nlohmann::ordered_json preds = nlohmann::ordered_json::object();
      std::vector<const NodeFailure*> fs;
      for (const NodeFailure& f : r.failures) fs.push_back(&f);
      std::sort(fs.begin(), fs.end(), [&](auto* a, auto* b) {
        return cluster->node(a->node).meta.name < cluster->node(b->node).meta.name;
      });
      for (auto* f : fs) preds[cluster->node(f->node).meta.name] = f->predicate;
      step["failedPredicates"] = std::move(preds);
      list.push_back(std::move(step));
    }
    if (d.pod.Key() == args.explain) explained = Explain(d, *cluster, cfg);
    if (r.chosen == kNoNode) {
      all_fit = false;
    } else {
      cluster->Assume(std::move(d.pod), r.chosen);
    }
    progress.Update(i + 1);
  }

  std::string out;
  if (!args.explain.empty()) {
    out = explained;
  } else if (args.output == "table") {
    out = pending.empty() ? "No pending pods.\n" : table.Render();
  } else if (args.output == "json") {
    out = list.dump(2) + "\n";
  } else {
    out = JsonToYaml(list);
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
  return all_fit ? kExitOk : kExitUnschedulable;
}

}  // namespace ksched
