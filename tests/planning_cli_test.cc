// End-to-end checks of the what-if commands on the bundled example:
// capacity for workloads, --add-node, drain and -o html.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/cli_run.h"

namespace planning_cli_test {

using namespace ksched::cli_testing;

// The report after its first line, which names the release simulated
// ("# kube-scheduler v1.35, default feature gates").
std::string Verdict(const std::string& out) {
  if (out.rfind("# kube-scheduler ", 0) != 0) return "(no release line) " + out;
  return out.substr(out.find('\n') + 1);
}

TEST(PlanningCli, CapacityForADeploymentAfterThePendingPods) {
  CommandRun r = Ksched("capacity -f " + Example("cluster.yaml") + " --pod " +
                        Example("web-deployment.yaml") + " -o json");
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["pending"]["scheduledFirst"], true);
  EXPECT_EQ(j["pending"]["count"], 5);
  EXPECT_EQ(j["pending"]["unscheduled"], 2);
  auto w = j["workloads"][0];
  EXPECT_EQ(w["workload"], "Deployment shop/api");
  EXPECT_EQ(w["requested"], 6);  // spec.replicas
  EXPECT_EQ(w["count"], 6);
  // =max: until one does not fit.
  CommandRun fill = Ksched("capacity -f " + Example("cluster.yaml") + " --pod " +
                           Example("web-deployment.yaml") + "=max -o json");
  ASSERT_EQ(fill.status, 0) << fill.err;
  auto f = nlohmann::json::parse(fill.out)["workloads"][0];
  EXPECT_TRUE(f["requested"].is_null());
  EXPECT_GT(f["count"].get<int>(), 6);
  EXPECT_NE(f["stopReason"].get<std::string>().find("0/5 nodes are available"), std::string::npos);
  // The table says what happened to the pending pods.
  CommandRun table =
      Ksched("capacity -f " + Example("cluster.yaml") + " --pod " + Example("web-deployment.yaml") +
             "=2 --pod " + Example("web-pod.yaml") + "=1 --ignore-pending");
  ASSERT_EQ(table.status, 0) << table.err;
  EXPECT_NE(table.out.find("Pending pods: left out (--ignore-pending; the snapshot has 5)"),
            std::string::npos)
      << table.out;
  EXPECT_NE(table.out.find("Deployment shop/api: 2 of 2 requested copies fit."), std::string::npos)
      << table.out;
  EXPECT_NE(table.out.find("Pod shop/web-7d9f: 1 of 1 requested copy fit."), std::string::npos)
      << table.out;
}

TEST(PlanningCli, CapacityExitsOneWhenNotOneCopyFits) {
  std::string huge = WriteTemp("huge.yaml", R"(apiVersion: v1
kind: Pod
metadata: {name: huge}
spec: {containers: [{name: c, image: x, resources: {requests: {cpu: "100"}}}]}
)");
  CommandRun r = Ksched("capacity -f " + Example("cluster.yaml") + " --pod " + huge);
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("Pod default/huge: 0 more copies fit."), std::string::npos) << r.out;
  CommandRun bad = Ksched("capacity -f " + Example("cluster.yaml") + " --pod " + huge + "=0");
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("the count after '='"), std::string::npos) << bad.err;
  EXPECT_TRUE(bad.out.empty());
}

TEST(PlanningCli, AddNodeForScheduleAndCapacity) {
  CommandRun s = Ksched("schedule -f " + Example("cluster.yaml") + " --add-node " +
                        Example("node-template.yaml") + " -o json");
  ASSERT_EQ(s.status, 0) << s.err;
  auto j = nlohmann::json::parse(s.out);
  // One 8-core node takes report-builder (6 cores) and gives the web pod a
  // host of its own.
  EXPECT_EQ(j[0]["template"], "node-c");
  EXPECT_EQ(j[0]["nodes"], 1);
  // Where the pods land with the answer's k.
  std::map<std::string, std::string> where;
  for (const auto& p : j[0]["placements"]) where[p["pod"]] = p["node"];
  EXPECT_EQ(where.size(), 5u) << s.out;
  EXPECT_EQ(where["shop/report-builder"], "node-c-1") << s.out;
  CommandRun table = Ksched("schedule -f " + Example("cluster.yaml") + " --add-node " +
                            Example("node-template.yaml"));
  EXPECT_NE(table.out.find("With 1 node-c added, the pending pods land here:"), std::string::npos)
      << table.out;
  CommandRun c =
      Ksched("capacity -f " + Example("cluster.yaml") + " --pod " + Example("web-deployment.yaml") +
             "=40 --add-node " + Example("node-template.yaml") + "=10");
  ASSERT_EQ(c.status, 0) << c.err;
  EXPECT_NE(c.out.find("node-c"), std::string::npos) << c.out;
  std::string tiny = WriteTemp("tiny.yaml", R"(apiVersion: v1
kind: Node
metadata: {name: tiny}
status: {allocatable: {cpu: 100m, memory: 1Gi, pods: "110"}}
)");
  CommandRun none = Ksched("schedule -f " + Example("cluster.yaml") + " --add-node " + tiny + "=4");
  EXPECT_EQ(none.status, 1);
  EXPECT_NE(none.out.find("none up to 4"), std::string::npos) << none.out;
  // Said at once, after the runs at 0 and 4: a 100m node takes no web pod.
  EXPECT_NE(none.out.find("0- 4-"), std::string::npos) << none.out;
  EXPECT_NE(none.out.find("tiny: no number of nodes helps: shop/web-7d9f-"), std::string::npos)
      << none.out;
  EXPECT_NE(none.out.find("cannot run on a new tiny: NodeResourcesFit: Insufficient cpu."),
            std::string::npos)
      << none.out;
  CommandRun unbounded = Ksched("capacity -f " + Example("cluster.yaml") + " --pod " +
                                Example("web-pod.yaml") + " --add-node " + tiny);
  EXPECT_EQ(unbounded.status, 2);
  EXPECT_NE(unbounded.err.find("needs a count"), std::string::npos) << unbounded.err;
}

TEST(PlanningCli, DrainVerdictAndExitStatus) {
  CommandRun ok = Ksched("drain -f " + Example("cluster.yaml") + " node-a1");
  EXPECT_EQ(ok.status, 0) << ok.err;
  EXPECT_EQ(Verdict(ok.out).rfind("safe to drain: 1 pod evicted, all rescheduled", 0), 0u)
      << ok.out;
  CommandRun j = Ksched("drain -f " + Example("cluster.yaml") + " node-a1 node-a2 node-b1 -o json");
  auto d = nlohmann::json::parse(j.out);
  EXPECT_EQ(d["nodes"].size(), 3u);
  EXPECT_EQ(j.status, d["safe"].get<bool>() ? 0 : 1);
  EXPECT_FALSE(d["verdict"].get<std::string>().empty());
  CommandRun missing = Ksched("drain -f " + Example("cluster.yaml") + " nope");
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.err.find("node \"nope\" is not in the snapshot"), std::string::npos);
}

// kubectl drain's rules through the command line: a pod with emptyDir data
// stops the drain until --delete-emptydir-data; a deleted bare pod names its
// node; pending pods are said to be left out.
TEST(PlanningCli, DrainLocalDataAndDeletedPods) {
  const std::string snap = WriteTemp("drain-local.yaml", R"(apiVersion: v1
kind: List
items:
- kind: Node
  metadata: {name: n1}
  status: {allocatable: {cpu: "4", memory: 4Gi, pods: "110"}}
- kind: Node
  metadata: {name: n2}
  status: {allocatable: {cpu: "4", memory: 4Gi, pods: "110"}}
- kind: Pod
  metadata:
    name: cache-1
    namespace: default
    ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: cache, uid: u-c, controller: true}]
  spec:
    nodeName: n1
    volumes: [{name: scratch, emptyDir: {}}]
    containers: [{name: c, image: x, resources: {requests: {cpu: 100m}}}]
- kind: Pod
  metadata: {name: bare, namespace: default}
  spec: {nodeName: n1, containers: [{name: c, image: x}]}
- kind: Pod
  metadata: {name: waiting, namespace: default}
  spec: {containers: [{name: c, image: x}]}
)");
  CommandRun blocked = Ksched("drain -f " + snap + " n1");
  EXPECT_EQ(blocked.status, 1) << blocked.err;
  EXPECT_EQ(Verdict(blocked.out)
                .rfind("not safe to drain: kubectl drain refuses 1 pod with local data "
                       "(emptyDir): default/cache-1; --delete-emptydir-data",
                       0),
            0u)
      << blocked.out;
  EXPECT_NE(blocked.out.find("the snapshot's 1 pending pod is left out"), std::string::npos)
      << blocked.out;
  EXPECT_NE(blocked.out.find("default/bare  n1    deleted, not recreated (no controller)"),
            std::string::npos)
      << blocked.out;
  CommandRun ok = Ksched("drain -f " + snap + " n1 --delete-emptydir-data -o json");
  EXPECT_EQ(ok.status, 0) << ok.err << ok.out;
  auto j = nlohmann::json::parse(ok.out);
  EXPECT_EQ(j["localDataBlocks"], false);
  EXPECT_EQ(j["localData"][0]["emptyDirVolumes"][0], "scratch");
  EXPECT_EQ(j["deleted"][0]["node"], "n1");
  EXPECT_EQ(j["pendingLeftOut"], 1);
}

TEST(PlanningCli, HtmlReportsAreOnePage) {
  for (const std::string& cmd :
       {"schedule -f " + Example("cluster.yaml"),
        "capacity -f " + Example("cluster.yaml") + " --pod " + Example("web-deployment.yaml"),
        "drain -f " + Example("cluster.yaml") + " node-a1"}) {
    CommandRun r = Ksched(cmd + " -o html");
    EXPECT_NE(r.status, 2) << cmd << r.err;
    EXPECT_EQ(r.out.rfind("<!DOCTYPE html>", 0), 0u) << cmd;
    EXPECT_NE(r.out.find("id=\"ksched-data\""), std::string::npos) << cmd;
    EXPECT_NE(r.out.find("</html>"), std::string::npos) << cmd;
  }
}

// The HTML page's placements are `schedule`'s: the same loop decides both.
TEST(PlanningCli, HtmlScheduleAgreesWithJson) {
  CommandRun json = Ksched("schedule -f " + Example("cluster.yaml") + " -o json");
  CommandRun html = Ksched("schedule -f " + Example("cluster.yaml") + " -o html");
  ASSERT_EQ(json.status, html.status);
  const std::string open = "id=\"ksched-data\">";
  size_t begin = html.out.find(open);
  ASSERT_NE(begin, std::string::npos);
  begin += open.size();
  size_t end = html.out.find("</script>", begin);
  auto data = nlohmann::json::parse(html.out.substr(begin, end - begin));
  std::map<std::string, std::string> from_html;
  for (const auto& p : data["pods"]) from_html[p["pod"]] = p["node"];
  size_t compared = 0;
  std::map<std::string, std::string> from_json;
  for (const auto& step : nlohmann::json::parse(json.out)) {
    if (step.contains("skipped")) continue;
    from_json[step["pod"]] = step["node"].is_null() ? "" : step["node"].get<std::string>();
  }
  for (const auto& [pod, node] : from_json) {
    EXPECT_EQ(from_html[pod], node) << pod;
    ++compared;
  }
  EXPECT_EQ(compared, 5u);
  EXPECT_EQ(from_html.size(), 5u);
}

// A one-core node full of a priority-0 pod, and a pending priority-1000 pod
// that fits only by preempting it.
const char* kPreemptingPending = R"(apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Node
  metadata: {name: n1, labels: {kubernetes.io/hostname: n1}}
  status: {allocatable: {cpu: "1", memory: 4Gi, pods: "110"}}
- apiVersion: v1
  kind: Pod
  metadata: {name: low, namespace: default, uid: u-low, creationTimestamp: "2024-01-01T00:00:00Z"}
  spec:
    nodeName: n1
    priority: 0
    containers: [{name: c, image: x, resources: {requests: {cpu: "1"}}}]
  status: {phase: Running}
- apiVersion: v1
  kind: Pod
  metadata: {name: high, namespace: default, uid: u-high, creationTimestamp: "2024-01-02T00:00:00Z"}
  spec:
    priority: 1000
    containers: [{name: c, image: x, resources: {requests: {cpu: "1"}}}]
  status: {phase: Pending}
)";

// capacity schedules the snapshot's pending pods as schedule does,
// preemption included, so the two never disagree on one file.
TEST(PlanningCli, CapacityAndScheduleAgreeOnPendingPods) {
  const std::string snap = WriteTemp("preempting-pending.yaml", kPreemptingPending);
  const std::string small = WriteTemp("small.yaml", R"(apiVersion: v1
kind: Pod
metadata: {name: small}
spec: {containers: [{name: c, image: x, resources: {requests: {cpu: 100m}}}]}
)");
  for (const std::string& extra : {std::string(), std::string(" --disable-preemption")}) {
    CommandRun s = Ksched("schedule -f " + snap + extra + " -o json");
    ASSERT_NE(s.status, 2) << s.err;
    std::string scheduled_on;
    for (const auto& step : nlohmann::json::parse(s.out))
      if (step["pod"] == "default/high" && step["node"].is_string()) scheduled_on = step["node"];
    CommandRun c = Ksched("capacity -f " + snap + " --pod " + small + "=1" + extra + " -o json");
    ASSERT_NE(c.status, 2) << c.err;
    auto j = nlohmann::json::parse(c.out);
    ASSERT_EQ(j["pending"]["pods"].size(), 1u) << c.out;
    const auto& high = j["pending"]["pods"][0];
    EXPECT_EQ(high["node"].is_null() ? "" : high["node"].get<std::string>(), scheduled_on)
        << extra << c.out;
    EXPECT_EQ(j["pending"]["unscheduled"], scheduled_on.empty() ? 1 : 0) << extra;
    if (extra.empty()) {
      EXPECT_EQ(scheduled_on, "n1");
      EXPECT_EQ(high["victims"], nlohmann::json::array({"default/low"})) << c.out;
    } else {
      EXPECT_EQ(scheduled_on, "");
    }
  }
  CommandRun table = Ksched("capacity -f " + snap + " --pod " + small + "=1");
  EXPECT_NE(table.out.find("default/high preempted default/low on n1\n"), std::string::npos)
      << table.out;
  EXPECT_NE(table.out.find("as `ksched schedule` would: 1 placed, 0 did not fit"),
            std::string::npos)
      << table.out;
}

// The page's embedded data, parsed.
nlohmann::json PageData(const std::string& html) {
  const std::string open = "id=\"ksched-data\">";
  size_t begin = html.find(open);
  if (begin == std::string::npos) return nullptr;
  begin += open.size();
  return nlohmann::json::parse(html.substr(begin, html.find("</script>", begin) - begin));
}

// --explain with -o html writes a page: the verdict, every node's result and
// what preemption decided.
TEST(PlanningCli, ExplainAsHtml) {
  CommandRun r =
      Ksched("schedule -f " + Example("cluster.yaml") + " --explain shop/report-builder -o html");
  EXPECT_EQ(r.status, 1) << r.err;
  ASSERT_EQ(r.out.rfind("<!DOCTYPE html>", 0), 0u) << r.out.substr(0, 200);
  auto data = PageData(r.out);
  ASSERT_TRUE(data.is_object());
  EXPECT_EQ(data["title"], "ksched schedule --explain shop/report-builder");
  EXPECT_EQ(data["verdictOk"], false);
  EXPECT_EQ(data["verdict"].get<std::string>().rfind(
                "Pod shop/report-builder cannot be scheduled: 0/5 nodes are available:", 0),
            0u)
      << data["verdict"];
  EXPECT_EQ(data["after"].size(), 5u);  // the nodes as the pod saw them
  bool taint = false;
  for (const auto& section : data["sections"]) {
    if (section["title"] != "Nodes that do not fit") continue;
    EXPECT_EQ(section["rows"].size(), 5u);
    for (const auto& row : section["rows"])
      taint = taint || (row[0] == "gpu-b3" &&
                        row[3].get<std::string>().find("taint nvidia.com/gpu=present:NoSchedule") !=
                            std::string::npos);
  }
  EXPECT_TRUE(taint) << data["sections"];
  // A pod that preempts: both attempts, and the candidates.
  const std::string snap = WriteTemp("explain-preempt.yaml", kPreemptingPending);
  CommandRun p = Ksched("schedule -f " + snap + " --explain high -o html");
  EXPECT_EQ(p.status, 0) << p.err;
  auto pd = PageData(p.out);
  ASSERT_TRUE(pd.is_object());
  EXPECT_EQ(pd["verdictOk"], true);
  EXPECT_EQ(pd["verdict"], "Pod default/high -> n1");
  EXPECT_NE(pd["summary"].dump().find(
                R"(["Attempt 1 (it preempted, then was retried): preemption","nominated to n1, )"
                R"(deleting default/low"])"),
            std::string::npos)
      << pd["summary"];
  // v1.15 lists every node's preemption verdict.
  CommandRun v115 =
      Ksched("schedule --scheduler-version v1.15 -f " + snap + " --explain high -o html");
  EXPECT_EQ(v115.status, 0) << v115.err;
  std::string candidates;
  const nlohmann::json v115_data = PageData(v115.out);
  for (const auto& section : v115_data["sections"])
    if (section["title"] == "Attempt 1 (it preempted, then was retried): Preemption")
      candidates = section["rows"].dump();
  EXPECT_NE(candidates.find("candidate: victims default/low (chosen)"), std::string::npos)
      << v115.out;
}

// --add-node -o html draws the answer's run, the added nodes marked.
TEST(PlanningCli, AddNodeAsHtml) {
  for (const char* cmd : {"schedule", "capacity"}) {
    CommandRun help = Ksched(std::string(cmd) + " --help");
    EXPECT_NE(help.out.find("-o html draws the first answer's run"), std::string::npos) << help.out;
  }
  CommandRun r = Ksched("schedule -f " + Example("cluster.yaml") + " --add-node " +
                        Example("node-template.yaml") + " -o html");
  EXPECT_EQ(r.status, 0) << r.err;
  ASSERT_EQ(r.out.rfind("<!DOCTYPE html>", 0), 0u) << r.out.substr(0, 200);
  const nlohmann::json data = PageData(r.out);
  ASSERT_TRUE(data.is_object());
  EXPECT_EQ(data["verdict"], "1 node-c to add");
  EXPECT_EQ(data["markedNodes"], nlohmann::json::array({"node-c-1"}));
  EXPECT_EQ(data["markedAs"], "added");
  EXPECT_EQ(data["after"].size(), 6u);
  std::map<std::string, std::string> where;
  for (const auto& p : data["pods"]) where[p["pod"]] = p["node"];
  EXPECT_EQ(where["shop/report-builder"], "node-c-1") << data["pods"];
  EXPECT_EQ(where.size(), 5u);
}

TEST(PlanningCli, HelpHasExamples) {
  for (const char* cmd : {"capacity", "drain", "schedule"}) {
    CommandRun r = Ksched(std::string(cmd) + " --help");
    EXPECT_EQ(r.status, 0) << cmd;
    EXPECT_NE(r.out.find("example"), std::string::npos) << cmd;
    EXPECT_NE(r.out.find("html"), std::string::npos) << cmd;
  }
}

// `kubectl get deploy web -o yaml` of a Deployment in the snapshot: its
// copies join the current ReplicaSet (its pod-template-hash), so zone
// spreading with matchLabelKeys counts the 3 + 1 pods already running and
// sends copies to zone b first; a changed template is a new revision that
// starts from zero.
TEST(PlanningCli, AnExistingDeploymentsCopiesJoinItsCurrentRevision) {
  const std::string snap = std::string(KSCHED_SOURCE_DIR) + "/tests/data/deployment-revision.yaml";
  const std::string deploy = R"(apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default, uid: d1}
spec:
  replicas: 4
  selector: {matchLabels: {app: web}}
  template:
    metadata:
      creationTimestamp: null
      labels: {app: web}
    spec:
      containers:
      - image: IMAGE
        name: c
        resources: {requests: {cpu: 100m}}
      topologySpreadConstraints:
      - labelSelector: {matchLabels: {app: web}}
        matchLabelKeys: [pod-template-hash]
        maxSkew: 1
        topologyKey: topology.kubernetes.io/zone
        whenUnsatisfiable: DoNotSchedule
)";
  auto with_image = [&](const std::string& image) {
    std::string text = deploy;
    text.replace(text.find("IMAGE"), 5, image);
    return text;
  };
  std::string same = WriteTemp("web-same.yaml", with_image("web:2"));
  CommandRun r = Ksched("capacity -f " + snap + " --pod " + same + " -o json");
  ASSERT_EQ(r.status, 0) << r.err;
  auto w = nlohmann::json::parse(r.out)["workloads"][0];
  EXPECT_EQ(w["count"], 4);
  // Zone b (n2) evens out 3:1 first: 3 copies there, 1 in zone a.
  EXPECT_EQ(w["perNode"]["n2"], 3) << w;
  std::string changed = WriteTemp("web-changed.yaml", with_image("web:3"));
  CommandRun c = Ksched("capacity -f " + snap + " --pod " + changed + " -o json");
  ASSERT_EQ(c.status, 0) << c.err;
  auto cw = nlohmann::json::parse(c.out)["workloads"][0];
  EXPECT_EQ(cw["perNode"]["n2"], 2) << cw;  // a new revision: 2 and 2
}

// A Helm render: the Deployment is placed in -n's namespace, the other
// objects named in one warning.
TEST(PlanningCli, CapacityTakesAHelmRenderAndANamespace) {
  std::string render = WriteTemp("render.yaml", R"(---
# Source: api/templates/serviceaccount.yaml
apiVersion: v1
kind: ServiceAccount
metadata: {name: api}
---
# Source: api/templates/service.yaml
apiVersion: v1
kind: Service
metadata: {name: api}
spec: {selector: {app: api}, ports: [{port: 80}]}
---
# Source: api/templates/deployment.yaml
apiVersion: apps/v1
kind: Deployment
metadata: {name: api}
spec:
  replicas: 2
  selector: {matchLabels: {app: api}}
  template:
    metadata: {labels: {app: api}}
    spec:
      containers: [{name: c, image: api, resources: {requests: {cpu: 100m}}}]
)");
  CommandRun r =
      Ksched("capacity -f " + Example("cluster.yaml") + " --pod " + render + " -n shop -o json");
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["workloads"][0]["workload"], "Deployment shop/api");
  EXPECT_EQ(j["workloads"][0]["count"], 2);
  EXPECT_NE(r.err.find("ksched: warning: " + render +
                       ": skipped 2 object(s) that are not workloads: ServiceAccount api, "
                       "Service api\n"),
            std::string::npos)
      << r.err;
  CommandRun other = Ksched("capacity -f " + Example("cluster.yaml") + " --pod " +
                            Example("web-deployment.yaml") + " -n ml");
  EXPECT_EQ(other.status, 2);
  EXPECT_NE(other.err.find("You must pass '--namespace=shop' to perform this operation."),
            std::string::npos)
      << other.err;
}

// --pending names the snapshot's pending pods it leaves out; --keep-pending
// keeps them competing.
TEST(PlanningCli, PendingNamesTheSnapshotPodsItLeavesOut) {
  std::string pod = WriteTemp("extra.yaml", R"(apiVersion: v1
kind: Pod
metadata: {name: extra, namespace: shop}
spec:
  containers: [{name: c, image: x, resources: {requests: {cpu: 100m}}}]
)");
  CommandRun r = Ksched("schedule -f " + Example("cluster.yaml") + " --pending " + pod);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("--pending " + pod +
                       " replaces the snapshot's 5 pending pod(s), which are left out: "
                       "shop/web-7d9f-klmno, "),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.out.find("shop/report-builder"), std::string::npos) << r.out;
  CommandRun kept =
      Ksched("schedule -f " + Example("cluster.yaml") + " --pending " + pod + " --keep-pending");
  EXPECT_EQ(kept.status, 1) << kept.err;  // report-builder still fits nowhere
  EXPECT_EQ(kept.err.find("left out"), std::string::npos) << kept.err;
  EXPECT_NE(kept.out.find("shop/report-builder"), std::string::npos) << kept.out;
  EXPECT_NE(kept.out.find("shop/extra"), std::string::npos) << kept.out;
  CommandRun add = Ksched("schedule -f " + Example("cluster.yaml") + " --pending " + pod +
                          " --add-node " + Example("node-template.yaml"));
  EXPECT_NE(add.err.find("replaces the snapshot's 5 pending pod(s)"), std::string::npos) << add.err;
}

}  // namespace planning_cli_test
