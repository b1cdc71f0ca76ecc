#include "config/load.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "config/feature_gates.h"

namespace ksched::config {
namespace {

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

}  // namespace
}  // namespace ksched::config
