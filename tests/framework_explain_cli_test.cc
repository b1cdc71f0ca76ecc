// `schedule` reports of the v1.26 engine: failedPlugins instead of v1.15's
// failedPredicates, causes for the framework's plugins, weighted per-plugin
// scores in --explain, and PreFilter verdicts (a rejected pod, the nodes
// NodeAffinity's PreFilter left out) explained.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "api/yaml_to_json.h"
#include "tests/cli_run.h"

namespace ksched::cli_testing {
namespace framework_explain_cli_test {

// Zones a (n1, two web pods) and b (n2); n3 has no zone label and a taint.
// `spread` must spread over zones (maxSkew 1); `web` fits n1 and n2; `pinned`
// names n1 by metadata.name; `conflict` names n1 and n2 in one term.
constexpr const char* kSnapshot = R"(apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Node
  metadata: {name: n1, labels: {kubernetes.io/hostname: n1, zone: a}}
  status: {allocatable: {cpu: '4', memory: 8Gi, pods: '110'}}
- apiVersion: v1
  kind: Node
  metadata: {name: n2, labels: {kubernetes.io/hostname: n2, zone: b}}
  status: {allocatable: {cpu: '4', memory: 8Gi, pods: '110'}}
- apiVersion: v1
  kind: Node
  metadata: {name: n3, labels: {kubernetes.io/hostname: n3}}
  spec: {taints: [{key: dedicated, value: batch, effect: NoSchedule}]}
  status: {allocatable: {cpu: '4', memory: 8Gi, pods: '110'}}
- apiVersion: v1
  kind: Pod
  metadata: {name: w1, namespace: default, labels: {app: web}}
  spec: {nodeName: n1, containers: [{name: c, image: nginx, resources: {requests: {cpu: 100m}}}]}
- apiVersion: v1
  kind: Pod
  metadata: {name: w2, namespace: default, labels: {app: web}}
  spec: {nodeName: n1, containers: [{name: c, image: nginx, resources: {requests: {cpu: 100m}}}]}
- apiVersion: v1
  kind: Pod
  metadata: {name: spread, namespace: default, labels: {app: web}, creationTimestamp: '2024-01-01T00:00:00Z'}
  spec:
    containers: [{name: c, image: nginx, resources: {requests: {cpu: 100m}}}]
    tolerations: [{key: dedicated, operator: Exists}]
    topologySpreadConstraints:
    - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: web}}}
- apiVersion: v1
  kind: Pod
  metadata: {name: web, namespace: default, creationTimestamp: '2024-01-01T00:00:01Z'}
  spec: {containers: [{name: c, image: nginx, resources: {requests: {cpu: 500m}}}]}
- apiVersion: v1
  kind: Pod
  metadata: {name: pinned, namespace: default, creationTimestamp: '2024-01-01T00:00:02Z'}
  spec:
    containers: [{name: c, image: nginx}]
    affinity:
      nodeAffinity:
        requiredDuringSchedulingIgnoredDuringExecution:
          nodeSelectorTerms:
          - matchFields: [{key: metadata.name, operator: In, values: [n1]}]
- apiVersion: v1
  kind: Pod
  metadata: {name: conflict, namespace: default, creationTimestamp: '2024-01-01T00:00:03Z'}
  spec:
    containers: [{name: c, image: nginx}]
    affinity:
      nodeAffinity:
        requiredDuringSchedulingIgnoredDuringExecution:
          nodeSelectorTerms:
          - matchFields:
            - {key: metadata.name, operator: In, values: [n1]}
            - {key: metadata.name, operator: In, values: [n2]}
)";

std::string Snapshot() { return WriteTemp("explain126.yaml", kSnapshot); }

const nlohmann::json* StepOf(const nlohmann::json& steps, const std::string& pod) {
  for (const auto& s : steps)
    if (s["pod"] == pod) return &s;
  return nullptr;
}

const nlohmann::json* NodeOf(const nlohmann::json& explain, const std::string& node) {
  for (const auto& n : explain["nodes"])
    if (n["node"] == node) return &n;
  return nullptr;
}

TEST(FrameworkExplainCli, ScheduleJsonNamesFailedPluginsAndSpreadCauses) {
  CommandRun r = Ksched("schedule -f " + Snapshot() + " --scheduler-version v1.26 -o json");
  ASSERT_EQ(r.status, 1) << r.err;  // `conflict` fits nowhere
  auto steps = nlohmann::json::parse(r.out);
  const nlohmann::json* spread = StepOf(steps, "default/spread");
  ASSERT_NE(spread, nullptr) << r.out;
  EXPECT_EQ((*spread)["node"], "n2");
  EXPECT_FALSE(spread->contains("failedPredicates")) << spread->dump(2);
  ASSERT_TRUE(spread->contains("failedPlugins")) << spread->dump(2);
  EXPECT_EQ((*spread)["failedPlugins"]["n1"], "PodTopologySpread");
  EXPECT_EQ((*spread)["failedPlugins"]["n3"], "PodTopologySpread");
  const auto& n1 = (*spread)["causes"]["n1"];
  ASSERT_EQ(n1.size(), 1u) << spread->dump(2);
  EXPECT_EQ(n1[0]["kind"], "topologySpread");
  EXPECT_EQ(n1[0]["topologyKey"], "zone");
  EXPECT_EQ(n1[0]["domain"], "zone=a");
  EXPECT_EQ(n1[0]["matchingPods"], 2);
  EXPECT_EQ(n1[0]["globalMinimum"], 0);
  EXPECT_EQ(n1[0]["maxSkew"], 1);
  EXPECT_EQ(n1[0]["skew"], 3);
  EXPECT_EQ((*spread)["causes"]["n3"][0]["label"], "zone");

  // The pod PreFilter rejected: no node failed, the plugin and why.
  const nlohmann::json* conflict = StepOf(steps, "default/conflict");
  ASSERT_NE(conflict, nullptr);
  EXPECT_TRUE((*conflict)["failedPlugins"].empty());
  EXPECT_EQ((*conflict)["preFilter"]["rejectedBy"], "NodeAffinity");
  EXPECT_EQ((*conflict)["preFilter"]["causes"][0]["term"], 1);

  CommandRun y = Ksched("schedule -f " + Snapshot() + " --scheduler-version v1.26 -o yaml");
  ASSERT_EQ(y.status, 1) << y.err;
  EXPECT_EQ(nlohmann::json::parse(*ksched::YamlToJson(y.out, "steps.yaml")), steps);
}

TEST(FrameworkExplainCli, V115KeepsFailedPredicates) {
  CommandRun r = Ksched("schedule --scheduler-version v1.15 -f " + Snapshot() + " -o json");
  auto steps = nlohmann::json::parse(r.out);
  ASSERT_FALSE(steps.empty());
  for (const auto& s : steps) {
    EXPECT_TRUE(s.contains("failedPredicates")) << s.dump(2);
    EXPECT_FALSE(s.contains("failedPlugins")) << s.dump(2);
    EXPECT_FALSE(s.contains("preFilter")) << s.dump(2);
  }
}

TEST(FrameworkExplainCli, ExplainJsonGivesEachPluginsWeightedScoreAndFailedPlugin) {
  CommandRun r = Ksched("schedule -f " + Snapshot() +
                        " --scheduler-version v1.26 --explain default/web -o json");
  ASSERT_EQ(r.status, 1) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["pod"], "default/web");
  const nlohmann::json* n2 = NodeOf(j, "n2");
  ASSERT_NE(n2, nullptr) << r.out;
  EXPECT_EQ((*n2)["fits"], true);
  const auto& tt = (*n2)["plugins"]["TaintToleration"];
  EXPECT_EQ(tt["weight"], 3);
  EXPECT_EQ(tt["score"], 100);
  EXPECT_EQ(tt["weightedScore"], 300);
  int64_t sum = 0;
  for (const auto& [name, p] : (*n2)["plugins"].items()) {
    EXPECT_EQ(p["weightedScore"], p["score"].get<int64_t>() * p["weight"].get<int64_t>()) << name;
    sum += p["weightedScore"].get<int64_t>();
  }
  EXPECT_EQ((*n2)["total"], sum);

  const nlohmann::json* n3 = NodeOf(j, "n3");
  ASSERT_NE(n3, nullptr) << r.out;
  EXPECT_EQ((*n3)["fits"], false);
  EXPECT_EQ((*n3)["failedPlugin"], "TaintToleration");
  EXPECT_FALSE(n3->contains("predicate"));
  EXPECT_EQ((*n3)["causes"][0]["taint"], "dedicated=batch:NoSchedule");
  EXPECT_EQ(j["failedPlugins"]["n3"], "TaintToleration");

  CommandRun y = Ksched("schedule -f " + Snapshot() +
                        " --scheduler-version v1.26 --explain default/web -o yaml");
  ASSERT_EQ(y.status, 1) << y.err;
  EXPECT_EQ(nlohmann::json::parse(*ksched::YamlToJson(y.out, "explain.yaml")), j);
}

TEST(FrameworkExplainCli, ExplainTableShowsWeightedScoresWithTheirLegend) {
  CommandRun r =
      Ksched("schedule -f " + Snapshot() + " --scheduler-version v1.26 --explain default/web");
  ASSERT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.out.find("Plugin scores are weighted"), std::string::npos) << r.out;
  // TaintToleration's 100 x 3 on both nodes that fit.
  EXPECT_NE(r.out.find(" 300 "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("n3    TaintToleration: node(s) had untolerated taint {dedicated: batch}"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("taint dedicated=batch:NoSchedule is not tolerated"), std::string::npos)
      << r.out;
}

TEST(FrameworkExplainCli, ExplainSaysWhichPreFilterRejectedThePod) {
  CommandRun r =
      Ksched("schedule -f " + Snapshot() + " --scheduler-version v1.26 --explain default/conflict");
  ASSERT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.out.find("PreFilter: NodeAffinity rejected the pod before any node was filtered"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("metadata.name In (n1) and metadata.name In (n2)"), std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("percentageOfNodesToScore"), std::string::npos) << r.out;

  CommandRun j = Ksched("schedule -f " + Snapshot() +
                        " --scheduler-version v1.26 --explain default/conflict -o json");
  auto doc = nlohmann::json::parse(j.out);
  EXPECT_EQ(doc["failedBeforeFiltering"], true);
  EXPECT_EQ(doc["nodesNotEvaluated"], 0);
  EXPECT_EQ(doc["preFilter"]["rejectedBy"], "NodeAffinity");
  EXPECT_EQ(doc["preFilter"]["message"], "pod affinity terms conflict");
}

TEST(FrameworkExplainCli, ExplainListsTheNodesPreFilterLeftOut) {
  CommandRun r =
      Ksched("schedule -f " + Snapshot() + " --scheduler-version v1.26 --explain default/pinned");
  ASSERT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.out.find("n2    NodeAffinity (PreFilter): left out"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("required node affinity term 1 metadata.name In (n1): node's "
                       "metadata.name is n2"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("were not evaluated"), std::string::npos) << r.out;

  CommandRun j = Ksched("schedule -f " + Snapshot() +
                        " --scheduler-version v1.26 --explain default/pinned -o json");
  auto doc = nlohmann::json::parse(j.out);
  EXPECT_EQ(doc["node"], "n1");
  EXPECT_EQ(doc["nodesNotEvaluated"], 0);
  EXPECT_EQ(doc["preFilter"]["narrowedBy"], "NodeAffinity");
  EXPECT_EQ(doc["preFilter"]["nodesLeftOut"], 2);
  const nlohmann::json* n3 = NodeOf(doc, "n3");
  ASSERT_NE(n3, nullptr) << j.out;
  EXPECT_EQ((*n3)["leftOutByPreFilter"], true);
  EXPECT_EQ((*n3)["failedPlugin"], "NodeAffinity");
  EXPECT_EQ((*n3)["causes"][0]["requirement"], "metadata.name In (n1)");
}

TEST(FrameworkExplainCli, ExplainSaysANominatedNodeWasFilteredAlone) {
  std::string snap = WriteTemp("nominated.yaml", R"(apiVersion: v1
kind: List
items:
- {apiVersion: v1, kind: Node, metadata: {name: n1}, status: {allocatable: {cpu: '4', pods: '110'}}}
- {apiVersion: v1, kind: Node, metadata: {name: n2}, status: {allocatable: {cpu: '4', pods: '110'}}}
- apiVersion: v1
  kind: Pod
  metadata: {name: p, namespace: default}
  spec: {containers: [{name: c, image: nginx}]}
  status: {nominatedNodeName: n2}
)");
  CommandRun r = Ksched("schedule -f " + snap + " --scheduler-version v1.26 --explain p");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("1 of 2 nodes were not evaluated: the pod's nominated node"),
            std::string::npos)
      << r.out;
  CommandRun j = Ksched("schedule -f " + snap + " --scheduler-version v1.26 --explain p -o json");
  auto doc = nlohmann::json::parse(j.out);
  EXPECT_EQ(doc["nodesNotEvaluated"], 1);
  EXPECT_EQ(doc["nodesNotEvaluatedBecause"], "nominatedNodeFits");
}

}  // namespace framework_explain_cli_test
}  // namespace ksched::cli_testing
