// Runs the ksched binary from the CLI tests (cli_test, planning_cli_test,
// validate_cli_test): its exit status, stdout and stderr, and temporary
// input files.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace ksched::cli_testing {

struct CommandRun {
  int status = -1;
  std::string out;
  std::string err;
};

// ctest runs test processes in parallel (and other builds' tests may run at
// the same time): temporary files carry the process id. Every file is
// removed when the test binary exits.
inline std::string TempPath(const std::string& name) {
  struct Cleanup {
    std::vector<std::string> paths;
    ~Cleanup() {
      for (const std::string& p : paths) std::remove(p.c_str());
    }
  };
  static Cleanup cleanup;
  std::string path = ::testing::TempDir() + "/ksched-cli-" + std::to_string(getpid()) + "-" + name;
  if (std::find(cleanup.paths.begin(), cleanup.paths.end(), path) == cleanup.paths.end())
    cleanup.paths.push_back(path);
  return path;
}

// `ksched ARGS` through the shell (ARGS may hold redirections).
inline CommandRun Ksched(const std::string& args) {
  std::string err_file = TempPath("stderr.txt");
  std::string cmd = std::string(KSCHED_BINARY) + " " + args + " 2>" + err_file;
  CommandRun r;
  FILE* p = popen(cmd.c_str(), "r");
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  std::ifstream e(err_file);
  r.err.assign(std::istreambuf_iterator<char>(e), {});
  return r;
}

inline std::string Example(const std::string& f) {
  return std::string(KSCHED_SOURCE_DIR) + "/examples/" + f;
}

inline std::string WriteTemp(const std::string& name, const std::string& text) {
  std::string path = TempPath(name);
  std::ofstream(path) << text;
  return path;
}

}  // namespace ksched::cli_testing
