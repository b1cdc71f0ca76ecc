// ksched: the kube-scheduler v1.15 algorithm as a command-line tool.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <functional>
#include <iostream>
#include <string>

#include "api/scenario.h"
#include "cli/commands.h"
#include "cli/framework_step_writer.h"
#include "cli/output.h"
#include "cli/replay.h"
#include "cli/step_writer.h"

namespace {

using ksched::kExitBadInput;
using ksched::kExitOk;

// A v1.26 scenario (shared/framework): the framework's cycle and its step format.
int RunFrameworkReplayCommand(const std::string& file, ksched::Scenario scenario,
                              const std::string& tie_break, int percentage) {
  using namespace ksched;
  FrameworkReplayOptions options;
  if (tie_break == "round-robin") options.host_selection = framework::HostSelection::kReservoir;
  if (percentage >= 0) options.percentage_of_nodes_to_score = percentage;
  OutputBuffer out(stdout);
  auto writer = MakeJsonWriter(&out, JsonStyle::kCompact);
  Status s =
      RunFrameworkReplay(std::move(scenario), options,
                         [&](const Pod& pod, const framework::CycleResult& r, const ClusterState& c,
                             const FrameworkPreemption* p) {
                           WriteFrameworkStep(writer.get(), pod, r, c, [&](DocumentWriter* w) {
                             if (p != nullptr) WriteFrameworkPreemptionField(w, *p);
                           });
                           writer->EndDocument();
                         });
  out.Flush();
  if (!s.ok()) {
    std::cerr << "ksched: " << file << ": " << s.error().message << "\n";
    return kExitBadInput;
  }
  if (!out.ok()) return ReportWriteError(out);
  return kExitOk;
}

int RunReplayCommand(const std::string& file, const std::string& tie_break, int percentage) {
  using namespace ksched;
  auto scenario = LoadScenario(file);
  if (!scenario.ok()) {
    std::cerr << "ksched: " << scenario.error().message << "\n";
    return kExitBadInput;
  }
  for (const std::string& field : scenario->unknown_fields) {
    std::cerr << "ksched: warning: " << file << ": unknown scenario field \"" << field
              << "\" ignored\n";
  }
  if (scenario->scheduler_version_inferred) {
    std::cerr << "ksched: warning: " << file
              << ": no schedulerVersion, but a \"config\" (KubeSchedulerConfiguration): "
                 "scheduled as v1.26\n";
  }
  if (IsFrameworkScenario(*scenario)) {
    return RunFrameworkReplayCommand(file, std::move(scenario).value(), tie_break, percentage);
  }
  ReplayOptions options;
  options.tie_break = tie_break == "round-robin" ? TieBreak::kRoundRobin : TieBreak::kName;
  if (percentage >= 0) options.percentage_of_nodes_to_score = percentage;
  // Steps are streamed: at 5,000 nodes one step is most of a megabyte.
  OutputBuffer out(stdout);
  auto writer = MakeJsonWriter(&out, JsonStyle::kCompact);
  Status s = RunReplay(std::move(scenario).value(), options,
                       [&](const Pod& pod, const ScheduleResult& r, const ClusterState& c,
                           const ScoreColumns& cfg, const PreemptionResult* p) {
                         WriteStep(writer.get(), pod, r, c, cfg, [&](DocumentWriter* w) {
                           if (p != nullptr) WritePreemptionField(w, *p, c);
                         });
                         writer->EndDocument();
                       });
  out.Flush();
  if (!s.ok()) {
    std::cerr << "ksched: " << file << ": " << s.error().message << "\n";
    return kExitBadInput;
  }
  if (!out.ok()) return ReportWriteError(out);
  return kExitOk;
}

}  // namespace

#ifndef KSCHED_VERSION
#define KSCHED_VERSION "unknown"
#endif

int main(int argc, char** argv) {
  CLI::App app{
      "ksched: kube-scheduler's decisions (v1.35's framework by default, v1.26's, v1.15's "
      "algorithm), fast, from a snapshot or a live cluster"};
  app.require_subcommand(1);
  app.set_version_flag("-v,--version",
                       "ksched " KSCHED_VERSION
                       " (kube-scheduler v1.35.4 and v1.26.0 frameworks, v1.15.5 algorithm)",
                       "Print the version and exit");
  app.footer(
      "Defaults of schedule, capacity and drain that differ from kube-scheduler's\n"
      "(run keeps kube-scheduler's: --tie-break round-robin and, for\n"
      "--percentage-of-nodes-to-score, the engine's upstream default: v1.35 and\n"
      "v1.26 the --config file's percentageOfNodesToScore, else adaptive; v1.15 50):\n"
      "  --tie-break name: among the best-scoring nodes pick the smallest name, so runs\n"
      "    repeat; round-robin picks as kube-scheduler's selectHost does (v1.15 rotates\n"
      "    among them, v1.26 and v1.35 pick one at random).\n"
      "  --percentage-of-nodes-to-score 100: every node is checked; kube-scheduler's\n"
      "    default is 50 in v1.15 and 0 (adaptive) from v1.26, either of which only matters\n"
      "    from 100 nodes up.\n"
      "Run ksched COMMAND --help for a command's flags.");
  // Every error line starts with "ksched:", as ksched's own errors do.
  app.failure_message([](const CLI::App* a, const CLI::Error& e) {
    std::string what = e.what();
    for (char& ch : what)
      if (ch == '\n') ch = ' ';
    std::string command;
    for (const CLI::App* sub : a->get_subcommands())
      if (sub->parsed()) command = " " + sub->get_name();
    return "ksched: " + what + " (see ksched" + command + " --help)\n";
  });

  // `schedule` first: it is the command most people want.
  ksched::ScheduleArgs schedule_args;
  CLI::App* schedule = ksched::AddScheduleCommand(&app, &schedule_args);
  ksched::CapacityArgs capacity_args;
  CLI::App* capacity = ksched::AddCapacityCommand(&app, &capacity_args);
  ksched::DrainArgs drain_args;
  CLI::App* drain = ksched::AddDrainCommand(&app, &drain_args);

  std::string replay_file, tie_break = "name";
  int percentage = -1;
  CLI::App* replay =
      app.add_subcommand("replay",
                         "Schedule a scenario's pending pods and print one JSON step per pod\n"
                         "  example: ksched replay ../shared/conformance/conf-001.json");
  replay->add_option("SCENARIO", replay_file, "Scenario file (shared/conformance format)")
      ->required();
  replay
      ->add_option("--tie-break", tie_break,
                   "How to choose among the best nodes: name (smallest name, as the "
                   "conformance vectors) or round-robin (upstream's selectHost)")
      ->check(CLI::IsMember({"name", "round-robin"}));
  replay
      ->add_option("--percentage-of-nodes-to-score", percentage,
                   "Override the scenario's percentageOfNodesToScore (0 = adaptive)")
      ->check(ksched::IntegerIn(0, 100));

  ksched::BenchArgs bench_args;
  CLI::App* bench = ksched::AddBenchCommand(&app, &bench_args);
  ksched::RunArgs run_args;
  CLI::App* run = ksched::AddRunCommand(&app, &run_args);

  // CLI11 reports a misspelt command as "A subcommand is required", which
  // does not say what was wrong; name the word and the commands there are.
  if (argc > 1 && argv[1][0] != '-') {
    std::string known;
    bool found = false;
    for (CLI::App* sub : app.get_subcommands(std::function<bool(CLI::App*)>())) {
      known += (known.empty() ? "" : ", ") + sub->get_name();
      found = found || sub->check_name(argv[1]);
    }
    if (!found) {
      std::cerr << "ksched: unknown command \"" << argv[1] << "\" (commands: " << known
                << "; see ksched --help)\n";
      return kExitBadInput;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : kExitBadInput;
  }
  if (replay->parsed()) return RunReplayCommand(replay_file, tie_break, percentage);
  if (schedule->parsed()) return ksched::RunSchedule(schedule_args);
  if (capacity->parsed()) return ksched::RunCapacity(capacity_args);
  if (drain->parsed()) return ksched::RunDrain(drain_args);
  if (bench->parsed()) return ksched::RunBench(bench_args);
  if (run->parsed()) return ksched::RunRun(run_args);
  return kExitBadInput;
}
