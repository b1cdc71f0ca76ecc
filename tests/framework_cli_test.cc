// The v1.26 engine through the command line: the default engine (or
// --scheduler-version v1.26, --config); --policy, --provider and
// --scheduler-version v1.15 choose v1.15; bad configurations exit 2 with
// upstream's words; snapshots are read as a v1.26 API server stores them.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tests/cli_run.h"

namespace ksched::cli_testing {
namespace framework_cli_test {

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
  CommandRun v115 = Ksched("schedule -f " + Example("cluster.yaml") + " --scheduler-version v1.15");
  EXPECT_EQ(v115.out.find("untolerated taint"), std::string::npos) << v115.out;
}

TEST(FrameworkCli, TheFrameworkIsTheDefaultEngine) {
  CommandRun r = Ksched("schedule -f " + Example("cluster.yaml"));
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_EQ(r.out.rfind("# kube-scheduler v1.35, default feature gates\n", 0), 0u) << r.out;
  // v1.35's TaintToleration no longer names the taint.
  EXPECT_NE(r.out.find("1 node(s) had untolerated taint(s), 2 Insufficient memory"),
            std::string::npos)
      << r.out;
  // The FitError carries the PostFilter plugins' verdicts (DynamicResources,
  // then DefaultPreemption), as v1.35's events do.
  EXPECT_NE(r.out.find("4 Insufficient cpu. no new claims to deallocate, preemption: 0/5 nodes "
                       "are available: 5 Preemption is not helpful for scheduling.\n"),
            std::string::npos)
      << r.out;
  // A Policy or a provider is v1.15's configuration, and chooses it.
  std::string policy = WriteTemp("default-policy.json", R"({"kind":"Policy","apiVersion":"v1"})");
  for (const std::string& flag :
       {" --policy " + policy, std::string(" --provider DefaultProvider")}) {
    CommandRun v115 = Ksched("schedule -f " + Example("cluster.yaml") + flag);
    EXPECT_EQ(v115.status, 1) << flag << ": " << v115.err;
    EXPECT_NE(v115.out.find("1 node(s) had taints that the pod didn't tolerate"), std::string::npos)
        << flag << ": " << v115.out;
  }
}

TEST(FrameworkCli, FlagsOfTheOtherEngineAreRefused) {
  CommandRun provider = Ksched("schedule -f " + Example("cluster.yaml") +
                               " --scheduler-version v1.26 --provider DefaultProvider");
  EXPECT_EQ(provider.status, 2);
  EXPECT_NE(provider.err.find("--provider selects a v1.15 algorithm provider"), std::string::npos)
      << provider.err;
  std::string cfg = WriteTemp("plain.yaml",
                              "apiVersion: kubescheduler.config.k8s.io/v1\n"
                              "kind: KubeSchedulerConfiguration\n");
  CommandRun config = Ksched("schedule -f " + Example("cluster.yaml") +
                             " --scheduler-version v1.15 --config " + cfg);
  EXPECT_EQ(config.status, 2);
  EXPECT_NE(config.err.find("--config is a KubeSchedulerConfiguration (v1.26 and later)"),
            std::string::npos)
      << config.err;
  for (const char* cmd : {"capacity", "drain"}) {
    std::string args = std::string(cmd) == "capacity" ? " --pod " + Example("web-pod.yaml")
                                                      : std::string(" node-a1");
    CommandRun r = Ksched(std::string(cmd) + " -f " + Example("cluster.yaml") + args +
                          " --scheduler-version v1.26 --provider DefaultProvider");
    EXPECT_EQ(r.status, 2) << cmd;
    EXPECT_NE(r.err.find("--provider selects a v1.15"), std::string::npos) << cmd << r.err;
  }
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

// One kube-scheduler serves every profile of its configuration: pods of
// either schedulerName are scheduled, each by its own profile's plugins.
TEST(FrameworkCli, EveryProfileIsServed) {
  std::string cfg = WriteTemp("profiles.yaml", R"(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
- schedulerName: bin-packer
  plugins:
    score:
      disabled: [{name: "*"}]
      enabled: [{name: NodeResourcesFit, weight: 5}]
  pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy:
        type: MostAllocated
        resources: [{name: cpu, weight: 1}]
)");
  std::string snap = WriteTemp("profiles-snap.yaml", R"(kind: List
items:
- kind: Node
  metadata: {name: busy, labels: {kubernetes.io/hostname: busy}}
  status: {allocatable: {cpu: 4, memory: 8Gi, pods: 10}}
- kind: Node
  metadata: {name: idle, labels: {kubernetes.io/hostname: idle}}
  status: {allocatable: {cpu: 4, memory: 8Gi, pods: 10}}
- kind: Pod
  metadata: {name: running, namespace: default}
  spec: {nodeName: busy, containers: [{name: c, resources: {requests: {cpu: 2}}}]}
- kind: Pod
  metadata: {name: spread-me, namespace: default, creationTimestamp: "2026-01-01T00:00:00Z"}
  spec: {containers: [{name: c, resources: {requests: {cpu: 1}}}]}
- kind: Pod
  metadata: {name: pack-me, namespace: default, creationTimestamp: "2026-01-01T00:00:01Z"}
  spec:
    schedulerName: bin-packer
    containers: [{name: c, resources: {requests: {cpu: 1}}}]
- kind: Pod
  metadata: {name: someone-elses, namespace: default}
  spec: {schedulerName: other, containers: [{name: c}]}
)");
  CommandRun r = Ksched("schedule -f " + snap + " --config " + cfg + " -o json");
  EXPECT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j.size(), 3u) << r.out;
  EXPECT_EQ(j[0]["pod"], "default/spread-me");
  EXPECT_EQ(j[0]["node"], "idle");  // LeastAllocated
  EXPECT_EQ(j[1]["pod"], "default/pack-me");
  EXPECT_EQ(j[1]["node"], "busy");  // MostAllocated
  EXPECT_EQ(j[1]["plugins"]["NodeResourcesFit@bin-packer"]["busy"], 5 * 75) << r.out;
  EXPECT_EQ(j[2]["skipped"],
            "left to scheduler \"other\" (spec.schedulerName; this run serves the profiles "
            "default-scheduler, bin-packer)")
      << r.out;
  // --scheduler-name narrows the run to one profile, as kube-scheduler's
  // flag would.
  CommandRun one =
      Ksched("schedule -f " + snap + " --config " + cfg + " --scheduler-name bin-packer -o json");
  EXPECT_EQ(one.status, 0) << one.err;
  EXPECT_EQ(nlohmann::json::parse(one.out)[0]["pod"], "default/pack-me") << one.out;
}

// Without --config, --scheduler-name names v1.26's default profile: the
// pods that ask for it are scheduled with the default plugins.
TEST(FrameworkCli, SchedulerNameNamesTheDefaultProfile) {
  std::string snap = WriteTemp("named-snap.yaml", R"(kind: List
items:
- kind: Node
  metadata: {name: n1, labels: {kubernetes.io/hostname: n1}}
  status: {allocatable: {cpu: 4, memory: 8Gi, pods: 10}}
- kind: Pod
  metadata: {name: mine, namespace: default}
  spec: {schedulerName: my-scheduler, containers: [{name: c, resources: {requests: {cpu: 1}}}]}
- kind: Pod
  metadata: {name: theirs, namespace: default}
  spec: {containers: [{name: c, resources: {requests: {cpu: 1}}}]}
)");
  CommandRun r = Ksched("schedule -f " + snap + " --scheduler-name my-scheduler -o json");
  EXPECT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j.size(), 2u) << r.out;
  EXPECT_EQ(j[0]["pod"], "default/mine");
  EXPECT_EQ(j[0]["node"], "n1") << r.out;
  EXPECT_TRUE(j[1].contains("skipped")) << r.out;
}

// With PodSchedulingReadiness on, a pod with scheduling gates waits (the
// queue's PreEnqueue) and is never attempted (always in v1.35, where the
// gate is GA); without the alpha gate v1.26
// schedules it as if ungated, and says so.
TEST(FrameworkCli, GatedPodsWaitWithTheGateOn) {
  std::string snap = WriteTemp("gated.yaml", R"(kind: List
items:
- kind: Node
  metadata: {name: n1, labels: {kubernetes.io/hostname: n1}}
  status: {allocatable: {cpu: 4, memory: 8Gi, pods: 10}}
- kind: Pod
  metadata: {name: gated, namespace: default}
  spec:
    schedulingGates: [{name: example.com/quota}, {name: example.com/review}]
    containers: [{name: c}]
)");
  CommandRun on =
      Ksched("schedule -f " + snap +
             " --scheduler-version v1.26 --feature-gates PodSchedulingReadiness=true -o json");
  EXPECT_EQ(on.status, 1) << on.err;
  auto j = nlohmann::json::parse(on.out);
  EXPECT_TRUE(j[0]["node"].is_null()) << on.out;
  EXPECT_EQ(j[0]["error"], "waiting for scheduling gates: [example.com/quota example.com/review]")
      << on.out;
  // v1.35 (the default): the gate is GA and locked on.
  CommandRun v135 = Ksched("schedule -f " + snap + " -o json");
  EXPECT_EQ(v135.status, 1) << v135.err;
  EXPECT_EQ(nlohmann::json::parse(v135.out)[0]["error"],
            "waiting for scheduling gates: [example.com/quota example.com/review]")
      << v135.out;
  CommandRun off = Ksched("schedule -f " + snap + " --scheduler-version v1.26");
  EXPECT_EQ(off.status, 0) << off.err;
  EXPECT_NE(off.out.find("default/gated  n1"), std::string::npos) << off.out;
  EXPECT_NE(off.err.find("PodSchedulingReadiness=true"), std::string::npos) << off.err;
}

// Extenders of a --config file are called, as kube-scheduler calls them.
TEST(FrameworkCli, ConfigExtendersAreCalled) {
  std::string cfg = WriteTemp("extender.yaml",
                              "apiVersion: kubescheduler.config.k8s.io/v1\n"
                              "kind: KubeSchedulerConfiguration\n"
                              "extenders:\n"
                              "- urlPrefix: http://127.0.0.1:1/scheduler\n"
                              "  filterVerb: filter\n"
                              "  weight: 1\n");
  CommandRun r = Ksched("schedule -f " + Example("cluster.yaml") + " --config " + cfg);
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.out.find("Post http://127.0.0.1:1/scheduler/filter: dial tcp 127.0.0.1:1: connect: "
                       "connection refused"),
            std::string::npos)
      << r.out;
  // An ignorable extender that cannot be reached is skipped.
  std::string ignorable = WriteTemp("ignorable.yaml",
                                    "apiVersion: kubescheduler.config.k8s.io/v1\n"
                                    "kind: KubeSchedulerConfiguration\n"
                                    "extenders:\n"
                                    "- urlPrefix: http://127.0.0.1:1/scheduler\n"
                                    "  filterVerb: filter\n"
                                    "  ignorable: true\n");
  CommandRun skipped = Ksched("schedule -f " + Example("cluster.yaml") + " --config " + ignorable);
  EXPECT_EQ(skipped.status, 1) << skipped.err;
  EXPECT_NE(skipped.out.find("shop/web-7d9f-klmno  node-a2"), std::string::npos) << skipped.out;
}

// A v1.26 API server labels every namespace with its name (v1.21+), so a
// namespaceSelector on kubernetes.io/metadata.name finds pods in a
// namespace the snapshot does not list as an object.
TEST(FrameworkCli, NamespacesGetTheirNameLabel) {
  std::string snap = WriteTemp("ns.yaml", R"(kind: List
items:
- kind: Node
  metadata: {name: n1, labels: {kubernetes.io/hostname: n1}}
  status: {allocatable: {cpu: 4, memory: 8Gi, pods: 10}}
- kind: Node
  metadata: {name: n2, labels: {kubernetes.io/hostname: n2}}
  status: {allocatable: {cpu: 4, memory: 8Gi, pods: 10}}
- kind: Pod
  metadata: {name: db-0, namespace: shop, labels: {app: db}}
  spec: {nodeName: n1, containers: [{name: c}]}
- kind: Pod
  metadata: {name: report, namespace: default}
  spec:
    containers: [{name: c}]
    affinity:
      podAntiAffinity:
        requiredDuringSchedulingIgnoredDuringExecution:
        - labelSelector: {matchLabels: {app: db}}
          namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: shop}}
          topologyKey: kubernetes.io/hostname
)");
  CommandRun r = Ksched("schedule -f " + snap + " -o json");
  EXPECT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j[0]["node"], "n2") << r.out;
  EXPECT_EQ(j[0]["failures"]["n1"][0], "node(s) didn't match pod anti-affinity rules") << r.out;
}

// The Priority admission plugin gives a pod its class's preemptionPolicy
// (v1.19+), which DefaultPreemption reads.
TEST(FrameworkCli, PreemptionPolicyComesFromThePriorityClass) {
  std::string snap = WriteTemp("never.yaml", R"(kind: List
items:
- kind: PriorityClass
  apiVersion: scheduling.k8s.io/v1
  metadata: {name: polite}
  value: 1000
  preemptionPolicy: Never
- kind: Node
  metadata: {name: n1, labels: {kubernetes.io/hostname: n1}}
  status: {allocatable: {cpu: 2, memory: 8Gi, pods: 10}}
- kind: Pod
  metadata: {name: low, namespace: default}
  spec: {nodeName: n1, priority: 0, containers: [{name: c, resources: {requests: {cpu: 2}}}]}
- kind: Pod
  metadata: {name: high, namespace: default}
  spec:
    priorityClassName: polite
    containers: [{name: c, resources: {requests: {cpu: 1}}}]
)");
  CommandRun r = Ksched("schedule -f " + snap);
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.out.find("preemption: not eligible due to preemptionPolicy=Never."),
            std::string::npos)
      << r.out;
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
      if (row.contains("outputBytes")) {
        EXPECT_EQ(row["outputBytes"], replay.out.size()) << name;
      }
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

// --config is read as the chosen release reads it: v1.35 (the default)
// takes only kubescheduler.config.k8s.io/v1 and its new fields; v1.26 also
// takes v1beta3 and refuses v1.35's fields.
TEST(FrameworkCli, ConfigIsReadAsTheReleaseReadsIt) {
  std::string v135 = WriteTemp("cfg135.yaml",
                               "apiVersion: kubescheduler.config.k8s.io/v1\n"
                               "kind: KubeSchedulerConfiguration\n"
                               "delayCacheUntilActive: true\n"
                               "profiles:\n"
                               "- pluginConfig:\n"
                               "  - name: InterPodAffinity\n"
                               "    args:\n"
                               "      ignorePreferredTermsOfExistingPods: true\n");
  CommandRun latest = Ksched("schedule -f " + Example("cluster.yaml") + " --config " + v135);
  EXPECT_EQ(latest.status, 1) << latest.err;
  CommandRun old = Ksched("schedule -f " + Example("cluster.yaml") +
                          " --scheduler-version v1.26 --config " + v135);
  EXPECT_EQ(old.status, 2);
  EXPECT_NE(old.err.find("unknown field \"delayCacheUntilActive\""), std::string::npos) << old.err;

  std::string beta = WriteTemp("cfgbeta3.yaml",
                               "apiVersion: kubescheduler.config.k8s.io/v1beta3\n"
                               "kind: KubeSchedulerConfiguration\n");
  CommandRun beta_old = Ksched("schedule -f " + Example("cluster.yaml") +
                               " --scheduler-version v1.26 --config " + beta);
  EXPECT_EQ(beta_old.status, 1) << beta_old.err;
  CommandRun beta_new = Ksched("schedule -f " + Example("cluster.yaml") + " --config " + beta);
  EXPECT_EQ(beta_new.status, 2);
  EXPECT_NE(beta_new.err.find("no kind \"KubeSchedulerConfiguration\" is registered for version "
                              "\"kubescheduler.config.k8s.io/v1beta3\""),
            std::string::npos)
      << beta_new.err;

  std::string plain = WriteTemp("cfgv1.yaml",
                                "apiVersion: kubescheduler.config.k8s.io/v1\n"
                                "kind: KubeSchedulerConfiguration\n");
  for (const char* version : {"", " --scheduler-version v1.26", " --scheduler-version v1.35"}) {
    CommandRun r =
        Ksched("schedule -f " + Example("cluster.yaml") + version + " --config " + plain);
    EXPECT_EQ(r.status, 1) << version << ": " << r.err;
  }
}

// An unknown --feature-gates gate exits 2 and lists the release's gates
// (v1.35: kube-scheduler's, with the logging gates).
TEST(FrameworkCli, UnknownFeatureGateListsTheKnownOnes) {
  CommandRun r = Ksched("schedule -f " + Example("cluster.yaml") + " --feature-gates Bogus=true");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--feature-gates: unrecognized feature gate: Bogus"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("knows: APIResponseCompression, "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("ContextualLogging"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("StorageCapacityScoring"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  CommandRun logging =
      Ksched("schedule -f " + Example("cluster.yaml") + " --feature-gates ContextualLogging=false");
  EXPECT_EQ(logging.status, 1) << logging.err;
  CommandRun old = Ksched("schedule -f " + Example("cluster.yaml") +
                          " --scheduler-version v1.26 --feature-gates StorageCapacityScoring=true");
  EXPECT_EQ(old.status, 2);
  EXPECT_NE(old.err.find("unrecognized feature gate: StorageCapacityScoring"), std::string::npos)
      << old.err;
  EXPECT_NE(old.err.find("VolumeCapacityPriority"), std::string::npos) << old.err;
}

}  // namespace framework_cli_test
}  // namespace ksched::cli_testing
