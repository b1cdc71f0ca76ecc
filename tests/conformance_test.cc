// The acceptance test: every scenario in ../shared/{conformance,
// upstream-order,extenders} is replayed through the same engine as
// `ksched replay`, and every step is compared with upstream's decisions.
//
// Every scenario must match, field by field and then byte for byte: the first
// mismatch of each failing scenario is printed, then the pass count N/M.
// (While the engine was incomplete a ratchet list kept CI green; since every
// public vector passes, all are required.)
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "api/scenario.h"
#include "cli/replay.h"
#include "cli/step_writer.h"
#include "tests/fixtures.h"

namespace ksched {
namespace conformance_test {

namespace fs = std::filesystem;
using nlohmann::json;

std::string SharedDir() { return KSCHED_SHARED_DIR; }
// Compares one scenario; returns "" on success or a description of the first
// mismatch.
std::string CheckScenario(const fs::path& scenario_path, TieBreak tie_break) {
  fs::path expected_path = scenario_path;
  expected_path.replace_extension(".expected.jsonl");
  std::ifstream in(expected_path);
  if (!in) return "cannot read " + expected_path.string();
  std::vector<json> expected;
  std::vector<std::string> expected_lines;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    expected.push_back(json::parse(line));
    expected_lines.push_back(line);
  }

  auto scenario = LoadScenario(scenario_path.string());
  if (!scenario.ok()) return "load failed: " + scenario.error().message;
  ReplayOptions options;
  options.tie_break = tie_break;
  std::vector<json> actual;
  std::vector<std::string> actual_lines;
  Status s = RunReplay(std::move(scenario).value(), options,
                       [&](const Pod& pod, const ScheduleResult& r, const ClusterState& c,
                           const ScoreColumns& cfg, const PreemptionResult* p) {
                         actual_lines.push_back(StepToJson(pod, r, c, cfg, p));
                         actual.push_back(json::parse(actual_lines.back()));
                       });
  if (!s.ok()) return "replay failed: " + s.error().message;
  for (size_t i = 0; i < expected.size(); ++i) {
    if (i >= actual.size()) return "missing step " + std::to_string(i);
    const json& e = expected[i];
    const json& a = actual[i];
    std::set<std::string> keys;
    for (auto it = e.begin(); it != e.end(); ++it) keys.insert(it.key());
    for (auto it = a.begin(); it != a.end(); ++it) keys.insert(it.key());
    for (const char* k : {"pod", "node", "error", "feasible", "failures", "scores", "priorities",
                          "maxNodes", "preemption"}) {
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
  // The same values must also be the same bytes: the expected files are what
  // `ksched replay` prints (key order, escapes, no spaces).
  for (size_t i = 0; i < expected.size(); ++i) {
    if (actual_lines[i] == expected_lines[i]) continue;
    size_t at = std::mismatch(actual_lines[i].begin(), actual_lines[i].end(),
                              expected_lines[i].begin(), expected_lines[i].end())
                    .first -
                actual_lines[i].begin();
    size_t from = at < 40 ? 0 : at - 40;
    return "step " + std::to_string(i) + ": same values, different bytes at offset " +
           std::to_string(at) + ": expected ..." + expected_lines[i].substr(from, 80) +
           ", got ..." + actual_lines[i].substr(from, 80);
  }

  // Again without a report: the engine may then decide from its per-class
  // score index (algorithm/score_index.h), which must choose the same nodes.
  auto again = LoadScenario(scenario_path.string());
  if (!again.ok()) return "load failed: " + again.error().message;
  options.record_details = false;
  std::vector<std::pair<std::string, std::string>> decisions;  // (node, error)
  s = RunReplay(std::move(again).value(), options,
                [&](const Pod&, const ScheduleResult& r, const ClusterState& c, const ScoreColumns&,
                    const PreemptionResult*) {
                  decisions.emplace_back(r.chosen == kNoNode ? "" : c.node(r.chosen).meta.name,
                                         r.chosen == kNoNode ? r.error : "");
                });
  if (!s.ok()) return "replay without details failed: " + s.error().message;
  if (decisions.size() != expected.size()) return "without details: step count differs";
  for (size_t i = 0; i < expected.size(); ++i) {
    const json& e = expected[i];
    std::string node = e["node"].is_string() ? e["node"].get<std::string>() : "";
    std::string error =
        e.contains("error") && e["error"].is_string() ? e["error"].get<std::string>() : "";
    if (decisions[i].first != node || decisions[i].second != error) {
      return "without details, step " + std::to_string(i) + ": chose \"" + decisions[i].first +
             "\" (" + decisions[i].second + "), upstream \"" + node + "\" (" + error + ")";
    }
  }
  return "";
}

// The scenario files of a suite, sorted.
std::vector<fs::path> SuiteScenarios(const std::string& suite) {
  std::vector<fs::path> scenarios;
  fs::path dir = fs::path(SharedDir()) / suite;
  if (!fs::is_directory(dir)) return scenarios;
  for (const auto& entry : fs::directory_iterator(dir)) {
    std::string name = entry.path().filename().string();
    if (entry.path().extension() == ".json" && name.find(".expected") == std::string::npos)
      scenarios.push_back(entry.path());
  }
  std::sort(scenarios.begin(), scenarios.end());
  return scenarios;
}

void RunSuite(const std::string& suite, TieBreak tie_break) {
  ASSERT_TRUE(fs::is_directory(fs::path(SharedDir()) / suite)) << suite << " is missing";
  std::vector<fs::path> scenarios = SuiteScenarios(suite);
  ASSERT_FALSE(scenarios.empty());

  std::vector<std::string> failing;
  size_t passing = 0;
  for (const fs::path& p : scenarios) {
    std::string name = p.stem().string();
    std::string mismatch = CheckScenario(p, tie_break);
    if (mismatch.empty()) {
      ++passing;
      continue;
    }
    failing.push_back(name);
    std::printf("FAIL %s: %s\n", name.c_str(), mismatch.c_str());
  }
  std::printf("%s: %zu/%zu scenarios match upstream in every field\n", suite.c_str(), passing,
              scenarios.size());
  EXPECT_TRUE(failing.empty()) << failing.size() << " scenarios of " << suite << " differ";
}

// One test per scenario, named after its file (conformance/conf-001.json is
// Conformance/Vector.MatchesUpstream/conf_001), so a failure names the
// scenario and one vector can be rerun with --gtest_filter.
struct Vector {
  fs::path path;
  TieBreak tie_break;
};

std::vector<Vector> SuiteVectors(const std::string& suite, TieBreak tie_break) {
  std::vector<Vector> out;
  for (const fs::path& p : SuiteScenarios(suite)) out.push_back(Vector{p, tie_break});
  return out;
}

std::string VectorName(const ::testing::TestParamInfo<Vector>& info) {
  return ::ksched::testing::ReadableTestName(info.param.path.filename().string());
}

class ConformanceVector : public ::testing::TestWithParam<Vector> {};

TEST_P(ConformanceVector, MatchesUpstream) {
  EXPECT_EQ(CheckScenario(GetParam().path, GetParam().tie_break), "") << GetParam().path;
}

INSTANTIATE_TEST_SUITE_P(Conformance, ConformanceVector,
                         ::testing::ValuesIn(SuiteVectors("conformance", TieBreak::kName)),
                         VectorName);
INSTANTIATE_TEST_SUITE_P(UpstreamOrder, ConformanceVector,
                         ::testing::ValuesIn(SuiteVectors("upstream-order", TieBreak::kRoundRobin)),
                         VectorName);
// The scheduler loop: queue order, nominated pods, preemption (one step per
// attempt, with the `preemption` field on failed attempts).
INSTANTIATE_TEST_SUITE_P(Preemption, ConformanceVector,
                         ::testing::ValuesIn(SuiteVectors("preemption", TieBreak::kName)),
                         VectorName);

// Every suite is there and not empty (an empty list above would run nothing).
TEST(Conformance, SuitesArePresent) {
  for (const char* suite : {"conformance", "upstream-order", "preemption", "extenders"}) {
    EXPECT_TRUE(fs::is_directory(fs::path(SharedDir()) / suite)) << suite << " is missing";
    EXPECT_FALSE(SuiteScenarios(suite).empty()) << suite << " has no scenarios";
  }
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
    // Wait until it accepts connections rather than for a fixed time: a cold
    // python start on a loaded CI machine can take seconds.
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (!Accepting() && std::chrono::steady_clock::now() < deadline) {
      if (waitpid(pid_, nullptr, WNOHANG) == pid_) {
        pid_ = -1;  // exited: the vectors will fail with connection errors
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
  ~StubServer() {
    if (pid_ > 0) {
      kill(pid_, SIGTERM);
      waitpid(pid_, nullptr, 0);
    }
  }

 private:
  static bool Accepting() {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) return false;
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(18931);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bool ok = connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
    close(fd);
    return ok;
  }

  pid_t pid_ = -1;
};

TEST(Conformance, ExtenderVectors) {
  StubServer server;
  RunSuite("extenders", TieBreak::kName);
}

}  // namespace conformance_test
}  // namespace ksched
