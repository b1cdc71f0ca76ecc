#include "cli/planning_output.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <iostream>

#include "api/priority_admission.h"
#include "cli/commands.h"
#include "cli/input.h"
#include "cli/output.h"

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
                                                const SchedulerFlags& flags, bool warnings) {
  // Decoded, defaulted and validated as the API server would store them.
  Diagnostics diag(flags);
  auto objects = LoadSnapshot(files, &diag);
  if (!objects.ok()) return objects.error();
  auto snap = planning::SplitSnapshot(std::move(objects).value(), scheduler_names);
  if (!snap.ok()) return snap;
  if (pending_file.empty()) {
    if (warnings) diag.Print();
    return snap;
  }
  auto pods = LoadPods(pending_file, &diag);
  if (!pods.ok()) return pods.error();
  if (warnings) diag.Print();
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
  snap->pending = std::move(p.pods);
  return snap;
}

int RunAddNode(const planning::Snapshot& snapshot, const std::vector<planning::Workload>& workloads,
               const std::vector<std::string>& templates, const std::string& search,
               const SchedulerFlags& flags, const planning::CapacityOptions& options,
               const std::string& output) {
  std::vector<planning::AddNodeAnswer> answers;
  TimedProgress progress;
  for (const std::string& arg : templates) {
    auto t = planning::LoadNodeTemplate(arg);
    if (!t.ok()) {
      std::cerr << "ksched: " << t.error().message << "\n";
      return kExitBadInput;
    }
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
  if (output == "table") {
    TextTable table({"TEMPLATE", "FILE", "NODES TO ADD", "RUNS (k+ fits, k- does not)"});
    std::string notes;
    for (const planning::AddNodeAnswer& a : answers) {
      all = all && a.nodes.has_value();
      table.AddRow({a.template_name, a.file,
                    a.nodes ? std::to_string(*a.nodes) : fmt::format("none up to {}", a.max),
                    runs(a)});
      if (!a.nodes) {
        notes += fmt::format("{}: even with {} nodes added, {} does not fit: {}\n", a.template_name,
                             a.max, a.failed_pod, a.error);
      }
    }
    out = table.Render() + (notes.empty() ? "" : "\n" + notes);
  } else {
    nlohmann::ordered_json j = nlohmann::ordered_json::array();
    for (const planning::AddNodeAnswer& a : answers) {
      all = all && a.nodes.has_value();
      nlohmann::ordered_json e;
      e["template"] = a.template_name;
      e["file"] = a.file;
      e["max"] = a.max;
      e["nodes"] = a.nodes ? nlohmann::ordered_json(*a.nodes) : nlohmann::ordered_json();
      nlohmann::ordered_json trials = nlohmann::ordered_json::array();
      for (const planning::Trial& t : a.trials) trials.push_back({{"k", t.k}, {"fits", t.ok}});
      e["runs"] = std::move(trials);
      if (!a.nodes) {
        e["failedPod"] = a.failed_pod;
        e["error"] = a.error;
      }
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
