// The ksched subcommands. Each Add*Command registers its flags on `app` and
// returns the subcommand; Run* executes it and returns the exit status:
// 0 success, 1 some pods did not fit (schedule), 2 bad usage or bad input.
#pragma once

#include <CLI/CLI.hpp>
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
  std::string output = "table";
  std::string explain;
  std::string scheduler_name = "default-scheduler";
  bool disable_preemption = false;
  bool warnings = true;  // --warnings=false silences cli/input.h's warnings
  SchedulerFlags flags;
};
CLI::App* AddScheduleCommand(CLI::App* app, ScheduleArgs* args);
int RunSchedule(const ScheduleArgs& args);

struct CapacityArgs {
  std::vector<std::string> files;
  std::string pod_template;
  int64_t max = 0;  // 0: until the first failure
  std::string output = "table";
  bool warnings = true;
  SchedulerFlags flags;
};
CLI::App* AddCapacityCommand(CLI::App* app, CapacityArgs* args);
int RunCapacity(const CapacityArgs& args);

struct BenchArgs {
  std::vector<std::string> files;
  int threads = 0;
  std::string output = "table";
  std::string tie_break = "name";
  bool details = false;  // time the detailed path: full reports, steps written as JSON
};
CLI::App* AddBenchCommand(CLI::App* app, BenchArgs* args);
int RunBench(const BenchArgs& args);

}  // namespace ksched
