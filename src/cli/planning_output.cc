#include "cli/planning_output.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <cstdio>
#include <iostream>

#include "api/priority_admission.h"
#include "cli/commands.h"
#include "cli/input.h"
#include "cli/output.h"
#include "cli/simulated.h"

namespace ksched {

planning::SchedulerFactory MakeSchedulerFactory(const SchedulerFlags& flags) {
  return [flags]() -> Result<std::unique_ptr<Engine>> { return flags.BuildEngine(); };
}

Result<std::vector<std::string>> CheckFlagsAndServedNames(const SchedulerFlags& flags,
                                                          const std::string& scheduler_name) {
  auto engine = flags.BuildEngine();
  if (!engine.ok()) return engine.error();
  return ServedSchedulerNames(scheduler_name, **engine);
}

Result<planning::Snapshot> LoadPlanningSnapshot(const std::vector<std::string>& files,
                                                const std::string& pending_file,
                                                const std::vector<std::string>& scheduler_names,
                                                Diagnostics* diag, bool keep_pending) {
  // Decoded, defaulted and validated as the API server would store them.
  auto objects = LoadSnapshot(files, diag);
  if (!objects.ok()) return objects.error();
  auto snap = planning::SplitSnapshot(std::move(objects).value(), scheduler_names);
  if (!snap.ok()) return snap;
  if (pending_file.empty()) {
    CheckOwners(snap->pending, snap->objects, diag);
    return snap;
  }
  auto pods = LoadPods(pending_file, diag);
  if (!pods.ok()) return pods.error();
  CheckOwners(*pods, snap->objects, diag);
  struct {
    std::vector<Pod> pods;
  } p;
  p.pods = std::move(pods).value();
  if (Status s = ApplyPriorityClasses(snap->objects.priority_classes, &p.pods, pending_file);
      !s.ok())
    return s.error();
  for (Pod& pod : p.pods) {
    pod.spec.node_name.clear();
    if (pod.meta.uid.empty()) pod.meta.uid = pod.Key();
  }
  NotePendingLeftOut(snap->pending, pending_file, keep_pending, diag);
  if (!keep_pending) snap->pending.clear();
  for (Pod& pod : p.pods) snap->pending.push_back(std::move(pod));
  return snap;
}

int RunAddNode(const planning::Snapshot& snapshot, const std::vector<planning::Workload>& workloads,
               const std::vector<std::string>& templates, const std::string& search,
               const SchedulerFlags& flags, const planning::CapacityOptions& options,
               const std::string& output, const std::vector<std::string>& warnings) {
  std::vector<planning::AddNodeAnswer> answers;
  std::vector<planning::NodeTemplate> loaded;
  TimedProgress progress;
  for (const std::string& arg : templates) {
    auto t = planning::LoadNodeTemplate(arg);
    if (!t.ok()) {
      std::cerr << "ksched: " << t.error().message << "\n";
      return kExitBadInput;
    }
    loaded.push_back(*t);
    progress.Update(fmt::format("--add-node {}: searching", t->file));
    auto a = planning::FindNodesToAdd(
        snapshot, workloads, *t, MakeSchedulerFactory(flags), options,
        search == "linear" ? planning::SearchMode::kLinear : planning::SearchMode::kBisect);
    if (!a.ok()) {
      std::cerr << "ksched: " << a.error().message << "\n";
      return kExitBadInput;
    }
    answers.push_back(std::move(a).value());
  }
  bool all = true;
  std::string out;
  auto runs = [](const planning::AddNodeAnswer& a) {
    std::string s;
    for (const planning::Trial& t : a.trials)
      s += fmt::format("{}{}{}", s.empty() ? "" : " ", t.k, t.ok ? "+" : "-");
    return s;
  };
  if (output == "html") {
    // The page: every answer in the summary; bars, placements and copies of
    // the first template with an answer, run again with its k recording
    // details, the added nodes marked.
    planning::HtmlReport page;
    page.title = "ksched --add-node";
    page.simulated = SimulatedText(SimulatedBy(flags));
    page.warnings = warnings;
    for (size_t i = 0; i < answers.size(); ++i) {
      const planning::AddNodeAnswer& a = answers[i];
      all = all && a.nodes.has_value();
      const std::string answer = a.nodes ? fmt::format("{} {} to add", *a.nodes, a.template_name)
                                         : fmt::format("none up to {}", a.max);
      page.verdict += (page.verdict.empty() ? "" : "; ") + answer;
      std::string detail = fmt::format("{} (runs: {})", answer, runs(a));
      if (!a.daemon_sets.empty())
        detail += fmt::format("; each runs the DaemonSets {}", fmt::join(a.daemon_sets, ", "));
      if (!a.never.empty()) {
        detail += fmt::format("; no number of nodes helps: {} cannot run on a new {}: {}",
                              a.never_pod, a.template_name, a.never);
      } else if (!a.nodes) {
        detail += fmt::format("; with {} added, {} does not fit: {}", a.max, a.failed_pod, a.error);
      }
      page.summary.push_back({a.template_name + " (" + a.file + ")", detail});
    }
    page.verdict_ok = all;
    for (size_t i = 0; i < answers.size(); ++i) {
      const planning::AddNodeAnswer& a = answers[i];
      if (!a.nodes) continue;
      ObjectSet objects = snapshot.objects;
      std::vector<Node> copies = planning::NodeCopies(loaded[i], *a.nodes);
      std::vector<Pod> daemon_pods = planning::DaemonPodsOn(a.daemons, copies);
      for (const Node& n : copies) page.marked_nodes.push_back(n.meta.name);
      objects.nodes.insert(objects.nodes.end(), copies.begin(), copies.end());
      objects.pods.insert(objects.pods.end(), daemon_pods.begin(), daemon_pods.end());
      planning::CapacityOptions detailed = options;
      detailed.preemption = false;
      detailed.pending_preemption = false;
      detailed.stop_at_first_failure = false;
      detailed.record_details = true;
      detailed.progress = nullptr;
      auto r = planning::PlanCapacity(std::move(objects), snapshot.pending, workloads,
                                      MakeSchedulerFactory(flags), detailed);
      if (!r.ok()) {
        std::cerr << "ksched: " << r.error().message << "\n";
        return kExitBadInput;
      }
      page.title += " " + a.template_name;
      page.marked_as = "added";
      AddCapacityRun(*r, &page);
      break;
    }
    return WriteHtml(page, all ? kExitOk : kExitUnschedulable);
  }
  if (output == "table") {
    TextTable table({"TEMPLATE", "FILE", "NODES TO ADD", "RUNS (k+ fits, k- does not)"});
    std::string notes;
    for (const planning::AddNodeAnswer& a : answers) {
      all = all && a.nodes.has_value();
      table.AddRow({a.template_name, a.file,
                    a.nodes ? std::to_string(*a.nodes) : fmt::format("none up to {}", a.max),
                    runs(a)});
      notes += "\n";
      notes +=
          a.daemon_sets.empty()
              ? fmt::format("Each new {} runs no DaemonSet pod.\n", a.template_name)
              : fmt::format("Each new {} runs the pods of {} DaemonSet{}: {}.\n", a.template_name,
                            a.daemon_sets.size(), a.daemon_sets.size() == 1 ? "" : "s",
                            fmt::join(a.daemon_sets, ", "));
      if (!a.never.empty()) {
        notes += fmt::format(
            "{}: no number of nodes helps: {} cannot run on a new {}: {}. With {} added, {} "
            "still does not fit: {}\n",
            a.template_name, a.never_pod, a.template_name, a.never, a.max, a.failed_pod, a.error);
      } else if (!a.nodes) {
        notes += fmt::format("{}: even with {} nodes added, {} does not fit: {}\n", a.template_name,
                             a.max, a.failed_pod, a.error);
      }
      if (const planning::Trial* t = a.answer_trial()) {
        if (!t->placements.empty()) {
          notes += fmt::format("With {} {} added, the pending pods land here:\n", *a.nodes,
                               a.template_name);
          TextTable where({"POD", "NODE"});
          for (const auto& [pod, node] : t->placements) where.AddRow({pod, node});
          notes += where.Render();
        }
        for (const planning::WorkloadOutcome& w : t->workloads) {
          notes +=
              fmt::format("With {} {} added, {} lands here:\n", *a.nodes, a.template_name, w.label);
          TextTable where({"NODE", "COPIES"});
          for (const auto& [node, n] : w.per_node) where.AddRow({node, std::to_string(n)});
          notes += where.Render();
        }
      }
    }
    out = SimulatedLine(SimulatedBy(flags)) + "\n" + table.Render() + notes;
  } else {
    nlohmann::ordered_json j = nlohmann::ordered_json::array();
    for (const planning::AddNodeAnswer& a : answers) {
      all = all && a.nodes.has_value();
      nlohmann::ordered_json e;
      e["template"] = a.template_name;
      AddSimulated(&e, SimulatedBy(flags));
      e["file"] = a.file;
      e["max"] = a.max;
      e["nodes"] = a.nodes ? nlohmann::ordered_json(*a.nodes) : nlohmann::ordered_json();
      e["daemonSets"] = a.daemon_sets;
      nlohmann::ordered_json trials = nlohmann::ordered_json::array();
      for (const planning::Trial& t : a.trials) trials.push_back({{"k", t.k}, {"fits", t.ok}});
      e["runs"] = std::move(trials);
      if (!a.never.empty()) e["never"] = {{"pod", a.never_pod}, {"reason", a.never}};
      if (!a.nodes) {
        e["failedPod"] = a.failed_pod;
        e["error"] = a.error;
      }
      if (const planning::Trial* t = a.answer_trial()) {
        nlohmann::ordered_json placements = nlohmann::ordered_json::array();
        for (const auto& [pod, node] : t->placements)
          placements.push_back({{"pod", pod}, {"node", node}});
        e["placements"] = std::move(placements);
        nlohmann::ordered_json copies = nlohmann::ordered_json::array();
        for (const planning::WorkloadOutcome& w : t->workloads) {
          nlohmann::ordered_json per_node = nlohmann::ordered_json::object();
          for (const auto& [node, n] : w.per_node) per_node[node] = n;
          copies.push_back({{"workload", w.label}, {"perNode", std::move(per_node)}});
        }
        e["copies"] = std::move(copies);
      }
      AddWarningsJson(warnings, &e);
      j.push_back(std::move(e));
    }
    out = output == "json" ? j.dump(2) + "\n" : JsonToYaml(j);
  }
  OutputBuffer buf(stdout);
  buf.Write(out);
  buf.Flush();
  if (!buf.ok()) return ReportWriteError(buf);
  return all ? kExitOk : kExitUnschedulable;
}

void AddWarningsJson(const std::vector<std::string>& warnings, nlohmann::ordered_json* doc) {
  if (!warnings.empty()) (*doc)["warnings"] = warnings;
}

void AddCapacityRun(const planning::CapacityResult& r, planning::HtmlReport* page) {
  page->before = r.before;
  page->after = r.after;
  page->priorities = r.priorities;
  page->pods = r.pending;
  page->pods.insert(page->pods.end(), r.copies.begin(), r.copies.end());
  planning::HtmlSection per_node{"Copies per node", {"workload", "node", "copies"}, {}};
  for (const planning::WorkloadOutcome& w : r.workloads)
    for (const auto& [node, n] : w.per_node)
      per_node.rows.push_back({w.label, node, std::to_string(n)});
  page->sections.push_back(std::move(per_node));
}

int WriteHtml(const planning::HtmlReport& report, int status) {
  OutputBuffer buf(stdout);
  buf.Write(planning::RenderHtml(report));
  buf.Flush();
  if (!buf.ok()) return ReportWriteError(buf);
  return status;
}

void TimedProgress::Update(const std::string& text) {
  auto now = std::chrono::steady_clock::now();
  if (now - start_ < std::chrono::seconds(1)) return;
  static const bool tty = isatty(STDERR_FILENO);
  if (now - last_ < (tty ? std::chrono::milliseconds(200) : std::chrono::seconds(5))) return;
  last_ = now;
  if (tty) {
    std::fprintf(stderr, "\r\033[K%s", text.c_str());
    drawn_ = true;
  } else {
    std::fprintf(stderr, "ksched: %s\n", text.c_str());
  }
  std::fflush(stderr);
}

TimedProgress::~TimedProgress() {
  if (drawn_) std::fprintf(stderr, "\r\033[K");
}

}  // namespace ksched
