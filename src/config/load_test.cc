#include "config/load.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "config/feature_gates.h"
#include "config/validation.h"

namespace ksched::config {
namespace load_test {

TEST(ConfigLoad, YamlFileWithProfiles) {
  auto r = LoadConfiguration(R"(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
- schedulerName: no-scoring
  plugins:
    preScore:
      disabled:
      - name: '*'
    score:
      disabled:
      - name: '*'
)",
                             "sched.yaml", FeatureGates{});
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->profiles.size(), 2u);
  EXPECT_EQ(r->profiles[1].plugins.score.disabled[0].name, "*");
  EXPECT_EQ(r->profiles[1].plugin_config.size(), 7u);
}

TEST(ConfigLoad, ErrorsNameTheFile) {
  auto r = LoadConfiguration(R"({"apiVersion": "kubescheduler.config.k8s.io/v1",
      "kind": "KubeSchedulerConfiguration", "profiles": [{"plugin": {}}]})",
                             "sched.json", FeatureGates{});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message,
            "sched.json: strict decoding error: unknown field \"profiles[0].plugin\"");
}

std::filesystem::path SharedDir() {
  for (std::filesystem::path p :
       {std::filesystem::path(KSCHED_SHARED_DIR) / "framework",
        std::filesystem::path(KSCHED_SOURCE_DIR) / "../../shared/framework"})
    if (std::filesystem::is_directory(p)) return p;
  return {};
}

// Every configuration of the framework vectors is one kube-scheduler v1.26
// accepted, with the scenario's feature gates.
TEST(ConfigLoad, EveryVectorConfigLoads) {
  std::filesystem::path dir = SharedDir();
  if (dir.empty()) GTEST_SKIP() << "no shared/framework vectors";
  int configs = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".json") continue;
    std::ifstream in(entry.path());
    std::stringstream ss;
    ss << in.rdbuf();
    auto j = nlohmann::json::parse(ss.str(), nullptr, false);
    if (j.is_discarded()) continue;
    FeatureGates gates;
    if (j.contains("featureGates")) {
      std::vector<std::pair<std::string, bool>> values;
      for (auto& [k, v] : j["featureGates"].items()) values.emplace_back(k, v.get<bool>());
      Status s = SetFeatureGatesFromMap(values, &gates);
      ASSERT_TRUE(s.ok()) << s.error().message;
    }
    if (!j.contains("config")) continue;
    ++configs;
    auto r = LoadConfiguration(j["config"].dump(), entry.path().filename().string(), gates);
    EXPECT_TRUE(r.ok()) << r.error().message;
  }
  EXPECT_GT(configs, 0);
}

// Every configuration of the v1.35 vectors loads with v1.35's rules and the
// scenario's gates (read as the reference harness reads them).
TEST(ConfigLoad, EveryV135VectorConfigLoads) {
  std::filesystem::path dir;
  for (std::filesystem::path p :
       {std::filesystem::path(KSCHED_SHARED_DIR) / "framework-v1.35",
        std::filesystem::path(KSCHED_SOURCE_DIR) / "../../shared/framework-v1.35"})
    if (std::filesystem::is_directory(p)) dir = p;
  if (dir.empty()) GTEST_SKIP() << "no shared/framework-v1.35 vectors";
  int configs = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".json") continue;
    std::ifstream in(entry.path());
    std::stringstream ss;
    ss << in.rdbuf();
    auto j = nlohmann::json::parse(ss.str(), nullptr, false);
    if (j.is_discarded() || !j.contains("config")) continue;
    FeatureGates gates = DefaultFeatureGates(SchedulerVersion::kV135);
    if (j.contains("featureGates")) {
      std::vector<std::pair<std::string, bool>> values;
      for (auto& [k, v] : j["featureGates"].items()) values.emplace_back(k, v.get<bool>());
      Status s = SetFeatureGatesFromMap(values, &gates, GateRegistry::kReferenceHarness);
      ASSERT_TRUE(s.ok()) << s.error().message;
    }
    ++configs;
    auto r = LoadConfiguration(j["config"].dump(), entry.path().filename().string(), gates);
    EXPECT_TRUE(r.ok()) << r.error().message;
  }
  EXPECT_EQ(configs, 43);
}

}  // namespace load_test
}  // namespace ksched::config

namespace ksched::config {
namespace load_test {

// A cheap, deterministic stand-in for the fuzzer in the regular build:
// truncated and byte-flipped variants of the seed corpus must load or fail
// with an error, and what loads must validate again.
TEST(ConfigLoad, SurvivesMutatedSeeds) {
  std::filesystem::path dir = std::filesystem::path(KSCHED_SOURCE_DIR) / "tests/fuzz/corpus/config";
  if (!std::filesystem::is_directory(dir)) GTEST_SKIP() << "no seed corpus";
  uint64_t state = 12345;
  auto next = [&] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  const char kBytes[] = "{}[]\":,0-1.e\n 9ax";
  int loaded = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    std::ifstream in(entry.path());
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string seed = ss.str();
    for (int i = 0; i < 300 && !seed.empty(); ++i) {
      std::string text = seed;
      if (i % 3 == 0) {
        text.resize(next() % text.size());
      } else {
        for (int k = 0; k < 1 + i % 4; ++k)
          text[next() % text.size()] = kBytes[next() % (sizeof kBytes - 1)];
      }
      // v1.26 with and without VolumeCapacityPriority, v1.35 with and
      // without StorageCapacityScoring.
      FeatureGates gates;
      if (i % 4 >= 2) {
        gates = DefaultFeatureGates(SchedulerVersion::kV135);
        gates.storage_capacity_scoring = i % 2 == 0;
      } else {
        gates.volume_capacity_priority = i % 2 == 0;
      }
      auto r = LoadConfiguration(text, "m", gates);
      if (!r.ok()) continue;
      ++loaded;
      EXPECT_TRUE(ValidateKubeSchedulerConfiguration(*r, gates).empty()) << text;
    }
  }
  EXPECT_GT(loaded, 0);
}

}  // namespace load_test
}  // namespace ksched::config
