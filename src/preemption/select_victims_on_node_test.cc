#include "preemption/select_victims_on_node.h"

#include <gtest/gtest.h>

#include "algorithm/provider.h"
#include "preemption/preemption_test_util.h"

namespace ksched {
namespace select_victims_on_node_test {

using namespace ksched::testing;

// Runs SelectVictimsOnNode for `pending` on node `node` of `cluster` with the
// DefaultProvider; returns the victims' names ("<no fit>" when the node is
// dropped).
struct Outcome {
  std::vector<std::string> victims;
  int pdb_violations = 0;
  bool fits = false;
};

Outcome Select(ClusterState* cluster, const std::string& pending_json, const std::string& node,
               const NominatedPods* nominated = nullptr) {
  auto config = BuildFromProvider("DefaultProvider", BuildOptions{});
  EXPECT_TRUE(config.ok());
  Pod pod = TestPod(pending_json);
  PodInfo info = MakePodInfo(pod);
  PodToSchedule target;
  target.info = &info;
  target.request = PodRequestToSchedule(pod);
  auto preds = CyclePredicates::Prepare(*config, target, *cluster);
  EXPECT_TRUE(preds.ok());
  preds->PrepareCopies();
  CycleNominations noms(nominated, pod, *cluster);
  Victims v;
  Outcome out;
  out.fits = SelectVictimsOnNode(*preds, cluster->node_info(cluster->FindNode(node)), noms,
                                 cluster->pod_disruption_budgets(), &v);
  for (PodId id : v.pods) out.victims.push_back(cluster->pod(id).pod.meta.name);
  out.pdb_violations = v.num_pdb_violations;
  return out;
}

std::string Budget(const std::string& app, int allowed) {
  return fmt::format(R"({{"kind":"PodDisruptionBudget","metadata":{{"name":"pdb-{}",
    "namespace":"default"}},"spec":{{"selector":{{"matchLabels":{{"app":"{}"}}}}}},
    "status":{{"disruptionsAllowed":{}}}}})",
                     app, app, allowed);
}

TEST(SelectVictimsOnNode, ReprievesTheMostImportantFirst) {
  ClusterState c = TestCluster(ListOf(
      {NodeJson("n"), RunningPodJson("lo5", "n", "1", 5), RunningPodJson("lo10", "n", "1", 10)}));
  Outcome o = Select(&c, PendingPodJson("p", "1", 100), "n");
  ASSERT_TRUE(o.fits);
  EXPECT_EQ(o.victims, std::vector<std::string>{"lo5"}) << "lo10 is put back first and kept";
}

TEST(SelectVictimsOnNode, EqualPriorityAndHigherPodsAreNeverVictims) {
  ClusterState c = TestCluster(ListOf(
      {NodeJson("n"), RunningPodJson("same", "n", "1", 100), RunningPodJson("lo", "n", "1", 1)}));
  Outcome o = Select(&c, PendingPodJson("p", "2", 100), "n");
  EXPECT_FALSE(o.fits) << "without `lo` there is 1 cpu; `same` cannot be taken";
  o = Select(&c, PendingPodJson("p", "1", 100), "n");
  ASSERT_TRUE(o.fits);
  EXPECT_EQ(o.victims, std::vector<std::string>{"lo"});
}

TEST(SelectVictimsOnNode, BudgetProtectedPodsAreReprievedFirstAndCounted) {
  ClusterState c = TestCluster(
      ListOf({NodeJson("n", "3"), RunningPodJson("web", "n", "1", 5, "", R"({"app":"web"})"),
              RunningPodJson("batch", "n", "1", 10),
              RunningPodJson("db", "n", "1", 1, "", R"({"app":"db"})"), Budget("web", 0),
              Budget("db", 1)}));
  // Room for two of the three: `web` (protected, allowed 0) is put back
  // first and kept, then `batch` (priority 10); `db`'s budget allows a
  // disruption, so it is an ordinary victim, and the last one tried.
  Outcome o = Select(&c, PendingPodJson("p", "1", 100), "n");
  ASSERT_TRUE(o.fits);
  EXPECT_EQ(o.victims, (std::vector<std::string>{"db"}));
  EXPECT_EQ(o.pdb_violations, 0);
  // Needing all three cpus: the protected pod becomes a victim too, first.
  o = Select(&c, PendingPodJson("p", "3", 100), "n");
  ASSERT_TRUE(o.fits);
  EXPECT_EQ(o.victims, (std::vector<std::string>{"web", "batch", "db"}));
  EXPECT_EQ(o.pdb_violations, 1);
}

TEST(SelectVictimsOnNode, StartTimeThenNameOrderEqualPriorities) {
  ClusterState c = TestCluster(
      ListOf({NodeJson("n", "3"), RunningPodJson("late", "n", "1", 5, "2020-01-01T00:00:09Z"),
              RunningPodJson("early", "n", "1", 5, "2020-01-01T00:00:01Z"),
              RunningPodJson("b-none", "n", "1", 5), RunningPodJson("a-none", "n", "1", 5)}));
  // Fits with two back: `early` then `late` are reprieved; the two without a
  // start time are victims, in name order.
  Outcome o = Select(&c, PendingPodJson("p", "1", 100), "n");
  ASSERT_TRUE(o.fits);
  EXPECT_EQ(o.victims, (std::vector<std::string>{"a-none", "b-none"}));
}

TEST(SelectVictimsOnNode, NominatedPodsOfHigherPriorityKeepTheirRoom) {
  ClusterState c = TestCluster(ListOf({NodeJson("n"), RunningPodJson("lo", "n", "1", 1)}));
  NominatedPods nominated;
  nominated.Add(&c, TestPod(PendingPodJson("big", "1", 500)), "n");
  // 2 cpu: the nominated pod's 1 plus the preemptor's 1 need `lo` gone.
  Outcome o = Select(&c, PendingPodJson("p", "1", 100), "n", &nominated);
  ASSERT_TRUE(o.fits);
  EXPECT_EQ(o.victims, std::vector<std::string>{"lo"});
  // Without the nomination `lo` may stay.
  o = Select(&c, PendingPodJson("p", "1", 100), "n");
  ASSERT_TRUE(o.fits);
  EXPECT_TRUE(o.victims.empty());
}

}  // namespace select_victims_on_node_test
}  // namespace ksched
