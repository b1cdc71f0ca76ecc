#include "live/live_cache.h"

#include <gtest/gtest.h>

#include "algorithm/provider.h"
#include "framework/admission.h"
#include "queue/priority_queue.h"

namespace ksched::live {
namespace live_cache_test {

using namespace std::chrono_literals;
using client::Resource;
using client::WatchEvent;
using client::WatchEventType;

std::string NodeJson(const std::string& name, const std::string& cpu = "4",
                     const std::string& extra_labels = "", const std::string& heartbeat = "t0") {
  return R"({"kind":"Node","apiVersion":"v1","metadata":{"name":")" + name +
         R"(","labels":{"kubernetes.io/hostname":")" + name + "\"" + extra_labels +
         R"(}},"status":{"allocatable":{"cpu":")" + cpu +
         R"(","memory":"8Gi","pods":"110"},"capacity":{"cpu":")" + cpu +
         R"(","memory":"8Gi","pods":"110"},"conditions":[{"type":"Ready","status":"True",)"
         R"("lastHeartbeatTime":")" +
         heartbeat + R"("}]}})";
}

std::string PodJson(const std::string& name, const std::string& node = "",
                    const std::string& scheduler = "default-scheduler",
                    const std::string& cpu = "1", const std::string& uid = "") {
  std::string spec = R"("schedulerName":")" + scheduler + "\"";
  if (!node.empty()) spec += R"(,"nodeName":")" + node + "\"";
  return R"({"kind":"Pod","apiVersion":"v1","metadata":{"name":")" + name +
         R"(","namespace":"default","uid":")" + (uid.empty() ? "uid-" + name : uid) +
         R"("},"spec":{)" + spec +
         R"(,"containers":[{"name":"c","resources":{"requests":{"cpu":")" + cpu +
         R"("}}}]},"status":{"phase":"Pending"}})";
}

WatchEvent Ev(WatchEventType t, Resource r, std::string json) {
  return WatchEvent{t, r, std::move(json), "1"};
}

class LiveCacheTest : public ::testing::Test {
 protected:
  LiveCacheTest() : queue(&clock), cache(&clock, &queue, LiveCache::Options()) {}

  void Apply(WatchEventType t, Resource r, std::string json) {
    Status s = cache.Apply(Ev(t, r, std::move(json)));
    ASSERT_TRUE(s.ok()) << s.error().message;
  }
  // Requested milli-CPU on `node` as the engine sees it.
  int64_t RequestedCpu(const std::string& node) {
    cache.Prepare();
    NodeId id = cache.state().FindNode(node);
    EXPECT_NE(id, kNoNode) << node;
    return id == kNoNode ? -1 : cache.state().node_info(id).requested.milli_cpu;
  }
  std::vector<std::string> Queued() {
    std::vector<std::string> out;
    while (auto p = queue.TryPop()) out.push_back(p->meta.name);
    return out;
  }

  FakeClock clock;
  PriorityQueue queue;
  LiveCache cache;
};

TEST_F(LiveCacheTest, AssignedPodsCountPendingPodsAreQueued) {
  Apply(WatchEventType::kAdded, Resource::kNode, NodeJson("n1"));
  Apply(WatchEventType::kAdded, Resource::kPod, PodJson("bound", "n1"));
  Apply(WatchEventType::kAdded, Resource::kPod, PodJson("mine"));
  Apply(WatchEventType::kAdded, Resource::kPod, PodJson("theirs", "", "other-scheduler"));
  EXPECT_EQ(RequestedCpu("n1"), 1000);
  EXPECT_EQ(Queued(), std::vector<std::string>{"mine"});
  EXPECT_EQ(cache.num_pods(), 3u);
  // A pod of the other scheduler bound elsewhere counts, too.
  Apply(WatchEventType::kModified, Resource::kPod, PodJson("theirs", "n1", "other-scheduler"));
  EXPECT_EQ(RequestedCpu("n1"), 2000);
}

TEST_F(LiveCacheTest, IncrementalPodChangesDoNotRebuild) {
  Apply(WatchEventType::kAdded, Resource::kNode, NodeJson("n1"));
  cache.Prepare();
  const uint64_t rebuilds = cache.rebuilds();
  Apply(WatchEventType::kAdded, Resource::kPod, PodJson("a", "n1"));
  Apply(WatchEventType::kAdded, Resource::kPod, PodJson("b", "n1", "default-scheduler", "2"));
  EXPECT_EQ(RequestedCpu("n1"), 3000);
  Apply(WatchEventType::kDeleted, Resource::kPod, PodJson("a", "n1"));
  EXPECT_EQ(RequestedCpu("n1"), 2000);
  // A resized pod (spec change) is replaced on its node.
  Apply(WatchEventType::kModified, Resource::kPod, PodJson("b", "n1", "default-scheduler", "3"));
  EXPECT_EQ(RequestedCpu("n1"), 3000);
  EXPECT_EQ(cache.rebuilds(), rebuilds);
  // A node heartbeat (only lastHeartbeatTime changed) changes nothing.
  Apply(WatchEventType::kModified, Resource::kNode, NodeJson("n1", "4", "", "t1"));
  cache.Prepare();
  EXPECT_EQ(cache.rebuilds(), rebuilds);
  // A real node change rebuilds, and the pods stay counted.
  Apply(WatchEventType::kModified, Resource::kNode, NodeJson("n1", "8"));
  EXPECT_EQ(RequestedCpu("n1"), 3000);
  EXPECT_EQ(cache.rebuilds(), rebuilds + 1);
  EXPECT_EQ(cache.state().node_info(cache.state().FindNode("n1")).allocatable.milli_cpu, 8000);
}

TEST_F(LiveCacheTest, NodeSetChangesRebuildAndKeepPodsOfMissingNodes) {
  Apply(WatchEventType::kAdded, Resource::kNode, NodeJson("n1"));
  Apply(WatchEventType::kAdded, Resource::kPod, PodJson("early", "n2"));  // node not seen yet
  EXPECT_EQ(RequestedCpu("n1"), 0);
  Apply(WatchEventType::kAdded, Resource::kNode, NodeJson("n2"));
  EXPECT_EQ(RequestedCpu("n2"), 1000);
  Apply(WatchEventType::kDeleted, Resource::kNode, NodeJson("n2"));
  cache.Prepare();
  EXPECT_EQ(cache.state().num_nodes(), 1u);
  EXPECT_EQ(cache.NodeOf("default/early"), "n2");
  Apply(WatchEventType::kAdded, Resource::kNode, NodeJson("n2"));
  EXPECT_EQ(RequestedCpu("n2"), 1000);
}

TEST_F(LiveCacheTest, AssumedPodCountsUntilConfirmed) {
  Apply(WatchEventType::kAdded, Resource::kNode, NodeJson("n1"));
  Apply(WatchEventType::kAdded, Resource::kPod, PodJson("p"));
  ASSERT_EQ(Queued(), std::vector<std::string>{"p"});
  cache.Prepare();
  ASSERT_TRUE(cache.AssumePod(*cache.FindPod("default/p"), "n1").ok());
  EXPECT_TRUE(cache.IsAssumed("default/p"));
  EXPECT_EQ(RequestedCpu("n1"), 1000);
  // A status update of the still-pending pod while binding: skipped.
  Apply(WatchEventType::kModified, Resource::kPod, PodJson("p"));
  EXPECT_TRUE(Queued().empty());
  EXPECT_EQ(RequestedCpu("n1"), 1000);
  cache.FinishBinding("default/p");
  // The watch confirms: no longer assumed, counted once.
  Apply(WatchEventType::kModified, Resource::kPod, PodJson("p", "n1"));
  EXPECT_FALSE(cache.IsAssumed("default/p"));
  EXPECT_EQ(RequestedCpu("n1"), 1000);
  clock.Advance(60s);
  EXPECT_TRUE(cache.ExpireAssumedPods().empty());
  EXPECT_EQ(RequestedCpu("n1"), 1000);
}

TEST_F(LiveCacheTest, ConfirmationOnAnotherNodeMovesThePod) {
  Apply(WatchEventType::kAdded, Resource::kNode, NodeJson("n1"));
  Apply(WatchEventType::kAdded, Resource::kNode, NodeJson("n2"));
  Apply(WatchEventType::kAdded, Resource::kPod, PodJson("p"));
  cache.Prepare();
  ASSERT_TRUE(cache.AssumePod(*cache.FindPod("default/p"), "n1").ok());
  Apply(WatchEventType::kModified, Resource::kPod, PodJson("p", "n2"));
  EXPECT_EQ(RequestedCpu("n1"), 0);
  EXPECT_EQ(RequestedCpu("n2"), 1000);
}

TEST_F(LiveCacheTest, UnconfirmedAssumptionExpiresThirtySecondsAfterBinding) {
  Apply(WatchEventType::kAdded, Resource::kNode, NodeJson("n1"));
  Apply(WatchEventType::kAdded, Resource::kPod, PodJson("p"));
  cache.Prepare();
  ASSERT_TRUE(cache.AssumePod(*cache.FindPod("default/p"), "n1").ok());
  // Never expires while the binding is in flight.
  clock.Advance(120s);
  EXPECT_TRUE(cache.ExpireAssumedPods().empty());
  cache.FinishBinding("default/p");
  clock.Advance(29s);
  EXPECT_TRUE(cache.ExpireAssumedPods().empty());
  EXPECT_EQ(RequestedCpu("n1"), 1000);
  clock.Advance(2s);
  EXPECT_EQ(cache.ExpireAssumedPods(), std::vector<std::string>{"default/p"});
  EXPECT_FALSE(cache.IsAssumed("default/p"));
  EXPECT_EQ(RequestedCpu("n1"), 0);
}

TEST_F(LiveCacheTest, FailedBindForgetsTheAssumption) {
  Apply(WatchEventType::kAdded, Resource::kNode, NodeJson("n1"));
  Apply(WatchEventType::kAdded, Resource::kPod, PodJson("p"));
  Queued();
  cache.Prepare();
  ASSERT_TRUE(cache.AssumePod(*cache.FindPod("default/p"), "n1").ok());
  EXPECT_TRUE(cache.ForgetPod("default/p"));
  EXPECT_EQ(RequestedCpu("n1"), 0);
  EXPECT_FALSE(cache.ForgetPod("default/p"));
  // It is pending again: updates reach the queue.
  Apply(WatchEventType::kModified, Resource::kPod, PodJson("p"));
  EXPECT_EQ(Queued(), std::vector<std::string>{"p"});
}

TEST_F(LiveCacheTest, PodBoundElsewhereOrDeletedLeavesTheQueue) {
  Apply(WatchEventType::kAdded, Resource::kNode, NodeJson("n1"));
  Apply(WatchEventType::kAdded, Resource::kPod, PodJson("a"));
  Apply(WatchEventType::kAdded, Resource::kPod, PodJson("b"));
  Apply(WatchEventType::kAdded, Resource::kPod, PodJson("c"));
  Apply(WatchEventType::kModified, Resource::kPod, PodJson("a", "n1"));  // someone bound it
  Apply(WatchEventType::kDeleted, Resource::kPod, PodJson("b"));
  EXPECT_EQ(Queued(), std::vector<std::string>{"c"});
  EXPECT_EQ(RequestedCpu("n1"), 1000);
}

TEST_F(LiveCacheTest, DeletingAnAssumedPodFreesItsNode) {
  Apply(WatchEventType::kAdded, Resource::kNode, NodeJson("n1"));
  Apply(WatchEventType::kAdded, Resource::kPod, PodJson("p"));
  cache.Prepare();
  ASSERT_TRUE(cache.AssumePod(*cache.FindPod("default/p"), "n1").ok());
  Apply(WatchEventType::kDeleted, Resource::kPod, PodJson("p"));
  EXPECT_EQ(RequestedCpu("n1"), 0);
  EXPECT_FALSE(cache.IsAssumed("default/p"));
  EXPECT_FALSE(cache.ForgetPod("default/p"));  // the bind outcome arrives late: no-op
}

TEST_F(LiveCacheTest, AssumingOnADeletedNodeFails) {
  Apply(WatchEventType::kAdded, Resource::kNode, NodeJson("n1"));
  Apply(WatchEventType::kAdded, Resource::kPod, PodJson("p"));
  cache.Prepare();
  Apply(WatchEventType::kDeleted, Resource::kNode, NodeJson("n1"));
  EXPECT_FALSE(cache.AssumePod(*cache.FindPod("default/p"), "n1").ok());
}

TEST_F(LiveCacheTest, NodeDeletedWhilePodsAssumed) {
  Apply(WatchEventType::kAdded, Resource::kNode, NodeJson("n1"));
  Apply(WatchEventType::kAdded, Resource::kNode, NodeJson("n2"));
  Apply(WatchEventType::kAdded, Resource::kPod, PodJson("p"));
  cache.Prepare();
  ASSERT_TRUE(cache.AssumePod(*cache.FindPod("default/p"), "n1").ok());
  Apply(WatchEventType::kDeleted, Resource::kNode, NodeJson("n1"));
  cache.Prepare();
  EXPECT_EQ(cache.state().num_nodes(), 1u);
  EXPECT_TRUE(cache.IsAssumed("default/p"));
  EXPECT_TRUE(cache.ForgetPod("default/p"));  // its bind failed
  EXPECT_EQ(RequestedCpu("n2"), 0);
  ASSERT_TRUE(cache.AssumePod(*cache.FindPod("default/p"), "n2").ok());
  EXPECT_EQ(RequestedCpu("n2"), 1000);
}

TEST_F(LiveCacheTest, RelistReplaysConvergeToTheServer) {
  // The client replays a re-LIST after 410 as kModified for every object
  // still there and kDeleted for the ones gone, then kSynced.
  cache.ExpectResources({Resource::kNode, Resource::kPod});
  EXPECT_FALSE(cache.HasSynced());
  Apply(WatchEventType::kAdded, Resource::kNode, NodeJson("n1"));
  Apply(WatchEventType::kAdded, Resource::kPod, PodJson("a", "n1"));
  Apply(WatchEventType::kAdded, Resource::kPod, PodJson("b", "n1"));
  Apply(WatchEventType::kSynced, Resource::kNode, "");
  EXPECT_FALSE(cache.HasSynced());
  Apply(WatchEventType::kSynced, Resource::kPod, "");
  EXPECT_TRUE(cache.HasSynced());
  EXPECT_EQ(RequestedCpu("n1"), 2000);
  // Relist: a unchanged, b gone, c new.
  Apply(WatchEventType::kModified, Resource::kNode, NodeJson("n1"));
  Apply(WatchEventType::kModified, Resource::kPod, PodJson("a", "n1"));
  Apply(WatchEventType::kAdded, Resource::kPod, PodJson("c", "n1", "x", "2"));
  Apply(WatchEventType::kDeleted, Resource::kPod, PodJson("b", "n1"));
  Apply(WatchEventType::kSynced, Resource::kPod, "");
  EXPECT_EQ(RequestedCpu("n1"), 3000);
  EXPECT_EQ(cache.num_pods(), 2u);
  // A pod recreated under the same name with a new uid: old deleted, new added.
  Apply(WatchEventType::kDeleted, Resource::kPod, PodJson("a", "n1"));
  Apply(WatchEventType::kAdded, Resource::kPod, PodJson("a", "", "default-scheduler", "1", "u2"));
  EXPECT_EQ(RequestedCpu("n1"), 2000);
  EXPECT_EQ(Queued(), std::vector<std::string>{"a"});
}

TEST_F(LiveCacheTest, CompactionKeepsTheCounts) {
  Apply(WatchEventType::kAdded, Resource::kNode, NodeJson("n1", "100000"));
  cache.Prepare();
  const uint64_t rebuilds = cache.rebuilds();
  for (int i = 0; i < 5000; ++i) {
    Apply(WatchEventType::kAdded, Resource::kPod, PodJson("p" + std::to_string(i), "n1"));
    if (i >= 10) {
      Apply(WatchEventType::kDeleted, Resource::kPod, PodJson("p" + std::to_string(i - 10), "n1"));
    }
  }
  EXPECT_EQ(RequestedCpu("n1"), 10000);
  EXPECT_GT(cache.rebuilds(), rebuilds);  // compacted at least once
  EXPECT_EQ(cache.state().node_info(0).pods.size(), 10u);
}

TEST_F(LiveCacheTest, ClusterEventsMoveUnschedulablePods) {
  Apply(WatchEventType::kAdded, Resource::kNode, NodeJson("n1"));
  Apply(WatchEventType::kAdded, Resource::kPod, PodJson("p"));
  auto p = queue.TryPop();
  ASSERT_TRUE(p);
  queue.AddUnschedulableIfNotPresent(p, queue.SchedulingCycle());
  EXPECT_EQ(queue.sizes().unschedulable, 1u);
  // A heartbeat does not move it; a new node does.
  Apply(WatchEventType::kModified, Resource::kNode, NodeJson("n1", "4", "", "t9"));
  EXPECT_EQ(queue.sizes().unschedulable, 1u);
  clock.Advance(2s);  // past its backoff: a move goes to active
  Apply(WatchEventType::kAdded, Resource::kNode, NodeJson("n2"));
  EXPECT_EQ(queue.sizes().unschedulable, 0u);
  // An assigned pod's deletion and a Service change move, too.
  p = queue.TryPop();
  ASSERT_TRUE(p);
  clock.Advance(20s);
  queue.AddUnschedulableIfNotPresent(p, queue.SchedulingCycle());
  clock.Advance(2s);
  Apply(WatchEventType::kAdded, Resource::kPod, PodJson("other", "n1"));
  EXPECT_EQ(queue.sizes().unschedulable, 1u);
  Apply(WatchEventType::kDeleted, Resource::kPod, PodJson("other", "n1"));
  EXPECT_EQ(queue.sizes().unschedulable, 0u);
  EXPECT_EQ(queue.sizes().active, 1u);
  p = queue.TryPop();
  clock.Advance(20s);
  queue.AddUnschedulableIfNotPresent(p, queue.SchedulingCycle());
  Apply(
      WatchEventType::kAdded, Resource::kService,
      R"({"kind":"Service","metadata":{"name":"s","namespace":"default"},"spec":{"selector":{"a":"b"}}})");
  EXPECT_EQ(queue.sizes().unschedulable, 0u);
}

TEST_F(LiveCacheTest, UndecodableObjectIsAnErrorAndChangesNothing) {
  Status s = cache.Apply(
      Ev(WatchEventType::kAdded, Resource::kPod,
         R"({"kind":"Pod","metadata":{"name":"x","namespace":"default"},)"
         R"("spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":"lots"}}}]}})"));
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("cpu"), std::string::npos) << s.error().message;
  EXPECT_EQ(cache.num_pods(), 0u);
  EXPECT_FALSE(cache.Apply(Ev(WatchEventType::kAdded, Resource::kNode, "{not json")).ok());
}

TEST_F(LiveCacheTest, EngineDecidesOnTheLiveState) {
  Apply(WatchEventType::kAdded, Resource::kNode, NodeJson("n1", "2"));
  Apply(WatchEventType::kAdded, Resource::kNode, NodeJson("n2", "2"));
  Apply(WatchEventType::kAdded, Resource::kPod, PodJson("a", "n1", "x", "1500m"));
  Apply(WatchEventType::kAdded, Resource::kPod, PodJson("p"));
  auto config = BuildFromProvider("DefaultProvider", BuildOptions());
  ASSERT_TRUE(config.ok());
  GenericScheduler engine(std::move(config).value(), TieBreak::kName);
  cache.Prepare();
  ScheduleResult r = engine.Schedule(*cache.FindPod("default/p"), cache.state(), cache.tree(),
                                     false, &cache.nominated());
  ASSERT_NE(r.chosen, kNoNode) << r.error;
  EXPECT_EQ(cache.state().node(r.chosen).meta.name, "n2");
}

// v1.26's handlers: a node added moves only the pods it could take (after
// FlushNodeMoves), an assigned pod's deletion only the pods whose rejecting
// plugin registered for it, and a Service change nothing at all.
TEST(LiveCacheV126, EventsMoveAsUpstreamV126Does) {
  FakeClock clock;
  PriorityQueue queue(&clock);
  framework::ClusterEventMap map;
  map.Register("NodeResourcesFit",
               {{framework::EventResource::kPod, framework::kDelete, ""},
                {framework::EventResource::kNode, framework::kAdd | framework::kUpdate, ""}});
  map.Register("TaintToleration",
               {{framework::EventResource::kNode, framework::kAdd | framework::kUpdate, ""}});
  queue.SetClusterEventMap(map);
  LiveCache::Options options;
  options.cluster_events = map;
  options.node_pre_check = [](const Pod& pod, const NodeInfo& node) {
    return framework::PassesNodePreCheck(pod, node);
  };
  LiveCache cache(&clock, &queue, options);
  auto apply = [&](WatchEventType t, Resource r, const std::string& json) {
    Status s = cache.Apply(Ev(t, r, json));
    ASSERT_TRUE(s.ok()) << s.error().message;
    cache.FlushNodeMoves();
  };
  apply(WatchEventType::kAdded, Resource::kNode, NodeJson("n1", "4"));
  apply(WatchEventType::kAdded, Resource::kPod, PodJson("big", "", "default-scheduler", "8"));
  apply(WatchEventType::kAdded, Resource::kPod, PodJson("taint", "", "default-scheduler", "1"));
  apply(WatchEventType::kAdded, Resource::kPod, PodJson("other", "n1", "x", "1"));
  auto big = queue.TryPop(), taint = queue.TryPop();
  ASSERT_TRUE(big && taint);
  queue.AddUnschedulableIfNotPresent(big, queue.SchedulingCycle(), {"NodeResourcesFit"});
  queue.AddUnschedulableIfNotPresent(taint, queue.SchedulingCycle(), {"TaintToleration"});
  clock.Advance(20s);

  apply(WatchEventType::kAdded, Resource::kService,
        R"({"kind":"Service","metadata":{"name":"s","namespace":"default"},)"
        R"("spec":{"selector":{"a":"b"}}})");
  EXPECT_EQ(queue.sizes().unschedulable, 2u);
  // A 2-CPU node: the taint pod could go there (it moves), the 8-CPU one not.
  apply(WatchEventType::kAdded, Resource::kNode, NodeJson("n2", "2"));
  EXPECT_EQ(queue.sizes().unschedulable, 1u);
  EXPECT_EQ(queue.TryPop()->meta.name, "taint");
  // A heartbeat is no event; an allocatable change that still leaves too
  // little room moves nothing either.
  apply(WatchEventType::kModified, Resource::kNode, NodeJson("n1", "4", "", "t9"));
  apply(WatchEventType::kModified, Resource::kNode, NodeJson("n1", "6", "", "t9"));
  EXPECT_EQ(queue.sizes().unschedulable, 1u);
  // Deleting an assigned pod is an event NodeResourcesFit registered.
  apply(WatchEventType::kDeleted, Resource::kPod, PodJson("other", "n1", "x", "1"));
  EXPECT_EQ(queue.sizes().unschedulable, 0u);
  EXPECT_EQ(queue.TryPop()->meta.name, "big");
}

// v1.35: the cache raises upstream v1.35's events with their objects, and
// lets the queue judge them (no pre-check, no batching of node moves).
class RecordingQueue final : public SchedulingQueue {
 public:
  void Add(PodPtr pod) override { added.push_back(pod->meta.name); }
  bool AddUnschedulableIfNotPresent(PodPtr, int64_t, std::vector<std::string>) override {
    return true;
  }
  bool AddBackoffIfNotPresent(PodPtr) override { return true; }
  void Update(const PodPtr& old_pod, PodPtr new_pod) override {
    updated.push_back(old_pod->meta.name + "->" + new_pod->meta.name);
  }
  void Delete(const Pod& pod) override { deleted.push_back(pod.meta.name); }
  void MoveAllToActive(const framework::ClusterEvent& event, const framework::EventObject& o,
                       const framework::EventObject& n, const PreEnqueueCheck& check) override {
    std::string what = event.label;
    if (const Node* node = o.As<Node>()) what += " old=" + node->meta.name;
    if (const Node* node = n.As<Node>()) what += " new=" + node->meta.name;
    if (const Pod* pod = o.As<Pod>()) what += " old=" + pod->meta.name + "@" + pod->spec.node_name;
    if (const Pod* pod = n.As<Pod>()) what += " new=" + pod->meta.name + "@" + pod->spec.node_name;
    if (check) what += " (checked)";
    events.push_back(what);
  }
  void MoveAllToActive() override {}
  void AssignedPodAdded(const Pod&) override {}
  void AssignedPodUpdated(const Pod&) override {}
  void FlushBackoffCompleted() override {}
  void FlushUnschedulableLeftover() override {}
  PodPtr Pop() override { return nullptr; }
  PodPtr TryPop() override { return nullptr; }
  void Close() override {}
  int64_t SchedulingCycle() const override { return 0; }
  void UpdateNominatedPodForNode(PodPtr, const std::string&) override {}
  void DeleteNominatedPodIfExists(const Pod&) override {}
  std::vector<std::pair<std::string, PodPtr>> NominatedPods() const override { return {}; }
  Sizes sizes() const override { return {}; }
  Attempts AttemptsOf(const Pod&) const override { return {}; }

  std::vector<std::string> added, updated, deleted, events;
};

TEST(LiveCacheV135, RaisesV135EventsWithTheirObjects) {
  FakeClock clock;
  RecordingQueue queue;
  LiveCache::Options options;
  options.v135_events = true;
  options.v135_handlers[framework::EventResource::kPersistentVolumeClaim] = framework::kAdd;
  LiveCache cache(&clock, &queue, options);
  auto apply = [&](WatchEventType t, Resource r, std::string json) {
    Status s = cache.Apply(Ev(t, r, std::move(json)));
    ASSERT_TRUE(s.ok()) << s.error().message;
  };
  apply(WatchEventType::kAdded, Resource::kNode, NodeJson("n1"));
  apply(WatchEventType::kModified, Resource::kNode, NodeJson("n1", "4", ",\"team\":\"a\""));
  apply(WatchEventType::kModified, Resource::kNode, NodeJson("n1", "4", ",\"team\":\"a\"", "t9"));
  apply(WatchEventType::kAdded, Resource::kPod, PodJson("bound", "n1"));
  apply(WatchEventType::kAdded, Resource::kPod, PodJson("p"));
  apply(WatchEventType::kModified, Resource::kPod, PodJson("p", "n1"));  // bound by someone
  apply(WatchEventType::kDeleted, Resource::kPod, PodJson("bound", "n1"));
  apply(WatchEventType::kAdded, Resource::kPersistentVolumeClaim,
        R"({"kind":"PersistentVolumeClaim","metadata":{"name":"c","namespace":"default"}})");
  apply(WatchEventType::kModified, Resource::kPersistentVolumeClaim,
        R"({"kind":"PersistentVolumeClaim","metadata":{"name":"c","namespace":"default"},)"
        R"("spec":{"volumeName":"v"}})");  // no plugin registered PVC updates here
  apply(WatchEventType::kDeleted, Resource::kNode, NodeJson("n1"));
  EXPECT_EQ(
      queue.events,
      (std::vector<std::string>{
          "NodeAdd new=n1", "NodeUpdateNodeLabel old=n1 new=n1",  // the heartbeat: none
          "AssignedPodAdd new=bound@n1", "AssignedPodAdd new=p@n1",
          "AssignedPodDelete old=bound@n1", "PersistentVolumeClaimAdd", "NodeDelete old=n1"}));
  EXPECT_EQ(queue.added, std::vector<std::string>{"p"});
  EXPECT_EQ(queue.deleted, (std::vector<std::string>{"p", "bound"}));
}

}  // namespace live_cache_test
}  // namespace ksched::live
