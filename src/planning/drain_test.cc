#include "planning/drain.h"

#include <gtest/gtest.h>

#include "planning/planning_test_util.h"

namespace ksched::planning {
namespace {

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
  EXPECT_EQ(r.deleted, (std::vector<std::string>{"default/bare"}));
  ASSERT_EQ(r.staying.size(), 2u);
  EXPECT_EQ(r.staying[0].pod, "default/agent");
  EXPECT_EQ(r.staying[0].why, "DaemonSet agent");
  EXPECT_EQ(r.staying[1].why, "mirror pod");
  EXPECT_TRUE(r.safe);
  EXPECT_EQ(r.verdict,
            "safe to drain: 1 pod evicted, all rescheduled; 1 pod without a controller deleted "
            "for good (kubectl drain --force); 2 pods stay (DaemonSet or mirror)");
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

std::string Pdb(const std::string& name, const std::string& app, int allowed) {
  return fmt::format(R"(
- apiVersion: policy/v1beta1
  kind: PodDisruptionBudget
  metadata: {{name: {0}, namespace: default}}
  spec: {{minAvailable: 1, selector: {{matchLabels: {{app: {1}}}}}}}
  status: {{disruptionsAllowed: {2}}}
)",
                     name, app, allowed);
}

TEST(PlanDrain, DisruptionBudgetsBlock) {
  const std::string two_web = NodeYaml("n1", "4") + NodeYaml("n2", "4") +
                              PodYaml("web-1", "1", "n1", Owner("ReplicaSet", "web")) +
                              PodYaml("web-2", "1", "n1", Owner("ReplicaSet", "web"));
  DrainReport allows_two = Drain(two_web + Pdb("web-pdb", "web", 2), {"n1"});
  EXPECT_TRUE(allows_two.safe);
  EXPECT_TRUE(allows_two.blocking.empty());
  DrainReport allows_one = Drain(two_web + Pdb("web-pdb", "web", 1), {"n1"});
  EXPECT_FALSE(allows_one.safe);
  ASSERT_EQ(allows_one.blocking.size(), 1u);
  EXPECT_EQ(allows_one.blocking[0].pdb, "default/web-pdb");
  EXPECT_EQ(allows_one.blocking[0].pods,
            (std::vector<std::string>{"default/web-1", "default/web-2"}));
  EXPECT_EQ(allows_one.verdict,
            "not safe to drain: PodDisruptionBudget default/web-pdb allows 1 disruption now "
            "(status.disruptionsAllowed), the drain needs 2");
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

}  // namespace
}  // namespace ksched::planning
