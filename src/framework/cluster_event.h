// Cluster events (upstream's framework.ClusterEvent) and the map of which
// plugins registered for which of them (the queue's clusterEventMap).
//
// A pod the framework rejected remembers the plugins that rejected it. A
// cluster event moves it out of the unschedulable part of the queue only
// when one of those plugins registered for the event (EventsToRegister): a
// pod that lacks CPU waits for a pod deletion or a node change, not for a
// PVC update. Kept apart from interface.h so the queue can use it without
// the plugin interfaces.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

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
};

// Upstream's ActionType bits; registrations combine them.
enum ActionType : uint32_t {
  kAdd = 1 << 0,
  kDelete = 1 << 1,
  kUpdateNodeAllocatable = 1 << 2,
  kUpdateNodeLabel = 1 << 3,
  kUpdateNodeTaint = 1 << 4,
  kUpdateNodeCondition = 1 << 5,
  kUpdate = kUpdateNodeAllocatable | kUpdateNodeLabel | kUpdateNodeTaint | kUpdateNodeCondition,
  kAll = kAdd | kDelete | kUpdate,
};

struct ClusterEvent {
  EventResource resource = EventResource::kWildCard;
  uint32_t action = kAll;
  std::string label;  // upstream's event label, e.g. "NodeAdd"

  bool IsWildCard() const { return resource == EventResource::kWildCard && action == kAll; }
};

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

}  // namespace ksched::framework
