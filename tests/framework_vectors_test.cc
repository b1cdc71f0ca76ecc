// The framework's acceptance tests: every scenario of ../shared/framework
// (kube-scheduler v1.26's framework, decided by the reference harness
// refsched126), ../shared/framework-v1.35 and ../shared/dra (v1.35.4, decided
// by refsched135) is replayed through the same engine as `ksched replay`,
// and each step is compared with upstream's line as parsed JSON: the same
// fields with the same values. One test per scenario, named after its file
// (Framework/FrameworkVector.MatchesUpstream/mconf_0001,
// FrameworkV135/..., Dra/...), so one can be rerun with --gtest_filter.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "api/scenario.h"
#include "cli/framework_step_writer.h"
#include "cli/replay.h"
#include "tests/fixtures.h"

namespace ksched {
namespace framework_vectors_test {

namespace fs = std::filesystem;
using nlohmann::json;

// ../shared/<folder> beside the repository; a worktree under
// /work/wt/<branch> finds it one level further up.
fs::path SharedDir(const std::string& folder) {
  for (fs::path dir : {fs::path(KSCHED_SHARED_DIR), fs::path(KSCHED_SOURCE_DIR) / "../../shared"})
    if (fs::is_directory(dir / folder)) return dir / folder;
  return fs::path(KSCHED_SHARED_DIR) / folder;
}

std::vector<fs::path> Scenarios(const std::string& folder) {
  std::vector<fs::path> out;
  const fs::path dir = SharedDir(folder);
  if (!fs::is_directory(dir)) return out;
  for (const auto& entry : fs::directory_iterator(dir)) {
    std::string name = entry.path().filename().string();
    if (entry.path().extension() == ".json" && name.find(".expected") == std::string::npos)
      out.push_back(entry.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The first difference between two JSON values, as "path: expected X, got Y".
std::string FirstDifference(const json& e, const json& a, const std::string& path) {
  if (e == a) return "";
  if (e.is_object() && a.is_object()) {
    std::set<std::string> keys;
    for (auto it = e.begin(); it != e.end(); ++it) keys.insert(it.key());
    for (auto it = a.begin(); it != a.end(); ++it) keys.insert(it.key());
    for (const std::string& k : keys) {
      std::string sub = path + "." + k;
      if (!e.contains(k)) return sub + ": unexpected, got " + a[k].dump().substr(0, 300);
      if (!a.contains(k)) return sub + ": missing, expected " + e[k].dump().substr(0, 300);
      std::string d = FirstDifference(e[k], a[k], sub);
      if (!d.empty()) return d;
    }
    return "";
  }
  if (e.is_array() && a.is_array() && e.size() == a.size()) {
    for (size_t i = 0; i < e.size(); ++i) {
      std::string d = FirstDifference(e[i], a[i], path + "[" + std::to_string(i) + "]");
      if (!d.empty()) return d;
    }
    return "";
  }
  return path + ": expected " + e.dump().substr(0, 400) + ", got " + a.dump().substr(0, 400);
}

// "" when every step matches; else the first mismatch, readable.
std::string CheckScenario(const fs::path& scenario_path) {
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
  std::vector<json> actual;
  Status s = RunFrameworkReplay(std::move(scenario).value(), FrameworkReplayOptions{},
                                [&](const Pod& pod, const framework::CycleResult& r,
                                    const ClusterState& c, const FrameworkPreemption* p) {
                                  actual.push_back(json::parse(FrameworkStepToJson(pod, r, c, p)));
                                });
  if (!s.ok()) return "replay failed: " + s.error().message;
  for (size_t i = 0; i < expected.size(); ++i) {
    if (i >= actual.size()) return "missing step " + std::to_string(i);
    std::string d = FirstDifference(expected[i], actual[i], "");
    if (!d.empty()) {
      return "step " + std::to_string(i) + " (" + expected[i].value("pod", "") + ") at " + d;
    }
  }
  if (actual.size() != expected.size()) return "extra steps";
  return "";
}

std::string VectorName(const ::testing::TestParamInfo<fs::path>& info) {
  return ::ksched::testing::ReadableTestName(info.param.filename().string());
}

class FrameworkVector : public ::testing::TestWithParam<fs::path> {};

TEST_P(FrameworkVector, MatchesUpstream) { EXPECT_EQ(CheckScenario(GetParam()), "") << GetParam(); }

INSTANTIATE_TEST_SUITE_P(Framework, FrameworkVector, ::testing::ValuesIn(Scenarios("framework")),
                         VectorName);
INSTANTIATE_TEST_SUITE_P(FrameworkV135, FrameworkVector,
                         ::testing::ValuesIn(Scenarios("framework-v1.35")), VectorName);
INSTANTIATE_TEST_SUITE_P(Dra, FrameworkVector, ::testing::ValuesIn(Scenarios("dra")), VectorName);

TEST(FrameworkVectors, ArePresent) {
  for (const char* folder : {"framework", "framework-v1.35", "dra"}) {
    EXPECT_TRUE(fs::is_directory(SharedDir(folder))) << SharedDir(folder) << " is missing";
    EXPECT_FALSE(Scenarios(folder).empty()) << folder;
  }
}

}  // namespace framework_vectors_test
}  // namespace ksched
