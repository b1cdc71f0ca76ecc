#include "loop/snapshot_loop.h"

#include <gtest/gtest.h>

#include "algorithm/provider.h"
#include "preemption/preemption_test_util.h"

namespace ksched {
namespace snapshot_loop_test {

using namespace ksched::testing;

struct Seen {
  std::string pod;
  int number;
  std::string node;          // "" when it did not fit
  std::string preempted_on;  // "-" when Preempt did not run, "" when it chose no node
  std::vector<std::string> victims;
  std::vector<std::string> cleared;
};

std::vector<Seen> RunLoop(const std::string& cluster_json, std::vector<std::string> pending,
                          LoopOptions options = {}) {
  ClusterState cluster = TestCluster(cluster_json);
  NodeTree tree(cluster);
  auto config = BuildFromProvider("DefaultProvider", BuildOptions{});
  EXPECT_TRUE(config.ok());
  std::unique_ptr<Engine> engine = MakeV115Engine(std::move(config).value(), TieBreak::kName);
  std::vector<Pod> pods;
  for (const std::string& p : pending) pods.push_back(TestPod(p));
  SnapshotLoop loop(engine.get(), &cluster, &tree, options);
  std::vector<Seen> seen;
  loop.Run(std::move(pods), [&](const Attempt& a) {
    Seen s{a.pod->meta.name,
           a.number,
           a.result.chosen == kNoNode ? "" : cluster.node(a.result.chosen).meta.name,
           "-",
           {},
           {}};
    if (a.preemption) {
      s.preempted_on =
          a.preemption->node == kNoNode ? "" : cluster.node(a.preemption->node).meta.name;
      for (PodId v : a.preemption->victims) s.victims.push_back(cluster.pod(v).pod.meta.name);
      for (const auto& r : a.preemption->nominated_pods_to_clear) s.cleared.push_back(r.key);
    }
    seen.push_back(std::move(s));
  });
  return seen;
}

TEST(SnapshotLoop, HigherPriorityFirstThenPreemptAndRetry) {
  auto seen = RunLoop(ListOf({NodeJson("n"), RunningPodJson("lo", "n", "2", 0)}),
                      {PendingPodJson("a", "1", 0), PendingPodJson("hi", "2", 100)});
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_EQ(seen[0].pod, "hi");
  EXPECT_EQ(seen[0].node, "");
  EXPECT_EQ(seen[0].preempted_on, "n");
  EXPECT_EQ(seen[0].victims, std::vector<std::string>{"lo"});
  EXPECT_EQ(seen[1].pod, "hi");
  EXPECT_EQ(seen[1].number, 2);
  EXPECT_EQ(seen[1].node, "n") << "the victim is gone at once";
  EXPECT_EQ(seen[2].pod, "a");
  EXPECT_EQ(seen[2].node, "");
  EXPECT_EQ(seen[2].preempted_on, "") << "nothing of lower priority to take";
}

TEST(SnapshotLoop, DisablePreemption) {
  LoopOptions o;
  o.preemption = false;
  auto seen = RunLoop(ListOf({NodeJson("n"), RunningPodJson("lo", "n", "2", 0)}),
                      {PendingPodJson("hi", "2", 100)}, o);
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].preempted_on, "-");
}

TEST(SnapshotLoop, NominationsReserveRoomForEqualOrHigherPriority) {
  // `waiting` arrives nominated to n. `early` has the same priority and
  // arrived first, so it is attempted first, and must leave waiting's room.
  std::string nominated = R"({"kind":"Pod","metadata":{"name":"waiting","namespace":"default",
    "uid":"default/waiting"},"spec":{"priority":10,"containers":[{"name":"c",
    "resources":{"requests":{"cpu":"2"}}}]},"status":{"nominatedNodeName":"n"}})";
  auto seen = RunLoop(ListOf({NodeJson("n", "3")}), {PendingPodJson("early", "2", 10), nominated,
                                                     PendingPodJson("lower", "1", 5)});
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_EQ(seen[0].pod, "early");
  EXPECT_EQ(seen[0].node, "") << "2 + the nominated 2 exceed 3 cpus";
  EXPECT_EQ(seen[0].preempted_on, "");
  EXPECT_EQ(seen[1].pod, "waiting");
  EXPECT_EQ(seen[1].node, "n");
  EXPECT_EQ(seen[2].pod, "lower");
  EXPECT_EQ(seen[2].node, "n");
}

TEST(SnapshotLoop, LowerPriorityNominationsAreCleared) {
  std::string nominated = R"({"kind":"Pod","metadata":{"name":"waiting","namespace":"default",
    "uid":"default/waiting"},"spec":{"priority":1,"containers":[{"name":"c",
    "resources":{"requests":{"cpu":"4"}}}]},"status":{"nominatedNodeName":"n"}})";
  auto seen = RunLoop(ListOf({NodeJson("n", "2"), RunningPodJson("lo", "n", "2", 0)}),
                      {nominated, PendingPodJson("hi", "2", 100)});
  ASSERT_GE(seen.size(), 2u);
  EXPECT_EQ(seen[0].pod, "hi");
  EXPECT_EQ(seen[0].preempted_on, "n");
  EXPECT_EQ(seen[0].cleared, std::vector<std::string>{"default/waiting"});
  EXPECT_EQ(seen[1].pod, "hi");
  EXPECT_EQ(seen[1].node, "n");
}

// An engine whose every attempt fails with an error (not a FitError), and
// that says whether such a failure clears the pod's nomination (v1.35) or
// keeps it (v1.15, v1.26).
class FailingEngine final : public Engine {
 public:
  explicit FailingEngine(bool clears) : clears_(clears) {}
  std::string_view version() const override { return clears_ ? "v1.35" : "v1.26"; }
  CacheOptions cache_options() const override { return {}; }
  const ScoreColumns& score_columns() const override { return columns_; }
  ScheduleResult Schedule(const Pod&, const ClusterState&, NodeTree*, bool,
                          const NominatedPods*) override {
    ScheduleResult r;
    r.error = "running \"Broken\" filter plugin: broken";
    return r;
  }
  PreemptionResult Preempt(const Pod&, const ScheduleResult&, const ClusterState&,
                           const NominatedPods*, const PreemptOptions&, std::string*) override {
    ADD_FAILURE() << "no FitError, no preemption";
    return {};
  }
  bool FailureClearsNomination() const override { return clears_; }
  PodId Assume(Pod pod, NodeId node, ClusterState* cluster) override {
    return cluster->Assume(std::move(pod), node);
  }

 private:
  bool clears_;
  ScoreColumns columns_;
};

TEST(SnapshotLoop, AFailureClearsTheNominationWhenTheEngineSaysSo) {
  std::string nominated = R"({"kind":"Pod","metadata":{"name":"waiting","namespace":"default",
    "uid":"default/waiting"},"spec":{"priority":1,"containers":[{"name":"c"}]},
    "status":{"nominatedNodeName":"n"}})";
  for (bool clears : {false, true}) {
    ClusterState cluster = TestCluster(ListOf({NodeJson("n")}));
    NodeTree tree(cluster);
    FailingEngine engine(clears);
    SnapshotLoop loop(&engine, &cluster, &tree, LoopOptions{});
    int attempts = 0;
    loop.Run({TestPod(nominated)}, [&](const Attempt& a) {
      ++attempts;
      EXPECT_EQ(a.pod->nominated_node_name, "n");  // as attempted
    });
    EXPECT_EQ(attempts, 1);
    EXPECT_EQ(loop.nominated().NodeOf("default/waiting").has_value(), !clears) << clears;
  }
}

}  // namespace snapshot_loop_test
}  // namespace ksched
