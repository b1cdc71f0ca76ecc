// End-to-end checks of what `schedule` and `capacity` do with input the API
// server would have defaulted, rejected or not known (issue 20, issue 17
// section 2), and of the messages for a file given to the wrong command.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "tests/cli_run.h"

namespace validate_cli_test {

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
  // No warning about the pod; only the one naming the snapshot's pending
  // pods that --pending leaves out.
  for (const CommandRun* r : {&a, &b}) {
    std::istringstream lines(r->err);
    for (std::string line; std::getline(lines, line);)
      EXPECT_TRUE(Has(line, "replaces the snapshot's 5 pending pod(s), which are left out"))
          << line;
  }
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

TEST_F(ValidateCli, UnknownFieldIsAnErrorInEveryFileUnlessValidateSaysOtherwise) {
  const std::string typo = R"(kind: Pod
metadata: {name: web, namespace: shop}
spec:
  containers: [{name: c, resources: {requests: {cpu: 100m}}}]
  affinty: {}
)";
  std::string pending = Write("typo.yaml", typo);
  CommandRun e = Ksched("schedule -f " + Example("cluster.yaml") + " --pending " + pending);
  EXPECT_EQ(e.status, 2);
  EXPECT_TRUE(Has(e.err, "ksched: " + pending +
                             ": Pod shop/web: strict decoding error: unknown field "
                             "\"spec.affinty\"\n"))
      << e.err;
  EXPECT_TRUE(e.out.empty()) << e.out;

  // A snapshot pod whose affinity is misspelt would land where its
  // affinity forbids: an error too.
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
  CommandRun s = Ksched("schedule -f " + snap);
  EXPECT_EQ(s.status, 2) << s.err;
  EXPECT_TRUE(Has(s.err, "ksched: " + snap +
                             ": Pod shop/web: strict decoding error: unknown field "
                             "\"spec.affinty\"\n"))
      << s.err;
  EXPECT_TRUE(Has(s.err, "--validate=warn")) << s.err;
  for (const char* cmd : {"drain", "capacity"}) {
    std::string args = std::string(cmd) == "drain" ? " n1" : " --pod " + pending;
    CommandRun c = Ksched(std::string(cmd) + " -f " + snap + args);
    EXPECT_EQ(c.status, 2) << cmd;
    EXPECT_TRUE(Has(c.err, "strict decoding error: unknown field \"spec.affinty\"")) << c.err;
  }

  CommandRun w = Ksched("schedule -f " + snap + " --validate=warn");
  EXPECT_EQ(w.status, 0) << w.err;
  EXPECT_EQ(w.err, "ksched: warning: " + snap +
                       ": Pod shop/web: unknown field \"spec.affinty\" (ignored)\n");
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
  CommandRun m = Ksched("schedule -f " + many + " --validate warn");
  EXPECT_EQ(m.err, "ksched: warning: " + many +
                       ": Pod shop/a: unknown field \"spec.containers[0].imagePullPolice\" "
                       "(ignored), and 2 more like it\n");
  CommandRun strict = Ksched("schedule -f " + many);
  EXPECT_EQ(strict.status, 2);
  EXPECT_TRUE(Has(strict.err,
                  ": Pod shop/a: strict decoding error: unknown field "
                  "\"spec.containers[0].imagePullPolice\", unknown field "
                  "\"spec.containers[1].imagePullPolice\"\n"))
      << strict.err;
  EXPECT_TRUE(Has(strict.err,
                  ": Pod shop/b: strict decoding error: unknown field "
                  "\"spec.containers[0].imagePullPolice\"\n"))
      << strict.err;
  CommandRun quiet = Ksched("schedule -f " + snap + " --validate=warn --warnings=false");
  EXPECT_EQ(quiet.status, 0);
  EXPECT_TRUE(quiet.err.empty()) << quiet.err;
  CommandRun ignore = Ksched("schedule -f " + snap + " --validate=ignore");
  EXPECT_EQ(ignore.status, 0);
  EXPECT_TRUE(ignore.err.empty()) << ignore.err;
  CommandRun f = Ksched("schedule -f " + snap + " --validate=false");
  EXPECT_EQ(f.status, 0) << f.err;
  CommandRun bad = Ksched("schedule -f " + snap + " --validate=sometimes");
  EXPECT_EQ(bad.status, 2) << bad.err;
}

// The issue's Deployment: `resources.request:` (for requests) left the pods
// requesting nothing, and capacity counted more copies than fit.
TEST_F(ValidateCli, UnknownFieldInAWorkloadTemplateIsAnError) {
  std::string deploy = Write("typo-deploy.yaml", R"(apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: c
        image: nginx
        resources:
          request: {cpu: "1"}
)");
  CommandRun c = Ksched("capacity -f " + Example("cluster.yaml") + " --pod " + deploy);
  EXPECT_EQ(c.status, 2) << c.err;
  EXPECT_TRUE(Has(c.err, "ksched: " + deploy +
                             ": Deployment shop/web: strict decoding error: unknown field "
                             "\"spec.template.spec.containers[0].resources.request\"\n"))
      << c.err;
  CommandRun w =
      Ksched("capacity -f " + Example("cluster.yaml") + " --pod " + deploy + " --validate=warn");
  EXPECT_NE(w.status, 2) << w.err;
  EXPECT_TRUE(Has(w.err, "ksched: warning: " + deploy +
                             ": Deployment shop/web: unknown field "
                             "\"spec.template.spec.containers[0].resources.request\" (ignored)"))
      << w.err;

  // A Job's own fields and a StatefulSet's are known too.
  std::string job = Write("typo-job.yaml", R"(apiVersion: batch/v1
kind: Job
metadata: {name: batch}
spec:
  parallelism: 2
  backofLimit: 3
  template:
    spec:
      restartPolicy: Never
      containers: [{name: c, image: busybox}]
)");
  CommandRun j = Ksched("capacity -f " + Example("cluster.yaml") + " --pod " + job);
  EXPECT_EQ(j.status, 2) << j.err;
  EXPECT_TRUE(Has(j.err,
                  ": Job default/batch: strict decoding error: unknown field "
                  "\"spec.backofLimit\"\n"))
      << j.err;
  std::string sts = Write("typo-sts.yaml", R"(apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  replicas: 1
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: c, image: pg}]
      nodeSelectr: {disk: ssd}
)");
  CommandRun t = Ksched("capacity -f " + Example("cluster.yaml") + " --pod " + sts);
  EXPECT_EQ(t.status, 2) << t.err;
  EXPECT_TRUE(Has(t.err,
                  ": StatefulSet default/db: strict decoding error: unknown field "
                  "\"spec.template.spec.nodeSelectr\"\n"))
      << t.err;
}

TEST_F(ValidateCli, WrongTypesAndSelectorsOfWorkloadsAreErrors) {
  auto deployment = [&](const std::string& name, const std::string& replicas,
                        const std::string& selector_app) {
    return Write(name,
                 "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n"
                 "  replicas: " +
                     replicas + "\n  selector: {matchLabels: {app: " + selector_app +
                     "}}\n  template:\n    metadata: {labels: {app: web}}\n"
                     "    spec: {containers: [{name: c, image: x}]}\n");
  };
  std::string quoted = deployment("quoted.yaml", "\"10\"", "web");
  CommandRun q = Ksched("capacity -f " + Example("cluster.yaml") + " --pod " + quoted);
  EXPECT_EQ(q.status, 2) << q.err;
  EXPECT_EQ(q.err, "ksched: " + quoted +
                       ": Deployment default/web: spec.replicas: expected an int32, got string "
                       "\"10\"\n");
  std::string other = deployment("other.yaml", "2", "api");
  CommandRun o = Ksched("capacity -f " + Example("cluster.yaml") + " --pod " + other);
  EXPECT_EQ(o.status, 2) << o.err;
  EXPECT_TRUE(Has(o.err,
                  ": Deployment default/web: spec.template.metadata.labels: Invalid "
                  "value: {\"app\":\"web\"}: `selector` does not match template "
                  "`labels`"))
      << o.err;
  std::string rs = Write("rs.yaml", R"(apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: web}
spec:
  replicas: 1
  selector: {matchLabels: {app: api}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c, image: x}]}
)");
  CommandRun r = Ksched("capacity -f " + Example("cluster.yaml") + " --pod " + rs);
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_TRUE(Has(r.err, "`selector` does not match template `labels`")) << r.err;
  std::string ok = deployment("ok.yaml", "2", "web");
  CommandRun g = Ksched("capacity -f " + Example("cluster.yaml") + " --pod " + ok);
  EXPECT_EQ(g.status, 0) << g.err;
}

// What the API server rejects in a pod is an error in any file; an enum
// value in a workload's template among them.
TEST_F(ValidateCli, WhenUnsatisfiableOutsideItsValuesIsAnError) {
  std::string deploy = Write("tsc-deploy.yaml", R"(apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: c, image: x}]
      topologySpreadConstraints:
      - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedul,
         labelSelector: {matchLabels: {app: web}}}
)");
  CommandRun c = Ksched("capacity -f " + Example("cluster.yaml") + " --pod " + deploy);
  EXPECT_EQ(c.status, 2) << c.err;
  EXPECT_TRUE(Has(c.err, "whenUnsatisfiable: Unsupported value: \"DoNotSchedul\"")) << c.err;
}

// A pod and a node as `kubectl get -o yaml` prints them from a current
// cluster: every field is real, so none is an error.
TEST_F(ValidateCli, CurrentClusterObjectsHaveNoUnknownFields) {
  std::string snap = Write("current.yaml", R"(apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Node
  metadata:
    name: n1
    labels: {kubernetes.io/os: linux}
    managedFields:
    - {apiVersion: v1, fieldsType: FieldsV1, fieldsV1: {f:metadata: {}}, manager: kubelet,
       operation: Update, subresource: status, time: "2025-01-01T00:00:00Z"}
  spec: {podCIDR: 10.0.0.0/24, podCIDRs: [10.0.0.0/24], providerID: "kind://x"}
  status:
    addresses: [{type: InternalIP, address: 10.0.0.2}]
    allocatable: {cpu: "4", memory: 8Gi, pods: "110"}
    capacity: {cpu: "4", memory: 8Gi, pods: "110"}
    conditions:
    - {type: Ready, status: "True", lastHeartbeatTime: "2025-01-01T00:00:00Z",
       lastTransitionTime: "2025-01-01T00:00:00Z", reason: KubeletReady, message: ok}
    daemonEndpoints: {kubeletEndpoint: {Port: 10250}}
    features: {supplementalGroupsPolicy: true}
    runtimeHandlers: [{name: runc, features: {recursiveReadOnlyMounts: true, userNamespaces: true}}]
    nodeInfo: {architecture: amd64, bootID: x, containerRuntimeVersion: "containerd://2.0",
               kernelVersion: "6.1", kubeProxyVersion: "", kubeletVersion: v1.33.1,
               machineID: x, operatingSystem: linux, osImage: Debian, systemUUID: x,
               swap: {capacity: 0}}
    images: [{names: [nginx], sizeBytes: 1000}]
- apiVersion: v1
  kind: Pod
  metadata:
    name: web
    namespace: default
    generateName: web-
    uid: 0b1f5d2c
    resourceVersion: "5"
    creationTimestamp: "2025-01-01T00:00:00Z"
    managedFields:
    - {apiVersion: v1, fieldsType: FieldsV1, fieldsV1: {f:spec: {}}, manager: kube-controller-manager,
       operation: Update, time: "2025-01-01T00:00:00Z"}
  spec:
    os: {name: linux}
    hostUsers: true
    enableServiceLinks: true
    preemptionPolicy: PreemptLowerPriority
    priority: 0
    schedulerName: default-scheduler
    securityContext: {seccompProfile: {type: RuntimeDefault}, supplementalGroupsPolicy: Merge}
    containers:
    - name: c
      image: nginx
      imagePullPolicy: Always
      resizePolicy: [{resourceName: cpu, restartPolicy: NotRequired}]
      resources: {requests: {cpu: 100m}}
      securityContext: {appArmorProfile: {type: RuntimeDefault}}
      terminationMessagePath: /dev/termination-log
      terminationMessagePolicy: File
      volumeMounts: [{name: v, mountPath: /v, recursiveReadOnly: Disabled}]
    volumes:
    - name: v
      projected:
        sources:
        - serviceAccountToken: {expirationSeconds: 3607, path: token}
        - clusterTrustBundle: {signerName: x, path: b}
    tolerations: [{key: node.kubernetes.io/not-ready, operator: Exists, effect: NoExecute,
                   tolerationSeconds: 300}]
  status:
    phase: Pending
    qosClass: Burstable
    conditions:
    - {type: PodReadyToStartContainers, status: "False", lastProbeTime: null,
       lastTransitionTime: "2025-01-01T00:00:00Z", observedGeneration: 1}
    hostIPs: [{ip: 10.0.0.2}]
    podIPs: [{ip: 10.1.0.3}]
    observedGeneration: 1
)");
  CommandRun r = Ksched("schedule -f " + snap);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
  EXPECT_TRUE(Has(r.out, "default/web  n1")) << r.out;
}

TEST_F(ValidateCli, FileThatIsNoSnapshotSaysWhatItIsAndWhatReadsIt) {
  std::string empty = Write("empty.yaml", "");
  CommandRun e = Ksched("schedule -f " + empty);
  EXPECT_EQ(e.status, 2);
  EXPECT_EQ(e.err, "ksched: " + empty +
                       ": no objects in this file: a snapshot is `kubectl get nodes,pods,... -A "
                       "-o yaml` output (see README)\n");
  EXPECT_TRUE(e.out.empty());
  CommandRun ep = Ksched("schedule -f " + Example("cluster.yaml") + " --pending " + empty);
  EXPECT_EQ(ep.status, 2);
  EXPECT_TRUE(Has(ep.err, empty + ": no objects in this file: --pending reads Pods")) << ep.err;
  EXPECT_TRUE(ep.out.empty()) << ep.out;

  std::string deploy = Example("web-deployment.yaml");
  for (const char* cmd : {"schedule -f ", "drain n1 -f ", "capacity --pod x.yaml -f "}) {
    CommandRun d = Ksched(cmd + deploy);
    EXPECT_EQ(d.status, 2) << cmd;
    EXPECT_TRUE(Has(d.err, deploy + ": a Deployment is not a cluster snapshot; this file is a "
                                    "workload: `ksched capacity -f SNAPSHOT --pod FILE` places "
                                    "its pods"))
        << cmd << d.err;
  }
  std::string pods = Write("pods-only.yaml", R"(kind: Pod
metadata: {name: web}
spec: {containers: [{name: c}]}
)");
  CommandRun p = Ksched("schedule -f " + pods);
  EXPECT_EQ(p.status, 2);
  EXPECT_TRUE(Has(p.err, pods + ": no Node in the snapshot")) << p.err;
  EXPECT_TRUE(p.out.empty()) << p.out;
  std::string config = Write("config.yaml", R"(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles: [{schedulerName: default-scheduler}]
)");
  CommandRun c = Ksched("schedule -f " + config);
  EXPECT_EQ(c.status, 2);
  EXPECT_TRUE(Has(c.err, "give it with --config FILE")) << c.err;
}

TEST_F(ValidateCli, EncodingsTabsDirectoriesListsAndGenerateName) {
  const std::string node =
      "kind: Node\nmetadata: {name: n1}\nstatus: {allocatable: {cpu: 2, pods: 10}}\n";
  // A UTF-8 byte order mark is skipped, in YAML and in JSON.
  std::string bom = Write("bom.yaml", "\xEF\xBB\xBF" + node);
  CommandRun b = Ksched("schedule -f " + bom);
  EXPECT_EQ(b.status, 0) << b.err;
  std::string bom_json =
      Write("bom.json", "\xEF\xBB\xBF{\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\"}}");
  CommandRun bj = Ksched("schedule -f " + bom_json);
  EXPECT_EQ(bj.status, 0) << bj.err;
  // UTF-16, as PowerShell's > writes it.
  std::string utf16 = "\xFF\xFE";
  for (char ch : node) {
    utf16.push_back(ch);
    utf16.push_back('\0');
  }
  std::string u = Write("utf16.yaml", utf16);
  CommandRun uu = Ksched("schedule -f " + u);
  EXPECT_EQ(uu.status, 2);
  EXPECT_TRUE(Has(uu.err, u + ": the file is UTF-16, and ksched reads UTF-8")) << uu.err;
  std::string tab = Write("tab.yaml", "kind: Node\nmetadata:\n\tname: n1\n");
  CommandRun t = Ksched("schedule -f " + tab);
  EXPECT_EQ(t.status, 2);
  EXPECT_TRUE(Has(t.err, "a tab indents this line, and YAML indents with spaces only")) << t.err;

  // -f a,b and -f DIR, as kubectl reads them.
  std::string pod = R"(kind: Pod
metadata: {generateName: web-}
spec: {containers: [{name: c}]}
)";
  std::string dir = TempPath("snapdir");
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/1-nodes.yaml") << node;
  std::ofstream(dir + "/2-pods.json")
      << R"({"kind":"Pod","metadata":{"name":"api"},"spec":{"containers":[{"name":"c"}]}})";
  std::ofstream(dir + "/README.md") << "not read";
  CommandRun d = Ksched("schedule -f " + dir);
  EXPECT_EQ(d.status, 0) << d.err;
  EXPECT_TRUE(Has(d.out, "default/api  n1")) << d.out;
  std::string gen = Write("gen.yaml", pod + "---\n" + pod);
  CommandRun l = Ksched("schedule -f " + dir + "/1-nodes.yaml," + gen);
  EXPECT_EQ(l.status, 0) << l.err;
  // generateName names each pod, as the API server does.
  EXPECT_TRUE(Has(l.out, "default/web-bbbbb  n1")) << l.out;
  EXPECT_TRUE(Has(l.out, "default/web-bbbbc  n1")) << l.out;
  std::filesystem::remove_all(dir);
}

TEST_F(ValidateCli, PolicyUnknownFieldIsAnError) {
  std::string policy = Write("typo-policy.json", R"({"kind":"Policy","apiVersion":"v1",
      "predicates":[{"name":"PodFitsResources"}],
      "priorities":[{"name":"LeastRequestedPriority","wieght":1}]})");
  CommandRun r = Ksched("schedule -f " + Example("cluster.yaml") + " --policy " + policy);
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(Has(r.err, policy + ": Policy: strict decoding error: unknown field "
                                  "\"priorities[0].wieght\"\n"))
      << r.err;
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

// Issue 25: the loader's warnings reach every command and every output, and
// --warnings=false silences them everywhere.
TEST_F(ValidateCli, WarningsReachEveryCommandAndOutput) {
  std::string snap = Write("warn-snap.yaml", R"(kind: List
items:
- kind: Node
  metadata: {name: n1}
  status: {capacity: {cpu: 4, memory: 4Gi, pods: 10}}
- kind: Pod
  metadata: {name: db, namespace: shop}
  spec: {nodeName: n1, containers: [{name: c, imagePullPolice: Always}]}
- kind: Pod
  metadata:
    name: web-1
    namespace: shop
    ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: web-abc, controller: true}]
  spec: {containers: [{name: c, resources: {requests: {cpu: 100m}}}]}
)");
  std::string pod =
      Write("warn-pod.yaml", "kind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c}]}\n");
  const std::string typo = "unknown field \"spec.containers[0].imagePullPolice\" (ignored)";
  const std::string owner = "ReplicaSet shop/web-abc is not in the snapshot";
  auto json_warnings = [](const std::string& out) {
    std::string all;
    auto j = nlohmann::json::parse(out);
    if (j.is_array()) j = j[0];
    for (const auto& w : j.value("warnings", nlohmann::json::array()))
      all += w.get<std::string>() + "\n";
    return all;
  };
  // drain: stderr, -o json, -o yaml, -o html.
  CommandRun drain = Ksched("drain -f " + snap + " n1 --validate=warn");
  EXPECT_TRUE(Has(drain.err, "ksched: warning: " + snap + ": Pod shop/db: " + typo)) << drain.err;
  CommandRun drain_json = Ksched("drain -f " + snap + " n1 --validate=warn -o json");
  EXPECT_TRUE(Has(json_warnings(drain_json.out), typo)) << drain_json.out;
  CommandRun drain_yaml = Ksched("drain -f " + snap + " n1 --validate=warn -o yaml");
  EXPECT_TRUE(Has(drain_yaml.out, "warnings:")) << drain_yaml.out;
  CommandRun drain_html = Ksched("drain -f " + snap + " n1 --validate=warn -o html");
  EXPECT_TRUE(Has(drain_html.out, "\"warnings\":[\"" + snap)) << drain_html.out.substr(0, 200);
  // A pod to evict whose controller the snapshot lacks: its replacement is
  // planned without it, and drain says so.
  std::string owned = Write("warn-owned.yaml", R"(kind: List
items:
- kind: Node
  metadata: {name: n1}
  status: {capacity: {cpu: 4, memory: 4Gi, pods: 10}}
- kind: Node
  metadata: {name: n2}
  status: {capacity: {cpu: 4, memory: 4Gi, pods: 10}}
- kind: Pod
  metadata:
    name: web-2
    namespace: shop
    ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: web-abc, controller: true}]
  spec: {nodeName: n1, containers: [{name: c, resources: {requests: {cpu: 100m}}}]}
)");
  CommandRun drain_owned = Ksched("drain -f " + owned + " n1 -o json");
  EXPECT_TRUE(Has(json_warnings(drain_owned.out), owner)) << drain_owned.out;
  EXPECT_TRUE(Has(drain_owned.err, owner)) << drain_owned.err;
  EXPECT_FALSE(Has(Ksched("drain -f " + owned + " n1 --warnings=false").err, owner));
  // capacity: the snapshot's warnings and the pending pod's missing
  // controller, in -o json, -o yaml and -o html.
  const std::string cap = "capacity -f " + snap + " --pod " + pod + "=1 --validate=warn";
  CommandRun cap_json = Ksched(cap + " -o json");
  EXPECT_EQ(cap_json.status, 0) << cap_json.err;
  EXPECT_TRUE(Has(json_warnings(cap_json.out), typo)) << cap_json.out;
  EXPECT_TRUE(Has(json_warnings(cap_json.out), owner)) << cap_json.out;
  EXPECT_TRUE(Has(cap_json.err, owner)) << cap_json.err;
  EXPECT_TRUE(Has(Ksched(cap + " -o yaml").out, "warnings:"));
  EXPECT_TRUE(Has(Ksched(cap + " -o html").out, owner));
  // The HTML pages of schedule, --explain and --add-node, and --explain's
  // JSON.
  std::string tmpl = Write("warn-node.yaml",
                           "kind: Node\nmetadata: {name: extra}\n"
                           "status: {capacity: {cpu: 4, memory: 4Gi, pods: 10}}\n");
  for (const std::string& args :
       {"schedule -f " + snap + " --validate=warn -o html",
        "schedule -f " + snap + " --validate=warn -o html --explain shop/web-1",
        "schedule -f " + snap + " --validate=warn -o html --add-node " + tmpl,
        "capacity -f " + snap + " --pod " + pod + "=1 --validate=warn -o html --add-node " +
            tmpl}) {
    // The page embeds its data as JSON: the field's quotes are escaped.
    const std::string field = "spec.containers[0].imagePullPolice";
    CommandRun r = Ksched(args);
    EXPECT_TRUE(Has(r.out, "\"warnings\":[\"" + snap)) << args;
    EXPECT_TRUE(Has(r.out, field)) << args;
    CommandRun quiet = Ksched(args + " --warnings=false");
    EXPECT_FALSE(Has(quiet.out, field)) << args;
    EXPECT_TRUE(quiet.err.empty()) << args << ": " << quiet.err;
  }
  CommandRun explain =
      Ksched("schedule -f " + snap + " --validate=warn -o json --explain shop/web-1");
  EXPECT_TRUE(Has(json_warnings(explain.out), typo)) << explain.out;
  CommandRun add_json =
      Ksched("schedule -f " + snap + " --validate=warn -o json --add-node " + tmpl);
  EXPECT_TRUE(Has(json_warnings(add_json.out), owner)) << add_json.out;
  // --warnings=false: nothing on stderr, nothing in the documents.
  for (const std::string& args :
       {"drain -f " + snap + " n1 --validate=warn -o json", cap + " -o json"}) {
    CommandRun quiet = Ksched(args + " --warnings=false");
    EXPECT_TRUE(quiet.err.empty()) << args << ": " << quiet.err;
    EXPECT_FALSE(Has(quiet.out, "warnings")) << args << ": " << quiet.out;
  }
}

// Issue 25: what the API server's validation rejects in the objects ksched
// reads, in its words, exit 2.
TEST_F(ValidateCli, ApiServerValidationOfEveryObjectRead) {
  auto snapshot_with = [&](const std::string& name, const std::string& item) {
    return Write(name,
                 "kind: List\nitems:\n- kind: Node\n  metadata: {name: n1}\n"
                 "  status: {capacity: {cpu: 4, memory: 4Gi, pods: 10}}\n" +
                     item);
  };
  struct Case {
    std::string item, message;
  };
  const std::vector<Case> cases = {
      {"- kind: Pod\n  metadata: {name: neg}\n  spec: {containers: [{name: c, resources: "
       "{requests: {cpu: \"-1\"}}}]}\n",
       "Pod default/neg: spec.containers[0].resources.requests.cpu: must be greater than or "
       "equal to 0"},
      {"- kind: Pod\n  metadata: {name: twice}\n  spec: {containers: [{name: c}], "
       "initContainers: [{name: c}]}\n",
       "Pod default/twice: spec.initContainers[0].name: Duplicate value: \"c\""},
      {"- kind: Pod\n  metadata: {name: rp}\n  spec: {restartPolicy: Sometimes, containers: "
       "[{name: c}]}\n",
       "Pod default/rp: spec.restartPolicy: Unsupported value: \"Sometimes\": supported values: "
       "\"Always\", \"OnFailure\", \"Never\""},
      {"- kind: PodDisruptionBudget\n  apiVersion: policy/v1\n  metadata: {name: both}\n  spec: "
       "{minAvailable: 1, maxUnavailable: 1, selector: {matchLabels: {app: a}}}\n",
       "PodDisruptionBudget default/both: spec.minAvailable: Invalid value: 1: minAvailable and "
       "maxUnavailable cannot be both set"},
      {"- kind: PodDisruptionBudget\n  apiVersion: policy/v1\n  metadata: {name: pct}\n  spec: "
       "{maxUnavailable: 150%, selector: {matchLabels: {app: a}}}\n",
       "PodDisruptionBudget default/pct: spec.maxUnavailable: Invalid value: \"150%\": must not "
       "be greater than 100%"},
      {"- kind: DaemonSet\n  apiVersion: apps/v1\n  metadata: {name: ds}\n  spec: {template: "
       "{metadata: {labels: {app: a}}, spec: {containers: [{name: c}]}}}\n",
       "DaemonSet default/ds: spec.selector: Required value"},
      {"- kind: DaemonSet\n  apiVersion: apps/v1\n  metadata: {name: ds}\n  spec: {selector: "
       "{matchLabels: {app: b}}, template: {metadata: {labels: {app: a}}, spec: {containers: "
       "[{name: c}]}}}\n",
       "DaemonSet default/ds: spec.template.metadata.labels: Invalid value: {\"app\":\"a\"}: "
       "`selector` does not match template `labels`"},
      {"- kind: DaemonSet\n  apiVersion: apps/v1\n  metadata: {name: ds}\n  spec: {selector: "
       "{matchLabels: {app: a}}, template: {metadata: {labels: {app: a}}, spec: "
       "{restartPolicy: Never, containers: [{name: c}]}}}\n",
       "DaemonSet default/ds: spec.template.spec.restartPolicy: Unsupported value: \"Never\": "
       "supported values: \"Always\""},
      {"- kind: DaemonSet\n  apiVersion: apps/v1\n  metadata: {name: ds}\n  spec: {selector: "
       "{matchLabels: {app: a}}, template: {metadata: {labels: {app: a}}, spec: {containers: "
       "[{name: c, resourcez: {}}]}}}\n",
       "DaemonSet default/ds: strict decoding error: unknown field "
       "\"spec.template.spec.containers[0].resourcez\""},
  };
  int i = 0;
  for (const Case& c : cases) {
    std::string snap = snapshot_with("rule-" + std::to_string(i++) + ".yaml", c.item);
    CommandRun r = Ksched("schedule -f " + snap);
    EXPECT_EQ(r.status, 2) << c.message << "\n" << r.err;
    EXPECT_TRUE(Has(r.err, "ksched: " + snap + ": " + c.message)) << r.err;
  }
  // The workloads of capacity --pod.
  std::string snap = snapshot_with("rule-ok.yaml", "");
  const std::vector<Case> workloads = {
      {"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  template:\n"
       "    metadata: {labels: {app: web}}\n    spec: {containers: [{name: c}]}\n",
       "Deployment default/web: spec.selector: Required value"},
      {"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  selector: "
       "{matchLabels: {app: web}}\n  strategy: {type: Rolling}\n  template:\n"
       "    metadata: {labels: {app: web}}\n    spec: {containers: [{name: c}]}\n",
       "Deployment default/web: spec.strategy.type: Unsupported value: \"Rolling\": supported "
       "values: \"Recreate\", \"RollingUpdate\""},
      {"apiVersion: batch/v1\nkind: Job\nmetadata: {name: batch}\nspec:\n  template:\n"
       "    spec: {containers: [{name: c}]}\n",
       "Job default/batch: spec.template.spec.restartPolicy: Unsupported value: \"Always\": "
       "supported values: \"OnFailure\", \"Never\""},
  };
  for (const Case& c : workloads) {
    std::string w = Write("rule-w-" + std::to_string(i++) + ".yaml", c.item);
    CommandRun r = Ksched("capacity -f " + snap + " --pod " + w);
    EXPECT_EQ(r.status, 2) << c.message << "\n" << r.err;
    EXPECT_TRUE(Has(r.err, c.message)) << r.err;
  }
}

// Issue 25: --add-node gives each new node the pods of the snapshot's
// DaemonSet objects whose template fits it.
TEST_F(ValidateCli, AddNodeReadsDaemonSetObjects) {
  std::string snap = Write("ds-snap.yaml", R"(kind: List
items:
- kind: Node
  metadata: {name: n1, labels: {kubernetes.io/hostname: n1}}
  status: {capacity: {cpu: 1, memory: 4Gi, pods: 10}}
- apiVersion: apps/v1
  kind: DaemonSet
  metadata: {name: agent, namespace: kube-system}
  spec:
    selector: {matchLabels: {app: agent}}
    template:
      metadata: {labels: {app: agent}}
      spec: {containers: [{name: c, resources: {requests: {cpu: 500m}}}]}
- apiVersion: apps/v1
  kind: DaemonSet
  metadata: {name: gpu-driver, namespace: kube-system}
  spec:
    selector: {matchLabels: {app: gpu-driver}}
    template:
      metadata: {labels: {app: gpu-driver}}
      spec:
        nodeSelector: {pool: gpu}
        containers: [{name: c, resources: {requests: {cpu: 500m}}}]
- kind: Pod
  metadata: {name: big}
  spec: {containers: [{name: c, resources: {requests: {cpu: 1500m}}}]}
)");
  std::string tmpl = Write("ds-node.yaml",
                           "kind: Node\nmetadata: {name: extra}\n"
                           "status: {capacity: {cpu: 2, memory: 4Gi, pods: 10}}\n");
  CommandRun r = Ksched("schedule -f " + snap + " --add-node " + tmpl + " -o json");
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j[0]["nodes"], 1) << r.out;
  EXPECT_EQ(j[0]["daemonSets"], nlohmann::json::array({"kube-system/agent"})) << r.out;
  // 1500m beside a 500m agent on a 1.9-core node: no number of nodes helps.
  std::string small = Write("ds-small.yaml",
                            "kind: Node\nmetadata: {name: small}\n"
                            "status: {capacity: {cpu: 1900m, memory: 4Gi, "
                            "pods: 10}}\n");
  CommandRun none = Ksched("schedule -f " + snap + " --add-node " + small + "=3");
  EXPECT_EQ(none.status, 1) << none.err;
  EXPECT_TRUE(Has(none.out, "no number of nodes helps")) << none.out;
  EXPECT_TRUE(Has(none.out, "beside its 1 DaemonSet pod")) << none.out;
}

}  // namespace validate_cli_test
