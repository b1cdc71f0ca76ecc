// `ksched bench`: scheduling throughput on scenario files, with a digest of
// the decisions so that two builds (or `replay` and `bench`) can be checked
// for identical outcomes.
#include <fmt/format.h>
#include <sys/resource.h>
#include <tbb/global_control.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <nlohmann/json.hpp>

#include "api/scenario.h"
#include "cli/commands.h"
#include "cli/document_writer.h"
#include "cli/framework_step_writer.h"
#include "cli/output.h"
#include "cli/replay.h"
#include "cli/step_writer.h"

namespace ksched {
namespace {

using Clock = std::chrono::steady_clock;

// FNV-1a over the sequence of chosen node names ("-" for unschedulable).
class Digest {
 public:
  void Add(std::string_view s) {
    for (unsigned char c : s) h_ = (h_ ^ c) * 1099511628211ull;
    h_ = (h_ ^ 0xff) * 1099511628211ull;  // separator
  }
  std::string Hex() const { return fmt::format("{:016x}", h_); }

 private:
  uint64_t h_ = 1469598103934665603ull;
};

double PeakRssMiB() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<double>(ru.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB on Linux
}

}  // namespace

CLI::App* AddBenchCommand(CLI::App* app, BenchArgs* args) {
  CLI::App* cmd = app->add_subcommand(
      "bench",
      "Measure scheduling throughput on scenario files (same engine as replay: v1.15, or\n"
      "  the v1.26 or v1.35 framework that the scenario's schedulerVersion names).\n"
      "  example: ksched bench ../shared/perf/perf-basic-5000n-1000e-1000p.json --threads 1");
  cmd->add_option("SCENARIO", args->files, "Scenario files")->required();
  cmd->add_option("--threads", args->threads, "Worker threads (0 = all cores; at most 1024)")
      ->check(IntegerIn(0, 1024))
      ->capture_default_str();
  cmd->add_option("-o,--output", args->output, "table or json")
      ->check(CLI::IsMember({"table", "json"}))
      ->capture_default_str();
  cmd->add_option("--tie-break", args->tie_break, "name (default) or round-robin")
      ->check(CLI::IsMember({"name", "round-robin"}))
      ->capture_default_str();
  cmd->add_flag("--details", args->details,
                "Time the detailed path instead: every cycle's full report, written as the "
                "JSON steps replay prints (to memory, discarded); adds the output size");
  cmd->add_option("--percentage-of-nodes-to-score", args->percentage,
                  "Override the scenario's percentageOfNodesToScore (0 = adaptive)")
      ->check(IntegerIn(0, 100));
  return cmd;
}

namespace {

// CPU time of the whole process (all threads), in seconds.
double ProcessCpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// What one scenario's run measures: the clock and CPU time from the first
// pod on, each step's latency, the decisions' digest and, with --details,
// the size of the steps written.
struct Measurement {
  Clock::time_point start, last, end;
  double cpu_start = 0, cpu_s = 0;
  std::vector<double> latencies;
  Digest digest;
  size_t scheduled = 0;
  uint64_t output_bytes = 0;
  bool stopped = false;

  void Start() {
    cpu_start = ProcessCpuSeconds();
    start = last = Clock::now();
  }
  // One step decided: its node's name, or "" when none was chosen.
  void Step(std::string_view chosen) {
    Clock::time_point now = Clock::now();
    latencies.push_back(std::chrono::duration<double, std::micro>(now - last).count());
    last = now;
    if (chosen.empty()) {
      digest.Add("-");
    } else {
      ++scheduled;
      digest.Add(chosen);
    }
  }
  // Once the last pod was attempted (before the scenario's state is freed);
  // later calls keep the first stop.
  void Stop() {
    if (stopped) return;
    stopped = true;
    end = Clock::now();
    // On a shared machine the wall clock also counts time spent waiting for
    // a core; the process's CPU time over the loop does not.
    cpu_s = ProcessCpuSeconds() - cpu_start;
  }
};

// --details: steps go through the writer `replay` uses, into memory that is
// emptied after every step (the output's size is counted, its bytes are not
// kept).
class StepSink {
 public:
  explicit StepSink(bool enabled) : steps_(&text_) {
    if (enabled) writer_ = MakeJsonWriter(&steps_, JsonStyle::kCompact);
  }
  DocumentWriter* writer() { return writer_.get(); }
  // After a step was written: its bytes counted, then dropped.
  void EndStep(Measurement* m) {
    writer_->EndDocument();
    steps_.Flush();
    m->output_bytes += text_.size();
    text_.clear();
  }

 private:
  std::string text_;
  OutputBuffer steps_;
  std::unique_ptr<DocumentWriter> writer_;
};

// A v1.15 scenario through RunReplay (the engine `replay` runs).
Status BenchV115(Scenario scenario, const BenchArgs& args, Measurement* m) {
  ReplayOptions options;
  options.tie_break = args.tie_break == "round-robin" ? TieBreak::kRoundRobin : TieBreak::kName;
  options.record_details = args.details;
  if (args.percentage >= 0) options.percentage_of_nodes_to_score = args.percentage;
  StepSink sink(args.details);
  return RunReplay(
      std::move(scenario), options,
      [&](const Pod& pod, const ScheduleResult& r, const ClusterState& c, const ScoreColumns& cfg,
          const PreemptionResult* p) {
        if (DocumentWriter* w = sink.writer()) {
          WriteStep(w, pod, r, c, cfg, [&](DocumentWriter* dw) {
            if (p != nullptr) WritePreemptionField(dw, *p, c);
          });
          sink.EndStep(m);
        }
        m->Step(r.chosen == kNoNode ? std::string_view() : c.node(r.chosen).meta.name);
      },
      [&] { m->Start(); }, [&] { m->Stop(); });
}

// A v1.26 scenario through RunFrameworkReplay (the framework engine `replay`
// runs for it); --details writes the framework's steps as `replay` does.
Status BenchFramework(Scenario scenario, const BenchArgs& args, Measurement* m) {
  FrameworkReplayOptions options;
  if (args.tie_break == "round-robin")
    options.host_selection = framework::HostSelection::kReservoir;
  if (args.percentage >= 0) options.percentage_of_nodes_to_score = args.percentage;
  options.record_details = args.details;
  StepSink sink(args.details);
  return RunFrameworkReplay(
      std::move(scenario), options,
      [&](const Pod& pod, const framework::CycleResult& r, const ClusterState& c,
          const FrameworkPreemption* p) {
        if (DocumentWriter* w = sink.writer()) {
          WriteFrameworkStep(w, pod, r, c, [&](DocumentWriter* dw) {
            if (p != nullptr) WriteFrameworkPreemptionField(dw, *p);
          });
          sink.EndStep(m);
        }
        m->Step(r.chosen == kNoNode ? std::string_view() : c.node(r.chosen).meta.name);
      },
      [&] { m->Start(); }, [&] { m->Stop(); });
}

}  // namespace

int RunBench(const BenchArgs& args) {
  std::unique_ptr<tbb::global_control> limit;
  if (args.threads > 0) {
    limit = std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism,
                                                  static_cast<size_t>(args.threads));
  }
  nlohmann::ordered_json results = nlohmann::ordered_json::array();
  // The table's columns stay those scripts/side-by-side.sh reads; the
  // engine is in the JSON.
  std::vector<std::string> header = {"SCENARIO", "PODS",   "SCHEDULED", "LOAD s", "SCHED s",
                                     "CPU s",    "PODS/s", "P50 us",    "P99 us", "PEAK MiB"};
  if (args.details) header.push_back("OUT MB");
  header.push_back("DIGEST");
  TextTable table(header);
  for (const std::string& file : args.files) {
    Clock::time_point t0 = Clock::now();
    auto scenario = LoadScenario(file);
    if (!scenario.ok()) {
      std::cerr << "ksched: " << scenario.error().message << "\n";
      return kExitBadInput;
    }
    if (scenario->scheduler_version_inferred) {
      std::cerr << "ksched: warning: " << file
                << ": no schedulerVersion, but a \"config\" (KubeSchedulerConfiguration): "
                   "scheduled as v1.26\n";
    }
    const bool framework = IsFrameworkScenario(*scenario);
    const std::string engine = framework ? scenario->scheduler_version : "v1.15";
    std::string name = scenario->name.empty() ? file : scenario->name;
    size_t pods = scenario->pending.size();
    Measurement m;
    m.latencies.reserve(pods);
    Status s = framework ? BenchFramework(std::move(scenario).value(), args, &m)
                         : BenchV115(std::move(scenario).value(), args, &m);
    m.Stop();  // a no-op when the replay stopped the clock after its last pod
    if (!s.ok()) {
      std::cerr << "ksched: " << file << ": " << s.error().message << "\n";
      return kExitBadInput;
    }
    double load_s = std::chrono::duration<double>(m.start - t0).count();
    double sched_s = std::chrono::duration<double>(m.end - m.start).count();
    std::vector<double>& latencies = m.latencies;
    std::sort(latencies.begin(), latencies.end());
    auto pct = [&](double q) {
      if (latencies.empty()) return 0.0;
      size_t i = std::min(latencies.size() - 1, static_cast<size_t>(q * latencies.size()));
      return latencies[i];
    };
    double rate = sched_s > 0 ? static_cast<double>(pods) / sched_s : 0;
    nlohmann::ordered_json j;
    j["scenario"] = name;
    j["engine"] = engine;
    j["pods"] = pods;
    j["scheduled"] = m.scheduled;
    j["loadSeconds"] = load_s;
    j["scheduleSeconds"] = sched_s;
    j["scheduleCpuSeconds"] = m.cpu_s;
    j["podsPerSecond"] = rate;
    j["p50Micros"] = pct(0.5);
    j["p99Micros"] = pct(0.99);
    j["peakRssMiB"] = PeakRssMiB();
    if (args.details) j["outputBytes"] = m.output_bytes;
    j["digest"] = m.digest.Hex();
    results.push_back(j);
    std::vector<std::string> row = {name,
                                    std::to_string(pods),
                                    std::to_string(m.scheduled),
                                    fmt::format("{:.2f}", load_s),
                                    fmt::format("{:.3f}", sched_s),
                                    fmt::format("{:.3f}", m.cpu_s),
                                    fmt::format("{:.0f}", rate),
                                    fmt::format("{:.1f}", pct(0.5)),
                                    fmt::format("{:.1f}", pct(0.99)),
                                    fmt::format("{:.0f}", PeakRssMiB())};
    if (args.details) row.push_back(fmt::format("{:.1f}", m.output_bytes / 1e6));
    row.push_back(m.digest.Hex());
    table.AddRow(std::move(row));
  }
  std::string out = args.output == "json" ? results.dump(2) + "\n" : table.Render();
  std::fwrite(out.data(), 1, out.size(), stdout);
  return kExitOk;
}

}  // namespace ksched
