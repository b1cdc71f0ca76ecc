// Helpers the what-if commands share (capacity, drain, schedule --add-node,
// -o html): the scheduler factory from the command-line flags, the snapshot
// with `--pending`, the --add-node answer as table/JSON/YAML, writing an HTML
// page, and progress on stderr for long runs.
#pragma once

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "cli/input.h"
#include "cli/scheduler_flags.h"
#include "planning/add_node.h"
#include "planning/capacity.h"
#include "planning/html_report.h"
#include "planning/snapshot.h"

namespace ksched {

planning::SchedulerFactory MakeSchedulerFactory(const SchedulerFlags& flags);

// The snapshot as cli/input.h's LoadSnapshot reads it for the engine and
// --validate of diag (defaulted, validated), split for the scheduler names
// served, with the pending pods replaced by `pending_file`'s when it is set
// (priority classes applied; the snapshot's named in a warning), or joined
// by them after the snapshot's with `keep_pending` (--keep-pending). Warnings (the loader's, and
// pending pods whose controller is missing) go to *diag; the caller prints them and puts them in
// its output.
Result<planning::Snapshot> LoadPlanningSnapshot(const std::vector<std::string>& files,
                                                const std::string& pending_file,
                                                const std::vector<std::string>& scheduler_names,
                                                Diagnostics* diag, bool keep_pending = false);

// The engine the flags choose, built once to check them (exit 2 on an
// error), and the scheduler names the run serves (ServedSchedulerNames).
Result<std::vector<std::string>> CheckFlagsAndServedNames(const SchedulerFlags& flags,
                                                          const std::string& scheduler_name);

// Answers --add-node for each template and prints the answers (with
// `warnings`: in each JSON/YAML answer and on the HTML page); returns the
// exit status (0 every template has an answer, 1 some has none, 2 bad input).
int RunAddNode(const planning::Snapshot& snapshot, const std::vector<planning::Workload>& workloads,
               const std::vector<std::string>& templates, const std::string& search,
               const SchedulerFlags& flags, const planning::CapacityOptions& options,
               const std::string& output, const std::vector<std::string>& warnings);

// Adds `warnings` to a JSON/YAML document as "warnings", when there are any.
void AddWarningsJson(const std::vector<std::string>& warnings, nlohmann::ordered_json* doc);

// Writes the page to stdout; returns the exit status for a write error, or
// `status`.
int WriteHtml(const planning::HtmlReport& report, int status);
// A capacity run's page parts: the cluster before and after, the pods placed
// (pending first, then the copies) and the copies per node.
void AddCapacityRun(const planning::CapacityResult& r, planning::HtmlReport* page);

// "placed 1200 copies of Deployment shop/web..." on stderr once a run has
// taken more than a second: redrawn in place on a terminal, a line every
// five seconds otherwise.
class TimedProgress {
 public:
  void Update(const std::string& text);
  ~TimedProgress();

 private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point last_{};
  bool drawn_ = false;
};

}  // namespace ksched
