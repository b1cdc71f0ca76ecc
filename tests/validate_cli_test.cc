// End-to-end checks of what `schedule` and `capacity` do with input the API
// server would have defaulted, rejected or not known (issue 20, issue 17
// section 2), and of the messages for a file given to the wrong command.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/cli_run.h"

namespace {

using namespace ksched::cli_testing;

// Temporary files are removed when the test ends.
class ValidateCli : public ::testing::Test {
 protected:
  std::string Write(const std::string& name, const std::string& text) {
    std::string path = TempPath(name);
    std::ofstream(path) << text;
    files_.push_back(path);
    return path;
  }
  void TearDown() override {
    for (const std::string& f : files_) std::remove(f.c_str());
  }

 private:
  std::vector<std::string> files_;
};

bool Has(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

constexpr const char* kGpuPod = R"(apiVersion: v1
kind: Pod
metadata: {name: train, namespace: ml}
spec:
  containers:
  - name: main
    image: pytorch:2
    resources:
      limits: {nvidia.com/gpu: 1, cpu: 1}
  tolerations:
  - {key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}
)";

TEST_F(ValidateCli, GpuLimitAloneRequestsTheGpu) {
  std::string pod = Write("gpu.yaml", kGpuPod);
  CommandRun cap = Ksched("capacity -f " + Example("cluster.yaml") + " --pod " + pod +
                          " --ignore-pending -o json");
  ASSERT_EQ(cap.status, 0) << cap.err;
  auto j = nlohmann::json::parse(cap.out)["workloads"][0];
  EXPECT_EQ(j["count"], 2) << "gpu-b3 has two GPUs and no other node has any";
  EXPECT_EQ(j["perNode"]["gpu-b3"], 2);
  EXPECT_TRUE(Has(j["stopReason"], "Insufficient nvidia.com/gpu")) << j["stopReason"];

  CommandRun s = Ksched("schedule -f " + Example("cluster.yaml") + " --pending " + pod);
  EXPECT_EQ(s.status, 0) << s.err;
  EXPECT_TRUE(Has(s.out, "ml/train  gpu-b3")) << s.out;
}

// The same pod hand-written, and as kubectl get printed it after a real
// kube-apiserver v1.15.5 (../shared/apiserver) stored it: they must schedule
// identically.
TEST_F(ValidateCli, HandWrittenPodSchedulesAsItsKubectlDump) {
  std::string written = Write("written.yaml", R"(apiVersion: v1
kind: Pod
metadata: {name: train, namespace: default}
spec:
  hostNetwork: true
  containers:
  - name: c
    image: x
    resources:
      limits: {nvidia.com/gpu: 1, cpu: 1}
    ports: [{containerPort: 8080}]
  tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]
)");
  std::string dumped = Write("dumped.json", R"({"apiVersion":"v1","kind":"Pod",
  "metadata":{"name":"train","namespace":"default"},
  "spec":{"containers":[{"image":"x","imagePullPolicy":"Always","name":"c",
    "ports":[{"containerPort":8080,"hostPort":8080,"protocol":"TCP"}],
    "resources":{"limits":{"cpu":"1","nvidia.com/gpu":"1"},
                 "requests":{"cpu":"1","nvidia.com/gpu":"1"}},
    "terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File"}],
    "dnsPolicy":"ClusterFirst","enableServiceLinks":true,"hostNetwork":true,"priority":0,
    "restartPolicy":"Always","schedulerName":"default-scheduler","securityContext":{},
    "terminationGracePeriodSeconds":30,
    "tolerations":[{"effect":"NoSchedule","key":"nvidia.com/gpu","operator":"Exists"},
      {"effect":"NoExecute","key":"node.kubernetes.io/not-ready","operator":"Exists",
       "tolerationSeconds":300},
      {"effect":"NoExecute","key":"node.kubernetes.io/unreachable","operator":"Exists",
       "tolerationSeconds":300}]},
  "status":{"phase":"Pending","qosClass":"Guaranteed"}})");
  CommandRun a =
      Ksched("schedule -f " + Example("cluster.yaml") + " --pending " + written + " -o json");
  CommandRun b =
      Ksched("schedule -f " + Example("cluster.yaml") + " --pending " + dumped + " -o json");
  ASSERT_EQ(a.status, 0) << a.err;
  EXPECT_EQ(a.status, b.status);
  EXPECT_EQ(a.out, b.out);
  EXPECT_EQ(nlohmann::json::parse(a.out)[0]["node"], "gpu-b3");
  EXPECT_TRUE(a.err.empty() && b.err.empty()) << a.err << b.err;
}

TEST_F(ValidateCli, CpuLimitAboveTheNodeDoesNotFit) {
  std::string pod = Write("big.yaml", R"(kind: Pod
metadata: {name: big}
spec: {containers: [{name: c, resources: {limits: {cpu: 9}}}]}
)");
  CommandRun cap = Ksched("capacity -f " + Example("cluster.yaml") + " --pod " + pod +
                          " --ignore-pending -o json");
  EXPECT_EQ(cap.status, 1) << "not one copy fits: " << cap.err;
  EXPECT_EQ(nlohmann::json::parse(cap.out)["workloads"][0]["count"], 0);
}

TEST_F(ValidateCli, InvalidPendingPodIsExit2WithFileObjectAndField) {
  std::string pod = Write("inn.yaml", R"(kind: Pod
metadata: {name: web, namespace: shop}
spec:
  containers: [{name: c}]
  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms:
        - matchExpressions: [{key: zone, operator: Inn, values: [a]}]
  tolerations: [{key: k, operator: Equal, value: v, effect: NoSchedul}]
)");
  CommandRun r = Ksched("schedule -f " + Example("cluster.yaml") + " --pending " + pod);
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_TRUE(Has(r.err, "ksched: " + pod +
                             ": Pod shop/web: spec.affinity.nodeAffinity."
                             "requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]."
                             "matchExpressions[0].operator: Invalid value: \"Inn\": not a valid "
                             "selector operator"))
      << r.err;
  EXPECT_TRUE(Has(r.err, "ksched: " + pod +
                             ": Pod shop/web: spec.tolerations[0].effect: Unsupported value: "
                             "\"NoSchedul\""))
      << r.err;
}

TEST_F(ValidateCli, MisspeltTaintEffectInTheSnapshotIsAnError) {
  std::string snap = Write("taint.yaml", R"(apiVersion: v1
kind: List
items:
- kind: Node
  metadata: {name: n1}
  spec: {taints: [{key: dedicated, value: db, effect: NoSchedul}]}
  status: {allocatable: {cpu: 2, memory: 2Gi, pods: 10}}
- kind: Pod
  metadata: {name: p}
  spec: {containers: [{name: c}]}
)");
  CommandRun r = Ksched("schedule -f " + snap);
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(Has(r.err, snap + ": Node n1: spec.taints[0].effect: Unsupported value: "
                                "\"NoSchedul\": supported values: \"NoSchedule\", "
                                "\"PreferNoSchedule\", \"NoExecute\""))
      << r.err;
}

TEST_F(ValidateCli, UnknownFieldIsAnErrorInPendingPodsAndAWarningInTheSnapshot) {
  const std::string typo = R"(kind: Pod
metadata: {name: web, namespace: shop}
spec:
  containers: [{name: c, resources: {requests: {cpu: 100m}}}]
  affinty: {}
)";
  std::string pending = Write("typo.yaml", typo);
  CommandRun e = Ksched("schedule -f " + Example("cluster.yaml") + " --pending " + pending);
  EXPECT_EQ(e.status, 2);
  EXPECT_TRUE(Has(e.err, pending + ": Pod shop/web: unknown field \"affinty\" in Pod.spec"))
      << e.err;

  std::string snap = Write("typo-snap.yaml", R"(apiVersion: v1
kind: List
items:
- kind: Node
  metadata: {name: n1}
  status: {capacity: {cpu: 2, memory: 2Gi, pods: 10}}
- kind: Pod
  metadata: {name: web, namespace: shop}
  spec:
    containers: [{name: c, resources: {requests: {cpu: 100m}}}]
    affinty: {}
)");
  CommandRun w = Ksched("schedule -f " + snap);
  EXPECT_EQ(w.status, 0) << w.err;
  EXPECT_TRUE(Has(w.err, "ksched: warning: " + snap +
                             ": Pod shop/web: unknown field \"affinty\" in Pod.spec (ignored)"))
      << w.err;
  EXPECT_TRUE(Has(w.out, "shop/web  n1")) << "allocatable defaults to capacity: " << w.out;
  std::string many = Write("typo-many.yaml", R"(kind: List
items:
- kind: Node
  metadata: {name: n1}
  status: {capacity: {cpu: 2, memory: 2Gi, pods: 10}}
- kind: Pod
  metadata: {name: a, namespace: shop}
  spec: {nodeName: n1, containers: [{name: c, imagePullPolice: Always}, {name: d, imagePullPolice: Always}]}
- kind: Pod
  metadata: {name: b, namespace: shop}
  spec: {nodeName: n1, containers: [{name: c, imagePullPolice: Always}]}
)");
  CommandRun m = Ksched("schedule -f " + many);
  EXPECT_EQ(m.err, "ksched: warning: " + many +
                       ": Pod shop/a: unknown field \"imagePullPolice\" in "
                       "Pod.spec.containers[0] (ignored), and 2 more like it\n");
  CommandRun quiet = Ksched("schedule -f " + snap + " --warnings=false");
  EXPECT_EQ(quiet.status, 0);
  EXPECT_TRUE(quiet.err.empty()) << quiet.err;
}

TEST_F(ValidateCli, NewerFieldsAreOneSummarisedWarningAndInJson) {
  std::string items;
  for (int i = 1; i <= 5; ++i) {
    items += "- kind: Pod\n  metadata: {name: web-" + std::to_string(i) +
             ", namespace: shop}\n  spec:\n    containers: [{name: c}]\n"
             "    topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, "
             "whenUnsatisfiable: DoNotSchedule}]\n";
  }
  std::string snap = Write("tsc.yaml",
                           "kind: List\nitems:\n- kind: Node\n  metadata: {name: n1}\n"
                           "  status: {allocatable: {cpu: 2, pods: 10}}\n" +
                               items);
  CommandRun r = Ksched("schedule --scheduler-version v1.15 -f " + snap + " -o json");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err,
            "ksched: warning: 5 pods use topologySpreadConstraints (Kubernetes 1.16+), which the "
            "v1.15 algorithm ignores; e.g. shop/web-1, shop/web-2, shop/web-3\n");
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j.size(), 5u);
  EXPECT_EQ(j[0]["warnings"][0],
            "uses topologySpreadConstraints (Kubernetes 1.16+), which the v1.15 algorithm ignores");
  CommandRun quiet =
      Ksched("schedule --scheduler-version v1.15 -f " + snap + " -o json --warnings=false");
  EXPECT_TRUE(quiet.err.empty()) << quiet.err;
  EXPECT_FALSE(nlohmann::json::parse(quiet.out)[0].contains("warnings"));
  // The default engine, v1.26, honours the constraints: nothing to warn
  // about, and a node without the topology key is no place for the pods.
  CommandRun v126 = Ksched("schedule -f " + snap + " -o json");
  EXPECT_EQ(v126.status, 1) << v126.err;
  EXPECT_TRUE(v126.err.empty()) << v126.err;
  auto k = nlohmann::json::parse(v126.out);
  EXPECT_FALSE(k[0].contains("warnings"));
  EXPECT_EQ(k[0]["failures"]["n1"][0],
            "node(s) didn't match pod topology spread constraints (missing required label)");
}

TEST_F(ValidateCli, PodWhoseReplicaSetIsMissingGetsAWarning) {
  std::string snap = Write("owner.yaml", R"(kind: List
items:
- kind: Node
  metadata: {name: n1}
  status: {allocatable: {cpu: 2, pods: 10}}
- kind: Service
  metadata: {name: web}
  spec: {selector: {app: web}}
- kind: Pod
  metadata:
    name: web-1
    labels: {app: web}
    ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: web-abc, controller: true}]
  spec: {containers: [{name: c}]}
)");
  CommandRun r = Ksched("schedule --scheduler-version v1.15 -f " + snap);
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.err,
            "ksched: warning: ReplicaSet default/web-abc is not in the snapshot: "
            "SelectorSpreadPriority does not spread its pending pod default/web-1 against their "
            "siblings as the cluster would\n"
            "ksched: warning: add replicasets to the kubectl get command that makes the "
            "snapshot\n");
  CommandRun json = Ksched("schedule --scheduler-version v1.15 -f " + snap + " -o json");
  EXPECT_EQ(nlohmann::json::parse(json.out)[0]["warnings"][0],
            "its ReplicaSet default/web-abc is not in the snapshot, so SelectorSpreadPriority "
            "does not spread it against its siblings as the cluster would");
  // v1.26 spreads siblings with PodTopologySpread's system default
  // constraints, which find them through the same controller.
  CommandRun v126 = Ksched("schedule -f " + snap + " -o json");
  EXPECT_EQ(v126.status, 0);
  EXPECT_NE(v126.err.find("ReplicaSet default/web-abc is not in the snapshot: PodTopologySpread's "
                          "default constraints do not spread its pending pod default/web-1"),
            std::string::npos)
      << v126.err;
  EXPECT_EQ(nlohmann::json::parse(v126.out)[0]["warnings"][0],
            "its ReplicaSet default/web-abc is not in the snapshot, so PodTopologySpread's default "
            "constraints do not spread it against its siblings as the cluster would");
}

TEST_F(ValidateCli, ObjectsWithoutKindSayWhatIsExpected) {
  std::string nokind = Write("nokind.json", R"({"metadata":{"name":"a"},"spec":{}})");
  CommandRun r = Ksched("schedule -f " + nokind);
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(Has(r.err, "kind: missing: ksched reads `kubectl get -o yaml` or `-o json` output"))
      << r.err;
  std::string array = Write("array.json", R"([{"metadata":{"name":"a"}}])");
  CommandRun a = Ksched("schedule -f " + array);
  EXPECT_EQ(a.status, 2);
  EXPECT_TRUE(Has(a.err, "a bare JSON array is read only when each object names its kind"))
      << a.err;
}

TEST_F(ValidateCli, FilesGivenToTheWrongCommandSayWhatToRun) {
  std::string scenario = std::string(KSCHED_SHARED_DIR) + "/conformance/conf-001.json";
  CommandRun s = Ksched("schedule -f " + scenario);
  EXPECT_EQ(s.status, 2);
  EXPECT_TRUE(Has(s.err, "this looks like a ksched scenario file")) << s.err;
  EXPECT_TRUE(Has(s.err, "ksched replay FILE")) << s.err;

  std::string list = Write("list.json", R"({"apiVersion":"v1","kind":"List","items":[]})");
  for (const std::string& cmd : {"replay " + list, "bench " + list}) {
    CommandRun r = Ksched(cmd);
    EXPECT_EQ(r.status, 2) << cmd;
    EXPECT_TRUE(Has(r.err,
                    "this is a Kubernetes List (kubectl get output), not a ksched "
                    "scenario"))
        << cmd << ": " << r.err;
    EXPECT_TRUE(Has(r.err, "run: ksched schedule -f " + list)) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
  std::string multi = Write("multi.yaml",
                            "kind: Pod\nmetadata: {name: a}\n---\nkind: Node\n"
                            "metadata: {name: n}\n");
  CommandRun m = Ksched("replay " + multi);
  EXPECT_EQ(m.status, 2);
  EXPECT_TRUE(Has(m.err,
                  "a multi-document YAML stream is a snapshot, not a scenario; run: "
                  "ksched schedule -f " +
                      multi))
      << m.err;
  CommandRun snap = Ksched("bench " + Example("cluster.yaml"));
  EXPECT_EQ(snap.status, 2);
  EXPECT_TRUE(Has(snap.err, "ksched schedule -f")) << snap.err;

  std::string node = Write("node.yaml", R"(kind: Node
metadata: {name: n}
)");
  CommandRun d = Ksched("capacity -f " + Example("cluster.yaml") + " --pod " + node);
  EXPECT_EQ(d.status, 2);
  EXPECT_TRUE(Has(d.err, "not a workload capacity can place")) << d.err;
}

TEST_F(ValidateCli, PolicyPredicateRemovedByADefaultGateNamesTheGate) {
  std::string policy = Write("policy.json", R"({"kind":"Policy","apiVersion":"v1",
      "predicates":[{"name":"PodFitsResources"},{"name":"CheckNodeMemoryPressure"}]})");
  CommandRun r = Ksched("schedule -f " + Example("cluster.yaml") + " --policy " + policy);
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(Has(r.err,
                  "Invalid configuration: Predicate type not found for "
                  "CheckNodeMemoryPressure (valid with --feature-gates "
                  "TaintNodesByCondition=false"))
      << r.err;
  CommandRun ok = Ksched("schedule -f " + Example("cluster.yaml") + " --policy " + policy +
                         " --feature-gates TaintNodesByCondition=false");
  EXPECT_NE(ok.status, 2) << ok.err;
}

TEST_F(ValidateCli, ExampleStaysQuiet) {
  CommandRun r = Ksched("schedule -f " + Example("cluster.yaml"));
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(r.err.empty()) << r.err;
}

}  // namespace
