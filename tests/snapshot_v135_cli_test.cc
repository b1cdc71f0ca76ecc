// A `kubectl get -o yaml` snapshot of a Kubernetes 1.34 cluster, as its API
// server stores the objects (tests/data/snapshot-v1.34.yaml): Deployment
// pods whose spread and anti-affinity selectors the API server merged with
// their matchLabelKeys, native sidecars (a Deployment's proxy, a DaemonSet's
// registrar, a GPU Job's log shipper), pod-level resources, a pod resized in
// place, a gated pod, a WaitForFirstConsumer StatefulSet, v1.34's status
// fields. `schedule` loads it with no flag and places its pods as
// kube-scheduler v1.35 does: tests/data/snapshot-v1.34.expected.jsonl is what
// the reference harness decided for the same objects
// (scripts/snapshot-to-scenario.py, then ../shared/refsched135).
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/cli_run.h"

namespace snapshot_v135_cli_test {

using namespace ksched::cli_testing;

std::string Data(const std::string& f) {
  return std::string(KSCHED_SOURCE_DIR) + "/tests/data/" + f;
}

// pod -> node ("" when not placed), from the harness's lines.
std::map<std::string, std::string> ExpectedPlacements() {
  std::map<std::string, std::string> out;
  std::ifstream in(Data("snapshot-v1.34.expected.jsonl"));
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    auto j = nlohmann::json::parse(line);
    out[j["pod"]] = j["node"].is_null() ? "" : j["node"].get<std::string>();
  }
  return out;
}

TEST(SnapshotV135Cli, LoadsWithNoFlagAndPlacesPodsAsV135) {
  CommandRun r = Ksched("schedule -f " + Data("snapshot-v1.34.yaml") + " -o json");
  // 1: the report that fits nowhere (and the gated pod) are not placed.
  ASSERT_EQ(r.status, 1) << r.err;
  EXPECT_EQ(r.err, "");  // nothing to warn about: v1.35 honours every field
  std::map<std::string, std::string> got;
  for (const auto& step : nlohmann::json::parse(r.out)) {
    // Only a pod's last attempt counts (a preempting pod is tried twice).
    got[step["pod"]] = step["node"].is_null() ? "" : step["node"].get<std::string>();
  }
  std::map<std::string, std::string> want = ExpectedPlacements();
  ASSERT_EQ(want.size(), 11u);
  for (const auto& [pod, node] : want) {
    ASSERT_TRUE(got.count(pod)) << pod << " was not scheduled\n" << r.out;
    EXPECT_EQ(got[pod], node) << pod;
  }
}

TEST(SnapshotV135Cli, V126RefusesTheMergedSelectors) {
  // v1.26's API server had no merge: a key in matchLabelKeys and the
  // selector is an error there, as it always was.
  CommandRun r =
      Ksched("schedule -f " + Data("snapshot-v1.34.yaml") + " --scheduler-version v1.26");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("spec.topologySpreadConstraints[0].matchLabelKeys[0]: Invalid value: "
                       "\"pod-template-hash\": exists in both matchLabelKeys and labelSelector"),
            std::string::npos)
      << r.err;
}

// Three nodes, each running a pod of the old revision of `web`.
constexpr std::string_view kThreeNodes = R"(apiVersion: v1
kind: List
items:
)";

std::string SmallCluster() {
  std::string s(kThreeNodes);
  for (int i = 1; i <= 3; ++i) {
    std::string n = "n" + std::to_string(i);
    s += "- {apiVersion: v1, kind: Node, metadata: {name: " + n +
         ", labels: {kubernetes.io/hostname: " + n +
         "}}, status: {allocatable: {cpu: '4', memory: 8Gi, pods: '110'}}}\n";
    s += "- {apiVersion: v1, kind: Pod, metadata: {name: web-old-" + n +
         ", namespace: shop, labels: {app: web, pod-template-hash: old}}, spec: {nodeName: " + n +
         ", containers: [{name: c, image: web:1, resources: {requests: {cpu: 500m}}}]}}\n";
  }
  return s;
}

TEST(SnapshotV135Cli, CapacityCopiesGetTheirOwnRevisionInTheirSelector) {
  std::string cluster = WriteTemp("revisions.yaml", SmallCluster());
  // One copy per node, against the copies of this revision only: the API
  // server merges matchLabelKeys into the selector with the copy's
  // pod-template-hash.
  std::string deploy = WriteTemp("web-new.yaml", R"(apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: 5
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: c, image: web:2, resources: {requests: {cpu: 500m}}}]
      affinity:
        podAntiAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
          - labelSelector: {matchLabels: {app: web}}
            matchLabelKeys: [pod-template-hash]
            topologyKey: kubernetes.io/hostname
)");
  CommandRun r = Ksched("capacity -f " + cluster + " --pod " + deploy + " -o json");
  ASSERT_EQ(r.status, 0) << r.err;
  auto w = nlohmann::json::parse(r.out)["workloads"][0];
  EXPECT_EQ(w["count"], 3) << r.out;
  // v1.26 ignores matchLabelKeys: the old revision's pods repel every copy.
  CommandRun old = Ksched("capacity -f " + cluster + " --pod " + deploy +
                          " -o json --scheduler-version v1.26 --warnings=false");
  EXPECT_EQ(old.status, 1) << old.err;
  EXPECT_EQ(nlohmann::json::parse(old.out)["workloads"][0]["count"], 0) << old.out;
}

TEST(SnapshotV135Cli, PendingPodsAreMergedOnceAndValidatedAfter) {
  std::string cluster = WriteTemp("revisions2.yaml", SmallCluster());
  // A pod as written (merged by ksched) and one as stored (already merged):
  // both load.
  std::string pods = WriteTemp("pending.yaml", R"(apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Pod
  metadata: {name: a, namespace: shop, labels: {app: web, pod-template-hash: new}}
  spec:
    containers: [{name: c, image: web:2}]
    topologySpreadConstraints:
    - {maxSkew: 1, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: DoNotSchedule,
       labelSelector: {matchLabels: {app: web}}, matchLabelKeys: [pod-template-hash]}
- apiVersion: v1
  kind: Pod
  metadata: {name: b, namespace: shop, labels: {app: web, pod-template-hash: new}}
  spec:
    containers: [{name: c, image: web:2}]
    topologySpreadConstraints:
    - maxSkew: 1
      topologyKey: kubernetes.io/hostname
      whenUnsatisfiable: DoNotSchedule
      labelSelector:
        matchLabels: {app: web}
        matchExpressions: [{key: pod-template-hash, operator: In, values: [new]}]
      matchLabelKeys: [pod-template-hash]
)");
  CommandRun r = Ksched("schedule -f " + cluster + " --pending " + pods + " -o json");
  ASSERT_EQ(r.status, 0) << r.err;
  // A key in matchLabels and matchLabelKeys is given twice once merged.
  std::string twice = WriteTemp("twice.yaml", R"(apiVersion: v1
kind: Pod
metadata: {name: c, namespace: shop, labels: {app: web, pod-template-hash: new}}
spec:
  containers: [{name: c, image: web:2}]
  topologySpreadConstraints:
  - {maxSkew: 1, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: DoNotSchedule,
     labelSelector: {matchLabels: {app: web, pod-template-hash: new}},
     matchLabelKeys: [pod-template-hash]}
)");
  CommandRun bad = Ksched("schedule -f " + cluster + " --pending " + twice);
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("Pod shop/c: spec.topologySpreadConstraints[0][0]: Invalid value: "
                         "\"pod-template-hash\": exists in both matchLabelKeys and labelSelector"),
            std::string::npos)
      << bad.err;
}

}  // namespace snapshot_v135_cli_test
