// No answer carries the framework's internal wording (a cycle state read, a
// PreFilter extension's failure, an internal error) unless upstream's own
// answer does: the expected answers of every vector folder are scanned, and
// so are the command line's answers on the bundled snapshots.
//
// The case that once leaked: a snapshot of pods and nodes only, where a
// pod's claim is missing. VolumeBinding's PreFilter then rejects the pod as
// unresolvable before PodTopologySpread's PreFilter runs, so the latter has
// no state. v1.35 gives every node that status, so DefaultPreemption tries
// no node ("Preemption is not helpful for scheduling") and never calls
// PodTopologySpread's RemovePod; with the default profile DynamicResources'
// PostFilter runs first and fails reading its own missing state, which
// upstream prints as "not found". v1.26 puts no status on the nodes, tries
// every node and prints the RemovePod failure: upstream v1.26's own text
// (its DryRunPreemption aggregates SelectVictimsOnNode's errors and
// DefaultPreemption returns them), kept so the v1.26 engine stays exact.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tests/cli_run.h"

namespace ksched::cli_testing {
namespace framework_internal_wording_test {

// Substrings that only an internal failure writes.
constexpr const char* kInternalWording[] = {
    "cycleState",     "running AddPod on", "running RemovePod on",
    "internal error", "convert to",        "unable to convert state",
};

// The first internal substring of `text`, or "".
std::string InternalWordingIn(const std::string& text) {
  for (const char* w : kInternalWording)
    if (text.find(w) != std::string::npos) return w;
  return "";
}

std::string Data(const std::string& f) {
  return std::string(KSCHED_SOURCE_DIR) + "/tests/data/" + f;
}

// `schedule -o json`'s steps: pod -> error of its first attempt, and pod ->
// the node of its last.
struct Steps {
  std::map<std::string, std::string> error;
  std::map<std::string, std::string> node;
};
Steps Parse(const std::string& json_text) {
  Steps out;
  nlohmann::json doc = nlohmann::json::parse(json_text, nullptr, false);
  if (!doc.is_array()) return out;
  for (const nlohmann::json& p : doc) {
    const std::string pod = p.value("pod", "");
    if (p.contains("node") && p["node"].is_string()) out.node[pod] = p["node"].get<std::string>();
    if (!out.error.count(pod) && p.contains("error") && p["error"].is_string())
      out.error[pod] = p["error"].get<std::string>();
  }
  return out;
}

std::string NoDynamicResourcesConfig() {
  std::string path = TempPath("no-dra-config.yaml");
  std::ofstream(path) << "apiVersion: kubescheduler.config.k8s.io/v1\n"
                         "kind: KubeSchedulerConfiguration\n"
                         "profiles:\n"
                         "- schedulerName: default-scheduler\n"
                         "  plugins:\n"
                         "    multiPoint:\n"
                         "      disabled: [{name: DynamicResources}]\n";
  return path;
}

// The messages below are refsched135's (../shared/refsched135) on this
// snapshot turned into a scenario by scripts/snapshot-to-scenario.py.
TEST(InternalWording, PreFilterStoppedBeforeSpreadV135DefaultProfile) {
  CommandRun r = Ksched("schedule -f " + Data("pods-and-nodes-only.yaml") + " -o json");
  ASSERT_EQ(r.status, 1) << r.err;
  Steps steps = Parse(r.out);
  EXPECT_EQ(steps.error["default/db-0"],
            "0/2 nodes are available: persistentvolumeclaim \"data-db-0\" not found. not found");
  EXPECT_EQ(InternalWordingIn(r.out + r.err), "") << r.out;
  // web-2 (a hard spread constraint) and api-1 (none: v1.35's
  // PodTopologySpread skips it) preempted and landed.
  EXPECT_EQ(steps.node["default/web-2"], "ip-10-0-1-10.ec2.internal") << r.out;
  EXPECT_EQ(steps.node["default/api-1"], "ip-10-0-2-20.ec2.internal") << r.out;
}

TEST(InternalWording, PreFilterStoppedBeforeSpreadV135PreemptionOnly) {
  CommandRun r = Ksched("schedule -f " + Data("pods-and-nodes-only.yaml") + " --config " +
                        NoDynamicResourcesConfig() + " -o json");
  ASSERT_EQ(r.status, 1) << r.err;
  Steps steps = Parse(r.out);
  EXPECT_EQ(steps.error["default/db-0"],
            "0/2 nodes are available: persistentvolumeclaim \"data-db-0\" not found. preemption: "
            "0/2 nodes are available: 2 Preemption is not helpful for scheduling.");
  EXPECT_EQ(InternalWordingIn(r.out + r.err), "") << r.out;
  EXPECT_EQ(steps.node["default/web-2"], "ip-10-0-1-10.ec2.internal") << r.out;
  EXPECT_EQ(steps.node["default/api-1"], "ip-10-0-2-20.ec2.internal") << r.out;
}

TEST(InternalWording, V126KeepsUpstreamV126sOwnPreemptionError) {
  CommandRun r = Ksched("schedule -f " + Data("pods-and-nodes-only.yaml") +
                        " --scheduler-version v1.26 -o json");
  ASSERT_EQ(r.status, 1) << r.err;
  EXPECT_EQ(Parse(r.out).error["default/db-0"],
            "0/2 nodes are available: persistentvolumeclaim \"data-db-0\" not found. preemption: "
            "running RemovePod on PreFilter plugin \"PodTopologySpread\": reading "
            "\"PreFilterPodTopologySpread\" from cycleState: not found.");
}

TEST(InternalWording, NoVectorAnswerHasIt) {
  namespace fs = std::filesystem;
  const fs::path shared(KSCHED_SHARED_DIR);
  size_t files = 0;
  for (const fs::directory_entry& dir : fs::directory_iterator(shared)) {
    if (!dir.is_directory()) continue;
    for (const fs::directory_entry& f : fs::directory_iterator(dir.path())) {
      const std::string name = f.path().filename().string();
      if (name.find(".expected") == std::string::npos) continue;
      ++files;
      std::ifstream in(f.path());
      std::string line;
      for (size_t n = 1; std::getline(in, line); ++n) {
        EXPECT_EQ(InternalWordingIn(line), "") << f.path().string() << ":" << n;
      }
    }
  }
  // conformance, framework, framework-v1.35, preemption, dra, ...
  EXPECT_GT(files, 500u);
}

TEST(InternalWording, NoSnapshotAnswerHasIt) {
  const std::string no_dra = NoDynamicResourcesConfig();
  const std::vector<std::string> commands = {
      "schedule -f " + Example("cluster.yaml") + " -o json",
      "schedule -f " + Example("cluster.yaml") + " --config " + no_dra + " -o json",
      "schedule -f " + Example("cluster.yaml") + " --explain shop/report-builder -o json",
      "schedule -f " + Example("cluster.yaml") + " --add-node " + Example("node-template.yaml") +
          " -o json",
      "capacity -f " + Example("cluster.yaml") + " --pod " + Example("web-deployment.yaml") +
          " -o json",
      "drain -f " + Example("cluster.yaml") + " node-a1 -o json",
      "schedule -f " + Data("snapshot-v1.34.yaml") + " -o json",
      "schedule -f " + Data("snapshot-v1.34.yaml") + " --config " + no_dra + " -o json",
      "schedule -f " + Data("pods-and-nodes-only.yaml") + " -o json",
      "schedule -f " + Data("pods-and-nodes-only.yaml") + " --config " + no_dra + " -o json",
      "drain -f " + Data("pods-and-nodes-only.yaml") + " ip-10-0-1-10.ec2.internal -o json",
  };
  for (const std::string& c : commands) {
    CommandRun r = Ksched(c);
    EXPECT_LE(r.status, 1) << c << "\n" << r.err;
    EXPECT_EQ(InternalWordingIn(r.out + r.err), "") << c;
  }
}

}  // namespace framework_internal_wording_test
}  // namespace ksched::cli_testing
