#include "planning/add_node.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <set>

#include "planning/planning_test_util.h"

namespace ksched::planning {
namespace add_node_test {

using testing::DefaultScheduler;
using testing::NodeYaml;
using testing::PodYaml;
using testing::SnapshotOf;

TrialFn Fake(std::function<bool(int64_t)> ok) {
  return [ok](int64_t k) -> Result<Trial> {
    Trial t;
    t.ok = ok(k);
    t.failed_pod = "default/p";
    t.error = "with " + std::to_string(k);
    return t;
  };
}

std::vector<int64_t> Ks(const AddNodeAnswer& a) {
  std::vector<int64_t> out;
  for (const Trial& t : a.trials) out.push_back(t.k);
  return out;
}

TEST(SearchNodesToAdd, ExponentialThenBinary) {
  auto a = SearchNodesToAdd(1000, SearchMode::kBisect, Fake([](int64_t k) { return k >= 5; }));
  ASSERT_TRUE(a.ok());
  ASSERT_TRUE(a->nodes);
  EXPECT_EQ(*a->nodes, 5);
  EXPECT_EQ(Ks(*a), (std::vector<int64_t>{0, 1, 2, 4, 8, 6, 5}));
  auto zero = SearchNodesToAdd(1000, SearchMode::kBisect, Fake([](int64_t) { return true; }));
  EXPECT_EQ(*zero->nodes, 0);
  EXPECT_EQ(zero->trials.size(), 1u);
  // 700 of 1000: about 2*log2(700) runs, not 700.
  auto big = SearchNodesToAdd(1000, SearchMode::kBisect, Fake([](int64_t k) { return k >= 700; }));
  EXPECT_EQ(*big->nodes, 700);
  EXPECT_LE(big->trials.size(), 22u);
  // The cap itself is tried.
  auto capped =
      SearchNodesToAdd(1000, SearchMode::kBisect, Fake([](int64_t k) { return k >= 1000; }));
  EXPECT_EQ(*capped->nodes, 1000);
}

TEST(SearchNodesToAdd, NoneUpToMaxReportsTheRunAtMax) {
  auto a = SearchNodesToAdd(10, SearchMode::kBisect, Fake([](int64_t) { return false; }));
  ASSERT_TRUE(a.ok());
  EXPECT_FALSE(a->nodes);
  EXPECT_EQ(Ks(*a), (std::vector<int64_t>{0, 1, 2, 4, 8, 10}));
  EXPECT_EQ(a->error, "with 10");
  EXPECT_EQ(a->failed_pod, "default/p");
  auto zero = SearchNodesToAdd(0, SearchMode::kBisect, Fake([](int64_t) { return false; }));
  EXPECT_EQ(Ks(*zero), (std::vector<int64_t>{0}));
  auto linear = SearchNodesToAdd(3, SearchMode::kLinear, Fake([](int64_t) { return false; }));
  EXPECT_EQ(Ks(*linear), (std::vector<int64_t>{0, 1, 2, 3}));
  EXPECT_EQ(linear->error, "with 3");
}

// Success that is not monotone in k: bisection returns a k whose run
// succeeded and whose k-1 failed; only the linear search finds the smallest.
TEST(SearchNodesToAdd, NonMonotoneSuccessBisectVersusLinear) {
  auto ok = [](int64_t k) { return k == 3 || k >= 6; };
  auto bisect = SearchNodesToAdd(100, SearchMode::kBisect, Fake(ok));
  EXPECT_EQ(*bisect->nodes, 6);
  auto linear = SearchNodesToAdd(100, SearchMode::kLinear, Fake(ok));
  EXPECT_EQ(*linear->nodes, 3);
  EXPECT_EQ(Ks(*linear), (std::vector<int64_t>{0, 1, 2, 3}));
}

// A pod no new node takes: after the failing run at 0, one run at max
// decides, instead of the whole search.
TEST(SearchNodesToAdd, NoNumberOfNodesHelps) {
  NeverFn never = [](const Trial&) -> Result<std::optional<std::pair<std::string, std::string>>> {
    return std::make_optional(std::make_pair(std::string("default/p"), std::string("taints")));
  };
  for (SearchMode mode : {SearchMode::kBisect, SearchMode::kLinear}) {
    auto a = SearchNodesToAdd(1000, mode, Fake([](int64_t) { return false; }), never);
    ASSERT_TRUE(a.ok());
    EXPECT_FALSE(a->nodes);
    EXPECT_EQ(Ks(*a), (std::vector<int64_t>{0, 1000}));
    EXPECT_EQ(a->never_pod, "default/p");
    EXPECT_EQ(a->never, "taints");
    EXPECT_EQ(a->error, "with 1000");
  }
  // When the run at max succeeds after all (others made room on old
  // nodes), the search goes on below it.
  auto found =
      SearchNodesToAdd(100, SearchMode::kBisect, Fake([](int64_t k) { return k >= 30; }), never);
  EXPECT_EQ(*found->nodes, 30);
  EXPECT_EQ(found->trials[1].k, 100);
  auto linear =
      SearchNodesToAdd(3, SearchMode::kLinear, Fake([](int64_t k) { return k >= 3; }), never);
  EXPECT_EQ(*linear->nodes, 3);
  EXPECT_EQ(Ks(*linear), (std::vector<int64_t>{0, 3, 1, 2}));
}

TEST(SearchNodesToAdd, ATrialErrorStopsTheSearch) {
  TrialFn failing = [](int64_t k) -> Result<Trial> {
    if (k == 2) return MakeError("boom");
    Trial t;
    return t;
  };
  auto a = SearchNodesToAdd(10, SearchMode::kBisect, failing);
  ASSERT_FALSE(a.ok());
  EXPECT_EQ(a.error().message, "boom");
}

NodeTemplate Template(const std::string& cpu) {
  ObjectSet set = testing::DecodeYaml(NodeYaml("extra", cpu));
  NodeTemplate t;
  t.node = set.nodes.at(0);
  t.file = "extra.yaml";
  return t;
}

TEST(NodeCopies, NamesAndHostnames) {
  std::vector<Node> copies = NodeCopies(Template("2"), 3);
  ASSERT_EQ(copies.size(), 3u);
  EXPECT_EQ(copies[2].meta.name, "extra-3");
  auto host = copies[2].meta.labels.Get(Intern("kubernetes.io/hostname"));
  ASSERT_TRUE(host);
  EXPECT_EQ(Str(*host), "extra-3");
  EXPECT_EQ(copies[0].allocatable, Template("2").node.allocatable);
}

// One 2-core node and three pending 1-core pods: one more 2-core node makes
// them fit; half-core nodes never do.
TEST(FindNodesToAdd, PendingPodsOfASnapshot) {
  Snapshot snap = SnapshotOf(NodeYaml("n1", "2") + PodYaml("a", "1", "") + PodYaml("b", "1", "") +
                             PodYaml("c", "1", ""));
  auto a = FindNodesToAdd(snap, {}, Template("2"), DefaultScheduler(), {}, SearchMode::kBisect);
  ASSERT_TRUE(a.ok()) << a.error().message;
  ASSERT_TRUE(a->nodes);
  EXPECT_EQ(*a->nodes, 1);
  EXPECT_EQ(a->template_name, "extra");
  NodeTemplate small = Template("500m");
  small.max = 5;
  auto none = FindNodesToAdd(snap, {}, small, DefaultScheduler(), {}, SearchMode::kBisect);
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->nodes);
  EXPECT_EQ(none->failed_pod, "default/c");
  EXPECT_EQ(none->error, "0/6 nodes are available: 6 Insufficient cpu.");
  EXPECT_EQ(none->trials.back().k, 5);
  // Said at once: a half-core node never takes a 1-core pod.
  EXPECT_EQ(none->trials.size(), 2u);
  EXPECT_EQ(none->never_pod, "default/c");
  EXPECT_EQ(none->never, "GeneralPredicates: Insufficient cpu");
  // The answer's run says where the pods land.
  const Trial* t = a->answer_trial();
  ASSERT_NE(t, nullptr);
  ASSERT_EQ(t->placements.size(), 3u);
  EXPECT_EQ(t->placements[2], (std::pair<std::string, std::string>{"default/c", "extra-1"}));
}

// A DaemonSet pod running on n1 (pinned there by the controller's
// metadata.name term): each new node runs one too, when it fits there.
std::string DaemonPod(const std::string& name, const std::string& cpu, const std::string& node,
                      const std::string& tolerations = "") {
  return fmt::format(R"(
- apiVersion: v1
  kind: Pod
  metadata:
    name: {0}-x1
    namespace: default
    ownerReferences: [{{apiVersion: apps/v1, kind: DaemonSet, name: {0}, uid: u-{0}, controller: true}}]
  spec:
    nodeName: {2}
    affinity:
      nodeAffinity:
        requiredDuringSchedulingIgnoredDuringExecution:
          nodeSelectorTerms: [{{matchFields: [{{key: metadata.name, operator: In, values: [{2}]}}]}}]
    {3}
    containers: [{{name: c, image: agent, resources: {{requests: {{cpu: "{1}"}}}}}}]
)",
                     name, cpu, node, tolerations);
}

TEST(FindNodesToAdd, NewNodesRunTheirDaemonSets) {
  // n1: 2 cores, the agent takes 500m: room for one 1-core pod; the other
  // two need a new node each, as the agent runs there too.
  Snapshot snap = SnapshotOf(NodeYaml("n1", "2") + DaemonPod("agent", "500m", "n1") +
                             PodYaml("a", "1", "") + PodYaml("b", "1", "") + PodYaml("c", "1", ""));
  auto a = FindNodesToAdd(snap, {}, Template("2"), DefaultScheduler(), {}, SearchMode::kLinear);
  ASSERT_TRUE(a.ok()) << a.error().message;
  ASSERT_TRUE(a->nodes);
  EXPECT_EQ(*a->nodes, 2);
  EXPECT_EQ(a->daemon_sets, (std::vector<std::string>{"default/agent"}));
  // A 1-core template with the agent on it never takes a 1-core pod.
  auto never = FindNodesToAdd(snap, {}, Template("1"), DefaultScheduler(), {}, SearchMode::kLinear);
  ASSERT_TRUE(never.ok()) << never.error().message;
  EXPECT_FALSE(never->nodes);
  EXPECT_EQ(never->trials.size(), 2u);
  EXPECT_EQ(never->never, "GeneralPredicates: Insufficient cpu (beside its 1 DaemonSet pod)");
  // A DaemonSet that does not tolerate the template's taint stays off it.
  ObjectSet tainted = testing::DecodeYaml(NodeYaml(
      "extra", "2",
      "    annotations: {}\n  spec: {taints: [{key: pool, value: gpu, effect: NoSchedule}]}\n"));
  NodeTemplate t;
  t.node = tainted.nodes.at(0);
  t.file = "tainted.yaml";
  auto fit = FitTemplate(t, DaemonSetTemplates(snap.objects), DefaultScheduler());
  ASSERT_TRUE(fit.ok()) << fit.error().message;
  EXPECT_TRUE(fit->daemons.empty());
  auto why = fit->never(snap.pending[0]);
  ASSERT_TRUE(why.ok());
  EXPECT_EQ(*why, "PodToleratesNodeTaints: node(s) had taints that the pod didn't tolerate");
}

// A DaemonSet object: its template decides (node selector `sel`, when set).
std::string DaemonSetYaml(const std::string& name, const std::string& cpu,
                          const std::string& node_selector = "") {
  return fmt::format(R"(
- apiVersion: apps/v1
  kind: DaemonSet
  metadata: {{name: {0}, namespace: default, uid: ds-{0}}}
  spec:
    selector: {{matchLabels: {{app: {0}}}}}
    template:
      metadata: {{labels: {{app: {0}}}}}
      spec:
        {2}
        containers: [{{name: c, image: agent, resources: {{requests: {{cpu: "{1}"}}}}}}]
)",
                     name, cpu, node_selector);
}

TEST(FindNodesToAdd, DaemonSetObjectsGiveTheTemplate) {
  // The agent's object: its template (500m) is used, and its running pod
  // (which asks 100m; same namespace and name) is not counted a second time. The gpu-only
  // DaemonSet's node selector keeps it off a template node without the label, which its running
  // pods could not tell (the controller pinned them by name).
  Snapshot snap =
      SnapshotOf(NodeYaml("n1", "2") + DaemonSetYaml("agent", "500m") +
                 DaemonSetYaml("gpu-driver", "1", "nodeSelector: {pool: gpu}") +
                 DaemonPod("agent", "100m", "n1") + PodYaml("a", "1", "") + PodYaml("b", "1", ""));
  ASSERT_EQ(snap.objects.daemon_sets.size(), 2u);
  std::vector<Pod> daemons = DaemonSetTemplates(snap.objects);
  ASSERT_EQ(daemons.size(), 2u);
  EXPECT_EQ(daemons[0].meta.name, "agent");
  EXPECT_EQ(Str(daemons[0].meta.ns), "default");
  ASSERT_EQ(daemons[0].meta.owner_references.size(), 1u);
  EXPECT_EQ(daemons[0].meta.owner_references[0].kind, "DaemonSet");
  // The controller's tolerations.
  std::set<std::string> tolerated;
  for (const Toleration& t : daemons[0].spec.tolerations)
    tolerated.insert(std::string(Str(t.key)) + ":" + t.effect_str);
  EXPECT_EQ(tolerated, (std::set<std::string>{"node.kubernetes.io/not-ready:NoExecute",
                                              "node.kubernetes.io/unreachable:NoExecute",
                                              "node.kubernetes.io/disk-pressure:NoSchedule",
                                              "node.kubernetes.io/memory-pressure:NoSchedule",
                                              "node.kubernetes.io/pid-pressure:NoSchedule",
                                              "node.kubernetes.io/unschedulable:NoSchedule"}));
  auto a = FindNodesToAdd(snap, {}, Template("2"), DefaultScheduler(), {}, SearchMode::kLinear);
  ASSERT_TRUE(a.ok()) << a.error().message;
  EXPECT_EQ(a->daemon_sets, (std::vector<std::string>{"default/agent"}));
  // n1 (100m used) takes a; b needs one new node beside its 500m agent.
  ASSERT_TRUE(a->nodes);
  EXPECT_EQ(*a->nodes, 1);
  // A 1.4-core template with the 500m agent never takes a 1-core pod.
  auto never =
      FindNodesToAdd(snap, {}, Template("1400m"), DefaultScheduler(), {}, SearchMode::kLinear);
  ASSERT_TRUE(never.ok()) << never.error().message;
  EXPECT_FALSE(never->nodes);
  EXPECT_NE(never->never.find("Insufficient cpu (beside its 1 DaemonSet pod)"), std::string::npos)
      << never->never;
  // A cordoned gpu node runs both: DaemonSet pods tolerate unschedulable.
  ObjectSet gpu = testing::DecodeYaml(
      NodeYaml("gpu", "4", "    annotations: {}\n  spec: {unschedulable: true}\n"));
  gpu.nodes.at(0).meta.labels.Set(Intern("pool"), Intern("gpu"));
  NodeTemplate t;
  t.node = gpu.nodes.at(0);
  t.file = "gpu.yaml";
  auto fit = FitTemplate(t, DaemonSetTemplates(snap.objects), DefaultScheduler());
  ASSERT_TRUE(fit.ok()) << fit.error().message;
  EXPECT_EQ(fit->daemon_names, (std::vector<std::string>{"default/agent", "default/gpu-driver"}));
}

TEST(FindNodesToAdd, WorkloadCopiesNeedACount) {
  Snapshot snap = SnapshotOf(NodeYaml("n1", "2"));
  // Five 1-core copies: 2 on n1, so ceil(3/2) = 2 nodes of 2 cores.
  auto ws = testing::WorkloadsOf(testing::WorkloadYaml("Deployment", "web", "1", 5));
  auto a = FindNodesToAdd(snap, ws, Template("2"), DefaultScheduler(), {}, SearchMode::kLinear);
  ASSERT_TRUE(a.ok()) << a.error().message;
  EXPECT_EQ(*a->nodes, 2);
  EXPECT_EQ(a->trials.size(), 3u);
  auto unbounded = testing::WorkloadsOf(testing::WorkloadYaml("Deployment", "web", "1"));
  auto err =
      FindNodesToAdd(snap, unbounded, Template("2"), DefaultScheduler(), {}, SearchMode::kBisect);
  ASSERT_FALSE(err.ok());
  EXPECT_NE(err.error().message.find("needs a count"), std::string::npos);
}

TEST(LoadNodeTemplate, FileAndMax) {
  std::string path =
      ::testing::TempDir() + "/ksched-add-node-" + std::to_string(getpid()) + ".yaml";
  std::ofstream(path) << "apiVersion: v1\nkind: List\nitems:\n" << NodeYaml("big", "8");
  auto t = LoadNodeTemplate(path + "=50");
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(t->max, 50);
  EXPECT_EQ(t->node.meta.name, "big");
  auto d = LoadNodeTemplate(path);
  EXPECT_EQ(d->max, kDefaultAddNodeMax);
  std::ofstream(path) << "apiVersion: v1\nkind: List\nitems:\n"
                      << NodeYaml("a", "8") << NodeYaml("b", "8");
  auto two = LoadNodeTemplate(path);
  std::remove(path.c_str());
  ASSERT_FALSE(two.ok());
  EXPECT_NE(two.error().message.find("exactly one Node, found 2"), std::string::npos);
}

}  // namespace add_node_test
}  // namespace ksched::planning
