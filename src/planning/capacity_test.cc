#include "planning/capacity.h"

#include <gtest/gtest.h>

#include "planning/planning_test_util.h"

namespace ksched::planning {
namespace capacity_test {

using testing::DefaultScheduler;
using testing::NodeYaml;
using testing::PodYaml;
using testing::SnapshotOf;
using testing::WorkloadsOf;
using testing::WorkloadYaml;

// Two nodes of 2 cores: room for four 1-core copies.
const std::string kTwoNodes = NodeYaml("n1", "2") + NodeYaml("n2", "2");

CapacityResult RunCapacity(const std::string& cluster, std::vector<Workload> ws,
                           CapacityOptions options = {}) {
  Snapshot snap = SnapshotOf(cluster);
  auto r = PlanCapacity(snap.objects, snap.pending, std::move(ws), DefaultScheduler(), options);
  EXPECT_TRUE(r.ok()) << r.error().message;
  return r.ok() ? std::move(r).value() : CapacityResult{};
}

TEST(PlanCapacity, UntilOneDoesNotFit) {
  WorkloadArg fill;
  fill.fill = true;
  CapacityResult r =
      RunCapacity(kTwoNodes, WorkloadsOf(WorkloadYaml("Deployment", "web", "1", 3), fill));
  ASSERT_EQ(r.workloads.size(), 1u);
  const WorkloadOutcome& w = r.workloads[0];
  EXPECT_EQ(w.placed, 4);
  EXPECT_FALSE(w.requested);
  ASSERT_EQ(w.per_node.size(), 2u);
  EXPECT_EQ(w.per_node[0], (std::pair<std::string, int64_t>{"n1", 2}));
  EXPECT_EQ(w.per_node[1], (std::pair<std::string, int64_t>{"n2", 2}));
  EXPECT_EQ(w.stop_reason, "0/2 nodes are available: 2 Insufficient cpu.");
  EXPECT_EQ(w.failed_pod.rfind("default/web-", 0), 0u);
  EXPECT_FALSE(r.everything_fits());
}

TEST(PlanCapacity, ACountStopsThere) {
  CapacityResult r = RunCapacity(kTwoNodes, WorkloadsOf(WorkloadYaml("Deployment", "web", "1", 3)));
  ASSERT_EQ(r.workloads.size(), 1u);
  EXPECT_EQ(r.workloads[0].placed, 3);
  EXPECT_TRUE(r.workloads[0].complete());
  EXPECT_EQ(r.workloads[0].stop_reason, "all 3 requested copies placed");
  CapacityResult one =
      RunCapacity(kTwoNodes, WorkloadsOf(WorkloadYaml("Deployment", "web", "1", 1)));
  EXPECT_EQ(one.workloads[0].stop_reason, "the 1 requested copy placed");
  EXPECT_TRUE(r.everything_fits());
  // Five asked, four fit.
  WorkloadArg five;
  five.count = 5;
  CapacityResult over =
      RunCapacity(kTwoNodes, WorkloadsOf(WorkloadYaml("Deployment", "web", "1", 3), five));
  EXPECT_EQ(over.workloads[0].placed, 4);
  EXPECT_FALSE(over.workloads[0].complete());
}

TEST(PlanCapacity, PendingPodsGoFirstUnlessIgnored) {
  const std::string cluster = kTwoNodes + PodYaml("waiting", "1", "");
  WorkloadArg fill;
  fill.fill = true;
  auto ws = WorkloadsOf(WorkloadYaml("Deployment", "web", "1"), fill);
  CapacityResult first = RunCapacity(cluster, ws);
  ASSERT_EQ(first.pending.size(), 1u);
  EXPECT_EQ(first.pending[0].pod, "default/waiting");
  EXPECT_EQ(first.pending[0].node, "n1");
  EXPECT_EQ(first.pending_unscheduled, 0u);
  EXPECT_EQ(first.workloads[0].placed, 3);
  CapacityOptions ignore;
  ignore.schedule_pending = false;
  CapacityResult ignored = RunCapacity(cluster, ws, ignore);
  EXPECT_FALSE(ignored.pending_scheduled);
  EXPECT_TRUE(ignored.pending.empty());
  EXPECT_EQ(ignored.workloads[0].placed, 4);
}

TEST(PlanCapacity, WorkloadsInQueueOrderPriorityThenOrderGiven) {
  WorkloadArg fill;
  fill.fill = true;
  auto low = WorkloadsOf(WorkloadYaml("Deployment", "low", "1"), fill);
  auto high = WorkloadsOf(R"(apiVersion: apps/v1
kind: Deployment
metadata: {name: high}
spec:
  replicas: 3
  selector: {matchLabels: {app: high}}
  template:
    metadata: {labels: {app: high}}
    spec:
      priority: 100
      containers: [{name: c, image: pause, resources: {requests: {cpu: "1"}}}]
)");
  std::vector<Workload> both = low;
  both.insert(both.end(), high.begin(), high.end());
  CapacityResult r = RunCapacity(kTwoNodes, both);
  ASSERT_EQ(r.workloads.size(), 2u);
  // Reported in the order given, scheduled high first.
  EXPECT_EQ(r.workloads[0].label, "Deployment default/low");
  EXPECT_EQ(r.workloads[0].placed, 1);
  EXPECT_EQ(r.workloads[1].label, "Deployment default/high");
  EXPECT_EQ(r.workloads[1].placed, 3);
  EXPECT_EQ(r.workloads[1].priority, 100);
  // Equal priorities: the order given.
  auto second = WorkloadsOf(WorkloadYaml("Deployment", "second", "1"), fill);
  std::vector<Workload> in_order = low;
  in_order.insert(in_order.end(), second.begin(), second.end());
  CapacityResult o = RunCapacity(kTwoNodes, in_order);
  EXPECT_EQ(o.workloads[0].placed, 4);
  EXPECT_EQ(o.workloads[1].placed, 0);
}

TEST(PlanCapacity, CopiesCarryTheOwnerNodePreferAvoidPodsLooksFor) {
  const std::string avoid =
      "    annotations:\n      scheduler.alpha.kubernetes.io/preferAvoidPods: "
      "'{\"preferAvoidPods\":[{\"podSignature\":{\"podController\":{\"apiVersion\":\"apps/v1\","
      "\"kind\":\"ReplicaSet\",\"name\":\"front\",\"uid\":\"uid-front\",\"controller\":true}}}]}'"
      "\n";
  const std::string cluster = NodeYaml("n1", "4", avoid) + NodeYaml("n2", "4");
  CapacityResult r =
      RunCapacity(cluster, WorkloadsOf(WorkloadYaml("ReplicaSet", "front", "100m", 3)));
  ASSERT_EQ(r.workloads.size(), 1u);
  ASSERT_EQ(r.workloads[0].per_node.size(), 1u);
  EXPECT_EQ(r.workloads[0].per_node[0], (std::pair<std::string, int64_t>{"n2", 3}));
  // Another ReplicaSet is not avoided: its copies spread over both nodes.
  CapacityResult other =
      RunCapacity(cluster, WorkloadsOf(WorkloadYaml("ReplicaSet", "back", "100m", 2)));
  EXPECT_EQ(other.workloads[0].per_node.size(), 2u);
}

TEST(PlanCapacity, StatefulSetContinuesAfterItsExistingPods) {
  const std::string cluster = kTwoNodes + PodYaml("db-0", "100m", "n1");
  CapacityResult r =
      RunCapacity(cluster, WorkloadsOf(WorkloadYaml("StatefulSet", "db", "1", 2)), [] {
        CapacityOptions o;
        o.record_details = true;
        return o;
      }());
  ASSERT_EQ(r.copies.size(), 2u);
  EXPECT_EQ(r.copies[0].pod, "default/db-1");
  EXPECT_EQ(r.copies[1].pod, "default/db-2");
  EXPECT_EQ(r.workloads[0].placed, 2);
}

TEST(PlanCapacity, PreemptionOnlyWhenAsked) {
  const std::string cluster =
      NodeYaml("n1", "2") + PodYaml("low-1", "1", "n1") + PodYaml("low-2", "1", "n1");
  const std::string vip = R"(apiVersion: v1
kind: Pod
metadata: {name: vip}
spec:
  priority: 1000
  containers: [{name: c, image: pause, resources: {requests: {cpu: "1"}}}]
)";
  WorkloadArg one;
  one.count = 1;
  CapacityResult off = RunCapacity(cluster, WorkloadsOf(vip, one));
  EXPECT_EQ(off.workloads[0].placed, 0);
  EXPECT_EQ(off.workloads[0].stop_reason, "0/1 nodes are available: 1 Insufficient cpu.");
  CapacityOptions on;
  on.preemption = true;
  on.record_details = true;
  CapacityResult preempting = RunCapacity(cluster, WorkloadsOf(vip, one), on);
  EXPECT_EQ(preempting.workloads[0].placed, 1);
  ASSERT_EQ(preempting.copies.size(), 1u);
  EXPECT_EQ(preempting.copies[0].attempt, 2);
  EXPECT_EQ(preempting.copies[0].node, "n1");
  // One of the low pods went; usage after shows the node still full.
  ASSERT_EQ(preempting.after.size(), 1u);
  EXPECT_EQ(preempting.after[0].cpu, 2000);
  EXPECT_EQ(preempting.after[0].pods, 2);
}

// The snapshot's pending pods preempt as `schedule` lets them, even when the
// copies may not; the retry keeps the victims the first attempt named.
TEST(PlanCapacity, PendingPodsPreemptAsScheduleDoes) {
  const std::string cluster = NodeYaml("n1", "2") + PodYaml("low-1", "1", "n1") +
                              PodYaml("low-2", "1", "n1") + PodYaml("vip", "1", "", "", 1000);
  const std::string copy = WorkloadYaml("Deployment", "web", "1", 1);
  CapacityResult r = RunCapacity(cluster, WorkloadsOf(copy));
  ASSERT_EQ(r.pending.size(), 1u);
  EXPECT_EQ(r.pending_unscheduled, 0u);
  EXPECT_EQ(r.pending[0].node, "n1");
  EXPECT_EQ(r.pending[0].attempt, 2);
  EXPECT_EQ(r.pending[0].preempted_on, "n1");
  EXPECT_EQ(r.pending[0].victims.size(), 1u);
  EXPECT_EQ(r.workloads[0].placed, 0);  // the copy (priority 0) does not preempt
  CapacityOptions off;
  off.pending_preemption = false;  // --disable-preemption
  CapacityResult kept = RunCapacity(cluster, WorkloadsOf(copy), off);
  ASSERT_EQ(kept.pending.size(), 1u);
  EXPECT_EQ(kept.pending_unscheduled, 1u);
  EXPECT_TRUE(kept.pending[0].victims.empty());
}

TEST(PlanCapacity, UsageBeforeAndAfter) {
  CapacityResult r = RunCapacity(kTwoNodes + PodYaml("a", "500m", "n1"),
                                 WorkloadsOf(WorkloadYaml("Deployment", "web", "1", 2)));
  ASSERT_EQ(r.before.size(), 2u);
  EXPECT_EQ(r.before[0].name, "n1");
  EXPECT_EQ(r.before[0].cpu, 500);
  EXPECT_EQ(r.before[0].cpu_allocatable, 2000);
  EXPECT_EQ(r.before[0].pods, 1);
  int64_t after_cpu = r.after[0].cpu + r.after[1].cpu;
  EXPECT_EQ(after_cpu, 2500);
}

}  // namespace capacity_test
}  // namespace ksched::planning

namespace ksched::planning {
namespace capacity_test {

// An --add-node trial stops at the first pod that does not fit, in queue
// order (priority first), and agrees with the full run on whether all fit.
TEST(PlanCapacity, StopAtFirstFailure) {
  const std::string cluster = NodeYaml("n1", "2") + PodYaml("a", "1", "") + PodYaml("b", "3", "") +
                              PodYaml("c", "1", "") + PodYaml("d", "1", "", "", 5);
  Snapshot snap = SnapshotOf(cluster);
  CapacityOptions stop;
  stop.stop_at_first_failure = true;
  stop.pending_preemption = false;  // as an --add-node trial runs
  auto quick = PlanCapacity(snap.objects, snap.pending, {}, DefaultScheduler(), stop);
  ASSERT_TRUE(quick.ok());
  ASSERT_EQ(quick->pending.size(), 3u);  // d (priority 5), a, then b fails
  EXPECT_EQ(quick->pending[0].pod, "default/d");
  EXPECT_EQ(quick->pending[2].pod, "default/b");
  EXPECT_EQ(quick->pending[2].error, "0/1 nodes are available: 1 Insufficient cpu.");
  EXPECT_FALSE(quick->everything_fits());
  auto full = PlanCapacity(snap.objects, snap.pending, {}, DefaultScheduler(), {});
  ASSERT_TRUE(full.ok());
  EXPECT_EQ(full->pending.size(), 4u);
  // Listed in scheduling order, as `schedule` lists them: d first.
  EXPECT_EQ(full->pending[0].pod, "default/d");
  EXPECT_EQ(full->pending[1].pod, "default/a");
  EXPECT_EQ(full->pending_unscheduled, 2u);  // b, and c after d and a took both cores
  EXPECT_FALSE(full->everything_fits());
}

}  // namespace capacity_test
}  // namespace ksched::planning

namespace ksched::planning {
namespace capacity_test {

// SelectorSpread finds a pod's controllers by their selectors: the copies'
// ReplicaSet must be in the cluster. n1 already runs a pod with the
// workload's labels; otherwise the nodes score alike and the name decides.
TEST(PlanCapacity, SpreadingSeesTheWorkloadsController) {
  const std::string cluster = NodeYaml("n1", "8") + NodeYaml("n2", "2") +
                              PodYaml("old", "0", "n1", "    labels: {app: front}\n");
  WorkloadArg one;
  one.count = 1;
  CapacityResult rs =
      RunCapacity(cluster, WorkloadsOf(WorkloadYaml("ReplicaSet", "front", "0", 1)));
  ASSERT_EQ(rs.workloads[0].per_node.size(), 1u);
  EXPECT_EQ(rs.workloads[0].per_node[0].first, "n2");
  CapacityResult bare = RunCapacity(
      cluster, WorkloadsOf("apiVersion: v1\nkind: Pod\nmetadata: {name: p, labels: {app: front}}\n"
                           "spec: {containers: [{name: c, image: pause}]}\n",
                           one));
  ASSERT_EQ(bare.workloads[0].per_node.size(), 1u);
  EXPECT_EQ(bare.workloads[0].per_node[0].first, "n1");
}

}  // namespace capacity_test
}  // namespace ksched::planning
