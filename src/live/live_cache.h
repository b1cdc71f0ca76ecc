// The live cache: the cluster as `ksched run` sees it, kept from the watch
// events of client::ClusterClient, in the form the engine reads (a
// ClusterState, its NodeTree and the nominated pods), plus upstream's
// scheduler cache rules for assumed pods.
//
// Threading: one thread (the scheduling thread) owns a LiveCache. Watch
// events are queued by the client threads (live/inbox.h) and applied here at
// the start of each cycle; nothing else touches it.
//
// What an event does (upstream's pkg/scheduler/eventhandlers.go):
//   pod with spec.nodeName      placed on its node (NodeInfo::AddPod through
//                               ClusterState), replacing an assumption;
//                               dropped from the queue if it was pending
//                               there; AssignedPodAdded/Updated on the queue
//   pending pod of this         queue Add / Update (every pending pod is
//     scheduler                 stored, only these are queued)
//   pod deleted                 removed from its node and the queue; an
//                               assigned pod's deletion moves every
//                               unschedulable pod (MoveAllToActive)
//   node added / changed        the ClusterState is rebuilt before the next
//                               cycle (node order and zones change); moves
//                               as upstream (a change that cannot matter,
//                               such as a heartbeat, changes nothing)
//   node deleted                rebuilt; its pods stay, on a missing node
//   Service / PV / PVC / SC     rebuilt; MoveAllToActive as upstream
//                               (v1.15; v1.26: see below)
//   RC / RS / StatefulSet /     rebuilt
//     PDB / PriorityClass
//   CSIStorageCapacity (v1.26)  handed to the state, no rebuild
//   Namespace / CSINode /       rebuilt; v1.15-style MoveAllToActive when added or
//     CSIDriver (v1.26)         changed (namespaceSelector, volume limits)
// With v1.35's framework (Options::v135_events) every event goes to the
// queue with its old and new object (the QueueingHints read them) as
// upstream v1.35's handlers raise it: pods as AssignedPodAdd/Delete and the
// update events of PodSchedulingPropertiesChange (an unscheduled pod's
// update is the queue's Update), AssignedPodDelete also for a deleted pod
// that was nominated (to the pods of no higher priority) and for a changed
// nomination; nodes as NodeAdd, NodeDelete and each change of
// NodeSchedulingPropertiesChangeV135, at once (no pre-check); PVs, PVCs,
// StorageClasses, CSINodes, CSIDrivers and CSIStorageCapacities as
// <Resource>Add/Update/Delete where some profile's plugin registered for
// that action (Options::v135_handlers).
// With v1.26's framework (Options::cluster_events set) the moves are
// upstream v1.26's: each event is a ClusterEvent (NodeAdd,
// NodeLabelChange, AssignedPodDelete, PvcAdd, ...) raised only where
// upstream has a handler (pods and nodes always; other resources when a
// plugin registered for them; never Services or Namespaces), and the queue
// moves only the pods whose rejecting plugins registered for it. A node
// added or changed moves only the pods that pass its pre-check
// (Options::node_pre_check, upstream's preCheckForNode); those moves wait
// for FlushNodeMoves(), which reads the rebuilt state once per batch.
// The state is also rebuilt to compact it once removed pods outnumber
// live ones (ClusterState never reuses PodIds).
//
// Assumed pods (upstream's schedulerCache): AssumePod() places a decided pod
// at once so the next cycle counts it; FinishBinding() starts its expiry
// clock (30 s); the watch confirming the pod on a node ends the assumption;
// ForgetPod() (failed bind) removes it; ExpireAssumedPods() removes those
// whose binding finished more than the TTL ago without a confirmation.
#pragma once

#include <simdjson.h>

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "api/types.h"
#include "cache/cluster_state.h"
#include "cache/node_tree.h"
#include "cache/nominated_pods.h"
#include "client/cluster_client.h"
#include "framework/cluster_event.h"
#include "queue/clock.h"
#include "queue/scheduling_queue.h"
#include "util/result.h"

namespace ksched::live {

using PodPtr = std::shared_ptr<const Pod>;

// True when a node update changes nothing the scheduler reads (a heartbeat).
bool SameForScheduling(const Node& a, const Node& b);
// Upstream's nodeSchedulingPropertiesChanged: a change that could make an
// unschedulable pod fit.
bool NodeSchedulingPropertiesChanged(const Node& old_node, const Node& new_node);
// v1.26's nodeSchedulingPropertiesChange: the first such change as its
// event (unschedulable lifted, allocatable, labels, taints, conditions), or
// nullptr.
const framework::ClusterEvent* NodeSchedulingPropertiesChange(const Node& old_node,
                                                              const Node& new_node);
// v1.35's NodeSchedulingPropertiesChange: every such change as its event
// (UpdateNodeTaint for a lifted spec.unschedulable or taints, then
// allocatable, labels, conditions, annotations).
std::vector<framework::ClusterEvent> NodeSchedulingPropertiesChangeV135(const Node& old_node,
                                                                        const Node& new_node);

class LiveCache {
 public:
  struct Options {
    // The spec.schedulerName of the pods to queue: the v1.26 engine serves
    // every profile of its configuration, v1.15 one name.
    std::vector<std::string> scheduler_names{"default-scheduler"};
    std::chrono::nanoseconds assumed_pod_ttl = std::chrono::seconds(30);
    // How the engine counts pods (Engine::cache_options()).
    CacheOptions cache_options;
    // v1.26's moves (Engine::ClusterEvents() and PassesNodePreCheck()); unset:
    // v1.15's, every event moves every unschedulable pod.
    std::optional<framework::ClusterEventMap> cluster_events;
    std::function<bool(const Pod&, const NodeInfo&)> node_pre_check;
    // v1.35's events (see above), and the actions some plugin registered
    // per resource (the handlers upstream sets up; pods and nodes always).
    bool v135_events = false;
    std::map<framework::EventResource, uint32_t> v135_handlers;
  };

  // `queue` may be null (tests of the cache alone).
  LiveCache(const Clock* clock, SchedulingQueue* queue, Options options);

  // Decodes and applies one watch event. An object that does not decode is
  // an error naming it; the cache is unchanged then.
  Status Apply(const client::WatchEvent& event);

  // Brings the engine's view up to date before a cycle: rebuilds the
  // ClusterState when needed and mirrors the queue's nominated pods.
  void Prepare();
  // v1.26: the moves of the node events applied since the last call, each
  // with its node's pre-check against the state as it is now.
  void FlushNodeMoves();

  // The engine's view (valid until the next Apply/Prepare/Assume call).
  ClusterState& state();
  NodeTree* tree();
  const NominatedPods& nominated() const { return nominated_; }

  // The latest stored version of a pod by "ns/name", or nullptr.
  PodPtr FindPod(const std::string& key) const;
  // True once every watched resource delivered its first list (kSynced).
  bool HasSynced() const;
  void ExpectResources(const std::vector<client::Resource>& resources);

  // ---- assumed pods
  // Places `pod` on `node` as decided (upstream's AssumePod). Error when the
  // node is gone or the pod is no longer pending in the cache.
  Status AssumePod(const Pod& pod, const std::string& node);
  // The bind call for `key` returned success: the assumption may now expire.
  void FinishBinding(const std::string& key);
  // The bind failed: the pod leaves its node. False when it was not assumed
  // (the watch confirmed or deleted it meanwhile).
  bool ForgetPod(const std::string& key);
  bool IsAssumed(const std::string& key) const;
  // Removes assumed pods whose binding finished over the TTL ago and were
  // never confirmed. Returns their keys.
  std::vector<std::string> ExpireAssumedPods();

  // ---- counts (metrics, logs, tests)
  size_t num_nodes() const { return nodes_.size(); }
  size_t num_pods() const { return pods_.size(); }
  size_t num_assumed() const { return assumed_.size(); }
  uint64_t rebuilds() const { return rebuilds_; }
  // The node a pod counts on ("" when pending or on no known node).
  std::string NodeOf(const std::string& key) const;

 private:
  struct PodEntry {
    PodPtr pod;               // the latest version from the watch
    PodId id = kNoPodId;      // in state_, when placed on an existing node
    std::string placed_node;  // where it counts ("" while pending)
    bool assumed = false;
    bool binding_finished = false;
    Clock::TimePoint deadline{};
  };
  static constexpr PodId kNoPodId = 0xffffffffu;

  void ApplyPod(client::WatchEventType type, PodPtr pod);
  void ApplyNode(client::WatchEventType type, Node node);
  void PlacePod(PodEntry* e, const Pod& placed, const std::string& node);
  void UnplacePod(PodEntry* e);
  // An assigned pod's new object into its entry (`e`, null when there is
  // none yet): placed on its node, again when the node or the object
  // changed; an assumption is confirmed. Returns the previous object, null
  // for a new entry. Shared by the v1.26 and v1.35 event paths.
  PodPtr ApplyAssigned(const std::string& key, PodEntry* e, const PodPtr& pod);
  bool Responsible(const Pod& pod) const;
  bool V126Moves() const { return options_.cluster_events.has_value(); }
  bool V135() const { return options_.v135_events; }
  // v1.35: `event` of `resource` with its objects, when a handler exists.
  void RaiseV135(framework::EventResource resource, uint32_t action,
                 const framework::EventObject& old_obj, const framework::EventObject& new_obj,
                 const SchedulingQueue::PreEnqueueCheck& check = {});
  void ApplyPodV135(client::WatchEventType type, PodPtr pod);
  std::vector<CSIStorageCapacity> CSIStorageCapacities() const;
  // v1.26: raises `event` when upstream has a handler for it.
  void RaiseIfHandled(const framework::ClusterEvent& event);
  void Rebuild();
  void SyncNominated();

  const Clock* clock_;
  SchedulingQueue* queue_;
  Options options_;
  simdjson::dom::parser parser_;

  std::map<std::string, Node> nodes_;  // by name: the node order of a snapshot
  std::unordered_map<std::string, PodEntry> pods_;
  std::unordered_set<std::string> assumed_;
  std::map<std::string, Service> services_;
  std::map<std::string, ReplicationController> rcs_;
  std::map<std::string, ReplicaSet> rss_;
  std::map<std::string, StatefulSet> sss_;
  std::map<std::string, PersistentVolume> pvs_;
  std::map<std::string, PersistentVolumeClaim> pvcs_;
  std::map<std::string, StorageClass> scs_;
  std::map<std::string, PodDisruptionBudget> pdbs_;
  std::map<std::string, PriorityClass> pcs_;
  std::map<std::string, Namespace> namespaces_;
  std::map<std::string, CSINode> csi_nodes_;
  std::map<std::string, CSIDriver> csi_drivers_;
  std::map<std::string, CSIStorageCapacity> csi_storage_capacities_;  // by ns/name
  std::set<client::Resource> expected_, synced_;

  std::optional<ClusterState> state_;
  std::optional<NodeTree> tree_;
  NominatedPods nominated_;
  std::vector<std::pair<std::string, std::string>> nominated_sig_;  // (node, uid)
  // v1.26 node events waiting for FlushNodeMoves: (event, node name).
  std::vector<std::pair<framework::ClusterEvent, std::string>> node_moves_;
  bool dirty_ = true;  // the state must be rebuilt before the next cycle
  uint64_t rebuilds_ = 0;
};

}  // namespace ksched::live
