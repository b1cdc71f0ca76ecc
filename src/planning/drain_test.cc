#include "planning/drain.h"

#include <gtest/gtest.h>

#include "planning/planning_test_util.h"

namespace ksched::planning {
namespace drain_test {

using testing::DefaultScheduler;
using testing::NodeYaml;
using testing::PodYaml;

std::string Owner(const std::string& kind, const std::string& name) {
  return fmt::format(
      "    labels: {{app: {1}}}\n    ownerReferences: [{{apiVersion: apps/v1, kind: {0}, name: "
      "{1}, "
      "uid: u-{1}, controller: true}}]\n",
      kind, name);
}

DrainReport Drain(const std::string& cluster, std::vector<std::string> nodes,
                  DrainOptions options = {}) {
  auto r = PlanDrain(testing::DecodeYaml(cluster), nodes, DefaultScheduler(), options);
  EXPECT_TRUE(r.ok()) << r.error().message;
  return r.ok() ? std::move(r).value() : DrainReport{};
}

// n1 runs a ReplicaSet pod, a DaemonSet pod, a mirror pod and a bare pod; n2
// and n3 have room.
const std::string kCluster =
    NodeYaml("n1", "4") + NodeYaml("n2", "2") + NodeYaml("n3", "2") +
    PodYaml("web-1", "1", "n1", Owner("ReplicaSet", "web")) +
    PodYaml("agent", "100m", "n1", Owner("DaemonSet", "agent")) +
    PodYaml("static", "100m", "n1", "    annotations: {kubernetes.io/config.mirror: abc}\n") +
    PodYaml("bare", "100m", "n1") + PodYaml("waiting", "1", "");

TEST(PlanDrain, SortsPodsAsKubectlDrain) {
  DrainReport r = Drain(kCluster, {"n1"});
  ASSERT_EQ(r.evicted.size(), 1u);
  EXPECT_EQ(r.evicted[0].record.pod, "default/web-1");
  EXPECT_EQ(r.evicted[0].from, "n1");
  EXPECT_EQ(r.evicted[0].record.node, "n2");
  ASSERT_EQ(r.deleted.size(), 1u);
  EXPECT_EQ(r.deleted[0].pod, "default/bare");
  EXPECT_EQ(r.deleted[0].node, "n1");
  ASSERT_EQ(r.staying.size(), 2u);
  EXPECT_EQ(r.staying[0].pod, "default/agent");
  EXPECT_EQ(r.staying[0].why, "DaemonSet agent");
  EXPECT_EQ(r.staying[1].why, "mirror pod");
  EXPECT_TRUE(r.safe);
  EXPECT_EQ(r.verdict,
            "safe to drain: 1 pod evicted, all rescheduled; 1 pod without a controller deleted "
            "for good (kubectl drain --force); 2 pods stay (DaemonSet or mirror); the snapshot's "
            "1 pending pod is left out (it would compete with the replacements for room)");
  EXPECT_EQ(r.pending_left_out, 1u);
}

// A pod with emptyDir volumes stops kubectl drain unless
// --delete-emptydir-data; DaemonSet pods with one stay and do not count.
TEST(PlanDrain, EmptyDirNeedsDeleteEmptyDirData) {
  const std::string scratch = R"(
- apiVersion: v1
  kind: Pod
  metadata:
    name: cache-1
    namespace: default
    ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: cache, uid: u-c, controller: true}]
  spec:
    nodeName: n1
    volumes: [{name: scratch, emptyDir: {}}, {name: conf, configMap: {name: c}}]
    containers: [{name: c, image: pause, resources: {requests: {cpu: 100m}}}]
- apiVersion: v1
  kind: Pod
  metadata:
    name: agent-2
    namespace: default
    ownerReferences: [{apiVersion: apps/v1, kind: DaemonSet, name: agent, uid: u-a, controller: true}]
  spec:
    nodeName: n1
    volumes: [{name: buf, emptyDir: {medium: Memory}}]
    containers: [{name: c, image: pause}]
)";
  const std::string cluster = NodeYaml("n1", "4") + NodeYaml("n2", "4") + scratch;
  DrainReport blocked = Drain(cluster, {"n1"});
  EXPECT_FALSE(blocked.safe);
  EXPECT_TRUE(blocked.local_data_blocks);
  ASSERT_EQ(blocked.local_data.size(), 1u);
  EXPECT_EQ(blocked.local_data[0].pod, "default/cache-1");
  EXPECT_EQ(blocked.local_data[0].volumes, (std::vector<std::string>{"scratch"}));
  EXPECT_EQ(blocked.verdict,
            "not safe to drain: kubectl drain refuses 1 pod with local data (emptyDir): "
            "default/cache-1; --delete-emptydir-data deletes that data and lets the drain go on "
            "(the rest of this report assumes it); 1 pod stays (DaemonSet or mirror)");
  // The replacement is still scheduled, as it would be with the flag.
  ASSERT_EQ(blocked.evicted.size(), 1u);
  EXPECT_EQ(blocked.evicted[0].record.node, "n2");
  DrainOptions flag;
  flag.delete_emptydir_data = true;
  DrainReport ok = Drain(cluster, {"n1"}, flag);
  EXPECT_TRUE(ok.safe);
  EXPECT_FALSE(ok.local_data_blocks);
  EXPECT_NE(
      ok.verdict.find("; 1 pod loses emptyDir data (--delete-emptydir-data): default/cache-1"),
      std::string::npos)
      << ok.verdict;
}

TEST(PlanDrain, ReplacementsInPriorityThenNameOrder) {
  // Room for one 2-core pod on n2; the higher-priority one gets it even
  // though its name sorts later.
  const std::string cluster = NodeYaml("n1", "4") + NodeYaml("n2", "2") +
                              PodYaml("a", "2", "n1", Owner("ReplicaSet", "a"), 0) +
                              PodYaml("b", "2", "n1", Owner("ReplicaSet", "b"), 10);
  DrainReport r = Drain(cluster, {"n1"});
  ASSERT_EQ(r.evicted.size(), 2u);
  EXPECT_EQ(r.evicted[0].record.pod, "default/b");
  EXPECT_EQ(r.evicted[0].record.node, "n2");
  EXPECT_EQ(r.evicted[1].record.pod, "default/a");
  EXPECT_EQ(r.evicted[1].record.node, "");
  // The drained node is cordoned: not a place for its own pods.
  EXPECT_EQ(r.evicted[1].record.error,
            "0/2 nodes are available: 1 Insufficient cpu, 1 node(s) were unschedulable.");
  EXPECT_FALSE(r.safe);
  EXPECT_EQ(r.unschedulable, 1u);
  EXPECT_EQ(r.verdict, "not safe to drain: 1 of 2 evicted pods fit nowhere else");
  // The same without priorities: name order.
  const std::string equal = NodeYaml("n1", "4") + NodeYaml("n2", "2") +
                            PodYaml("a", "2", "n1", Owner("ReplicaSet", "a")) +
                            PodYaml("b", "2", "n1", Owner("ReplicaSet", "b"));
  DrainReport e = Drain(equal, {"n1"});
  EXPECT_EQ(e.evicted[0].record.pod, "default/a");
  EXPECT_EQ(e.evicted[0].record.node, "n2");
}

std::string Pdb(const std::string& name, const std::string& app, int allowed,
                const std::string& spec = "minAvailable: 1") {
  return fmt::format(R"(
- apiVersion: policy/v1beta1
  kind: PodDisruptionBudget
  metadata: {{name: {0}, namespace: default}}
  spec: {{{3}, selector: {{matchLabels: {{app: {1}}}}}}}
  status: {{disruptionsAllowed: {2}}}
)",
                     name, app, allowed, spec);
}

TEST(PlanDrain, DisruptionBudgetsBlock) {
  const std::string two_web = NodeYaml("n1", "4") + NodeYaml("n2", "4") +
                              PodYaml("web-1", "1", "n1", Owner("ReplicaSet", "web")) +
                              PodYaml("web-2", "1", "n1", Owner("ReplicaSet", "web"));
  DrainReport allows_two = Drain(two_web + Pdb("web-pdb", "web", 2), {"n1"});
  EXPECT_TRUE(allows_two.safe);
  EXPECT_TRUE(allows_two.blocking.empty());
  // One now, and one more once web-1's replacement is Ready: kubectl's
  // retries get through.
  DrainReport allows_one = Drain(two_web + Pdb("web-pdb", "web", 1), {"n1"});
  EXPECT_TRUE(allows_one.safe);
  ASSERT_EQ(allows_one.blocking.size(), 1u);
  EXPECT_FALSE(allows_one.blocking[0].permanent);
  EXPECT_EQ(allows_one.blocking[0].pdb, "default/web-pdb");
  EXPECT_EQ(allows_one.blocking[0].pods,
            (std::vector<std::string>{"default/web-1", "default/web-2"}));
  EXPECT_EQ(allows_one.verdict,
            "safe to drain: 2 pods evicted, all rescheduled; PodDisruptionBudget default/web-pdb "
            "slows the drain: it allows 1 disruption now (status.disruptionsAllowed), the drain "
            "needs 2; kubectl drain retries, and with minAvailable 1 of 2 pods each eviction goes "
            "through once the replacements evicted before it are Ready (1 at a time)");
  // minAvailable equal to the pods, or maxUnavailable 0: no retry helps.
  for (const std::string& spec : {std::string("minAvailable: 2"), std::string("maxUnavailable: 0"),
                                  std::string("minAvailable: \"100%\"")}) {
    DrainReport never = Drain(two_web + Pdb("web-pdb", "web", 0, spec), {"n1"});
    EXPECT_FALSE(never.safe) << spec;
    ASSERT_EQ(never.blocking.size(), 1u) << spec;
    EXPECT_TRUE(never.blocking[0].permanent) << spec;
    EXPECT_NE(never.verdict.find("it allows none even when all are healthy"), std::string::npos)
        << never.verdict;
  }
  // maxUnavailable 1, but n2 has room for one of the two replacements: the
  // other never comes back, so the budget never allows its eviction.
  const std::string no_room = NodeYaml("n1", "4") + NodeYaml("n2", "1") +
                              PodYaml("web-1", "1", "n1", Owner("ReplicaSet", "web")) +
                              PodYaml("web-2", "1", "n1", Owner("ReplicaSet", "web"));
  DrainReport stuck = Drain(no_room + Pdb("web-pdb", "web", 1, "maxUnavailable: 1"), {"n1"});
  EXPECT_FALSE(stuck.safe);
  ASSERT_EQ(stuck.blocking.size(), 1u);
  EXPECT_TRUE(stuck.blocking[0].permanent);
  EXPECT_NE(stuck.blocking[0].why.find("but default/web-2 never comes back"), std::string::npos)
      << stuck.blocking[0].why;
  // The budget allows none now because its own pod web-3 is pending: the
  // drain waits for that pod, named, not for replacements evicted before.
  const std::string with_pending = two_web + PodYaml("web-3", "1", "", Owner("ReplicaSet", "web"));
  DrainReport waits = Drain(with_pending + Pdb("web-pdb", "web", 0, "maxUnavailable: 1"), {"n1"});
  ASSERT_EQ(waits.blocking.size(), 1u);
  EXPECT_FALSE(waits.blocking[0].permanent);
  EXPECT_EQ(waits.blocking[0].waits_for, (std::vector<std::string>{"default/web-3"}));
  EXPECT_NE(waits.blocking[0].why.find("it waits for its pending pod default/web-3 to run and be "
                                       "Ready"),
            std::string::npos)
      << waits.blocking[0].why;
  // A budget in another namespace or for other labels does not count.
  DrainReport other = Drain(two_web + Pdb("db-pdb", "db", 0), {"n1"});
  EXPECT_TRUE(other.safe);
  // Two budgets over one pod: the eviction API refuses it.
  DrainReport both = Drain(two_web + Pdb("p1", "web", 5) + Pdb("p2", "web", 5), {"n1"});
  EXPECT_FALSE(both.safe);
  ASSERT_EQ(both.blocking.size(), 2u);
  EXPECT_EQ(both.blocking[0].pdb, "default/p1, default/p2");
  EXPECT_NE(both.blocking[0].why.find("more than one PodDisruptionBudget"), std::string::npos);
}

TEST(PlanDrain, SeveralNodesAndUnknownNames) {
  DrainReport r = Drain(kCluster, {"n1", "n2"});
  ASSERT_EQ(r.evicted.size(), 1u);
  EXPECT_EQ(r.evicted[0].record.node, "n3");
  auto missing = PlanDrain(testing::DecodeYaml(kCluster), {"n9"}, DefaultScheduler(), {});
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().message, "drain: node \"n9\" is not in the snapshot");
}

TEST(PlanDrain, UsageBeforeAndAfterWhenRecording) {
  DrainOptions o;
  o.record_details = true;
  DrainReport r = Drain(kCluster, {"n1"}, o);
  ASSERT_EQ(r.before.size(), 3u);
  ASSERT_EQ(r.after.size(), 3u);
  EXPECT_EQ(r.before[0].cpu, 1300);  // web-1, agent, static, bare
  EXPECT_EQ(r.after[0].cpu, 200);    // agent and static stay
  EXPECT_EQ(r.before[1].cpu, 0);
  EXPECT_EQ(r.after[1].cpu, 1000);  // web-1's replacement
}

}  // namespace drain_test
}  // namespace ksched::planning
