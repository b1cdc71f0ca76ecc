#include "planning/workloads.h"

#include <gtest/gtest.h>

#include "planning/planning_test_util.h"

namespace ksched::planning {
namespace workloads_test {

using testing::WorkloadsOf;
using testing::WorkloadYaml;

std::string LabelOf(const Pod& p, const std::string& key) {
  auto v = p.meta.labels.Get(Intern(key));
  return v ? std::string(Str(*v)) : "<absent>";
}

TEST(WorkloadArg, CountAndMaxAfterTheLastEquals) {
  auto plain = ParseWorkloadArg("web.yaml");
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(plain->file, "web.yaml");
  EXPECT_FALSE(plain->count);
  auto counted = ParseWorkloadArg("dir=x/web.yaml=30");
  ASSERT_TRUE(counted.ok());
  EXPECT_EQ(counted->file, "dir=x/web.yaml");
  EXPECT_EQ(*counted->count, 30);
  auto fill = ParseWorkloadArg("web.yaml=max");
  ASSERT_TRUE(fill.ok());
  EXPECT_TRUE(fill->fill);
  EXPECT_EQ(fill->file, "web.yaml");
  // Not a number: part of the file name.
  EXPECT_EQ(ParseWorkloadArg("a=b.yaml")->file, "a=b.yaml");
  auto zero = ParseWorkloadArg("web.yaml=0");
  ASSERT_FALSE(zero.ok());
  EXPECT_NE(zero.error().message.find("from 1"), std::string::npos) << zero.error().message;
  EXPECT_FALSE(ParseWorkloadArg("web.yaml=99999999999999999999").ok());
}

TEST(Workloads, DeploymentPodsBelongToItsReplicaSetWithTheTemplateHash) {
  auto ws = WorkloadsOf(WorkloadYaml("Deployment", "web", "100m", 3));
  ASSERT_EQ(ws.size(), 1u);
  const Workload& w = ws[0];
  EXPECT_EQ(w.Label(), "Deployment default/web");
  ASSERT_TRUE(w.count);
  EXPECT_EQ(*w.count, 3);
  ASSERT_EQ(w.replica_sets.size(), 1u);
  const ReplicaSet& rs = w.replica_sets[0];
  const std::string hash = LabelOf(w.pod, "pod-template-hash");
  ASSERT_NE(hash, "<absent>");
  EXPECT_EQ(rs.meta.name, "web-" + hash);
  // The selector requires the hash as well as the Deployment's labels.
  ASSERT_TRUE(rs.selector);
  bool has_hash = false;
  for (const auto& [k, v] : rs.selector->match_labels)
    has_hash |= k == "pod-template-hash" && v == hash;
  EXPECT_TRUE(has_hash);
  Pod copy = w.MakeCopy(0, w.CopyName(0));
  EXPECT_EQ(copy.meta.name, "web-" + hash + "-bbbbb");
  EXPECT_EQ(w.CopyName(1), "web-" + hash + "-bbbbc");
  ASSERT_EQ(copy.meta.owner_references.size(), 1u);
  EXPECT_EQ(copy.meta.owner_references[0].kind, "ReplicaSet");
  EXPECT_EQ(copy.meta.owner_references[0].name, rs.meta.name);
  EXPECT_EQ(copy.meta.owner_references[0].uid, rs.meta.uid);
  EXPECT_TRUE(copy.meta.owner_references[0].controller);
  EXPECT_EQ(LabelOf(copy, "app"), "web");
  EXPECT_EQ(Str(copy.meta.ns), "default");
  // The same template hashes the same; another one differently.
  auto again = WorkloadsOf(WorkloadYaml("Deployment", "web", "100m", 3));
  auto other = WorkloadsOf(WorkloadYaml("Deployment", "web", "200m", 3));
  EXPECT_EQ(LabelOf(again[0].pod, "pod-template-hash"), hash);
  EXPECT_NE(LabelOf(other[0].pod, "pod-template-hash"), hash);
}

TEST(Workloads, StatefulSetPodsAreNumberedAndNamedInALabel) {
  auto ws = WorkloadsOf(WorkloadYaml("StatefulSet", "db", "100m", 2));
  ASSERT_EQ(ws.size(), 1u);
  const Workload& w = ws[0];
  ASSERT_EQ(w.stateful_sets.size(), 1u);
  EXPECT_EQ(w.stateful_sets[0].meta.uid, "uid-db");
  EXPECT_EQ(w.CopyName(0), "db-0");
  Pod p = w.MakeCopy(1, w.CopyName(1));
  EXPECT_EQ(p.meta.name, "db-1");
  EXPECT_EQ(LabelOf(p, "statefulset.kubernetes.io/pod-name"), "db-1");
  EXPECT_EQ(LabelOf(p, "controller-revision-hash").rfind("db-", 0), 0u);
  EXPECT_EQ(p.meta.owner_references.at(0).kind, "StatefulSet");
  EXPECT_EQ(p.meta.owner_references.at(0).uid, "uid-db");
}

TEST(Workloads, ReplicaSetJobAndReplicationController) {
  auto rs = WorkloadsOf(WorkloadYaml("ReplicaSet", "front", "100m", 4));
  ASSERT_EQ(rs.size(), 1u);
  EXPECT_EQ(rs[0].replica_sets.size(), 1u);
  EXPECT_EQ(LabelOf(rs[0].pod, "pod-template-hash"), "<absent>");  // only Deployments add it
  EXPECT_EQ(rs[0].MakeCopy(0, rs[0].CopyName(0)).meta.owner_references.at(0).name, "front");

  auto job = WorkloadsOf(WorkloadYaml("Job", "batch", "100m", 5));
  ASSERT_EQ(job.size(), 1u);
  EXPECT_EQ(*job[0].count, 5);  // parallelism
  EXPECT_EQ(LabelOf(job[0].pod, "job-name"), "batch");
  EXPECT_EQ(LabelOf(job[0].pod, "controller-uid"), "uid-batch");
  EXPECT_TRUE(job[0].replica_sets.empty());
  EXPECT_EQ(job[0].pod.meta.owner_references.at(0).api_version, "batch/v1");

  auto rc = WorkloadsOf(R"(apiVersion: v1
kind: ReplicationController
metadata: {name: old}
spec:
  replicas: 2
  template:
    metadata: {labels: {app: old}}
    spec: {containers: [{name: c, image: pause}]}
)");
  ASSERT_EQ(rc.size(), 1u);
  ASSERT_EQ(rc[0].replication_controllers.size(), 1u);
  // No selector given: the template's labels, as API defaulting sets it.
  EXPECT_TRUE(rc[0].replication_controllers[0].has_selector);
  EXPECT_EQ(rc[0].replication_controllers[0].selector.size(), 1u);
  EXPECT_EQ(rc[0].pod.meta.owner_references.at(0).api_version, "v1");
}

TEST(Workloads, CountComesFromTheArgumentThenReplicasElseUntilFull) {
  WorkloadArg n;
  n.count = 7;
  EXPECT_EQ(*WorkloadsOf(WorkloadYaml("Deployment", "web", "1", 3), n)[0].count, 7);
  WorkloadArg fill;
  fill.fill = true;
  EXPECT_FALSE(WorkloadsOf(WorkloadYaml("Deployment", "web", "1", 3), fill)[0].count);
  EXPECT_FALSE(WorkloadsOf(WorkloadYaml("Deployment", "web", "1"))[0].count);
  EXPECT_FALSE(WorkloadsOf("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: "
                           "[{name: c, image: x}]}\n")[0]
                   .count);
}

TEST(Workloads, SeveralDocumentsAndListsAndBarePods) {
  std::string text = WorkloadYaml("Deployment", "a", "1", 1) + "---\n" +
                     WorkloadYaml("StatefulSet", "b", "1", 1) +
                     "---\napiVersion: v1\nkind: List\nitems:\n" + testing::PodYaml("p", "1", "");
  auto ws = WorkloadsOf(text);
  ASSERT_EQ(ws.size(), 3u);
  EXPECT_EQ(ws[0].kind, WorkloadKind::kDeployment);
  EXPECT_EQ(ws[1].kind, WorkloadKind::kStatefulSet);
  EXPECT_EQ(ws[2].kind, WorkloadKind::kPod);
  EXPECT_EQ(ws[2].CopyName(0), "p-1");
}

TEST(Workloads, ErrorsNameTheFileObjectAndField) {
  WorkloadArg arg;
  auto ds = DecodeWorkloads("apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: x}\n",
                            "ds.yaml", arg);
  ASSERT_FALSE(ds.ok());
  EXPECT_NE(ds.error().message.find("ds.yaml"), std::string::npos);
  EXPECT_NE(ds.error().message.find("\"DaemonSet\""), std::string::npos) << ds.error().message;
  auto no_tmpl = DecodeWorkloads("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: x}\n",
                                 "d.yaml", arg);
  ASSERT_FALSE(no_tmpl.ok());
  EXPECT_NE(no_tmpl.error().message.find("Deployment default/x: spec.template: missing"),
            std::string::npos)
      << no_tmpl.error().message;
  std::string bad_cpu = WorkloadYaml("Deployment", "web", "lots", 1);
  auto q = DecodeWorkloads(bad_cpu, "web.yaml", arg);
  ASSERT_FALSE(q.ok());
  EXPECT_NE(q.error().message.find("web.yaml"), std::string::npos) << q.error().message;
  EXPECT_NE(q.error().message.find("spec.containers[0].resources.requests.cpu"), std::string::npos)
      << q.error().message;
  auto negative = DecodeWorkloads(WorkloadYaml("Deployment", "web", "1", -1, "  replicas: -2\n"),
                                  "n.yaml", arg);
  ASSERT_FALSE(negative.ok());
  EXPECT_NE(negative.error().message.find("spec.replicas"), std::string::npos);
}

TEST(Workloads, UnknownFieldsOfTheWorkloadAndItsTemplateAreNoted) {
  WorkloadArg arg;
  std::vector<FieldNote> notes;
  auto ws = DecodeWorkloads(
      WorkloadYaml("Deployment", "web", "1", 2, "  paused: false\n  pasued: true\n") +
          "      nodeSelectr: {disk: ssd}\n",
      "d.yaml", arg, &notes);
  ASSERT_TRUE(ws.ok()) << ws.error().message;
  ASSERT_EQ(notes.size(), 2u);
  EXPECT_EQ(notes[0].kind, "Deployment");
  EXPECT_EQ(notes[0].object, "default/web");
  EXPECT_EQ(notes[0].finding.Path(), "spec.pasued");
  EXPECT_EQ(notes[1].finding.Path(), "spec.template.spec.nodeSelectr");
  // Each of the six kinds; a clean file notes nothing.
  for (const char* kind : {"Deployment", "ReplicaSet", "StatefulSet", "Job"}) {
    notes.clear();
    ASSERT_TRUE(DecodeWorkloads(WorkloadYaml(kind, "w", "1", 1), "w.yaml", arg, &notes).ok());
    EXPECT_TRUE(notes.empty()) << kind << ": " << notes[0].finding.Path();
  }
}

TEST(Workloads, CountOfTheWrongTypeAndSelectorsThatMissTheTemplateAreErrors) {
  WorkloadArg arg;
  auto quoted = DecodeWorkloads(WorkloadYaml("Deployment", "web", "1", -1, "  replicas: \"10\"\n"),
                                "q.yaml", arg);
  ASSERT_FALSE(quoted.ok());
  EXPECT_EQ(quoted.error().message,
            "q.yaml: Deployment default/web: spec.replicas: expected an int32, got string \"10\"");
  auto job =
      DecodeWorkloads(WorkloadYaml("Job", "j", "1", -1, "  parallelism: 2.5\n"), "j.yaml", arg);
  ASSERT_FALSE(job.ok());
  EXPECT_NE(job.error().message.find("spec.parallelism: expected an int32, got number 2.5"),
            std::string::npos)
      << job.error().message;
  std::string other = WorkloadYaml("StatefulSet", "db", "1", 1);
  other.replace(other.find("{app: db}"), 9, "{app: pg}");
  auto sts = DecodeWorkloads(other, "s.yaml", arg);
  ASSERT_FALSE(sts.ok());
  EXPECT_EQ(sts.error().message,
            "s.yaml: StatefulSet default/db: spec.template.metadata.labels: Invalid value: "
            "{\"app\":\"db\"}: `selector` does not match template `labels`");
}

TEST(Workloads, MalformedInputIsAnErrorNotACrash) {
  WorkloadArg arg;
  for (const char* text :
       {"hello", "[1, 2]", "{}", "kind: Deployment\nmetadata: 5\n",
        "kind: Deployment\nmetadata: {name: x}\nspec: {template: 5}\n",
        "kind: Deployment\nmetadata: {name: x}\nspec: {template: {spec: 7}}\n",
        "kind: ReplicationController\nmetadata: {name: x}\nspec: {template: {metadata: 3}}\n",
        "kind: Pod\nmetadata: {name: x}\nspec: 7\n", "{\"kind\": \"Pod\", \"metadata\": ",
        "kind: Deployment\nmetadata: {name: x}\nspec:\n  selector: {matchLabels: 4}\n  "
        "template: {spec: {containers: []}}\n"}) {
    auto r = DecodeWorkloads(text, "bad.yaml", arg);
    if (r.ok()) continue;  // a few are valid enough; none may crash
    EXPECT_NE(r.error().message.find("bad.yaml"), std::string::npos) << text;
  }
  EXPECT_FALSE(DecodeWorkloads("hello", "bad.yaml", arg).ok());
  EXPECT_FALSE(DecodeWorkloads("kind: Deployment\nmetadata: 5\n", "bad.yaml", arg).ok());
}

// A Helm render: the workloads are picked out, the other kinds named.
constexpr const char* kHelmRender = R"(---
# Source: web/templates/serviceaccount.yaml
apiVersion: v1
kind: ServiceAccount
metadata:
  name: web
---
# Source: web/templates/configmap.yaml
apiVersion: v1
kind: ConfigMap
metadata: {name: web-config, namespace: shop}
data: {a: b}
---
# Source: web/templates/service.yaml
apiVersion: v1
kind: Service
metadata: {name: web}
spec: {selector: {app: web}, ports: [{port: 80}]}
---
# Source: web/templates/deployment.yaml
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: c, image: web, resources: {requests: {cpu: 100m}}}]
---
# Source: web/templates/tests/empty.yaml
)";

TEST(Workloads, AHelmRenderGivesItsWorkloadsAndNamesTheRest) {
  WorkloadArg arg;
  std::vector<std::string> skipped;
  WorkloadFileOptions options;
  options.skipped = &skipped;
  auto ws = DecodeWorkloads(kHelmRender, "web.yaml", arg, nullptr, options);
  ASSERT_TRUE(ws.ok()) << ws.error().message;
  ASSERT_EQ(ws->size(), 1u);
  EXPECT_EQ((*ws)[0].Label(), "Deployment default/web");
  EXPECT_EQ(skipped, (std::vector<std::string>{"ServiceAccount web", "ConfigMap shop/web-config",
                                               "Service web"}));
  // Without a place for them, other kinds are an error, as before.
  auto strict = DecodeWorkloads(kHelmRender, "web.yaml", arg);
  ASSERT_FALSE(strict.ok());
  EXPECT_NE(strict.error().message.find("kind \"ServiceAccount\": not a workload"),
            std::string::npos)
      << strict.error().message;
  // Nothing but other kinds: an error that says so.
  std::vector<std::string> none;
  options.skipped = &none;
  auto empty =
      DecodeWorkloads("kind: Service\nmetadata: {name: x}\n", "svc.yaml", arg, nullptr, options);
  ASSERT_FALSE(empty.ok());
  EXPECT_NE(empty.error().message.find(
                "svc.yaml: Service x: not a workload capacity can place (Pod, Deployment, "
                "ReplicaSet, StatefulSet, ReplicationController or Job), and the file holds no "
                "workload"),
            std::string::npos)
      << empty.error().message;
}

TEST(Workloads, NamespaceFlagFillsObjectsWithoutOneAndRefusesOthers) {
  WorkloadArg arg;
  WorkloadFileOptions options;
  options.ns = "shop";
  std::string no_ns = WorkloadYaml("Deployment", "web", "100m", 1);
  no_ns.erase(no_ns.find("  namespace: default\n"), 21);
  auto ws = DecodeWorkloads(no_ns, "web.yaml", arg, nullptr, options);
  ASSERT_TRUE(ws.ok()) << ws.error().message;
  EXPECT_EQ((*ws)[0].Key(), "shop/web");
  EXPECT_EQ(Str((*ws)[0].pod.meta.ns), "shop");
  ASSERT_EQ((*ws)[0].replica_sets.size(), 1u);
  EXPECT_EQ(Str((*ws)[0].replica_sets[0].meta.ns), "shop");
  auto pod = DecodeWorkloads(
      "kind: Pod\napiVersion: v1\nmetadata: {name: p}\nspec: {containers: "
      "[{name: c, image: x}]}\n",
      "p.yaml", arg, nullptr, options);
  ASSERT_TRUE(pod.ok()) << pod.error().message;
  EXPECT_EQ(Str((*pod)[0].MakeCopy(0, "p-1").meta.ns), "shop");
  // An object in another namespace: kubectl's error.
  auto other = DecodeWorkloads(
      "kind: Pod\napiVersion: v1\nmetadata: {name: p, namespace: ml}\nspec: {containers: "
      "[{name: c, image: x}]}\n",
      "p.yaml", arg, nullptr, options);
  ASSERT_FALSE(other.ok());
  EXPECT_NE(other.error().message.find("the namespace from the provided object \"ml\" does not "
                                       "match the namespace \"shop\". You must pass "
                                       "'--namespace=ml' to perform this operation."),
            std::string::npos)
      << other.error().message;
  // Without -n: "default", and any namespace goes.
  auto plain = DecodeWorkloads(WorkloadYaml("Deployment", "web", "100m", 1), "web.yaml", arg);
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ((*plain)[0].Key(), "default/web");
}

// `kubectl get deploy web -o yaml` and its ReplicaSets from the snapshot.
constexpr const char* kExistingDeployment = R"(apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop, uid: d-uid}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {creationTimestamp: null, labels: {app: web}}
    spec:
      containers: [{name: c, image: web:2, resources: {requests: {cpu: 100m}}}]
)";

std::vector<ReplicaSet> SnapshotReplicaSets() {
  ObjectSet set;
  Status s = DecodeObjects(R"(apiVersion: v1
kind: List
items:
- apiVersion: apps/v1
  kind: ReplicaSet
  metadata:
    name: web-5f7b9
    namespace: shop
    uid: rs-old
    labels: {app: web, pod-template-hash: 5f7b9}
    ownerReferences: [{apiVersion: apps/v1, kind: Deployment, name: web, uid: d-uid, controller: true}]
  spec:
    selector: {matchLabels: {app: web, pod-template-hash: 5f7b9}}
    template:
      metadata: {creationTimestamp: null, labels: {app: web, pod-template-hash: 5f7b9}}
      spec:
        containers: [{name: c, image: "web:1", resources: {requests: {cpu: 100m}}}]
- apiVersion: apps/v1
  kind: ReplicaSet
  metadata:
    name: web-6c8d4
    namespace: shop
    uid: rs-current
    labels: {app: web, pod-template-hash: 6c8d4}
    ownerReferences: [{apiVersion: apps/v1, kind: Deployment, name: web, uid: d-uid, controller: true}]
  spec:
    selector: {matchLabels: {app: web, pod-template-hash: 6c8d4}}
    template:
      metadata: {labels: {pod-template-hash: 6c8d4, app: web}, creationTimestamp: null}
      spec:
        containers: [{resources: {requests: {cpu: 100m}}, name: c, image: "web:2"}]
)",
                           "snap.yaml", &set);
  EXPECT_TRUE(s.ok()) << s.error().message;
  return set.replica_sets;
}

TEST(Workloads, AnExistingDeploymentsCopiesJoinItsCurrentReplicaSet) {
  std::vector<ReplicaSet> existing = SnapshotReplicaSets();
  ASSERT_EQ(existing.size(), 2u);
  EXPECT_NE(existing[0].template_digest, existing[1].template_digest);
  auto ws = DecodeWorkloads(kExistingDeployment, "web.yaml", WorkloadArg());
  ASSERT_TRUE(ws.ok()) << ws.error().message;
  UseCurrentReplicaSets(existing, &*ws);
  const Workload& w = (*ws)[0];
  EXPECT_EQ(w.current_replica_set, "web-6c8d4");
  EXPECT_EQ(LabelOf(w.pod, "pod-template-hash"), "6c8d4");
  EXPECT_TRUE(w.replica_sets.empty());  // the snapshot's is used
  Pod copy = w.MakeCopy(0, w.CopyName(0));
  EXPECT_EQ(copy.meta.name.rfind("web-6c8d4-", 0), 0u) << copy.meta.name;
  ASSERT_EQ(copy.meta.owner_references.size(), 1u);
  EXPECT_EQ(copy.meta.owner_references[0].name, "web-6c8d4");
  EXPECT_EQ(copy.meta.owner_references[0].uid, "rs-current");
}

TEST(Workloads, AChangedTemplateIsANewRevision) {
  std::string changed = kExistingDeployment;
  changed.replace(changed.find("web:2"), 5, "web:3");
  auto ws = DecodeWorkloads(changed, "web.yaml", WorkloadArg());
  ASSERT_TRUE(ws.ok()) << ws.error().message;
  const std::string hash = LabelOf((*ws)[0].pod, "pod-template-hash");
  UseCurrentReplicaSets(SnapshotReplicaSets(), &*ws);
  EXPECT_EQ((*ws)[0].current_replica_set, "");
  EXPECT_EQ(LabelOf((*ws)[0].pod, "pod-template-hash"), hash);
  EXPECT_EQ((*ws)[0].replica_sets.size(), 1u);
  // Another Deployment's ReplicaSet of the same template is not adopted.
  std::string other = kExistingDeployment;
  other.replace(other.find("name: web,"), 10, "name: api,");
  auto ows = DecodeWorkloads(other, "api.yaml", WorkloadArg());
  ASSERT_TRUE(ows.ok()) << ows.error().message;
  UseCurrentReplicaSets(SnapshotReplicaSets(), &*ows);
  EXPECT_EQ((*ows)[0].current_replica_set, "");
}

}  // namespace workloads_test
}  // namespace ksched::planning
