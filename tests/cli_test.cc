// End-to-end checks of the ksched command line on the bundled example: the
// outputs a person reads, exit statuses, and clear one-line errors. The
// checks of v1.15's exact output ask for that engine; the default engine
// (v1.26) is checked here and in framework_cli_test.cc.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "api/yaml_to_json.h"
#include "tests/cli_run.h"

namespace cli_test {

using namespace ksched::cli_testing;

TEST(Cli, ScheduleTableOnExample) {
  CommandRun r = Ksched("schedule --scheduler-version v1.15 -f " + Example("cluster.yaml"));
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
  CommandRun r =
      Ksched("schedule --scheduler-version v1.15 -f " + Example("cluster.yaml") + " -o json");
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
  CommandRun r = Ksched("schedule --scheduler-version v1.15 -f " + Example("cluster.yaml") +
                        " --explain shop/web-7d9f-uvwxy");
  EXPECT_EQ(r.status, 1);
  for (const char* node : {"node-a1", "node-a2", "node-b1", "node-b2", "gpu-b3"})
    EXPECT_NE(r.out.find(node), std::string::npos) << node;
  EXPECT_NE(r.out.find("MatchInterPodAffinity: node(s) didn't match pod affinity/anti-affinity"),
            std::string::npos)
      << r.out;
}

TEST(Cli, ExplainNamesTheCauses) {
  CommandRun r = Ksched("schedule --scheduler-version v1.15 -f " + Example("cluster.yaml") +
                        " --explain shop/report-builder");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("taint nvidia.com/gpu=present:NoSchedule is not tolerated"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("cpu: the pod requests 6, the node has 750m free (allocatable 2,"),
            std::string::npos)
      << r.out;
  // Fits the default width of 100 columns when stdout is not a terminal.
  size_t start = 0;
  for (size_t nl; (nl = r.out.find('\n', start)) != std::string::npos; start = nl + 1)
    EXPECT_LE(nl - start, 100u) << r.out.substr(start, nl - start);
  CommandRun narrow = Ksched("schedule --scheduler-version v1.15 -f " + Example("cluster.yaml") +
                             " --explain shop/web-7d9f-klmno");
  // NodePreferAvoidPods' weight-10000 term is shown apart from the total.
  EXPECT_NE(narrow.out.find("-> node-a2 (score 34, plus NodePreferAvoidPods 10 x 10000)"),
            std::string::npos)
      << narrow.out;
}

TEST(Cli, ExplainHonoursJsonAndYaml) {
  CommandRun r = Ksched("schedule --scheduler-version v1.15 -f " + Example("cluster.yaml") +
                        " --explain shop/web-7d9f-uvwxy -o json");
  ASSERT_EQ(r.status, 1) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["pod"], "shop/web-7d9f-uvwxy");
  EXPECT_TRUE(j["node"].is_null());
  ASSERT_EQ(j["nodes"].size(), 5u);
  bool saw_anti = false;
  for (const auto& n : j["nodes"]) {
    EXPECT_EQ(n["fits"], false);
    for (const auto& c : n["causes"]) {
      // Upstream's reason stays beside each cause.
      EXPECT_NE(std::find(n["reasons"].begin(), n["reasons"].end(), c["reason"]),
                n["reasons"].end());
      if (c["kind"] == "existingPodAntiAffinity") {
        saw_anti = true;
        EXPECT_EQ(c["podCount"], 1);
      }
    }
  }
  EXPECT_TRUE(saw_anti) << r.out;
  EXPECT_EQ(j["failedBeforeFiltering"], false);
  EXPECT_TRUE(j.contains("preemption"));

  CommandRun y = Ksched("schedule --scheduler-version v1.15 -f " + Example("cluster.yaml") +
                        " --explain shop/web-7d9f-uvwxy -o yaml");
  ASSERT_EQ(y.status, 1) << y.err;
  EXPECT_EQ(nlohmann::json::parse(*ksched::YamlToJson(y.out, "explain.yaml")), j);
}

TEST(Cli, ScheduleJsonCarriesCausesBesideReasons) {
  CommandRun r = Ksched("schedule -f " + Example("cluster.yaml") + " -o json");
  ASSERT_EQ(r.status, 1);
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j[3]["pod"], "shop/report-builder");
  EXPECT_EQ(j[3]["failures"]["node-a1"][0], "Insufficient cpu");
  const auto& cause = j[3]["causes"]["node-a1"][0];
  EXPECT_EQ(cause["reason"], "Insufficient cpu");
  EXPECT_EQ(cause["kind"], "resource");
  EXPECT_EQ(cause["requested"], 6000);
  EXPECT_EQ(cause["free"], 3750);
}

TEST(Cli, ExplainNameWithoutNamespaceMeansDefault) {
  std::string pending = WriteTemp("pending-default.yaml",
                                  "apiVersion: v1\nkind: Pod\nmetadata: {name: solo, namespace: "
                                  "default}\nspec: {containers: [{name: c}]}\n");
  CommandRun r = Ksched("schedule -f " + Example("cluster.yaml") + " --pending " + pending +
                        " --explain solo");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("Pod default/solo -> "), std::string::npos) << r.out;
  CommandRun missing = Ksched("schedule -f " + Example("cluster.yaml") + " --explain nobody");
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.err.find("--explain default/nobody: no such pending pod"), std::string::npos)
      << missing.err;
  // A name pending in another namespace is suggested.
  CommandRun elsewhere =
      Ksched("schedule -f " + Example("cluster.yaml") + " --explain report-builder");
  EXPECT_EQ(elsewhere.status, 2);
  EXPECT_NE(elsewhere.err.find("--explain default/report-builder: no such pending pod (use "
                               "namespace/name of a pod without spec.nodeName); pending in "
                               "another namespace: shop/report-builder\n"),
            std::string::npos)
      << elsewhere.err;
}

TEST(Cli, ExplainSaysWhenNoNodeWasChecked) {
  std::string pending = WriteTemp("pending-pvc.yaml",
                                  "apiVersion: v1\nkind: Pod\nmetadata: {name: db, namespace: "
                                  "default}\nspec:\n  containers: [{name: c}]\n  volumes: "
                                  "[{name: d, persistentVolumeClaim: {claimName: missing}}]\n");
  CommandRun r = Ksched("schedule --scheduler-version v1.15 -f " + Example("cluster.yaml") +
                        " --pending " + pending + " --explain default/db");
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.out.find("persistentvolumeclaim \"missing\" not found"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("No node was checked"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("percentageOfNodesToScore"), std::string::npos) << r.out;
  CommandRun j = Ksched("schedule --scheduler-version v1.15 -f " + Example("cluster.yaml") +
                        " --pending " + pending + " --explain default/db -o json");
  EXPECT_EQ(nlohmann::json::parse(j.out)["failedBeforeFiltering"], true) << j.out;
}

TEST(Cli, ExplainSaysWhyNodesAreOrAreNotPreemptionCandidates) {
  std::string snap = WriteTemp("preempt.yaml", R"(apiVersion: v1
kind: List
items:
- kind: Node
  metadata: {name: n1}
  status: {allocatable: {cpu: "2", pods: "10"}}
- kind: Node
  metadata: {name: n2}
  spec: {taints: [{key: dedicated, value: ml, effect: NoSchedule}]}
  status: {allocatable: {cpu: "2", pods: "10"}}
- kind: Pod
  metadata: {name: low, namespace: default}
  spec: {nodeName: n1, priority: 0, containers: [{name: c, resources: {requests: {cpu: "2"}}}]}
- kind: Pod
  metadata: {name: high, namespace: default, creationTimestamp: "2024-01-01T00:00:00Z"}
  spec: {priority: 100, containers: [{name: c, resources: {requests: {cpu: "2"}}}]}
)");
  CommandRun r = Ksched("schedule --scheduler-version v1.15 -f " + snap + " --explain high");
  EXPECT_EQ(r.status, 0) << r.err << r.out;  // scheduled on the retry
  EXPECT_NE(r.out.find("Attempt 1 (it preempted, then was retried):"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Attempt 2 (after preemption):\n\nPod default/high -> n1"),
            std::string::npos)
      << r.out;
  // The PREEMPTION table starts on a line of its own.
  EXPECT_NE(r.out.find("Preemption: nominated to n1, deleting default/low.\nNODE"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("n1    candidate: victims default/low (chosen)"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("n2    not a candidate: removing pods cannot cure node(s) had taints"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("cpu: the pod requests 2, the node has 0 free"), std::string::npos) << r.out;
  CommandRun j =
      Ksched("schedule --scheduler-version v1.15 -f " + snap + " --explain high -o json");
  auto doc = nlohmann::json::parse(j.out);
  // The last attempt, with the one that preempted inside it.
  EXPECT_EQ(doc["node"], "n1");
  EXPECT_EQ(doc["attempt"], 2);
  const auto& first = doc["earlierAttempts"][0];
  EXPECT_TRUE(first["node"].is_null());
  EXPECT_EQ(first["preemption"]["node"], "n1");
  EXPECT_EQ(first["preemptionCandidates"][0]["verdict"], "candidate");
  EXPECT_EQ(first["preemptionCandidates"][0]["victims"][0], "default/low");
  EXPECT_EQ(first["preemptionCandidates"][1]["verdict"], "unresolvable");
}

TEST(Cli, VersionAndHelp) {
  const std::string version =
      std::string("ksched ") + KSCHED_VERSION +
      " (kube-scheduler v1.35.4 and v1.26.0 frameworks, v1.15.5 algorithm)\n";
  CommandRun v = Ksched("--version");
  EXPECT_EQ(v.status, 0);
  EXPECT_EQ(v.out, version);
  CommandRun short_v = Ksched("-v");  // as `kubectl version` users type it
  EXPECT_EQ(short_v.status, 0) << short_v.err;
  EXPECT_EQ(short_v.out, version);
  CommandRun h = Ksched("--help");
  EXPECT_EQ(h.status, 0);
  // schedule is listed first; the defaults that differ from upstream are named.
  EXPECT_LT(h.out.find("  schedule "), h.out.find("  replay "));
  EXPECT_LT(h.out.find("  schedule "), h.out.find("  capacity "));
  EXPECT_NE(h.out.find("--tie-break round-robin"), std::string::npos) << h.out;
  EXPECT_NE(h.out.find("--percentage-of-nodes-to-score 100"), std::string::npos) << h.out;
}

TEST(Cli, EveryErrorLineStartsWithKsched) {
  for (const std::string& args :
       {std::string("schedule"), std::string("schedule -f x --bogus"),
        "schedule -f " + Example("cluster.yaml") + " -o xml", std::string("frobnicate"),
        std::string("schedule -f /nonexistent.yaml"), std::string("bench"),
        std::string("replay --tie-break nope x.json")}) {
    CommandRun r = Ksched(args);
    EXPECT_EQ(r.status, 2) << args;
    ASSERT_FALSE(r.err.empty()) << args;
    size_t start = 0;
    for (size_t nl; (nl = r.err.find('\n', start)) != std::string::npos; start = nl + 1)
      EXPECT_EQ(r.err.compare(start, 8, "ksched: "), 0) << args << ": " << r.err;
  }
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
  CommandRun off = Ksched("schedule --scheduler-version v1.15 -f " + Example("cluster.yaml") +
                          " --hard-pod-affinity-symmetric-weight 0");
  EXPECT_EQ(off.status, 1) << off.err;  // 0 turns the symmetric term off, as upstream allows
  // v1.26 has no such flag: its weight is InterPodAffinity's
  // hardPodAffinityWeight, in --config.
  CommandRun v126 =
      Ksched("schedule -f " + Example("cluster.yaml") + " --hard-pod-affinity-symmetric-weight 0");
  EXPECT_EQ(v126.status, 2);
  EXPECT_NE(v126.err.find("hardPodAffinityWeight"), std::string::npos) << v126.err;
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

// One truth for the documentation: docs/ and --help say the same. (docs/cli.md,
// the whole --help, is checked by CTest cli_doc: tests/cli_doc_test.sh.)
std::string SourceFile(const std::string& rel) {
  std::ifstream in(std::string(KSCHED_SOURCE_DIR) + "/" + rel);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Every run of whitespace as one space, so wrapped lines compare as text.
std::string Squash(const std::string& text) {
  std::string out;
  for (char c : text) {
    const bool space = c == ' ' || c == '\n' || c == '\t' || c == '\r';
    if (space && (out.empty() || out.back() == ' ')) continue;
    out += space ? ' ' : c;
  }
  return out;
}

TEST(Cli, DefaultsReadTheSameInHelpAndDocs) {
  const std::string usage_md = Squash(SourceFile("docs/usage.md"));
  const std::string run_md = Squash(SourceFile("docs/run.md"));
  ASSERT_FALSE(usage_md.empty());
  ASSERT_FALSE(run_md.empty());
  const std::string percentage =
      "kube-scheduler's default is 50 in v1.15 and 0 (adaptive) from v1.26, either of which only "
      "matters from 100 nodes up";
  const std::string tie_break =
      "round-robin picks as kube-scheduler's selectHost does (v1.15 rotates among them, v1.26 and "
      "v1.35 pick one at random)";
  std::vector<std::pair<std::string, std::string>> texts = {{"docs/usage.md", usage_md}};
  for (const char* cmd : {"--help", "schedule --help", "capacity --help", "drain --help"}) {
    CommandRun r = Ksched(cmd);
    ASSERT_EQ(r.status, 0) << cmd;
    texts.emplace_back(cmd, Squash(r.out));
  }
  for (const auto& [where, text] : texts) {
    EXPECT_NE(text.find(percentage), std::string::npos) << where << ": " << text;
    EXPECT_NE(text.find(tie_break), std::string::npos) << where << ": " << text;
  }
  // `run` keeps kube-scheduler's defaults (the engine's upstream percentage):
  // its help, docs/run.md, docs/usage.md and the top-level help agree.
  CommandRun run = Ksched("run --help");
  ASSERT_EQ(run.status, 0);
  const std::string run_help = Squash(run.out);
  EXPECT_NE(run_help.find("Default: v1.35 and v1.26 --config's percentageOfNodesToScore, else "
                          "adaptive; "
                          "v1.15 50"),
            std::string::npos)
      << run_help;
  EXPECT_NE(run_help.find("--tie-break TEXT:{name,round-robin}=round-robin"), std::string::npos)
      << run_help;
  EXPECT_NE(run_md.find("| `--percentage-of-nodes-to-score N` | v1.35 and v1.26: `--config`'s "
                        "`percentageOfNodesToScore`, else adaptive (0); v1.15: 50 |"),
            std::string::npos);
  EXPECT_NE(run_md.find("| `--tie-break name\\|round-robin` | `round-robin` |"), std::string::npos);
  EXPECT_NE(usage_md.find(
                "`ksched run` keeps kube-scheduler's: `--tie-break round-robin` and, for "
                "`--percentage-of-nodes-to-score`, the engine's upstream default (v1.35 and v1.26: "
                "`--config`'s percentageOfNodesToScore, else adaptive; v1.15: 50)"),
            std::string::npos);
  EXPECT_NE(
      texts[1].second.find("run keeps kube-scheduler's: --tie-break round-robin and, for "
                           "--percentage-of-nodes-to-score, the engine's upstream default: "
                           "v1.35 and v1.26 the --config file's percentageOfNodesToScore, else "
                           "adaptive; v1.15 50"),
      std::string::npos)
      << texts[1].second;
  // --pending's pods go in queue order, priority first.
  EXPECT_NE(texts[2].second.find("They go in queue order, as kube-scheduler's queue takes them: "
                                 "higher spec.priority first, then the order in the file"),
            std::string::npos)
      << texts[2].second;
}

// The command list docs/input-limits.md quotes is the one ksched prints.
TEST(Cli, InputLimitsQuotesTheCommandList) {
  CommandRun typo = Ksched("schedul");
  ASSERT_EQ(typo.status, 2);
  std::string message = typo.err.substr(std::string("ksched: ").size());
  message.erase(message.find_last_not_of('\n') + 1);
  message = message.substr(0, message.find("; see ksched --help"));
  EXPECT_NE(SourceFile("docs/input-limits.md").find(message), std::string::npos) << message;
}

}  // namespace cli_test
