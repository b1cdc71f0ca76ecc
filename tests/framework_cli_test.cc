// The v1.26 engine through the command line: --scheduler-version and
// --config choose it; bad configurations exit 2 with upstream's words.
#include <gtest/gtest.h>

#include <fstream>

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
  // The framework names the failing plugin, under the vectors' field name.
  EXPECT_NE(r.out.find("\"failedPlugins\""), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("\"failedPredicates\""), std::string::npos) << r.out;
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

}  // namespace
}  // namespace ksched::cli_testing
