// The v1.26 engine through the command line: --scheduler-version and
// --config choose it; bad configurations exit 2 with upstream's words.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tests/cli_run.h"

namespace ksched::cli_testing {
namespace {

std::string WriteTemp(const std::string& name, const std::string& text) {
  std::string path = TempPath(name);
  std::ofstream(path) << text;
  return path;
}

TEST(FrameworkCli, SchedulerVersionChoosesTheFramework) {
  CommandRun r = Ksched("schedule -f " + Example("cluster.yaml") + " --scheduler-version v1.26");
  EXPECT_EQ(r.status, 1) << r.err;
  // v1.26's TaintToleration names the taint; v1.15's predicate does not.
  EXPECT_NE(r.out.find("node(s) had untolerated taint {nvidia.com/gpu: present}"),
            std::string::npos)
      << r.out;
  CommandRun v115 = Ksched("schedule -f " + Example("cluster.yaml"));
  EXPECT_EQ(v115.out.find("untolerated taint"), std::string::npos) << v115.out;
}

TEST(FrameworkCli, JsonNamesPluginsAndTheirWeightedScores) {
  CommandRun r =
      Ksched("schedule -f " + Example("cluster.yaml") + " --scheduler-version v1.26 -o json");
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.out.find("\"plugins\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"TaintToleration\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"failedPredicates\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"NodeResourcesFit\""), std::string::npos) << r.out;
}

TEST(FrameworkCli, ConfigFileDisablingAScorePluginChangesTheScores) {
  std::string cfg = WriteTemp("cfg.yaml",
                              "apiVersion: kubescheduler.config.k8s.io/v1\n"
                              "kind: KubeSchedulerConfiguration\n"
                              "profiles:\n"
                              "- schedulerName: default-scheduler\n"
                              "  plugins:\n"
                              "    score:\n"
                              "      disabled:\n"
                              "      - name: ImageLocality\n");
  CommandRun r = Ksched("schedule -f " + Example("cluster.yaml") + " --config " + cfg + " -o json");
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_EQ(r.out.find("\"ImageLocality\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"NodeResourcesFit\""), std::string::npos) << r.out;
}

TEST(FrameworkCli, UnknownPluginIsUpstreamsError) {
  std::string cfg = WriteTemp("bad-plugin.yaml",
                              "apiVersion: kubescheduler.config.k8s.io/v1\n"
                              "kind: KubeSchedulerConfiguration\n"
                              "profiles:\n"
                              "- plugins:\n"
                              "    filter:\n"
                              "      enabled:\n"
                              "      - name: NoSuchPlugin\n");
  CommandRun r = Ksched("schedule -f " + Example("cluster.yaml") + " --config " + cfg);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("\"NoSuchPlugin\" does not exist"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST(FrameworkCli, UnknownFieldIsAStrictDecodingError) {
  std::string cfg = WriteTemp("bad-field.yaml",
                              "apiVersion: kubescheduler.config.k8s.io/v1\n"
                              "kind: KubeSchedulerConfiguration\n"
                              "profiles:\n"
                              "- schedulerName: default-scheduler\n"
                              "  plugin: {}\n");
  CommandRun r = Ksched("schedule -f " + Example("cluster.yaml") + " --config " + cfg);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("unknown field \"profiles[0].plugin\""), std::string::npos) << r.err;
}

TEST(FrameworkCli, PolicyBelongsToV115) {
  std::string policy = WriteTemp("policy.json", R"({"kind":"Policy","apiVersion":"v1"})");
  CommandRun r = Ksched("schedule -f " + Example("cluster.yaml") +
                        " --scheduler-version v1.26 --policy " + policy);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--config"), std::string::npos) << r.err;
}

TEST(FrameworkCli, CapacityRunsOnTheFramework) {
  CommandRun r = Ksched("capacity -f " + Example("cluster.yaml") + " --pod " +
                        Example("web-deployment.yaml") + " --scheduler-version v1.26");
  EXPECT_TRUE(r.status == 0 || r.status == 1) << r.err;
  EXPECT_FALSE(r.out.empty());
}

// FNV-1a over the chosen nodes of replay's steps ("-" for none), as bench
// computes its digest.
std::string DigestOfReplay(const std::string& steps) {
  uint64_t h = 1469598103934665603ull;
  auto add = [&](const std::string& s) {
    for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
    h = (h ^ 0xff) * 1099511628211ull;
  };
  std::istringstream in(steps);
  std::string line;
  while (std::getline(in, line)) {
    nlohmann::json step = nlohmann::json::parse(line);
    add(step["node"].is_null() ? "-" : step["node"].get<std::string>());
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  return hex;
}

// bench runs a framework scenario through the engine replay runs: the digest
// of its decisions is that of replay's steps, with one thread or all, with
// and without --details (which also writes replay's bytes). One scenario of
// each kind: file order (mconf) and the scheduler loop with preemption (mpre).
TEST(FrameworkCli, BenchDecidesAsReplay) {
  const std::string dir = std::string(KSCHED_SHARED_DIR) + "/framework";
  if (!std::filesystem::exists(dir)) GTEST_SKIP() << dir << " not found";
  for (const char* name : {"mconf-0001", "mconf-0100", "mpre-0001", "mpre-0002"}) {
    const std::string file = dir + "/" + name + ".json";
    CommandRun replay = Ksched("replay " + file);
    ASSERT_EQ(replay.status, 0) << name << ": " << replay.err;
    const std::string want = DigestOfReplay(replay.out);
    for (const char* flags : {"--threads 1", "", "--details", "--details --threads 1"}) {
      CommandRun bench = Ksched("bench " + file + " -o json " + flags);
      ASSERT_EQ(bench.status, 0) << name << " " << flags << ": " << bench.err;
      nlohmann::json row = nlohmann::json::parse(bench.out)[0];
      EXPECT_EQ(row["engine"], "v1.26") << name;
      EXPECT_EQ(row["digest"], want) << name << " " << flags;
      if (row.contains("outputBytes")) EXPECT_EQ(row["outputBytes"], replay.out.size()) << name;
    }
  }
}

// A scenario with a KubeSchedulerConfiguration but no schedulerVersion (as
// some of shared/perf's mperf files) runs on the framework, with a warning.
TEST(FrameworkCli, ConfigWithoutSchedulerVersionRunsOnTheFramework) {
  std::string file = WriteTemp("noversion.json", R"({"config": {
      "apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration"},
    "cluster": {"nodes": [
      {"metadata": {"name": "n1"},
       "status": {"allocatable": {"cpu": "1", "memory": "1Gi", "pods": "10"}}},
      {"metadata": {"name": "n2"},
       "status": {"allocatable": {"cpu": "1", "memory": "1Gi", "pods": "10"}}}]},
    "pending": [{"metadata": {"name": "p"}, "spec": {"containers": [{"name": "c"}]}}]})");
  CommandRun bench = Ksched("bench " + file + " -o json");
  ASSERT_EQ(bench.status, 0) << bench.err;
  EXPECT_EQ(nlohmann::json::parse(bench.out)[0]["engine"], "v1.26");
  EXPECT_NE(bench.err.find("scheduled as v1.26"), std::string::npos) << bench.err;
  CommandRun replay = Ksched("replay " + file);
  ASSERT_EQ(replay.status, 0) << replay.err;
  EXPECT_NE(replay.out.find("\"plugins\""), std::string::npos) << replay.out;
  EXPECT_NE(replay.err.find("scheduled as v1.26"), std::string::npos) << replay.err;
}

}  // namespace
}  // namespace ksched::cli_testing
