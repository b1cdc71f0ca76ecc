#include "framework/cluster_event.h"

#include <algorithm>

namespace ksched::framework {

const std::vector<ClusterEvent>& AllClusterEvents() {
  static const std::vector<ClusterEvent> kEvents = {
      {EventResource::kPod, kAll, ""},
      {EventResource::kNode, kAll, ""},
      {EventResource::kCSINode, kAll, ""},
      {EventResource::kPersistentVolume, kAll, ""},
      {EventResource::kPersistentVolumeClaim, kAll, ""},
      {EventResource::kStorageClass, kAll, ""},
  };
  return kEvents;
}

void ClusterEventMap::Register(std::string_view plugin, const std::vector<ClusterEvent>& events) {
  for (const ClusterEvent& e : events) {
    auto it = std::find_if(entries_.begin(), entries_.end(), [&](const Entry& x) {
      return x.resource == e.resource && x.action == e.action;
    });
    if (it == entries_.end()) it = entries_.insert(entries_.end(), Entry{e.resource, e.action, {}});
    auto pos = std::lower_bound(it->plugins.begin(), it->plugins.end(), plugin);
    if (pos == it->plugins.end() || *pos != plugin) it->plugins.insert(pos, std::string(plugin));
  }
}

bool ClusterEventMap::Matches(const std::vector<std::string>& unschedulable_plugins,
                              const ClusterEvent& event) const {
  if (event.IsWildCard()) return true;
  for (const Entry& e : entries_) {
    const bool registered_wildcard = e.resource == EventResource::kWildCard && e.action == kAll;
    const bool event_matches =
        registered_wildcard || (e.resource == event.resource && (e.action & event.action) != 0);
    if (!event_matches) continue;
    for (const std::string& p : unschedulable_plugins)
      if (std::binary_search(e.plugins.begin(), e.plugins.end(), p)) return true;
  }
  return false;
}

bool ClusterEventMap::Fires(EventResource resource, uint32_t action) const {
  for (const Entry& e : entries_) {
    if (e.resource == resource && (e.action & action) != 0) return true;
  }
  return false;
}

std::string_view EventResourceName(EventResource r) {
  switch (r) {
    case EventResource::kPod:
      return "Pod";
    case EventResource::kNode:
      return "Node";
    case EventResource::kPersistentVolume:
      return "PersistentVolume";
    case EventResource::kPersistentVolumeClaim:
      return "PersistentVolumeClaim";
    case EventResource::kStorageClass:
      return "storage.k8s.io/StorageClass";
    case EventResource::kCSINode:
      return "storage.k8s.io/CSINode";
    case EventResource::kCSIDriver:
      return "storage.k8s.io/CSIDriver";
    case EventResource::kCSIStorageCapacity:
      return "storage.k8s.io/CSIStorageCapacity";
    case EventResource::kVolumeAttachment:
      return "storage.k8s.io/VolumeAttachment";
    case EventResource::kResourceClaim:
      return "resource.k8s.io/ResourceClaim";
    case EventResource::kResourceSlice:
      return "resource.k8s.io/ResourceSlice";
    case EventResource::kDeviceClass:
      return "resource.k8s.io/DeviceClass";
    case EventResource::kAssignedPod:
      return "AssignedPod";
    case EventResource::kUnschedulablePod:
      return "UnschedulablePod";
    case EventResource::kService:
      return "Service";
    case EventResource::kNamespace:
      return "Namespace";
    case EventResource::kWildCard:
      return "*";
  }
  return "";
}

std::string_view ActionTypeName(uint32_t action) {
  switch (action) {
    case kAdd:
      return "Add";
    case kDelete:
      return "Delete";
    case kUpdateNodeAllocatable:
      return "UpdateNodeAllocatable";
    case kUpdateNodeLabel:
      return "UpdateNodeLabel";
    case kUpdateNodeTaint:
      return "UpdateNodeTaint";
    case kUpdateNodeCondition:
      return "UpdateNodeCondition";
    case kUpdateNodeAnnotation:
      return "UpdateNodeAnnotation";
    case kUpdateNodeDeclaredFeature:
      return "UpdateNodeDeclaredFeature";
    case kUpdatePodLabel:
      return "UpdatePodLabel";
    case kUpdatePodScaleDown:
      return "UpdatePodScaleDown";
    case kUpdatePodToleration:
      return "UpdatePodToleration";
    case kUpdatePodSchedulingGatesEliminated:
      return "UpdatePodSchedulingGatesEliminated";
    case kUpdatePodGeneratedResourceClaim:
      return "UpdatePodGeneratedResourceClaim";
    case kAll:
      return "All";
    case kUpdate:
      return "Update";
    default:
      return "";
  }
}

ClusterEvent MakeClusterEvent(EventResource resource, uint32_t action) {
  std::string label(EventResourceName(resource));
  label += ActionTypeName(action);
  return ClusterEvent{resource, action, std::move(label)};
}

std::string_view QueueingHintName(QueueingHint h) {
  switch (h) {
    case QueueingHint::kQueueSkip:
      return "QueueSkip";
    case QueueingHint::kQueue:
      return "Queue";
    case QueueingHint::kError:
      return "Error";
  }
  return "";
}

bool MatchClusterEvents(const ClusterEvent& registered, const ClusterEvent& incoming) {
  if (registered.IsWildCard()) return true;
  const bool resource = registered.resource == EventResource::kWildCard ||
                        registered.resource == incoming.resource ||
                        (registered.resource == EventResource::kPod &&
                         (incoming.resource == EventResource::kAssignedPod ||
                          incoming.resource == EventResource::kUnschedulablePod));
  return resource && (registered.action & incoming.action) != 0 &&
         incoming.action <= registered.action;
}

void QueueingHintMap::Add(const ClusterEvent& event, Function fn) {
  auto it = std::find_if(entries_.begin(), entries_.end(), [&](const Entry& e) {
    return e.event.resource == event.resource && e.event.action == event.action;
  });
  if (it == entries_.end()) it = entries_.insert(entries_.end(), Entry{event, {}});
  it->fns.push_back(std::move(fn));
}

void QueueingHintMap::Register(std::string_view plugin,
                               const std::vector<ClusterEventWithHint>& events) {
  bool node_added = false, node_taint_updated = false;
  for (const ClusterEventWithHint& e : events) {
    if (e.event.resource == EventResource::kNode) {
      node_added |= (e.event.action & kAdd) != 0;
      node_taint_updated |= (e.event.action & kUpdateNodeTaint) != 0;
    }
    Add(ClusterEvent{e.event.resource, e.event.action, ""}, Function{std::string(plugin), e.hint});
  }
  if (node_added && !node_taint_updated)
    Add(ClusterEvent{EventResource::kNode, kUpdateNodeTaint, ""},
        Function{std::string(plugin), {}});
}

bool QueueingHintMap::Interested(const ClusterEvent& event) const {
  for (const Entry& e : entries_)
    if (MatchClusterEvents(e.event, event)) return true;
  return false;
}

uint32_t QueueingHintMap::Actions(EventResource r) const {
  uint32_t out = 0;
  for (const Entry& e : entries_)
    if (e.event.resource == r) out |= e.event.action;
  return out;
}

}  // namespace ksched::framework
