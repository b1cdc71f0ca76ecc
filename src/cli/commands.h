// The ksched subcommands. Each Add*Command registers its flags on `app` and
// returns the subcommand; Run* executes it and returns the exit status:
// 0 success, 1 some pods did not fit (schedule), 2 bad usage or bad input.
#pragma once

#include <CLI/CLI.hpp>
#include <set>
#include <string>
#include <vector>

#include "cli/scheduler_flags.h"

namespace ksched {

inline constexpr int kExitOk = 0;
inline constexpr int kExitUnschedulable = 1;
inline constexpr int kExitBadInput = 2;

struct ScheduleArgs {
  std::vector<std::string> files;
  std::string pending_file;
  bool keep_pending =
      false;  // --keep-pending: the snapshot's pending pods compete with --pending's
  std::string output = "table";
  std::string explain;
  std::string scheduler_name;  // "": ServedSchedulerNames' default
  bool disable_preemption = false;
  std::vector<std::string> add_node;  // --add-node TEMPLATE[=MAX]
  std::string add_node_search = "bisect";
  bool warnings = true;  // --warnings=false silences cli/input.h's warnings
  SchedulerFlags flags;
};
CLI::App* AddScheduleCommand(CLI::App* app, ScheduleArgs* args);
int RunSchedule(const ScheduleArgs& args);

struct CapacityArgs {
  std::vector<std::string> files;
  std::vector<std::string> pods;  // --pod FILE[=N|=max], repeated
  std::string ns;                 // -n: namespace of --pod objects without one
  int64_t max = 0;                // 0: until the first failure
  std::string output = "table";
  bool ignore_pending = false;
  bool preemption = false;          // copies preempt
  bool disable_preemption = false;  // pending pods do not preempt
  std::string scheduler_name;       // "": ServedSchedulerNames' default
  std::vector<std::string> add_node;
  std::string add_node_search = "bisect";
  bool warnings = true;
  SchedulerFlags flags;
};
CLI::App* AddCapacityCommand(CLI::App* app, CapacityArgs* args);
int RunCapacity(const CapacityArgs& args);

// `ksched drain`: what draining nodes would do (planning/drain.h).
struct DrainArgs {
  std::vector<std::string> files;
  std::vector<std::string> nodes;
  std::string output = "table";
  bool disable_preemption = false;
  bool delete_emptydir_data = false;
  bool warnings = true;
  SchedulerFlags flags;
};
CLI::App* AddDrainCommand(CLI::App* app, DrainArgs* args);
int RunDrain(const DrainArgs& args);

// `schedule -o html` and `schedule --add-node` (cli/planning_output.cc).
int RunScheduleHtml(const ScheduleArgs& args);
int RunScheduleAddNode(const ScheduleArgs& args);

struct BenchArgs {
  std::vector<std::string> files;
  int threads = 0;
  std::string output = "table";
  std::string tie_break = "name";
  bool details = false;  // time the detailed path: full reports, steps written as JSON
  int percentage = -1;   // overrides the scenario's percentageOfNodesToScore; -1: keep
};
CLI::App* AddBenchCommand(CLI::App* app, BenchArgs* args);
int RunBench(const BenchArgs& args);

// `ksched run` (src/cli/run.cc): flags named as kube-scheduler's.
struct RunArgs {
  std::string kubeconfig;
  std::string scheduler_name = "default-scheduler";
  SchedulerFlags flags = [] {
    SchedulerFlags f;
    // Not given: the engine's default (v1.15: 50; v1.26: --config's value,
    // else adaptive).
    f.percentage_of_nodes_to_score = -1;
    f.tie_break = "round-robin";  // upstream's selectHost
    return f;
  }();
  // The flags given on the command line (their long names): with --config
  // they override the file's leaderElection and clientConnection.
  std::set<std::string> given;
  bool Given(const std::string& flag) const { return given.count(flag) != 0; }
  bool disable_preemption = false;
  bool leader_elect = true;
  std::string lease_duration = "15s";
  std::string renew_deadline = "10s";
  std::string retry_period = "2s";
  std::string resource_lock = "leases";
  std::string lock_namespace = "kube-system";
  std::string lock_name = "kube-scheduler";
  double qps = 5000;  // high enough that the API server, not ksched, sets the pace
  int burst = 5000;
  std::string bind_address = "0.0.0.0";
  int port = 0;             // plain HTTP (v1.15's insecure port, 10251 then)
  int secure_port = 10259;  // HTTPS, as kube-scheduler v1.35
  std::string tls_cert_file, tls_key_file;
  std::string authentication_kubeconfig, authorization_kubeconfig;
  int bind_workers = 16;
  int verbosity = 0;  // -v
  // "Flag --lock-object-name has been deprecated, ...": one per use of a
  // v1.15 name, logged when `run` starts.
  std::vector<std::string> deprecation_warnings;
};
CLI::App* AddRunCommand(CLI::App* app, RunArgs* args);
int RunRun(const RunArgs& args);

}  // namespace ksched
