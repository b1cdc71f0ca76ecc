// Cluster events (upstream's framework.ClusterEvent) and the map of which
// plugins registered for which of them (v1.26: the queue's clusterEventMap;
// v1.35: its queueingHintMap, where each registration carries a
// QueueingHint function).
//
// A pod the framework rejected remembers the plugins that rejected it. A
// cluster event moves it out of the unschedulable part of the queue only
// when one of those plugins registered for the event (EventsToRegister): a
// pod that lacks CPU waits for a pod deletion or a node change, not for a
// PVC update. v1.35 then asks the plugin's hint whether this very event
// (with the objects it changed) may help the pod: a pod lacking CPU moves
// when a bound pod is deleted, not when a pending one is. Kept apart from
// interface.h so the queue can use it without the plugin interfaces.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "api/types.h"

namespace ksched::framework {

// Upstream's GVK constants, the resources an event can be about.
enum class EventResource : uint8_t {
  kPod,
  kNode,
  kPersistentVolume,
  kPersistentVolumeClaim,
  kStorageClass,
  kCSINode,
  kCSIDriver,
  kCSIStorageCapacity,
  kService,
  kNamespace,
  kWildCard,
  // v1.35: its internal kinds of pod events (a registration for kPod
  // matches both), and resources the v1.35 plugins register for.
  kAssignedPod,
  kUnschedulablePod,
  kVolumeAttachment,
  kResourceClaim,
  kResourceSlice,
  kDeviceClass,
};

// Upstream's name of a resource in event labels ("Node",
// "storage.k8s.io/CSINode", "AssignedPod", ...).
std::string_view EventResourceName(EventResource r);

// Upstream's ActionType bits (v1.35's, in its order: the v1.26 ones first);
// registrations combine them. v1.26 raises only Add, Delete and the node
// updates.
enum ActionType : uint32_t {
  kAdd = 1 << 0,
  kDelete = 1 << 1,
  kUpdateNodeAllocatable = 1 << 2,
  kUpdateNodeLabel = 1 << 3,
  kUpdateNodeTaint = 1 << 4,  // also spec.unschedulable lifted
  kUpdateNodeCondition = 1 << 5,
  kUpdateNodeAnnotation = 1 << 6,
  kUpdateNodeDeclaredFeature = 1 << 7,
  kUpdatePodLabel = 1 << 8,
  kUpdatePodScaleDown = 1 << 9,  // some request of the pod got smaller
  kUpdatePodToleration = 1 << 10,
  kUpdatePodSchedulingGatesEliminated = 1 << 11,
  kUpdatePodGeneratedResourceClaim = 1 << 12,
  kUpdate = kUpdateNodeAllocatable | kUpdateNodeLabel | kUpdateNodeTaint | kUpdateNodeCondition |
            kUpdateNodeAnnotation | kUpdateNodeDeclaredFeature | kUpdatePodLabel |
            kUpdatePodScaleDown | kUpdatePodToleration | kUpdatePodSchedulingGatesEliminated |
            kUpdatePodGeneratedResourceClaim,
  kAll = kAdd | kDelete | kUpdate,
};

// Upstream's ActionType.String() of one bit, or "Update" / "All".
std::string_view ActionTypeName(uint32_t action);

struct ClusterEvent {
  EventResource resource = EventResource::kWildCard;
  uint32_t action = kAll;
  std::string label;  // upstream's event label, e.g. "NodeAdd"

  bool IsWildCard() const { return resource == EventResource::kWildCard && action == kAll; }
};

// v1.35's event with upstream's Label(): the resource's name followed by the
// action's ("NodeAdd", "AssignedPodDelete", "NodeUpdateNodeLabel",
// "storage.k8s.io/CSINodeAdd").
ClusterEvent MakeClusterEvent(EventResource resource, uint32_t action);

// What a plugin that does not implement EnqueueExtensions is registered for
// (upstream's allClusterEvents).
const std::vector<ClusterEvent>& AllClusterEvents();

class ClusterEventMap {
 public:
  // Registers `plugin` for each of `events` (fillEventToPluginMap).
  void Register(std::string_view plugin, const std::vector<ClusterEvent>& events);

  // Upstream's podMatchesEvent: `event` is a wildcard, or a registration
  // for a wildcard or for the event's resource with a common action names
  // one of `unschedulable_plugins`.
  bool Matches(const std::vector<std::string>& unschedulable_plugins,
               const ClusterEvent& event) const;

  // Whether upstream has a handler that fires such an event at all: some
  // plugin registered for `resource` with one of `action`'s bits (the
  // handlers of addAllEventHandlers are set up from the registrations; pods
  // and nodes always have theirs, a wildcard registration adds none).
  bool Fires(EventResource resource, uint32_t action) const;

  bool empty() const { return entries_.empty(); }

 private:
  struct Entry {
    EventResource resource;
    uint32_t action;
    std::vector<std::string> plugins;  // sorted, unique
  };
  std::vector<Entry> entries_;
};

// ------------------------------------------------------------ v1.35's hints

// The object an event is about, before (old) or after (new) the change
// (upstream's oldObj / newObj): none on the side an Add or a Delete lacks.
// Shared, so that the queue can keep an event for a pod in flight.
class EventObject {
 public:
  EventObject() = default;
  template <typename T>
  EventObject(std::shared_ptr<const T> obj) : v_(std::move(obj)) {}  // NOLINT: implicit
  template <typename T>
  const T* As() const {
    const auto* p = std::get_if<std::shared_ptr<const T>>(&v_);
    return p != nullptr ? p->get() : nullptr;
  }
  bool empty() const { return v_.index() == 0; }

 private:
  std::variant<std::monostate, std::shared_ptr<const Pod>, std::shared_ptr<const Node>,
               std::shared_ptr<const PersistentVolume>,
               std::shared_ptr<const PersistentVolumeClaim>, std::shared_ptr<const StorageClass>,
               std::shared_ptr<const CSINode>, std::shared_ptr<const CSIDriver>,
               std::shared_ptr<const CSIStorageCapacity>>
      v_;
};

// Upstream's QueueingHint; kError is a hint function that could not read
// its objects, which the queue takes as kQueue (and counts as "Error").
enum class QueueingHint : uint8_t { kQueueSkip, kQueue, kError };
std::string_view QueueingHintName(QueueingHint h);  // "QueueSkip", "Queue", "Error"

// Upstream's QueueingHintFn: whether `event` (its objects before and after)
// may make `pod`, which the registering plugin rejected, schedulable.
using QueueingHintFn = std::function<QueueingHint(const Pod& pod, const EventObject& old_obj,
                                                  const EventObject& new_obj)>;

// Upstream's ClusterEventWithHint; no hint means kQueue.
struct ClusterEventWithHint {
  ClusterEvent event;
  QueueingHintFn hint;
};

// Upstream's MatchClusterEvents: `registered` is a wildcard, or its
// resource is the incoming one's (kPod also covers kAssignedPod and
// kUnschedulablePod) and the incoming action is one of its bits and no
// larger than them (a registration for UpdateNodeLabel does not match a
// plain Update).
bool MatchClusterEvents(const ClusterEvent& registered, const ClusterEvent& incoming);

// One profile's registrations (upstream's QueueingHintMap, built by
// buildQueueingHintMap).
class QueueingHintMap {
 public:
  struct Function {
    std::string plugin;
    QueueingHintFn fn;  // empty: always kQueue
  };
  struct Entry {
    ClusterEvent event;
    std::vector<Function> fns;
  };

  // Registers `plugin` for `events`. An empty list registers nothing (the
  // plugin's pods move only by their own updates or a flush). A plugin that
  // registers Node/Add but not Node/UpdateNodeTaint is also registered for
  // the latter with no hint, as upstream does (issue 109437).
  void Register(std::string_view plugin, const std::vector<ClusterEventWithHint>& events);

  const std::vector<Entry>& entries() const { return entries_; }
  // Some registration matches `event` (isEventOfInterest's per-profile part).
  bool Interested(const ClusterEvent& event) const;
  // The action bits registered for `r` (unionedGVKs): which handlers exist.
  uint32_t Actions(EventResource r) const;

 private:
  void Add(const ClusterEvent& event, Function fn);
  std::vector<Entry> entries_;
};

// Every profile's map, by profile name (spec.schedulerName).
using QueueingHintMaps = std::map<std::string, QueueingHintMap, std::less<>>;

}  // namespace ksched::framework
