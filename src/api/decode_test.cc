#include "api/decode.h"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "api/yaml_to_json.h"

namespace ksched {
namespace api_decode_test {

using ::testing::AllOf;
using ::testing::HasSubstr;

ObjectSet MustDecode(std::string_view text, std::string_view file = "test.yaml") {
  ObjectSet set;
  Status s = DecodeObjects(text, file, &set);
  EXPECT_TRUE(s.ok()) << s.error().message;
  return set;
}

// The error message for input that must be rejected.
std::string DecodeError(std::string_view text, std::string_view file = "bad.yaml") {
  ObjectSet set;
  Status s = DecodeObjects(text, file, &set);
  EXPECT_FALSE(s.ok()) << "accepted:\n" << text;
  return s.ok() ? "" : s.error().message;
}

int64_t Milli(const ResourceList& list, std::string_view name) {
  for (const ResourceQuantity& q : list)
    if (Str(q.name) == name) return q.milli;
  return -1;
}
int64_t Value(const ResourceList& list, std::string_view name) {
  for (const ResourceQuantity& q : list)
    if (Str(q.name) == name) return q.value;
  return -1;
}
std::string Label(const Labels& labels, std::string_view key) {
  auto v = labels.Get(Intern(key));
  return v ? std::string(Str(*v)) : "<absent>";
}

// ---------------------------------------------------------------- pods

constexpr char kPodJson[] = R"({
  "apiVersion": "v1", "kind": "Pod",
  "metadata": {
    "name": "web-1", "namespace": "prod", "uid": "u-1",
    "creationTimestamp": "2020-01-02T03:04:05Z",
    "deletionTimestamp": "2020-01-03T00:00:00Z",
    "labels": {"app": "web", "app.kubernetes.io/name": "frontend"},
    "annotations": {"a": "1"},
    "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web-rs",
                         "uid": "rs-1", "controller": true, "blockOwnerDeletion": true}],
    "resourceVersion": "42"
  },
  "spec": {
    "initContainers": [{"name": "init", "image": "busybox",
                        "resources": {"requests": {"cpu": "1", "memory": "1Gi"}}}],
    "containers": [
      {"name": "c0", "image": "nginx:1.17",
       "resources": {"requests": {"cpu": "100m", "memory": "128Mi", "example.com/gpu": "2"},
                     "limits": {"cpu": "0.5"}},
       "ports": [{"containerPort": 80, "hostPort": 8080, "hostIP": "10.0.0.1", "protocol": "UDP"},
                 {"containerPort": 443}]},
      {"name": "c1", "image": "redis"}
    ],
    "nodeName": "node-a",
    "nodeSelector": {"disk": "ssd"},
    "affinity": {
      "nodeAffinity": {
        "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
          {"matchExpressions": [{"key": "zone", "operator": "In", "values": ["a", "b"]}],
           "matchFields": [{"key": "metadata.name", "operator": "NotIn", "values": ["n1"]}]}]},
        "preferredDuringSchedulingIgnoredDuringExecution": [
          {"weight": 7, "preference": {"matchExpressions": [{"key": "gen", "operator": "Gt",
                                                             "values": ["3"]}]}}]
      },
      "podAffinity": {
        "requiredDuringSchedulingIgnoredDuringExecution": [
          {"labelSelector": {"matchLabels": {"app": "db"},
                             "matchExpressions": [{"key": "tier", "operator": "Exists"}]},
           "namespaces": ["prod", "dev"], "topologyKey": "kubernetes.io/hostname"}]
      },
      "podAntiAffinity": {
        "preferredDuringSchedulingIgnoredDuringExecution": [
          {"weight": 3, "podAffinityTerm": {"labelSelector": {}, "topologyKey": "zone"}}]
      }
    },
    "tolerations": [
      {"key": "dedicated", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"},
      {"operator": "Exists"},
      {"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute",
       "tolerationSeconds": 300}
    ],
    "volumes": [
      {"name": "v0", "gcePersistentDisk": {"pdName": "pd-1", "readOnly": true}},
      {"name": "v1", "awsElasticBlockStore": {"volumeID": "vol-1"}},
      {"name": "v2", "azureDisk": {"diskName": "az-1", "diskURI": "x"}},
      {"name": "v3", "cinder": {"volumeID": "cin-1"}},
      {"name": "v4", "rbd": {"monitors": ["m1", "m2"], "image": "img"}},
      {"name": "v5", "iscsi": {"targetPortal": "1.2.3.4:3260", "iqn": "iqn.x", "lun": 2,
                               "readOnly": true}},
      {"name": "v6", "persistentVolumeClaim": {"claimName": "claim-1"}},
      {"name": "v7", "csi": {"driver": "ebs.csi.aws.com"}},
      {"name": "v8", "emptyDir": {}},
      {"name": "v9", "secret": {"secretName": "s"}}
    ],
    "priority": 1000,
    "schedulerName": "my-scheduler",
    "restartPolicy": "Always"
  },
  "status": {"phase": "Running", "podIP": "10.1.1.1"}
})";

void ExpectFullPod(const Pod& pod) {
  EXPECT_EQ(pod.meta.name, "web-1");
  EXPECT_EQ(Str(pod.meta.ns), "prod");
  EXPECT_EQ(pod.meta.uid, "u-1");
  EXPECT_EQ(pod.Key(), "prod/web-1");
  EXPECT_EQ(pod.meta.creation_timestamp, "2020-01-02T03:04:05Z");
  EXPECT_TRUE(pod.meta.has_deletion_timestamp);
  EXPECT_EQ(Label(pod.meta.labels, "app"), "web");
  EXPECT_EQ(Label(pod.meta.labels, "app.kubernetes.io/name"), "frontend");
  ASSERT_NE(pod.meta.Annotation("a"), nullptr);
  EXPECT_EQ(*pod.meta.Annotation("a"), "1");
  ASSERT_EQ(pod.meta.owner_references.size(), 1u);
  EXPECT_EQ(pod.meta.owner_references[0].kind, "ReplicaSet");
  EXPECT_EQ(pod.meta.owner_references[0].uid, "rs-1");
  EXPECT_EQ(pod.meta.owner_references[0].api_version, "apps/v1");
  EXPECT_TRUE(pod.meta.owner_references[0].controller);

  const PodSpec& s = pod.spec;
  ASSERT_EQ(s.init_containers.size(), 1u);
  EXPECT_EQ(Milli(s.init_containers[0].requests, "cpu"), 1000);
  EXPECT_EQ(Value(s.init_containers[0].requests, "memory"), 1073741824);
  ASSERT_EQ(s.containers.size(), 2u);
  const Container& c0 = s.containers[0];
  EXPECT_EQ(c0.name, "c0");
  EXPECT_EQ(c0.image, "nginx:1.17");
  EXPECT_EQ(Milli(c0.requests, "cpu"), 100);
  EXPECT_EQ(Value(c0.requests, "memory"), 134217728);
  EXPECT_EQ(Value(c0.requests, "example.com/gpu"), 2);
  EXPECT_EQ(Milli(c0.limits, "cpu"), 500);
  ASSERT_EQ(c0.ports.size(), 2u);
  EXPECT_EQ(c0.ports[0].container_port, 80);
  EXPECT_EQ(c0.ports[0].host_port, 8080);
  EXPECT_EQ(c0.ports[0].host_ip, "10.0.0.1");
  EXPECT_EQ(c0.ports[0].protocol, "UDP");
  EXPECT_EQ(c0.ports[1].host_port, 0);
  EXPECT_EQ(c0.ports[1].protocol, "TCP");
  EXPECT_TRUE(s.containers[1].requests.empty());
  EXPECT_EQ(s.node_name, "node-a");
  EXPECT_TRUE(s.has_node_selector);
  EXPECT_EQ(Label(s.node_selector, "disk"), "ssd");

  ASSERT_TRUE(s.affinity.has_value());
  ASSERT_TRUE(s.affinity->node_affinity.has_value());
  const NodeAffinity& na = *s.affinity->node_affinity;
  ASSERT_TRUE(na.required.has_value());
  ASSERT_EQ(na.required->terms.size(), 1u);
  ASSERT_EQ(na.required->terms[0].match_expressions.size(), 1u);
  EXPECT_EQ(na.required->terms[0].match_expressions[0].key, "zone");
  EXPECT_EQ(na.required->terms[0].match_expressions[0].op, "In");
  EXPECT_EQ(na.required->terms[0].match_expressions[0].values,
            (std::vector<std::string>{"a", "b"}));
  ASSERT_EQ(na.required->terms[0].match_fields.size(), 1u);
  EXPECT_EQ(na.required->terms[0].match_fields[0].key, "metadata.name");
  ASSERT_EQ(na.preferred.size(), 1u);
  EXPECT_EQ(na.preferred[0].weight, 7);
  EXPECT_EQ(na.preferred[0].preference.match_expressions[0].op, "Gt");

  ASSERT_TRUE(s.affinity->pod_affinity.has_value());
  const PodAffinity& pa = *s.affinity->pod_affinity;
  ASSERT_EQ(pa.required.size(), 1u);
  ASSERT_TRUE(pa.required[0].label_selector.has_value());
  EXPECT_EQ(pa.required[0].label_selector->match_labels.size(), 1u);
  EXPECT_EQ(pa.required[0].label_selector->match_expressions[0].op, "Exists");
  EXPECT_TRUE(pa.required[0].label_selector->match_expressions[0].values.empty());
  EXPECT_EQ(pa.required[0].namespaces, (std::vector<std::string>{"prod", "dev"}));
  EXPECT_EQ(pa.required[0].topology_key, "kubernetes.io/hostname");
  EXPECT_TRUE(pa.preferred.empty());
  ASSERT_TRUE(s.affinity->pod_anti_affinity.has_value());
  const PodAffinity& anti = *s.affinity->pod_anti_affinity;
  EXPECT_TRUE(anti.required.empty());
  ASSERT_EQ(anti.preferred.size(), 1u);
  EXPECT_EQ(anti.preferred[0].weight, 3);
  // `labelSelector: {}` is present and empty (selects everything), not absent.
  ASSERT_TRUE(anti.preferred[0].term.label_selector.has_value());
  EXPECT_TRUE(anti.preferred[0].term.label_selector->match_labels.empty());
  EXPECT_EQ(anti.preferred[0].term.topology_key, "zone");

  ASSERT_EQ(s.tolerations.size(), 3u);
  EXPECT_EQ(Str(s.tolerations[0].key), "dedicated");
  EXPECT_EQ(s.tolerations[0].op, "Equal");
  EXPECT_EQ(Str(s.tolerations[0].value), "gpu");
  EXPECT_EQ(s.tolerations[0].effect, TaintEffect::kNoSchedule);
  EXPECT_FALSE(s.tolerations[0].toleration_seconds.has_value());
  EXPECT_EQ(s.tolerations[1].key, kEmptyStr);
  EXPECT_EQ(s.tolerations[1].op, "Exists");
  EXPECT_EQ(s.tolerations[1].effect, TaintEffect::kNone);
  EXPECT_EQ(s.tolerations[2].effect, TaintEffect::kNoExecute);
  EXPECT_EQ(s.tolerations[2].toleration_seconds, 300);

  ASSERT_EQ(s.volumes.size(), 10u);
  EXPECT_EQ(s.volumes[0].kind, VolumeKind::kGCEPersistentDisk);
  EXPECT_EQ(s.volumes[0].id, "pd-1");
  EXPECT_TRUE(s.volumes[0].read_only);
  EXPECT_EQ(s.volumes[1].kind, VolumeKind::kAWSElasticBlockStore);
  EXPECT_EQ(s.volumes[1].id, "vol-1");
  EXPECT_FALSE(s.volumes[1].read_only);
  EXPECT_EQ(s.volumes[2].kind, VolumeKind::kAzureDisk);
  EXPECT_EQ(s.volumes[2].id, "az-1");
  EXPECT_EQ(s.volumes[3].kind, VolumeKind::kCinder);
  EXPECT_EQ(s.volumes[3].id, "cin-1");
  EXPECT_EQ(s.volumes[4].kind, VolumeKind::kRBD);
  EXPECT_EQ(s.volumes[4].rbd_monitors, (std::vector<std::string>{"m1", "m2"}));
  EXPECT_EQ(s.volumes[4].rbd_pool, "rbd");  // the default
  EXPECT_EQ(s.volumes[4].rbd_image, "img");
  EXPECT_EQ(s.volumes[5].kind, VolumeKind::kISCSI);
  EXPECT_EQ(s.volumes[5].iscsi_target_portal, "1.2.3.4:3260");
  EXPECT_EQ(s.volumes[5].iscsi_iqn, "iqn.x");
  EXPECT_EQ(s.volumes[5].iscsi_lun, 2);
  EXPECT_TRUE(s.volumes[5].read_only);
  EXPECT_EQ(s.volumes[6].kind, VolumeKind::kPersistentVolumeClaim);
  EXPECT_EQ(s.volumes[6].id, "claim-1");
  EXPECT_EQ(s.volumes[7].kind, VolumeKind::kCSI);
  EXPECT_EQ(s.volumes[7].id, "ebs.csi.aws.com");
  EXPECT_EQ(s.volumes[8].kind, VolumeKind::kOther);
  EXPECT_EQ(s.volumes[8].name, "v8");
  EXPECT_EQ(s.volumes[8].id, "emptyDir");  // the source's name, for drain planning
  EXPECT_EQ(s.volumes[9].kind, VolumeKind::kOther);
  EXPECT_EQ(s.volumes[9].id, "secret");
  EXPECT_EQ(s.priority, 1000);
  EXPECT_EQ(s.scheduler_name, "my-scheduler");
  EXPECT_EQ(pod.phase, "Running");
}

TEST(DecodeTest, PodJson) {
  ObjectSet set = MustDecode(kPodJson, "pod.json");
  ASSERT_EQ(set.pods.size(), 1u);
  ExpectFullPod(set.pods[0]);
}

TEST(DecodeTest, PodYamlSameAsJson) {
  // The same pod written as YAML (every plain scalar typed by the core schema).
  constexpr char kPodYaml[] = R"(
apiVersion: v1
kind: Pod
metadata:
  name: web-1
  namespace: prod
  uid: u-1
  creationTimestamp: "2020-01-02T03:04:05Z"
  deletionTimestamp: "2020-01-03T00:00:00Z"
  labels:
    app: web
    app.kubernetes.io/name: frontend
  annotations:
    a: "1"
  ownerReferences:
  - apiVersion: apps/v1
    kind: ReplicaSet
    name: web-rs
    uid: rs-1
    controller: true
    blockOwnerDeletion: true
spec:
  initContainers:
  - name: init
    image: busybox
    resources:
      requests: {cpu: 1, memory: 1Gi}
  containers:
  - name: c0
    image: nginx:1.17
    resources:
      requests:
        cpu: 100m
        memory: 128Mi
        example.com/gpu: 2
      limits:
        cpu: 0.5
    ports:
    - containerPort: 80
      hostPort: 8080
      hostIP: 10.0.0.1
      protocol: UDP
    - containerPort: 443
  - name: c1
    image: redis
  nodeName: node-a
  nodeSelector:
    disk: ssd
  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms:
        - matchExpressions:
          - {key: zone, operator: In, values: [a, b]}
          matchFields:
          - key: metadata.name
            operator: NotIn
            values: [n1]
      preferredDuringSchedulingIgnoredDuringExecution:
      - weight: 7
        preference:
          matchExpressions:
          - key: gen
            operator: Gt
            values: ["3"]
    podAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - labelSelector:
          matchLabels: {app: db}
          matchExpressions:
          - key: tier
            operator: Exists
        namespaces: [prod, dev]
        topologyKey: kubernetes.io/hostname
    podAntiAffinity:
      preferredDuringSchedulingIgnoredDuringExecution:
      - weight: 3
        podAffinityTerm:
          labelSelector: {}
          topologyKey: zone
  tolerations:
  - key: dedicated
    operator: Equal
    value: gpu
    effect: NoSchedule
  - operator: Exists
  - key: node.kubernetes.io/not-ready
    operator: Exists
    effect: NoExecute
    tolerationSeconds: 300
  volumes:
  - name: v0
    gcePersistentDisk: {pdName: pd-1, readOnly: true}
  - name: v1
    awsElasticBlockStore: {volumeID: vol-1}
  - name: v2
    azureDisk: {diskName: az-1, diskURI: x}
  - name: v3
    cinder: {volumeID: cin-1}
  - name: v4
    rbd: {monitors: [m1, m2], image: img}
  - name: v5
    iscsi: {targetPortal: "1.2.3.4:3260", iqn: iqn.x, lun: 2, readOnly: true}
  - name: v6
    persistentVolumeClaim: {claimName: claim-1}
  - name: v7
    csi: {driver: ebs.csi.aws.com}
  - name: v8
    emptyDir: {}
  - name: v9
    secret: {secretName: s}
  priority: 1000
  schedulerName: my-scheduler
status:
  phase: Running
)";
  ObjectSet set = MustDecode(kPodYaml, "pod.yaml");
  ASSERT_EQ(set.pods.size(), 1u);
  ExpectFullPod(set.pods[0]);
}

TEST(DecodeTest, PodMinimalDefaults) {
  ObjectSet set = MustDecode(R"({"kind": "Pod", "metadata": {"name": "p"}})");
  ASSERT_EQ(set.pods.size(), 1u);
  const Pod& pod = set.pods[0];
  EXPECT_EQ(Str(pod.meta.ns), "default");
  EXPECT_EQ(pod.meta.uid, "");
  EXPECT_FALSE(pod.meta.has_deletion_timestamp);
  EXPECT_TRUE(pod.meta.labels.empty());
  EXPECT_TRUE(pod.spec.containers.empty());
  EXPECT_FALSE(pod.spec.has_node_selector);
  EXPECT_FALSE(pod.spec.affinity.has_value());
  EXPECT_FALSE(pod.spec.priority.has_value());
  EXPECT_EQ(pod.spec.scheduler_name, "");
  EXPECT_EQ(pod.phase, "");
}

TEST(DecodeTest, NullMeansAbsent) {
  ObjectSet set = MustDecode(R"({"kind": "Pod", "metadata": {"name": "p", "namespace": null,
      "labels": null, "deletionTimestamp": null},
      "spec": {"nodeSelector": null, "affinity": null, "containers": [
        {"name": "c", "resources": {"requests": null, "limits": {"cpu": null}},
         "ports": null}]}})");
  ASSERT_EQ(set.pods.size(), 1u);
  const Pod& pod = set.pods[0];
  EXPECT_EQ(Str(pod.meta.ns), "default");
  EXPECT_FALSE(pod.meta.has_deletion_timestamp);
  EXPECT_FALSE(pod.spec.has_node_selector);
  EXPECT_FALSE(pod.spec.affinity.has_value());
  ASSERT_EQ(pod.spec.containers.size(), 1u);
  EXPECT_TRUE(pod.spec.containers[0].limits.empty());
}

TEST(DecodeTest, RepeatedKeysLastWins) {
  ObjectSet set = MustDecode(R"({"kind": "Pod", "metadata": {"name": "p",
      "annotations": {"a": "1", "b": "x", "a": "2"}, "labels": {"k": "1", "k": "2"}},
      "spec": {"containers": [{"name": "x"}],
               "containers": [{"name": "y", "resources": {"requests": {"cpu": "1", "cpu": "2"}}},
                              {"name": "z"}]}})");
  const Pod& pod = set.pods.at(0);
  ASSERT_EQ(pod.meta.annotations.size(), 2u);
  EXPECT_EQ(*pod.meta.Annotation("a"), "2");
  EXPECT_EQ(Label(pod.meta.labels, "k"), "2");
  ASSERT_EQ(pod.spec.containers.size(), 2u);
  EXPECT_EQ(pod.spec.containers[0].name, "y");
  ASSERT_EQ(pod.spec.containers[0].requests.size(), 1u);
  EXPECT_EQ(Milli(pod.spec.containers[0].requests, "cpu"), 2000);
}

// The same rule beyond the short-list path: 100 keys, each written twice
// (in reverse order the second time), keep their first position and last value.
TEST(DecodeTest, RepeatedKeysLastWinsInLongObjects) {
  std::string annotations, requests;
  for (int pass = 0; pass < 2; ++pass) {
    for (int j = 0; j < 100; ++j) {
      int i = pass == 0 ? j : 99 - j;
      if (pass > 0 || j > 0) {
        annotations += ',';
        requests += ',';
      }
      annotations += fmt::format(R"("a{}":"{}")", i, pass);
      requests += fmt::format(R"("example.com/r{}":"{}")", i, pass + 1);
    }
  }
  ObjectSet set = MustDecode(R"({"kind": "Pod", "metadata": {"name": "p", "annotations": {)" +
                             annotations + R"(}}, "spec": {"containers": [{"name": "c",
      "resources": {"requests": {)" +
                             requests + "}}}]}}");
  const Pod& pod = set.pods.at(0);
  ASSERT_EQ(pod.meta.annotations.size(), 100u);
  for (int i = 0; i < 100; ++i) {
    EXPECT_EQ(pod.meta.annotations[i].first, fmt::format("a{}", i));
    EXPECT_EQ(pod.meta.annotations[i].second, "1");
  }
  const ResourceList& r = pod.spec.containers.at(0).requests;
  ASSERT_EQ(r.size(), 100u);
  EXPECT_EQ(Str(r[0].name), "example.com/r0");
  EXPECT_EQ(Str(r[99].name), "example.com/r99");
  for (const ResourceQuantity& q : r) EXPECT_EQ(q.value, 2);
}

TEST(DecodeTest, EmptyAffinityPartsArePresent) {
  ObjectSet set = MustDecode(R"({"kind": "Pod", "metadata": {"name": "p"}, "spec": {
      "affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {}}}}})");
  const Pod& pod = set.pods.at(0);
  ASSERT_TRUE(pod.spec.affinity.has_value());
  ASSERT_TRUE(pod.spec.affinity->node_affinity.has_value());
  // Present but without terms: matches no node, which differs from absent.
  ASSERT_TRUE(pod.spec.affinity->node_affinity->required.has_value());
  EXPECT_TRUE(pod.spec.affinity->node_affinity->required->terms.empty());
  EXPECT_FALSE(pod.spec.affinity->pod_affinity.has_value());
}

// ---------------------------------------------------------------- quantities

TEST(DecodeTest, NumbersAsQuantities) {
  ObjectSet set = MustDecode(R"({"kind": "Pod", "metadata": {"name": "p"}, "spec": {"containers": [
      {"name": "c", "resources": {"requests": {"cpu": 2, "memory": 1e9, "a": 0.1, "b": 100.5,
        "c": 1.5e-3, "d": 0, "e": 9007199254740993, "f": 0.0001},
        "limits": {"cpu": "100.5m", "memory": "5e-1"}}}]}})",
                             "q.json");
  const Container& c = set.pods.at(0).spec.containers.at(0);
  EXPECT_EQ(Milli(c.requests, "cpu"), 2000);
  EXPECT_EQ(Value(c.requests, "memory"), 1000000000);
  EXPECT_EQ(Milli(c.requests, "a"), 100);  // not 101: 0.1 must not become 0.1000000000000000055
  EXPECT_EQ(Milli(c.requests, "b"), 100500);
  EXPECT_EQ(Milli(c.requests, "c"), 2);  // 1.5m rounds up
  EXPECT_EQ(Milli(c.requests, "d"), 0);
  EXPECT_EQ(Value(c.requests, "e"), 9007199254740993);  // integers stay exact
  EXPECT_EQ(Milli(c.requests, "f"), 1);
  EXPECT_EQ(Milli(c.limits, "cpu"), 101);
  EXPECT_EQ(Value(c.limits, "memory"), 1);

  ObjectSet yaml = MustDecode(R"(kind: Pod
metadata: {name: p}
spec:
  containers:
  - name: c
    resources:
      requests: {cpu: 0.1, memory: 1e9, x: 1.5, y: "2", z: 0x10}
)");
  const Container& y = yaml.pods.at(0).spec.containers.at(0);
  EXPECT_EQ(Milli(y.requests, "cpu"), 100);
  EXPECT_EQ(Value(y.requests, "memory"), 1000000000);
  EXPECT_EQ(Value(y.requests, "x"), 2);
  EXPECT_EQ(Value(y.requests, "y"), 2);
  EXPECT_EQ(Value(y.requests, "z"), 16);
}

// ---------------------------------------------------------------- other kinds

TEST(DecodeTest, NodeJsonAndYaml) {
  constexpr char kJson[] = R"({"apiVersion": "v1", "kind": "Node",
    "metadata": {"name": "n1", "namespace": "ignored", "uid": "nu",
      "labels": {"kubernetes.io/hostname": "n1", "zone": "a"},
      "annotations": {"scheduler.alpha.kubernetes.io/preferAvoidPods": "{}"}},
    "spec": {"unschedulable": true, "podCIDR": "10.0.0.0/24",
      "taints": [{"key": "k", "value": "v", "effect": "NoSchedule"},
                 {"key": "k2", "effect": "PreferNoSchedule", "timeAdded": null},
                 {"key": "k3", "effect": "NoExecute"}, {"key": "k4", "effect": "Weird"}]},
    "status": {"capacity": {"cpu": "4", "memory": "32Gi", "pods": "110"},
      "allocatable": {"cpu": "3900m", "memory": "31Gi", "pods": 110,
                      "hugepages-2Mi": "0", "attachable-volumes-aws-ebs": "25"},
      "conditions": [{"type": "Ready", "status": "True", "reason": "KubeletReady"},
                     {"type": "MemoryPressure", "status": "False"}],
      "images": [{"names": ["nginx:1.17", "docker.io/library/nginx@sha256:abc"],
                  "sizeBytes": 109000000}, {"names": ["redis"], "sizeBytes": 5}],
      "nodeInfo": {"kubeletVersion": "v1.15.5"}}})";
  constexpr char kYaml[] = R"(apiVersion: v1
kind: Node
metadata:
  name: n1
  namespace: ignored
  uid: nu
  labels: {kubernetes.io/hostname: n1, zone: a}
  annotations:
    scheduler.alpha.kubernetes.io/preferAvoidPods: '{}'
spec:
  unschedulable: true
  podCIDR: 10.0.0.0/24
  taints:
  - {key: k, value: v, effect: NoSchedule}
  - {key: k2, effect: PreferNoSchedule, timeAdded: null}
  - {key: k3, effect: NoExecute}
  - {key: k4, effect: Weird}
status:
  capacity: {cpu: "4", memory: 32Gi, pods: "110"}
  allocatable:
    cpu: 3900m
    memory: 31Gi
    pods: 110
    hugepages-2Mi: "0"
    attachable-volumes-aws-ebs: 25
  conditions:
  - type: Ready
    status: "True"
    reason: KubeletReady
  - {type: MemoryPressure, status: "False"}
  images:
  - names: [nginx:1.17, docker.io/library/nginx@sha256:abc]
    sizeBytes: 109000000
  - names: [redis]
    sizeBytes: 5
  nodeInfo: {kubeletVersion: v1.15.5}
)";
  for (const char* text : {kJson, kYaml}) {
    ObjectSet set = MustDecode(text);
    ASSERT_EQ(set.nodes.size(), 1u);
    const Node& n = set.nodes[0];
    EXPECT_EQ(n.meta.name, "n1");
    EXPECT_EQ(n.meta.ns, kEmptyStr);  // cluster-scoped
    EXPECT_EQ(n.meta.uid, "nu");
    EXPECT_EQ(Label(n.meta.labels, "zone"), "a");
    ASSERT_NE(n.meta.Annotation("scheduler.alpha.kubernetes.io/preferAvoidPods"), nullptr);
    EXPECT_TRUE(n.unschedulable);
    ASSERT_EQ(n.taints.size(), 4u);
    EXPECT_EQ(Str(n.taints[0].key), "k");
    EXPECT_EQ(Str(n.taints[0].value), "v");
    EXPECT_EQ(n.taints[0].effect, TaintEffect::kNoSchedule);
    EXPECT_EQ(n.taints[1].value, kEmptyStr);
    EXPECT_EQ(n.taints[1].effect, TaintEffect::kPreferNoSchedule);
    EXPECT_EQ(n.taints[2].effect, TaintEffect::kNoExecute);
    EXPECT_EQ(n.taints[3].effect, TaintEffect::kOther);
    EXPECT_EQ(n.taints[3].effect_str, "Weird");
    EXPECT_EQ(Milli(n.capacity, "cpu"), 4000);
    EXPECT_EQ(Milli(n.allocatable, "cpu"), 3900);
    EXPECT_EQ(Value(n.allocatable, "memory"), 31LL << 30);
    EXPECT_EQ(Value(n.allocatable, "pods"), 110);
    EXPECT_EQ(Value(n.allocatable, "hugepages-2Mi"), 0);
    EXPECT_EQ(Value(n.allocatable, "attachable-volumes-aws-ebs"), 25);
    ASSERT_EQ(n.conditions.size(), 2u);
    EXPECT_EQ(n.conditions[0].type, "Ready");
    EXPECT_EQ(n.conditions[0].status, "True");
    ASSERT_EQ(n.images.size(), 2u);
    EXPECT_EQ(n.images[0].names.size(), 2u);
    EXPECT_EQ(n.images[0].size_bytes, 109000000);
    EXPECT_EQ(n.images[1].names[0], "redis");
  }
}

TEST(DecodeTest, WorkloadsAndStorage) {
  constexpr char kYaml[] = R"(
apiVersion: v1
kind: Service
metadata: {name: svc, namespace: prod}
spec:
  selector: {app: web}
  ports: [{port: 80}]
---
apiVersion: v1
kind: Service
metadata: {name: headless}
spec: {clusterIP: None}
---
apiVersion: v1
kind: ReplicationController
metadata: {name: rc}
spec:
  replicas: 3
  selector: {app: old}
---
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: rs, namespace: prod}
spec:
  selector:
    matchLabels: {app: web}
    matchExpressions: [{key: tier, operator: NotIn, values: [db]}]
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: ss}
spec:
  selector: {matchLabels: {app: db}}
---
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: rs-noselector}
spec: {}
---
apiVersion: v1
kind: PersistentVolume
metadata:
  name: pv-1
  labels: {failure-domain.beta.kubernetes.io/zone: us-east-1a__us-east-1b}
spec:
  capacity: {storage: 10Gi}
  accessModes: [ReadWriteOnce, ReadOnlyMany]
  storageClassName: fast
  awsElasticBlockStore: {volumeID: vol-123, fsType: ext4}
  claimRef: {namespace: prod, name: claim-1, uid: cu-1, kind: PersistentVolumeClaim}
  nodeAffinity:
    required:
      nodeSelectorTerms:
      - matchExpressions: [{key: zone, operator: In, values: [a]}]
status: {phase: Bound}
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv-csi}
spec:
  capacity: {storage: 1Gi}
  csi: {driver: ebs.csi.aws.com, volumeHandle: h-1}
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv-gce}
spec: {gcePersistentDisk: {pdName: pd-9}}
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv-rbd}
spec: {rbd: {monitors: [m], image: i}}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: claim-1
  namespace: prod
  annotations: {pv.kubernetes.io/bind-completed: "yes"}
spec:
  volumeName: pv-1
  storageClassName: ""
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 5Gi}}
  selector: {matchLabels: {tier: gold}}
status: {phase: Bound}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: claim-2}
spec:
  resources: {requests: {storage: 1}}
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: fast}
provisioner: kubernetes.io/aws-ebs
volumeBindingMode: WaitForFirstConsumer
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: slow}
provisioner: kubernetes.io/no-provisioner
)";
  ObjectSet set = MustDecode(kYaml);
  ASSERT_EQ(set.services.size(), 2u);
  EXPECT_EQ(Str(set.services[0].meta.ns), "prod");
  EXPECT_EQ(Label(set.services[0].selector, "app"), "web");
  EXPECT_TRUE(set.services[1].selector.empty());
  EXPECT_EQ(Str(set.services[1].meta.ns), "default");

  ASSERT_EQ(set.replication_controllers.size(), 1u);
  EXPECT_EQ(Label(set.replication_controllers[0].selector, "app"), "old");

  ASSERT_EQ(set.replica_sets.size(), 2u);
  ASSERT_TRUE(set.replica_sets[0].selector.has_value());
  EXPECT_EQ(set.replica_sets[0].selector->match_labels,
            (std::vector<std::pair<std::string, std::string>>{{"app", "web"}}));
  EXPECT_EQ(set.replica_sets[0].selector->match_expressions.at(0).op, "NotIn");
  EXPECT_FALSE(set.replica_sets[1].selector.has_value());
  ASSERT_EQ(set.stateful_sets.size(), 1u);
  EXPECT_EQ(set.stateful_sets[0].meta.name, "ss");
  ASSERT_TRUE(set.stateful_sets[0].selector.has_value());

  ASSERT_EQ(set.persistent_volumes.size(), 4u);
  const PersistentVolume& pv = set.persistent_volumes[0];
  EXPECT_EQ(pv.meta.ns, kEmptyStr);
  EXPECT_EQ(Label(pv.meta.labels, "failure-domain.beta.kubernetes.io/zone"),
            "us-east-1a__us-east-1b");
  ASSERT_TRUE(pv.capacity.has_value());
  EXPECT_EQ(pv.capacity->Value(), 10LL << 30);
  EXPECT_EQ(pv.access_modes, (std::vector<std::string>{"ReadWriteOnce", "ReadOnlyMany"}));
  EXPECT_EQ(pv.storage_class_name, "fast");
  EXPECT_EQ(pv.kind, VolumeKind::kAWSElasticBlockStore);
  EXPECT_EQ(pv.volume_id, "vol-123");
  ASSERT_TRUE(pv.claim_ref.has_value());
  EXPECT_EQ(pv.claim_ref->first, "prod");
  EXPECT_EQ(pv.claim_ref->second, "claim-1");
  EXPECT_EQ(pv.claim_ref_uid, "cu-1");
  ASSERT_TRUE(pv.node_affinity.has_value());
  EXPECT_EQ(pv.node_affinity->terms.at(0).match_expressions.at(0).key, "zone");
  EXPECT_EQ(pv.phase, "Bound");
  EXPECT_EQ(set.persistent_volumes[1].kind, VolumeKind::kCSI);
  EXPECT_EQ(set.persistent_volumes[1].csi_driver, "ebs.csi.aws.com");
  EXPECT_EQ(set.persistent_volumes[1].volume_id, "h-1");
  EXPECT_FALSE(set.persistent_volumes[1].claim_ref.has_value());
  EXPECT_EQ(set.persistent_volumes[2].kind, VolumeKind::kGCEPersistentDisk);
  EXPECT_EQ(set.persistent_volumes[2].volume_id, "pd-9");
  EXPECT_FALSE(set.persistent_volumes[2].capacity.has_value());
  EXPECT_EQ(set.persistent_volumes[3].kind, VolumeKind::kOther);

  ASSERT_EQ(set.persistent_volume_claims.size(), 2u);
  const PersistentVolumeClaim& pvc = set.persistent_volume_claims[0];
  EXPECT_EQ(Str(pvc.meta.ns), "prod");
  EXPECT_EQ(pvc.volume_name, "pv-1");
  ASSERT_TRUE(pvc.storage_class_name.has_value());  // "" is not absent
  EXPECT_EQ(*pvc.storage_class_name, "");
  EXPECT_EQ(pvc.access_modes, (std::vector<std::string>{"ReadWriteOnce"}));
  ASSERT_TRUE(pvc.request.has_value());
  EXPECT_EQ(pvc.request->Value(), 5LL << 30);
  ASSERT_TRUE(pvc.selector.has_value());
  EXPECT_EQ(pvc.phase, "Bound");
  ASSERT_NE(pvc.meta.Annotation("pv.kubernetes.io/bind-completed"), nullptr);
  EXPECT_FALSE(set.persistent_volume_claims[1].storage_class_name.has_value());
  EXPECT_EQ(set.persistent_volume_claims[1].request->Value(), 1);

  ASSERT_EQ(set.storage_classes.size(), 2u);
  EXPECT_EQ(set.storage_classes[0].meta.ns, kEmptyStr);
  EXPECT_EQ(set.storage_classes[0].provisioner, "kubernetes.io/aws-ebs");
  EXPECT_EQ(set.storage_classes[0].volume_binding_mode, "WaitForFirstConsumer");
  EXPECT_EQ(set.storage_classes[1].volume_binding_mode, "Immediate");
}

// ---------------------------------------------------------------- containers of objects

TEST(DecodeTest, ListsArraysAndStreams) {
  // A List holding a typed list (items without kind), a nested List and a
  // kind the scheduler does not read.
  ObjectSet set = MustDecode(R"({"apiVersion": "v1", "kind": "List", "items": [
      {"kind": "PodList", "items": [{"metadata": {"name": "a"}}, {"metadata": {"name": "b"}}]},
      {"kind": "List", "items": [{"kind": "Node", "metadata": {"name": "n"}},
                                 {"kind": "List", "items": []}, {"kind": "List"}]},
      {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d"}},
      {"kind": "ConfigMap", "metadata": {"name": "cm"}, "data": {"x": "y"}}]})");
  EXPECT_EQ(set.pods.size(), 2u);
  EXPECT_EQ(set.nodes.size(), 1u);
  EXPECT_EQ(set.skipped, 2u);

  // A JSON array of objects.
  set = MustDecode(R"([{"kind": "Pod", "metadata": {"name": "a"}},
                       {"kind": "Node", "metadata": {"name": "n"}}])");
  EXPECT_EQ(set.pods.size(), 1u);
  EXPECT_EQ(set.nodes.size(), 1u);

  // Concatenated JSON documents, as `kubectl get pod a -o json; kubectl get pod b -o json`.
  set = MustDecode(
      "{\"kind\": \"Pod\", \"metadata\": {\"name\": \"a\"}}\n"
      "{\"kind\": \"Pod\", \"metadata\": {\"name\": \"b\"}}\n"
      "[{\"kind\": \"Pod\", \"metadata\": {\"name\": \"c\"}}]\n");
  ASSERT_EQ(set.pods.size(), 3u);
  EXPECT_EQ(set.pods[2].meta.name, "c");

  // Multi-document YAML, with empty documents and a List among them.
  set = MustDecode(R"(---
kind: Pod
metadata: {name: a}
---
---
# only a comment
---
kind: List
items:
- kind: Pod
  metadata: {name: b}
- kind: StorageClass
  metadata: {name: sc}
...
---
kind: Node
metadata: {name: n}
)");
  EXPECT_EQ(set.pods.size(), 2u);
  EXPECT_EQ(set.nodes.size(), 1u);
  EXPECT_EQ(set.storage_classes.size(), 1u);

  // Decoding appends.
  Status s = DecodeObjects(R"({"kind": "Pod", "metadata": {"name": "z"}})", "x.json", &set);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(set.pods.size(), 3u);

  // Empty input holds no object.
  set = MustDecode("");
  EXPECT_TRUE(set.pods.empty());
  set = MustDecode("# nothing\n");
  EXPECT_TRUE(set.pods.empty());
}

// What `kubectl get nodes,pods,svc,rs,pv,pvc,sc -A -o yaml` prints for a small
// cluster, trimmed only in the number of objects.
constexpr char kKubectlList[] = R"(apiVersion: v1
items:
- apiVersion: v1
  kind: Node
  metadata:
    annotations:
      kubeadm.alpha.kubernetes.io/cri-socket: /var/run/dockershim.sock
      node.alpha.kubernetes.io/ttl: "0"
      volumes.kubernetes.io/controller-managed-attach-detach: "true"
    creationTimestamp: "2019-10-15T08:12:41Z"
    labels:
      beta.kubernetes.io/arch: amd64
      beta.kubernetes.io/os: linux
      kubernetes.io/arch: amd64
      kubernetes.io/hostname: kind-control-plane
      kubernetes.io/os: linux
      node-role.kubernetes.io/master: ""
    name: kind-control-plane
    resourceVersion: "1520"
    selfLink: /api/v1/nodes/kind-control-plane
    uid: 0b5a9c8e-3c5d-4b7e-9d0a-111111111111
  spec:
    podCIDR: 10.244.0.0/24
    taints:
    - effect: NoSchedule
      key: node-role.kubernetes.io/master
  status:
    addresses:
    - address: 172.17.0.2
      type: InternalIP
    - address: kind-control-plane
      type: Hostname
    allocatable:
      cpu: "8"
      ephemeral-storage: 263174212Ki
      hugepages-1Gi: "0"
      hugepages-2Mi: "0"
      memory: 32813072Ki
      pods: "110"
    capacity:
      cpu: "8"
      ephemeral-storage: 263174212Ki
      hugepages-1Gi: "0"
      hugepages-2Mi: "0"
      memory: 32915472Ki
      pods: "110"
    conditions:
    - lastHeartbeatTime: "2019-10-15T08:26:42Z"
      lastTransitionTime: "2019-10-15T08:12:37Z"
      message: kubelet has sufficient memory available
      reason: KubeletHasSufficientMemory
      status: "False"
      type: MemoryPressure
    - lastHeartbeatTime: "2019-10-15T08:26:42Z"
      lastTransitionTime: "2019-10-15T08:13:27Z"
      message: kubelet is posting ready status
      reason: KubeletReady
      status: "True"
      type: Ready
    daemonEndpoints:
      kubeletEndpoint:
        Port: 10250
    images:
    - names:
      - k8s.gcr.io/etcd@sha256:12c2c5e5731c3bcd56e6f1c05c0f9198b6f06793fa7fca2fb43aab9622dc4afa
      - k8s.gcr.io/etcd:3.3.10
      sizeBytes: 258352566
    - names:
      - k8s.gcr.io/pause:3.1
      sizeBytes: 742472
    nodeInfo:
      architecture: amd64
      bootID: 5e3b1a2c-0000-0000-0000-000000000000
      containerRuntimeVersion: containerd://1.2.6
      kernelVersion: 4.15.0-1044-gcp
      kubeProxyVersion: v1.15.3
      kubeletVersion: v1.15.3
      operatingSystem: linux
      osImage: Ubuntu 19.04
- apiVersion: v1
  kind: Pod
  metadata:
    creationTimestamp: "2019-10-15T08:13:10Z"
    generateName: coredns-5c98db65d4-
    labels:
      k8s-app: kube-dns
      pod-template-hash: 5c98db65d4
    name: coredns-5c98db65d4-9xkqz
    namespace: kube-system
    ownerReferences:
    - apiVersion: apps/v1
      blockOwnerDeletion: true
      controller: true
      kind: ReplicaSet
      name: coredns-5c98db65d4
      uid: 7b3c1d6a-2222-2222-2222-222222222222
    resourceVersion: "620"
    selfLink: /api/v1/namespaces/kube-system/pods/coredns-5c98db65d4-9xkqz
    uid: 9c1f2e3d-3333-3333-3333-333333333333
  spec:
    containers:
    - args:
      - -conf
      - /etc/coredns/Corefile
      image: k8s.gcr.io/coredns:1.3.1
      imagePullPolicy: IfNotPresent
      livenessProbe:
        failureThreshold: 5
        httpGet:
          path: /health
          port: 8080
          scheme: HTTP
        initialDelaySeconds: 60
        periodSeconds: 10
        successThreshold: 1
        timeoutSeconds: 5
      name: coredns
      ports:
      - containerPort: 53
        name: dns
        protocol: UDP
      - containerPort: 53
        name: dns-tcp
        protocol: TCP
      - containerPort: 9153
        name: metrics
        protocol: TCP
      resources:
        limits:
          memory: 170Mi
        requests:
          cpu: 100m
          memory: 70Mi
      securityContext:
        allowPrivilegeEscalation: false
        capabilities:
          add:
          - NET_BIND_SERVICE
          drop:
          - all
        readOnlyRootFilesystem: true
      terminationMessagePath: /dev/termination-log
      terminationMessagePolicy: File
      volumeMounts:
      - mountPath: /etc/coredns
        name: config-volume
        readOnly: true
    dnsPolicy: Default
    enableServiceLinks: true
    nodeName: kind-control-plane
    nodeSelector:
      beta.kubernetes.io/os: linux
    priority: 2000000000
    priorityClassName: system-cluster-critical
    restartPolicy: Always
    schedulerName: default-scheduler
    securityContext: {}
    serviceAccount: coredns
    serviceAccountName: coredns
    terminationGracePeriodSeconds: 30
    tolerations:
    - key: CriticalAddonsOnly
      operator: Exists
    - effect: NoSchedule
      key: node-role.kubernetes.io/master
    - effect: NoExecute
      key: node.kubernetes.io/not-ready
      operator: Exists
      tolerationSeconds: 300
    volumes:
    - configMap:
        defaultMode: 420
        items:
        - key: Corefile
          path: Corefile
        name: coredns
      name: config-volume
  status:
    conditions:
    - lastProbeTime: null
      lastTransitionTime: "2019-10-15T08:13:27Z"
      status: "True"
      type: Initialized
    containerStatuses:
    - containerID: containerd://abc
      image: k8s.gcr.io/coredns:1.3.1
      imageID: sha256:eb516548c180f8a6e0235034ccee2428027896af16a509786da13022fe95fe8c
      lastState: {}
      name: coredns
      ready: true
      restartCount: 0
      state:
        running:
          startedAt: "2019-10-15T08:13:30Z"
    hostIP: 172.17.0.2
    phase: Running
    podIP: 10.244.0.2
    qosClass: Burstable
    startTime: "2019-10-15T08:13:27Z"
- apiVersion: v1
  kind: Service
  metadata:
    annotations:
      prometheus.io/port: "9153"
      prometheus.io/scrape: "true"
    labels:
      k8s-app: kube-dns
      kubernetes.io/name: KubeDNS
    name: kube-dns
    namespace: kube-system
  spec:
    clusterIP: 10.96.0.10
    ports:
    - name: dns
      port: 53
      protocol: UDP
      targetPort: 53
    selector:
      k8s-app: kube-dns
    sessionAffinity: None
    type: ClusterIP
  status:
    loadBalancer: {}
- apiVersion: apps/v1
  kind: ReplicaSet
  metadata:
    annotations:
      deployment.kubernetes.io/desired-replicas: "2"
    labels:
      k8s-app: kube-dns
      pod-template-hash: 5c98db65d4
    name: coredns-5c98db65d4
    namespace: kube-system
    uid: 7b3c1d6a-2222-2222-2222-222222222222
  spec:
    replicas: 2
    selector:
      matchLabels:
        k8s-app: kube-dns
        pod-template-hash: 5c98db65d4
    template:
      metadata:
        labels:
          k8s-app: kube-dns
      spec:
        containers:
        - image: k8s.gcr.io/coredns:1.3.1
          name: coredns
  status:
    replicas: 2
- apiVersion: v1
  kind: PersistentVolumeClaim
  metadata:
    annotations:
      pv.kubernetes.io/bind-completed: "yes"
      pv.kubernetes.io/bound-by-controller: "yes"
      volume.beta.kubernetes.io/storage-provisioner: rancher.io/local-path
    finalizers:
    - kubernetes.io/pvc-protection
    name: data-0
    namespace: default
  spec:
    accessModes:
    - ReadWriteOnce
    resources:
      requests:
        storage: 1Gi
    storageClassName: standard
    volumeMode: Filesystem
    volumeName: pvc-1b2c3d4e
  status:
    accessModes:
    - ReadWriteOnce
    capacity:
      storage: 1Gi
    phase: Bound
- apiVersion: storage.k8s.io/v1
  kind: StorageClass
  metadata:
    annotations:
      storageclass.kubernetes.io/is-default-class: "true"
    name: standard
  provisioner: rancher.io/local-path
  reclaimPolicy: Delete
  volumeBindingMode: WaitForFirstConsumer
kind: List
metadata:
  resourceVersion: ""
  selfLink: ""
)";

TEST(DecodeTest, KubectlStyleList) {
  ObjectSet set = MustDecode(kKubectlList, "cluster.yaml");
  ASSERT_EQ(set.nodes.size(), 1u);
  ASSERT_EQ(set.pods.size(), 1u);
  ASSERT_EQ(set.services.size(), 1u);
  ASSERT_EQ(set.replica_sets.size(), 1u);
  ASSERT_EQ(set.persistent_volume_claims.size(), 1u);
  ASSERT_EQ(set.storage_classes.size(), 1u);
  EXPECT_EQ(set.skipped, 0u);

  const Node& n = set.nodes[0];
  EXPECT_EQ(Label(n.meta.labels, "node-role.kubernetes.io/master"), "");
  EXPECT_EQ(Value(n.allocatable, "memory"), 32813072LL * 1024);
  EXPECT_EQ(Value(n.allocatable, "ephemeral-storage"), 263174212LL * 1024);
  EXPECT_EQ(n.taints.at(0).effect, TaintEffect::kNoSchedule);
  EXPECT_EQ(n.images.at(1).size_bytes, 742472);

  const Pod& p = set.pods[0];
  EXPECT_EQ(p.Key(), "kube-system/coredns-5c98db65d4-9xkqz");
  EXPECT_EQ(p.spec.priority, 2000000000);
  EXPECT_EQ(Milli(p.spec.containers.at(0).requests, "cpu"), 100);
  EXPECT_EQ(Value(p.spec.containers.at(0).limits, "memory"), 170LL << 20);
  EXPECT_EQ(p.spec.containers.at(0).ports.size(), 3u);
  EXPECT_EQ(p.spec.volumes.at(0).kind, VolumeKind::kOther);
  EXPECT_EQ(p.spec.tolerations.size(), 3u);
  EXPECT_EQ(p.phase, "Running");
  EXPECT_EQ(Label(set.services[0].selector, "k8s-app"), "kube-dns");
  EXPECT_EQ(set.replica_sets[0].meta.uid, p.meta.owner_references.at(0).uid);
  EXPECT_EQ(set.persistent_volume_claims[0].storage_class_name, "standard");

  // The same objects as JSON decode identically.
  Result<std::string> json = YamlToJson(kKubectlList, "cluster.yaml");
  ASSERT_TRUE(json.ok()) << json.error().message;
  ObjectSet from_json = MustDecode(*json, "cluster.json");
  ASSERT_EQ(from_json.pods.size(), 1u);
  EXPECT_EQ(from_json.pods[0].meta.labels, p.meta.labels);
  EXPECT_EQ(from_json.nodes.at(0).allocatable.size(), n.allocatable.size());
}

TEST(DecodeTest, FileAndStdinPaths) {
  // Per-process names: other test processes may run at the same time.
  const std::string tag = std::to_string(getpid());
  std::string path = ::testing::TempDir() + "/ksched_decode_test-" + tag + ".yaml";
  {
    std::ofstream f(path);
    f << kKubectlList;
  }
  ObjectSet set;
  Status s = DecodeFile(path, &set);
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(set.pods.size(), 1u);

  // A JSON file large enough to be mapped rather than read.
  std::string big_path = ::testing::TempDir() + "/ksched_decode_test_big-" + tag + ".json";
  {
    std::ofstream f(big_path);
    f << R"({"kind": "List", "items": [)";
    for (int i = 0; i < 20000; ++i) {
      f << (i ? "," : "") << R"({"kind": "Pod", "metadata": {"name": "p)" << i
        << R"(", "labels": {"app": "x"}}, "spec": {"containers": [{"name": "c", "resources": )"
        << R"({"requests": {"cpu": "100m"}}}]}})";
    }
    f << "]}";
  }
  ObjectSet big;
  s = DecodeFile(big_path, &big);
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(big.pods.size(), 20000u);
  EXPECT_EQ(big.pods.back().meta.name, "p19999");

  std::remove(path.c_str());
  std::remove(big_path.c_str());

  ObjectSet none;
  s = DecodeFile(::testing::TempDir() + "/does-not-exist.yaml", &none);
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(s.error().message, HasSubstr("does-not-exist.yaml"));
}

// ---------------------------------------------------------------- errors

// As the API server, the decoder accepts preferred-term weights of 1-100 only.
TEST(DecodeErrorTest, AffinityWeightsOutsideOneToHundred) {
  EXPECT_THAT(DecodeError(R"(kind: Pod
metadata: {name: p}
spec:
  affinity:
    nodeAffinity:
      preferredDuringSchedulingIgnoredDuringExecution:
      - weight: 0
        preference: {matchExpressions: [{key: a, operator: Exists}]}
)"),
              HasSubstr("Pod default/p: spec.affinity.nodeAffinity."
                        "preferredDuringSchedulingIgnoredDuringExecution[0].weight: must be in "
                        "the range 1-100 (got 0)"));
  EXPECT_THAT(DecodeError(R"(kind: Pod
metadata: {name: p}
spec:
  affinity:
    podAntiAffinity:
      preferredDuringSchedulingIgnoredDuringExecution:
      - weight: 100
        podAffinityTerm: {topologyKey: zone}
      - weight: 2147483647
        podAffinityTerm: {topologyKey: zone}
)"),
              HasSubstr("spec.affinity.podAntiAffinity."
                        "preferredDuringSchedulingIgnoredDuringExecution[1].weight: must be in "
                        "the range 1-100 (got 2147483647)"));
}

TEST(DecodeErrorTest, WrongTypesNameFileObjectAndField) {
  EXPECT_THAT(DecodeError(R"(kind: Pod
metadata:
  name: web-1
  labels: [a, b]
)"),
              AllOf(HasSubstr("bad.yaml: "), HasSubstr("Pod default/web-1: "),
                    HasSubstr("metadata.labels: expected an object, got an array")));

  EXPECT_THAT(DecodeError(R"(kind: Pod
metadata:
  name: web-1
  namespace: prod
  labels: {version: 1.0}
)"),
              HasSubstr("Pod prod/web-1: metadata.labels.version: expected a string, got a "
                        "number (1.0)"));

  EXPECT_THAT(DecodeError(R"({"kind": "Pod", "metadata": {"name": "web-1",
      "labels": {"app.kubernetes.io/name": 5}}})",
                          "x.json"),
              HasSubstr("x.json: Pod default/web-1: metadata.labels[app.kubernetes.io/name]: "
                        "expected a string, got an integer (5)"));

  EXPECT_THAT(DecodeError(R"(kind: Pod
metadata: {name: web-1}
spec:
  containers:
  - name: ok
  - just-a-string
)"),
              HasSubstr("Pod default/web-1: spec.containers[1]: expected an object, got a "
                        "string (\"just-a-string\")"));

  EXPECT_THAT(DecodeError(R"(kind: Pod
metadata: {name: web-1}
spec:
  containers:
  - name: c
    resources:
      requests:
        cpu: lots
)",
                          "cluster.yaml"),
              AllOf(HasSubstr("cluster.yaml: Pod default/web-1: "
                              "spec.containers[0].resources.requests.cpu: "),
                    HasSubstr("quantities must match"), HasSubstr("\"lots\"")));

  EXPECT_THAT(DecodeError(R"(kind: Pod
metadata: {name: web-1}
spec:
  containers:
  - name: c
    resources:
      limits:
        example.com/gpu: [1]
)"),
              HasSubstr("spec.containers[0].resources.limits[example.com/gpu]: expected a "
                        "quantity"));

  EXPECT_THAT(DecodeError(R"(kind: Pod
metadata: {name: web-1}
spec:
  containers:
  - name: c
    ports:
    - containerPort: 80
      hostPort: "8080"
)"),
              HasSubstr("spec.containers[0].ports[0].hostPort: expected an integer, got a "
                        "string (\"8080\")"));

  EXPECT_THAT(DecodeError(R"({"kind": "Pod", "metadata": {"name": "w"}, "spec": {"containers":
      [{"name": "c", "ports": [{"hostPort": 80.5}]}]}})"),
              HasSubstr("spec.containers[0].ports[0].hostPort: expected an integer, got a "
                        "number (80.5)"));

  EXPECT_THAT(DecodeError(R"({"kind": "Pod", "metadata": {"name": "w"}, "spec": {"containers":
      [{"name": "c", "ports": [{"hostPort": 4294967376}]}]}})"),
              HasSubstr("hostPort: integer out of range"));

  EXPECT_THAT(DecodeError(R"({"kind": "Node", "metadata": {"name": "n"},
      "spec": {"unschedulable": "yes"}})"),
              HasSubstr("Node n: spec.unschedulable: expected a boolean, got a string"));

  EXPECT_THAT(DecodeError(R"({"kind": "Pod", "metadata": {"name": "w"},
      "spec": {"tolerations": [{"key": "k", "tolerationSeconds": "300"}]}})"),
              HasSubstr("spec.tolerations[0].tolerationSeconds: expected an integer"));

  EXPECT_THAT(DecodeError(R"({"kind": "Pod", "metadata": {"name": "w"},
      "spec": {"affinity": {"podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution":
        [{"weight": 1, "podAffinityTerm": {"labelSelector": {"matchExpressions":
          [{"key": "a", "operator": "In", "values": "x"}]}}}]}}}})"),
              HasSubstr("spec.affinity.podAntiAffinity."
                        "preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm."
                        "labelSelector.matchExpressions[0].values: expected an array"));

  EXPECT_THAT(DecodeError(R"({"kind": "PersistentVolumeClaim", "metadata": {"name": "c"},
      "spec": {"resources": {"requests": {"storage": "1Gx"}}}})"),
              HasSubstr("PersistentVolumeClaim default/c: spec.resources.requests.storage: "));

  EXPECT_THAT(DecodeError(R"({"kind": "Pod", "metadata": {"name": "w"}, "spec": []})"),
              HasSubstr("Pod default/w: spec: expected an object, got an array"));
}

TEST(DecodeErrorTest, UnnamedObjectsArePlacedByPosition) {
  EXPECT_THAT(DecodeError(R"({"kind": "List", "items": [
      {"kind": "Pod", "metadata": {"name": "a"}},
      {"kind": "Node", "metadata": {"name": "n"}},
      {"kind": "Service", "metadata": {"name": "s"}},
      {"kind": "Pod", "metadata": {"namespace": "x"}}]})",
                          "c.json"),
              HasSubstr("c.json: items[3] (Pod): metadata.name: missing"));

  EXPECT_THAT(DecodeError(R"({"kind": "List", "items": [{"kind": "List", "items": [
      {"kind": "Node"}]}]})"),
              HasSubstr("items[0].items[0] (Node): metadata.name: missing"));

  EXPECT_THAT(DecodeError("kind: Pod\nmetadata: {name: a}\n---\nkind: Pod\nmetadata: {}\n"),
              HasSubstr("bad.yaml: document 2 (Pod): metadata.name: missing"));

  EXPECT_THAT(DecodeError(R"({"kind": "Pod", "metadata": {"name": 7}})"),
              HasSubstr("Pod: metadata.name: expected a string, got an integer (7)"));

  EXPECT_THAT(DecodeError(R"({"kind": "List", "items": [{"metadata": {"name": "a"}}]})"),
              HasSubstr("items[0]: kind: missing"));

  EXPECT_THAT(DecodeError(R"({"kind": "List", "items": [42]})"),
              HasSubstr("items[0]: expected an object, got an integer (42)"));

  EXPECT_THAT(DecodeError(R"({"kind": "List", "items": {"a": 1}})"),
              HasSubstr("items: expected an array, got an object"));

  EXPECT_THAT(DecodeError("just a string\n"), HasSubstr("expected an object, got a string"));
}

TEST(DecodeErrorTest, SyntaxErrorsAreLocated) {
  EXPECT_THAT(DecodeError("{\"kind\": \"Pod\",\n  \"metadata\": {\"name\": \"a\",}\n}", "s.json"),
              AllOf(HasSubstr("s.json:2:"), HasSubstr("invalid JSON")));
  // An error in the second of several documents points at it.
  EXPECT_THAT(DecodeError("{\"kind\": \"Pod\", \"metadata\": {\"name\": \"a\"}}\n"
                          "{\"kind\": \"Pod\", \"metadata\": {\"name\": x}}\n",
                          "s.json"),
              AllOf(HasSubstr("s.json:2:"), HasSubstr("invalid JSON")));
  EXPECT_THAT(DecodeError("[1, 2", "t.json"), HasSubstr("t.json"));
  EXPECT_THAT(DecodeError("kind: Pod\nmetadata:\n  name: [a\n", "y.yaml"), HasSubstr("y.yaml:"));
  EXPECT_THAT(DecodeError("kind: Pod\nmetadata: {name: a}\n  bad: indent\n", "y.yaml"),
              HasSubstr("y.yaml:3:"));
}

TEST(DecodeErrorTest, DeepNestingIsRejected) {
  std::string yaml = "kind: Pod\nmetadata: {name: a}\nx: ";
  for (int i = 0; i < 300; ++i) yaml += "[";
  for (int i = 0; i < 300; ++i) yaml += "]";
  EXPECT_THAT(DecodeError(yaml, "deep.yaml"),
              AllOf(HasSubstr("deep.yaml:3:"), HasSubstr("nested deeper than 256")));

  std::string block = "a:\n";
  for (int i = 1; i < 400; ++i) block += std::string(i * 2, ' ') + "a:\n";
  EXPECT_THAT(DecodeError(block, "deep.yaml"), HasSubstr("nested deeper than 256"));

  std::string json = "{\"kind\": \"Pod\", \"metadata\": {\"name\": \"a\"}, \"x\": ";
  for (int i = 0; i < 100000; ++i) json += "[";
  for (int i = 0; i < 100000; ++i) json += "]";
  json += "}";
  EXPECT_THAT(DecodeError(json, "deep.json"), HasSubstr("nested deeper than 256"));

  // Moderate nesting is fine.
  std::string ok = "{\"kind\": \"Pod\", \"metadata\": {\"name\": \"a\"}, \"x\": ";
  for (int i = 0; i < 100; ++i) ok += "[";
  for (int i = 0; i < 100; ++i) ok += "]";
  ok += "}";
  EXPECT_EQ(MustDecode(ok).pods.size(), 1u);
}

TEST(DecodeErrorTest, DecoderIsTotalOnMutatedInput) {
  // Replacing any one scalar or container of a valid pod with a value of
  // another type must give an error or a pod, never a crash.
  nlohmann::json pod = nlohmann::json::parse(kPodJson);
  std::vector<nlohmann::json> replacements = {
      nullptr, 1, -1, 1.5, "x", true, nlohmann::json::array(), nlohmann::json::object()};
  int errors = 0, accepted = 0;
  std::function<void(nlohmann::json&)> visit = [&](nlohmann::json& node) {
    if (node.is_object()) {
      for (auto& [k, v] : node.items()) visit(v);
    } else if (node.is_array()) {
      for (auto& v : node) visit(v);
    }
    nlohmann::json saved = node;
    for (const auto& r : replacements) {
      node = r;
      ObjectSet set;
      Status s = DecodeObjects(pod.dump(), "m.json", &set);
      (s.ok() ? accepted : errors)++;
      if (!s.ok()) {
        EXPECT_THAT(s.error().message, HasSubstr("m.json: ")) << s.error().message;
      }
    }
    node = saved;
  };
  visit(pod);
  EXPECT_GT(errors, 100);
  EXPECT_GT(accepted, 100);
}

// ---------------------------------------------------------------- YAML conversion

TEST(YamlToJsonTest, CoreSchemaScalars) {
  Result<std::string> j = YamlToJson(R"(
a: 1
b: -42
c: 0x1F
d: 0o17
e: 1.5
f: .5
g: 1e3
h: +12
i: true
j: False
k: ~
l: null
m:
n: "1"
o: '2'
p: yes
q: 1.2.3
r: 012
s: |
  two
  lines
t: !!str 5
u: .inf
v: 99999999999999999999999
w: -0
x: 10.
z: 99999999999999999999999.
y: "tab\there \"q\" \\ \u00e9"
1: key
true: key
)",
                                     "s.yaml");
  ASSERT_TRUE(j.ok()) << j.error().message;
  nlohmann::json v = nlohmann::json::parse(*j);
  EXPECT_EQ(v["a"], 1);
  EXPECT_EQ(v["b"], -42);
  EXPECT_EQ(v["c"], 31);
  EXPECT_EQ(v["d"], 15);
  EXPECT_EQ(v["e"], 1.5);
  EXPECT_EQ(v["f"], 0.5);
  EXPECT_EQ(v["g"], 1000.0);
  EXPECT_EQ(v["h"], 12);
  EXPECT_EQ(v["i"], true);
  EXPECT_EQ(v["j"], false);
  EXPECT_TRUE(v["k"].is_null());
  EXPECT_TRUE(v["l"].is_null());
  EXPECT_TRUE(v["m"].is_null());
  EXPECT_EQ(v["n"], "1");
  EXPECT_EQ(v["o"], "2");
  EXPECT_EQ(v["p"], "yes");  // YAML 1.1 booleans are strings in the core schema
  EXPECT_EQ(v["q"], "1.2.3");
  EXPECT_EQ(v["r"], 12);
  EXPECT_EQ(v["s"], "two\nlines\n");
  EXPECT_EQ(v["t"], "5");
  EXPECT_EQ(v["u"], ".inf");
  EXPECT_EQ(v["v"], "99999999999999999999999");
  EXPECT_EQ(v["w"], 0);
  EXPECT_EQ(v["x"], 10.0);
  EXPECT_EQ(v["z"], "99999999999999999999999.");
  EXPECT_EQ(v["y"], "tab\there \"q\" \\ \u00e9");
  EXPECT_EQ(v["1"], "key");
  EXPECT_EQ(v["true"], "key");
}

TEST(YamlToJsonTest, AnchorsAliasesAndLimits) {
  Result<std::string> j = YamlToJson(R"(
base: &b {cpu: 100m, list: [1, 2]}
copy: *b
name: &n hello
again: *n
*n : as-key
&k anchored-key: v
reuse: *k
)",
                                     "a.yaml");
  ASSERT_TRUE(j.ok()) << j.error().message;
  nlohmann::json v = nlohmann::json::parse(*j);
  EXPECT_EQ(v["copy"], v["base"]);
  EXPECT_EQ(v["again"], "hello");
  EXPECT_EQ(v["hello"], "as-key");
  EXPECT_EQ(v["anchored-key"], "v");
  EXPECT_EQ(v["reuse"], "anchored-key");

  Result<std::string> merge = YamlToJson("a: &a {x: 1}\nb:\n  <<: *a\n  y: 2\n", "m.yaml");
  ASSERT_FALSE(merge.ok());
  EXPECT_THAT(merge.error().message, AllOf(HasSubstr("m.yaml:3:"), HasSubstr("merge keys")));

  Result<std::string> complex_key = YamlToJson("? [a, b]\n: c\n", "k.yaml");
  ASSERT_FALSE(complex_key.ok());
  EXPECT_THAT(complex_key.error().message, HasSubstr("mapping keys must be scalars"));

  // "Billion laughs": each level doubles the size.
  std::string bomb = "l0: &l0 [aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa]\n";
  for (int i = 1; i < 40; ++i) {
    bomb += fmt::format("l{0}: &l{0} [*l{1}, *l{1}]\n", i, i - 1);
  }
  Result<std::string> exploded = YamlToJson(bomb, "bomb.yaml");
  ASSERT_FALSE(exploded.ok());
  EXPECT_THAT(exploded.error().message, HasSubstr("too large"));

  Result<std::string> unknown = YamlToJson("a: *nope\n", "u.yaml");
  ASSERT_FALSE(unknown.ok());
  EXPECT_THAT(unknown.error().message, HasSubstr("u.yaml:1:"));
}

TEST(YamlToJsonTest, AnchorsAreRedefinableButNotRecursive) {
  Result<std::string> j = YamlToJson("a: &x 1\nb: *x\nc: &x [2]\nd: *x\n", "r.yaml");
  ASSERT_TRUE(j.ok()) << j.error().message;
  EXPECT_EQ(*j, R"({"a":1,"b":1,"c":[2],"d":[2]})");

  // A node cannot contain an alias to itself: its anchor is not defined
  // until the node ends.
  Result<std::string> self = YamlToJson("x: &a [1, *a]\n", "s.yaml");
  ASSERT_FALSE(self.ok());
  EXPECT_THAT(self.error().message, AllOf(HasSubstr("s.yaml:1:11:"), HasSubstr("unknown alias")));
}

TEST(YamlToJsonTest, SyntaxErrorsSayWhereAndWhat) {
  Result<std::string> j = YamlToJson("spec:\n  containers: [a, b\nstatus: {}\n", "p.yaml");
  ASSERT_FALSE(j.ok());
  EXPECT_THAT(j.error().message,
              AllOf(HasSubstr("p.yaml:3:"), HasSubstr("did not find expected ',' or ']'"),
                    HasSubstr("while parsing a flow sequence at line 2, column 15")));
}

TEST(YamlToJsonTest, Documents) {
  Result<std::string> empty = YamlToJson("", "e.yaml");
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(*empty, "null");

  Result<std::string> two = YamlToJson("a: 1\n---\nb: 2\n", "two.yaml");
  ASSERT_FALSE(two.ok());
  EXPECT_THAT(two.error().message, HasSubstr("two.yaml: expected a single YAML document"));

  Result<std::vector<std::string>> docs = YamlDocumentsToJson("a: 1\n---\n---\n[x]\n", "d.yaml");
  ASSERT_TRUE(docs.ok());
  ASSERT_EQ(docs->size(), 2u);
  EXPECT_EQ((*docs)[0], R"({"a":1})");
  EXPECT_EQ((*docs)[1], R"(["x"])");

  // JSON is YAML: a document given to the YAML path converts unchanged.
  Result<std::string> json = YamlToJson(R"({"a": [1, "2", {"b": null}]})", "j.yaml");
  ASSERT_TRUE(json.ok());
  EXPECT_EQ(*json, R"({"a":[1,"2",{"b":null}]})");
}

TEST(DecodeTest, LooksLikeJson) {
  EXPECT_TRUE(LooksLikeJson("  \n{"));
  EXPECT_TRUE(LooksLikeJson("[1]"));
  EXPECT_FALSE(LooksLikeJson("kind: Pod"));
  EXPECT_FALSE(LooksLikeJson("---\n{}"));
  EXPECT_FALSE(LooksLikeJson(""));
}

}  // namespace api_decode_test
}  // namespace ksched

namespace ksched {
namespace api_decode_test {

TEST(DecodeTest, SchedulerLoopFields) {
  ObjectSet set = MustDecode(R"(
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: ns}
spec:
  priority: 100
  priorityClassName: high
  preemptionPolicy: Never
  containers: [{name: c}]
status:
  phase: Pending
  startTime: "2020-03-01T00:08:32Z"
  nominatedNodeName: n3
---
apiVersion: policy/v1beta1
kind: PodDisruptionBudget
metadata: {name: budget, namespace: ns}
spec:
  minAvailable: 50%
  selector: {matchLabels: {app: web}}
status: {disruptionsAllowed: 0, currentHealthy: 2}
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 1000
globalDefault: true
)");
  ASSERT_EQ(set.pods.size(), 1u);
  const Pod& p = set.pods[0];
  EXPECT_EQ(p.spec.priority, 100);
  EXPECT_EQ(p.spec.priority_class_name, "high");
  EXPECT_EQ(p.spec.preemption_policy, "Never");
  EXPECT_EQ(p.start_time, int64_t{1583021312} * 1000000000);
  EXPECT_EQ(p.nominated_node_name, "n3");
  ASSERT_EQ(set.pod_disruption_budgets.size(), 1u);
  const PodDisruptionBudget& b = set.pod_disruption_budgets[0];
  EXPECT_EQ(b.meta.name, "budget");
  EXPECT_EQ(Str(b.meta.ns), "ns");
  ASSERT_TRUE(b.selector.has_value());
  EXPECT_EQ(b.selector->match_labels.size(), 1u);
  ASSERT_TRUE(b.min_available.has_value());
  EXPECT_TRUE(b.min_available->is_string);
  EXPECT_EQ(b.min_available->str_value, "50%");
  EXPECT_FALSE(b.max_unavailable.has_value());
  EXPECT_EQ(b.disruptions_allowed, 0);
  ASSERT_EQ(set.priority_classes.size(), 1u);
  EXPECT_EQ(set.priority_classes[0].meta.name, "high");
  EXPECT_EQ(set.priority_classes[0].value, 1000);
  EXPECT_TRUE(set.priority_classes[0].global_default);
}

TEST(DecodeErrorTest, BadStartTimeNamesTheField) {
  std::string msg = DecodeError(R"({"kind":"Pod","metadata":{"name":"p"},
    "status":{"startTime":"yesterday"}})");
  EXPECT_THAT(
      msg, AllOf(HasSubstr("Pod default/p"), HasSubstr("status.startTime"), HasSubstr("RFC 3339")));
}

}  // namespace api_decode_test
}  // namespace ksched
