// The acceptance test: every scenario in ../shared/{conformance,
// upstream-order,extenders} is replayed through the same engine as
// `ksched replay`, and every step is compared with upstream's decisions.
//
// A ratchet keeps CI green while the engine is incomplete: tests/ratchet/<dir>.txt
// lists the scenarios known to pass; any of them failing fails the test, and
// the pass count N/M is printed for everything. Run with
// KSCHED_UPDATE_RATCHET=1 to rewrite the lists after an improvement.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "api/scenario.h"
#include "cli/replay.h"

namespace ksched {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string SharedDir() { return KSCHED_SHARED_DIR; }
std::string RatchetPath(const std::string& suite) {
  return std::string(KSCHED_SOURCE_DIR) + "/tests/ratchet/" + suite + ".txt";
}

std::set<std::string> ReadRatchet(const std::string& suite) {
  std::set<std::string> names;
  std::ifstream in(RatchetPath(suite));
  std::string line;
  while (std::getline(in, line))
    if (!line.empty() && line[0] != '#') names.insert(line);
  return names;
}

// Compares one scenario; returns "" on success or a description of the first
// mismatch.
std::string CheckScenario(const fs::path& scenario_path, TieBreak tie_break) {
  fs::path expected_path = scenario_path;
  expected_path.replace_extension(".expected.jsonl");
  std::ifstream in(expected_path);
  if (!in) return "cannot read " + expected_path.string();
  std::vector<json> expected;
  std::string line;
  while (std::getline(in, line))
    if (!line.empty()) expected.push_back(json::parse(line));

  auto scenario = LoadScenario(scenario_path.string());
  if (!scenario.ok()) return "load failed: " + scenario.error().message;
  ReplayOptions options;
  options.tie_break = tie_break;
  std::vector<json> actual;
  Status s = RunReplay(std::move(scenario).value(), options,
                       [&](const Pod& pod, const ScheduleResult& r, const ClusterState& c,
                           const SchedulerConfig& cfg) {
                         actual.push_back(json::parse(StepToJson(pod, r, c, cfg)));
                       });
  if (!s.ok()) return "replay failed: " + s.error().message;
  for (size_t i = 0; i < expected.size(); ++i) {
    if (i >= actual.size()) return "missing step " + std::to_string(i);
    const json& e = expected[i];
    const json& a = actual[i];
    std::set<std::string> keys;
    for (auto it = e.begin(); it != e.end(); ++it) keys.insert(it.key());
    for (auto it = a.begin(); it != a.end(); ++it) keys.insert(it.key());
    for (const std::string& k : {"pod", "node", "error", "feasible", "failures", "scores",
                                 "priorities", "maxNodes"}) {
      if (!keys.count(k)) continue;
      json ev = e.contains(k) ? e[k] : json();
      json av = a.contains(k) ? a[k] : json();
      if (ev == av) continue;
      std::string detail;
      if (ev.is_object() && av.is_object()) {
        for (auto it = ev.begin(); it != ev.end(); ++it) {
          if (!av.contains(it.key()) || av[it.key()] != it.value()) {
            detail = " at \"" + it.key() + "\": expected " + it.value().dump() + ", got " +
                     (av.contains(it.key()) ? av[it.key()].dump() : "nothing");
            break;
          }
        }
        if (detail.empty()) {
          for (auto it = av.begin(); it != av.end(); ++it)
            if (!ev.contains(it.key())) {
              detail = " extra \"" + it.key() + "\": " + it.value().dump();
              break;
            }
        }
      } else {
        detail = ": expected " + ev.dump().substr(0, 400) + ", got " + av.dump().substr(0, 400);
      }
      return "step " + std::to_string(i) + " (" + e.value("pod", "") + ") field " + k + detail;
    }
  }
  if (actual.size() != expected.size()) return "extra steps";
  return "";
}

void RunSuite(const std::string& suite, TieBreak tie_break) {
  fs::path dir = fs::path(SharedDir()) / suite;
  ASSERT_TRUE(fs::is_directory(dir)) << dir << " is missing";
  std::vector<fs::path> scenarios;
  for (const auto& entry : fs::directory_iterator(dir)) {
    std::string name = entry.path().filename().string();
    if (entry.path().extension() == ".json" && name.find(".expected") == std::string::npos)
      scenarios.push_back(entry.path());
  }
  std::sort(scenarios.begin(), scenarios.end());
  ASSERT_FALSE(scenarios.empty());

  std::set<std::string> ratchet = ReadRatchet(suite);
  std::vector<std::string> passing;
  int regressions = 0;
  for (const fs::path& p : scenarios) {
    std::string name = p.stem().string();
    std::string mismatch = CheckScenario(p, tie_break);
    if (mismatch.empty()) {
      passing.push_back(name);
      continue;
    }
    bool listed = ratchet.count(name) > 0;
    if (listed) ++regressions;
    std::printf("%s %s: %s\n", listed ? "REGRESSION" : "fail", name.c_str(), mismatch.c_str());
  }
  std::printf("%s: %zu/%zu scenarios match upstream in every field\n", suite.c_str(),
              passing.size(), scenarios.size());
  EXPECT_EQ(regressions, 0) << "scenarios listed in " << RatchetPath(suite) << " stopped passing";

  if (const char* update = std::getenv("KSCHED_UPDATE_RATCHET"); update && *update == '1') {
    fs::create_directories(fs::path(RatchetPath(suite)).parent_path());
    std::ofstream out(RatchetPath(suite));
    out << "# Scenarios of ../shared/" << suite << " that match upstream in every field.\n";
    for (const std::string& n : passing) out << n << "\n";
  }
}

TEST(Conformance, SharedConformanceVectors) { RunSuite("conformance", TieBreak::kName); }

TEST(Conformance, UpstreamHostChoiceAndNodeOrder) {
  RunSuite("upstream-order", TieBreak::kRoundRobin);
}

// The extender vectors need upstream's stub extender on 127.0.0.1:18931.
class StubServer {
 public:
  StubServer() {
    std::string script = SharedDir() + "/extenders/extender_stub.py";
    pid_ = fork();
    if (pid_ == 0) {
      execlp("python3", "python3", script.c_str(), "18931", static_cast<char*>(nullptr));
      _exit(127);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  ~StubServer() {
    if (pid_ > 0) {
      kill(pid_, SIGTERM);
      waitpid(pid_, nullptr, 0);
    }
  }

 private:
  pid_t pid_ = -1;
};

TEST(Conformance, ExtenderVectors) {
  StubServer server;
  RunSuite("extenders", TieBreak::kName);
}

}  // namespace
}  // namespace ksched
