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

}  // namespace workloads_test
}  // namespace ksched::planning
