// End-to-end checks of the ksched command line on the bundled example: the
// outputs a person reads, exit statuses, and clear one-line errors.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "api/yaml_to_json.h"

namespace {

struct CommandRun {
  int status = -1;
  std::string out;
  std::string err;
};

// ctest runs test processes in parallel (and other builds' tests may run at
// the same time): temporary files carry the process id.
std::string TempPath(const std::string& name) {
  return ::testing::TempDir() + "/ksched-cli-" + std::to_string(getpid()) + "-" + name;
}

CommandRun Ksched(const std::string& args) {
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

std::string Example(const std::string& f) {
  return std::string(KSCHED_SOURCE_DIR) + "/examples/" + f;
}

std::string WriteTemp(const std::string& name, const std::string& text) {
  std::string path = TempPath(name);
  std::ofstream(path) << text;
  return path;
}

TEST(Cli, ScheduleTableOnExample) {
  CommandRun r = Ksched("schedule -f " + Example("cluster.yaml"));
  EXPECT_EQ(r.status, 1) << "some pods do not fit: exit 1";
  EXPECT_NE(r.out.find("POD"), std::string::npos);
  EXPECT_NE(r.out.find("shop/web-7d9f-klmno  node-a2"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("shop/report-builder  <none>"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("0/5 nodes are available: 1 node(s) had taints that the pod didn't "
                       "tolerate, 2 Insufficient memory, 4 Insufficient cpu."),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("ml/inference-0       gpu-b3"), std::string::npos) << r.out;
  EXPECT_TRUE(r.err.empty()) << r.err;
}

TEST(Cli, ScheduleJsonOnExample) {
  CommandRun r = Ksched("schedule -f " + Example("cluster.yaml") + " -o json");
  ASSERT_EQ(r.status, 1);
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j.size(), 5u);
  EXPECT_EQ(j[0]["pod"], "shop/web-7d9f-klmno");
  EXPECT_EQ(j[0]["node"], "node-a2");
  EXPECT_EQ(j[0]["score"], j[0]["scores"]["node-a2"]);
  EXPECT_EQ(j[0]["failedPredicates"]["gpu-b3"], "PodToleratesNodeTaints");
  EXPECT_TRUE(j[0]["priorities"].contains("NodePreferAvoidPodsPriority"));
  EXPECT_TRUE(j[3]["node"].is_null());
  EXPECT_EQ(j[3]["failures"]["node-a1"][0], "Insufficient cpu");
}

TEST(Cli, ScheduleYamlHoldsWhatJsonHolds) {
  CommandRun json = Ksched("schedule -f " + Example("cluster.yaml") + " -o json");
  CommandRun yaml = Ksched("schedule -f " + Example("cluster.yaml") + " -o yaml");
  ASSERT_EQ(yaml.status, json.status);
  EXPECT_EQ(yaml.out.rfind("- pod: \"shop/web-7d9f-klmno\"\n  node: \"node-a2\"\n", 0), 0u)
      << yaml.out;
  auto from_yaml = ksched::YamlToJson(yaml.out, "schedule.yaml");
  ASSERT_TRUE(from_yaml.ok()) << from_yaml.error().message;
  EXPECT_EQ(nlohmann::json::parse(*from_yaml), nlohmann::json::parse(json.out));
}

TEST(Cli, AFailedWriteIsAnErrorNotSilence) {
  if (access("/dev/full", W_OK) != 0) GTEST_SKIP() << "no /dev/full";
  for (const std::string& cmd :
       {"replay " + std::string(KSCHED_SHARED_DIR) + "/conformance/conf-001.json",
        "schedule -f " + Example("cluster.yaml") + " -o yaml"}) {
    CommandRun r = Ksched(cmd + " >/dev/full");
    EXPECT_EQ(r.status, 2) << cmd;
    EXPECT_NE(r.err.find("cannot write the output: No space left on device"), std::string::npos)
        << cmd << ": " << r.err;
  }
}

TEST(Cli, ExplainShowsEveryNode) {
  CommandRun r =
      Ksched("schedule -f " + Example("cluster.yaml") + " --explain shop/web-7d9f-uvwxy");
  EXPECT_EQ(r.status, 1);
  for (const char* node : {"node-a1", "node-a2", "node-b1", "node-b2", "gpu-b3"})
    EXPECT_NE(r.out.find(node), std::string::npos) << node;
  EXPECT_NE(r.out.find("MatchInterPodAffinity: node(s) didn't match pod affinity/anti-affinity"),
            std::string::npos)
      << r.out;
}

TEST(Cli, CapacityCountsCopies) {
  // Without the snapshot's pending pods, as capacity counted before they
  // were scheduled first (tests/planning_cli_test.cc has the rest).
  CommandRun r = Ksched("capacity -f " + Example("cluster.yaml") + " --pod " +
                        Example("web-pod.yaml") + " --ignore-pending -o json");
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out)["workloads"][0];
  EXPECT_EQ(j["count"], 14);
  EXPECT_EQ(j["perNode"]["node-a2"], 10);
  EXPECT_NE(j["stopReason"].get<std::string>().find("0/5 nodes are available"), std::string::npos);
  CommandRun capped = Ksched("capacity -f " + Example("cluster.yaml") + " --pod " +
                             Example("web-pod.yaml") + " --ignore-pending --max 3 -o json");
  EXPECT_EQ(nlohmann::json::parse(capped.out)["workloads"][0]["count"], 3);
}

TEST(Cli, BadInputIsOneClearLineAndExit2) {
  CommandRun missing = Ksched("schedule -f /nonexistent/snap.yaml");
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.err.find("/nonexistent/snap.yaml"), std::string::npos) << missing.err;
  EXPECT_TRUE(missing.out.empty());

  std::string bad = WriteTemp("bad-quantity.yaml",
                              "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n"
                              "status: {allocatable: {cpu: 2x}}\n");
  CommandRun q = Ksched("schedule -f " + bad);
  EXPECT_EQ(q.status, 2);
  EXPECT_NE(q.err.find("Node n1"), std::string::npos) << q.err;
  EXPECT_NE(q.err.find("status.allocatable.cpu"), std::string::npos) << q.err;
  EXPECT_TRUE(q.out.empty());

  std::string broken = WriteTemp("broken.yaml", "items: [\n  - {kind: Node\n");
  CommandRun y = Ksched("schedule -f " + broken);
  EXPECT_EQ(y.status, 2);
  EXPECT_NE(y.err.find("broken.yaml"), std::string::npos) << y.err;

  CommandRun provider = Ksched("schedule -f " + Example("cluster.yaml") + " --provider Nope");
  EXPECT_EQ(provider.status, 2);
  EXPECT_NE(provider.err.find("unknown algorithm provider"), std::string::npos) << provider.err;

  CommandRun usage = Ksched("schedule");
  EXPECT_EQ(usage.status, 2);

  CommandRun typo = Ksched("schedul -f " + Example("cluster.yaml"));
  EXPECT_EQ(typo.status, 2);
  EXPECT_NE(typo.err.find("unknown command \"schedul\""), std::string::npos) << typo.err;
  EXPECT_NE(typo.err.find("schedule"), std::string::npos) << typo.err;
  EXPECT_TRUE(typo.out.empty());
}

TEST(Cli, IntegerFlagsNameTheirRange) {
  const std::string cap =
      "capacity -f " + Example("cluster.yaml") + " --pod " + Example("web-pod.yaml");
  for (const char* max : {"-1", "1.5", "99999999999999999999", "7x"}) {
    CommandRun r = Ksched(cap + " --max " + max);
    EXPECT_EQ(r.status, 2) << max;
    EXPECT_NE(r.err.find("--max"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("must be a whole number 0 or more"), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << max;
  }
  CommandRun weight = Ksched("schedule -f " + Example("cluster.yaml") +
                             " --hard-pod-affinity-symmetric-weight 101");
  EXPECT_EQ(weight.status, 2);
  EXPECT_NE(weight.err.find("from 0 to 100"), std::string::npos) << weight.err;
  CommandRun off =
      Ksched("schedule -f " + Example("cluster.yaml") + " --hard-pod-affinity-symmetric-weight 0");
  EXPECT_EQ(off.status, 1) << off.err;  // 0 turns the symmetric term off, as upstream allows
  CommandRun threads = Ksched("bench " + Example("cluster.yaml") + " --threads 100000");
  EXPECT_EQ(threads.status, 2);
  EXPECT_NE(threads.err.find("from 0 to 1024"), std::string::npos) << threads.err;
}

TEST(Cli, HelpDocumentsSubcommands) {
  CommandRun r = Ksched("--help");
  EXPECT_EQ(r.status, 0);
  for (const char* cmd : {"replay", "schedule", "capacity", "drain", "bench"})
    EXPECT_NE(r.out.find(cmd), std::string::npos) << cmd;
}

TEST(Cli, ReplayMatchesVectorFile) {
  std::string scenario = std::string(KSCHED_SHARED_DIR) + "/conformance/conf-001.json";
  CommandRun r = Ksched("replay " + scenario);
  ASSERT_EQ(r.status, 0) << r.err;
  std::ifstream e(std::string(KSCHED_SHARED_DIR) + "/conformance/conf-001.expected.jsonl");
  std::string line;
  size_t pos = 0;
  while (std::getline(e, line)) {
    size_t nl = r.out.find('\n', pos);
    ASSERT_NE(nl, std::string::npos);
    EXPECT_EQ(nlohmann::json::parse(r.out.substr(pos, nl - pos)), nlohmann::json::parse(line));
    pos = nl + 1;
  }
}

TEST(Cli, ReplayWarnsAboutUnknownScenarioFields) {
  std::string file = WriteTemp("typo.yaml", "cluster:\n  nodes: []\npendng: []\n");
  CommandRun r = Ksched("replay " + file);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("warning: " + file + ": unknown scenario field \"pendng\" ignored"),
            std::string::npos)
      << r.err;
}

TEST(Cli, BenchDigestMatchesAcrossThreadCounts) {
  std::string scenario = std::string(KSCHED_SHARED_DIR) + "/conformance/conf-002.json";
  CommandRun a = Ksched("bench " + scenario + " -o json --threads 1");
  CommandRun b = Ksched("bench " + scenario + " -o json");
  ASSERT_EQ(a.status, 0) << a.err;
  EXPECT_EQ(nlohmann::json::parse(a.out)[0]["digest"], nlohmann::json::parse(b.out)[0]["digest"]);
}

TEST(Cli, BenchDetailsDecidesAsBenchAndCountsReplaysBytes) {
  std::string scenario = std::string(KSCHED_SHARED_DIR) + "/conformance/conf-002.json";
  CommandRun plain = Ksched("bench " + scenario + " -o json");
  CommandRun details = Ksched("bench --details " + scenario + " -o json");
  CommandRun replay = Ksched("replay " + scenario);
  ASSERT_EQ(details.status, 0) << details.err;
  auto d = nlohmann::json::parse(details.out)[0];
  EXPECT_EQ(d["digest"], nlohmann::json::parse(plain.out)[0]["digest"]);
  EXPECT_EQ(d["outputBytes"], replay.out.size());
  EXPECT_FALSE(nlohmann::json::parse(plain.out)[0].contains("outputBytes"));
}

}  // namespace
