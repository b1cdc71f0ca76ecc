#include "live/live_cache.h"

#include <fmt/format.h>

#include "api/decode.h"
#include "api/priority_admission.h"
#include "queue/events.h"
#include "queue/priority_queue_v135.h"

namespace ksched::live {

namespace {

using client::Resource;
using client::WatchEventType;

std::string KeyOf(const ObjectMeta& meta) {
  if (meta.ns == kEmptyStr) return meta.name;
  std::string key(Str(meta.ns));
  key += '/';
  key += meta.name;
  return key;
}

bool SameTaints(const std::vector<Taint>& a, const std::vector<Taint>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].key != b[i].key || a[i].value != b[i].value || a[i].effect_str != b[i].effect_str)
      return false;
  }
  return true;
}

bool SameConditions(const std::vector<NodeCondition>& a, const std::vector<NodeCondition>& b) {
  // As upstream's nodeConditionsChanged: the type -> status map.
  std::map<std::string, std::string> ma, mb;
  for (const NodeCondition& c : a) ma[c.type] = c.status;
  for (const NodeCondition& c : b) mb[c.type] = c.status;
  return ma == mb;
}

bool SameImages(const std::vector<ContainerImage>& a, const std::vector<ContainerImage>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].names != b[i].names || a[i].size_bytes != b[i].size_bytes) return false;
  }
  return true;
}

bool Terminal(const Pod& pod) { return pod.phase == "Succeeded" || pod.phase == "Failed"; }

// Decodes event.object_json with `decode`, naming the object on error.
template <typename T, typename Decode>
Result<T> DecodeEvent(simdjson::dom::parser& parser, const client::WatchEvent& event,
                      Decode decode) {
  const std::string source = fmt::format("watch {} event", client::WatchEventTypeName(event.type));
  auto doc = ParseJson(parser, event.object_json, source);
  if (!doc.ok()) return doc.error();
  return decode(*doc, source, std::string_view(client::ResourceName(event.resource)));
}

template <typename T>
void Store(std::map<std::string, T>* m, WatchEventType type, T obj) {
  std::string key = KeyOf(obj.meta);
  if (type == WatchEventType::kDeleted) {
    m->erase(key);
  } else {
    (*m)[key] = std::move(obj);
  }
}

}  // namespace

bool SameForScheduling(const Node& a, const Node& b) {
  return a.meta == b.meta && a.unschedulable == b.unschedulable && SameTaints(a.taints, b.taints) &&
         a.capacity == b.capacity && a.allocatable == b.allocatable &&
         SameConditions(a.conditions, b.conditions) && SameImages(a.images, b.images);
}

const framework::ClusterEvent* NodeSchedulingPropertiesChange(const Node& o, const Node& n) {
  if (o.unschedulable != n.unschedulable && !n.unschedulable)
    return &queue_events::kNodeSpecUnschedulableChange;
  if (!(o.allocatable == n.allocatable)) return &queue_events::kNodeAllocatableChange;
  if (!(o.meta.labels == n.meta.labels)) return &queue_events::kNodeLabelChange;
  if (!SameTaints(o.taints, n.taints)) return &queue_events::kNodeTaintChange;
  if (!SameConditions(o.conditions, n.conditions)) return &queue_events::kNodeConditionChange;
  return nullptr;
}

std::vector<framework::ClusterEvent> NodeSchedulingPropertiesChangeV135(const Node& o,
                                                                        const Node& n) {
  using framework::EventResource;
  std::vector<framework::ClusterEvent> out;
  auto add = [&](uint32_t action) {
    out.push_back(framework::MakeClusterEvent(EventResource::kNode, action));
  };
  // In upstream's order; a lifted spec.unschedulable counts as a taint change.
  if (o.unschedulable != n.unschedulable && !n.unschedulable) add(framework::kUpdateNodeTaint);
  if (!(o.allocatable == n.allocatable)) add(framework::kUpdateNodeAllocatable);
  if (!(o.meta.labels == n.meta.labels)) add(framework::kUpdateNodeLabel);
  if (!SameTaints(o.taints, n.taints)) add(framework::kUpdateNodeTaint);
  if (!SameConditions(o.conditions, n.conditions)) add(framework::kUpdateNodeCondition);
  if (o.meta.annotations != n.meta.annotations) add(framework::kUpdateNodeAnnotation);
  return out;
}

bool NodeSchedulingPropertiesChanged(const Node& o, const Node& n) {
  return NodeSchedulingPropertiesChange(o, n) != nullptr;
}

LiveCache::LiveCache(const Clock* clock, SchedulingQueue* queue, Options options)
    : clock_(clock), queue_(queue), options_(std::move(options)) {}

void LiveCache::ExpectResources(const std::vector<client::Resource>& resources) {
  expected_.insert(resources.begin(), resources.end());
}

bool LiveCache::HasSynced() const {
  for (Resource r : expected_)
    if (!synced_.count(r)) return false;
  return true;
}

PodPtr LiveCache::FindPod(const std::string& key) const {
  auto it = pods_.find(key);
  return it == pods_.end() ? nullptr : it->second.pod;
}

std::string LiveCache::NodeOf(const std::string& key) const {
  auto it = pods_.find(key);
  return it == pods_.end() ? std::string() : it->second.placed_node;
}

bool LiveCache::IsAssumed(const std::string& key) const { return assumed_.count(key) != 0; }

bool LiveCache::Responsible(const Pod& pod) const {
  // The API server defaults spec.schedulerName; an empty one (objects not
  // from a server) means the default scheduler, as `schedule` reads it.
  const std::string& name =
      pod.spec.scheduler_name.empty() ? std::string("default-scheduler") : pod.spec.scheduler_name;
  for (const std::string& served : options_.scheduler_names) {
    if (name == served) return true;
  }
  return false;
}

Status LiveCache::Apply(const client::WatchEvent& event) {
  if (event.type == WatchEventType::kSynced) {
    synced_.insert(event.resource);
    return Status::Ok();
  }
  const WatchEventType type = event.type;
  switch (event.resource) {
    case Resource::kPod: {
      auto pod = DecodeEvent<Pod>(parser_, event,
                                  [](auto e, auto f, auto w) { return DecodePod(e, f, w); });
      if (!pod.ok()) return pod.error();
      ApplyPod(type, std::make_shared<const Pod>(std::move(pod).value()));
      return Status::Ok();
    }
    case Resource::kNode: {
      auto node = DecodeEvent<Node>(parser_, event,
                                    [](auto e, auto f, auto w) { return DecodeNode(e, f, w); });
      if (!node.ok()) return node.error();
      ApplyNode(type, std::move(node).value());
      return Status::Ok();
    }
    default:
      break;
  }
  // Objects the state reads only at build time: store, rebuild, and move
  // pods as upstream's handlers do.
  bool move = false;
  Status status = Status::Ok();
  // v1.35: the object before and after the event, for the QueueingHints.
  framework::EventObject old_obj, new_obj;
  auto handle = [&](auto* store, auto decode, bool moves) {
    using T = typename std::remove_pointer_t<decltype(store)>::mapped_type;
    auto obj = DecodeEvent<T>(parser_, event, decode);
    if (!obj.ok()) {
      status = obj.error();
      return;
    }
    if constexpr (std::is_same_v<T, PersistentVolume> || std::is_same_v<T, PersistentVolumeClaim> ||
                  std::is_same_v<T, StorageClass> || std::is_same_v<T, CSINode> ||
                  std::is_same_v<T, CSIDriver>) {
      if (V135()) {
        auto now = std::make_shared<const T>(*obj);
        if (type == WatchEventType::kDeleted) {
          old_obj = framework::EventObject(now);
        } else {
          new_obj = framework::EventObject(now);
          auto it = store->find(KeyOf(now->meta));
          if (it != store->end())
            old_obj = framework::EventObject(std::make_shared<const T>(it->second));
        }
      }
    }
    Store(store, type, std::move(obj).value());
    dirty_ = true;
    move = moves;
  };
  const bool deleted = type == WatchEventType::kDeleted;
  bool wait_for_first_consumer = false;  // of a StorageClass decoded below
  switch (event.resource) {
    case Resource::kService:
      handle(
          &services_, [](auto e, auto f, auto w) { return DecodeService(e, f, w); }, true);
      break;
    case Resource::kReplicationController:
      handle(
          &rcs_, [](auto e, auto f, auto w) { return DecodeReplicationController(e, f, w); },
          false);
      break;
    case Resource::kReplicaSet:
      handle(
          &rss_, [](auto e, auto f, auto w) { return DecodeReplicaSet(e, f, w); }, false);
      break;
    case Resource::kStatefulSet:
      handle(
          &sss_, [](auto e, auto f, auto w) { return DecodeStatefulSet(e, f, w); }, false);
      break;
    case Resource::kPersistentVolume:
      handle(
          &pvs_, [](auto e, auto f, auto w) { return DecodePersistentVolume(e, f, w); }, !deleted);
      break;
    case Resource::kPersistentVolumeClaim:
      handle(
          &pvcs_, [](auto e, auto f, auto w) { return DecodePersistentVolumeClaim(e, f, w); },
          !deleted);
      break;
    case Resource::kStorageClass:
      handle(
          &scs_,
          [&](auto e, auto f, auto w) {
            auto sc = DecodeStorageClass(e, f, w);
            if (sc.ok())
              wait_for_first_consumer = sc->volume_binding_mode == "WaitForFirstConsumer";
            return sc;
          },
          type == WatchEventType::kAdded);
      break;
    case Resource::kPodDisruptionBudget:
      handle(
          &pdbs_, [](auto e, auto f, auto w) { return DecodePodDisruptionBudget(e, f, w); }, false);
      break;
    case Resource::kPriorityClass:
      handle(
          &pcs_, [](auto e, auto f, auto w) { return DecodePriorityClass(e, f, w); }, false);
      break;
    case Resource::kNamespace:
      handle(
          &namespaces_, [](auto e, auto f, auto w) { return DecodeNamespace(e, f, w); }, !deleted);
      break;
    case Resource::kCSINode:
      handle(
          &csi_nodes_, [](auto e, auto f, auto w) { return DecodeCSINode(e, f, w); }, !deleted);
      break;
    case Resource::kCSIDriver:
      handle(
          &csi_drivers_, [](auto e, auto f, auto w) { return DecodeCSIDriver(e, f, w); }, !deleted);
      break;
    case Resource::kCSIStorageCapacity: {
      // Stored and handed to the state as they are, without a rebuild.
      auto obj = DecodeEvent<CSIStorageCapacity>(
          parser_, event, [](auto e, auto f, auto w) { return DecodeCSIStorageCapacity(e, f, w); });
      if (!obj.ok()) return obj.error();
      if (V135()) {
        auto now = std::make_shared<const CSIStorageCapacity>(*obj);
        if (type == WatchEventType::kDeleted) {
          old_obj = framework::EventObject(now);
        } else {
          new_obj = framework::EventObject(now);
          auto it = csi_storage_capacities_.find(KeyOf(now->meta));
          if (it != csi_storage_capacities_.end())
            old_obj =
                framework::EventObject(std::make_shared<const CSIStorageCapacity>(it->second));
        }
      }
      Store(&csi_storage_capacities_, type, std::move(obj).value());
      if (state_ && !dirty_) state_->SetCSIStorageCapacities(CSIStorageCapacities());
      break;
    }
    default:
      break;
  }
  if (!status.ok() || queue_ == nullptr) return status;
  if (V135()) {
    // buildEvtResHandler: Add (nil, obj), Update (old, obj), Delete (obj, nil).
    using framework::EventResource;
    const uint32_t action = type == WatchEventType::kAdded     ? framework::kAdd
                            : type == WatchEventType::kDeleted ? framework::kDelete
                                                               : framework::kUpdate;
    if (action == framework::kAdd) old_obj = framework::EventObject();
    switch (event.resource) {
      case Resource::kPersistentVolume:
        RaiseV135(EventResource::kPersistentVolume, action, old_obj, new_obj);
        break;
      case Resource::kPersistentVolumeClaim:
        RaiseV135(EventResource::kPersistentVolumeClaim, action, old_obj, new_obj);
        break;
      case Resource::kStorageClass:
        RaiseV135(EventResource::kStorageClass, action, old_obj, new_obj);
        break;
      case Resource::kCSINode:
        RaiseV135(EventResource::kCSINode, action, old_obj, new_obj);
        break;
      case Resource::kCSIDriver:
        RaiseV135(EventResource::kCSIDriver, action, old_obj, new_obj);
        break;
      case Resource::kCSIStorageCapacity:
        RaiseV135(EventResource::kCSIStorageCapacity, action, old_obj, new_obj);
        break;
      default:
        break;  // no v1.35 plugin registers for Services, Namespaces, ...
    }
    return status;
  }
  if (!V126Moves()) {
    if (move) queue_->MoveAllToActive();
    return status;
  }
  // v1.26: the event of the resource's generic handler (upstream's
  // buildEvtResHandler), where one is set up.
  using framework::EventResource;
  const uint32_t action = type == WatchEventType::kAdded     ? framework::kAdd
                          : type == WatchEventType::kDeleted ? framework::kDelete
                                                             : framework::kUpdate;
  const char* verb = action == framework::kAdd      ? "Add"
                     : action == framework::kDelete ? "Delete"
                                                    : "Update";
  auto raise = [&](EventResource r, const char* short_gvk) {
    RaiseIfHandled(framework::ClusterEvent{r, action, std::string(short_gvk) + verb});
  };
  switch (event.resource) {
    case Resource::kPersistentVolume:
      raise(EventResource::kPersistentVolume, "Pv");
      break;
    case Resource::kPersistentVolumeClaim:
      raise(EventResource::kPersistentVolumeClaim, "Pvc");
      break;
    case Resource::kCSINode:
      raise(EventResource::kCSINode, "CSINode");
      break;
    case Resource::kCSIDriver:
      raise(EventResource::kCSIDriver, "CSIDriver");
      break;
    case Resource::kCSIStorageCapacity:
      raise(EventResource::kCSIStorageCapacity, "CSIStorageCapacity");
      break;
    case Resource::kStorageClass:
      // Added: only a WaitForFirstConsumer class can unblock a pod
      // (onStorageClassAdd); updated: always; deleted: no handler.
      if ((action == framework::kAdd && wait_for_first_consumer) || action == framework::kUpdate)
        raise(EventResource::kStorageClass, "StorageClass");
      break;
    default:
      break;  // no v1.26 handler moves pods for Services, Namespaces, ...
  }
  return status;
}

std::vector<CSIStorageCapacity> LiveCache::CSIStorageCapacities() const {
  std::vector<CSIStorageCapacity> out;
  out.reserve(csi_storage_capacities_.size());
  for (const auto& [k, v] : csi_storage_capacities_) out.push_back(v);
  return out;
}

void LiveCache::RaiseV135(framework::EventResource resource, uint32_t action,
                          const framework::EventObject& old_obj,
                          const framework::EventObject& new_obj,
                          const SchedulingQueue::PreEnqueueCheck& check) {
  if (queue_ == nullptr) return;
  using framework::EventResource;
  const bool always = resource == EventResource::kNode || resource == EventResource::kAssignedPod ||
                      resource == EventResource::kUnschedulablePod;
  if (!always) {
    auto it = options_.v135_handlers.find(resource);
    // The generic handler registers Update for any update bit.
    const uint32_t registered = it == options_.v135_handlers.end() ? 0 : it->second;
    if ((registered & action) == 0) return;
  }
  queue_->MoveAllToActive(framework::MakeClusterEvent(resource, action), old_obj, new_obj, check);
}

void LiveCache::RaiseIfHandled(const framework::ClusterEvent& event) {
  if (queue_ == nullptr || !options_.cluster_events->Fires(event.resource, event.action)) return;
  queue_->MoveAllToActive(event);
}

void LiveCache::FlushNodeMoves() {
  if (node_moves_.empty()) return;
  auto moves = std::move(node_moves_);
  node_moves_.clear();
  if (queue_ == nullptr) return;
  if (queue_->sizes().unschedulable == 0) {
    // Nothing to check; the move request still counts for pods in flight.
    for (const auto& [event, node] : moves) queue_->MoveAllToActive(event);
    return;
  }
  Prepare();
  for (const auto& [event, name] : moves) {
    const NodeId id = state_->FindNode(name);
    if (id == kNoNode) {  // deleted since: it can take no pod
      queue_->MoveAllToActive(event, [](const Pod&) { return false; });
      continue;
    }
    const NodeInfo& info = state_->node_info(id);
    queue_->MoveAllToActive(event, [&](const Pod& pod) {
      return !options_.node_pre_check || options_.node_pre_check(pod, info);
    });
  }
}

void LiveCache::PlacePod(PodEntry* e, const Pod& placed, const std::string& node) {
  e->placed_node = node;
  e->id = kNoPodId;
  if (dirty_ || !state_) return;  // the rebuild places it
  NodeId n = state_->FindNode(node);
  if (n == kNoNode) return;  // on a node the cache does not know: counts for nothing
  e->id = state_->Assume(placed, n);
}

void LiveCache::UnplacePod(PodEntry* e) {
  if (e->id != kNoPodId && !dirty_ && state_) state_->RemovePod(e->id);
  e->id = kNoPodId;
  e->placed_node.clear();
}

PodPtr LiveCache::ApplyAssigned(const std::string& key, PodEntry* e, const PodPtr& pod) {
  if (e == nullptr) {
    e = &pods_[key];
    e->pod = pod;
    PlacePod(e, *pod, pod->spec.node_name);
    return nullptr;
  }
  PodPtr old = e->pod;
  const bool was_pending = old->spec.node_name.empty();
  e->pod = pod;
  if (e->assumed) {
    // Our binding confirmed (or another binder's placement replacing it).
    e->assumed = false;
    assumed_.erase(key);
    if (e->placed_node != pod->spec.node_name) {
      UnplacePod(e);
      PlacePod(e, *pod, pod->spec.node_name);
    }
  } else if (was_pending || e->placed_node != pod->spec.node_name ||
             !(old->meta == pod->meta && old->spec == pod->spec)) {
    UnplacePod(e);
    PlacePod(e, *pod, pod->spec.node_name);
  }
  return old;
}

void LiveCache::ApplyPodV135(WatchEventType type, PodPtr pod) {
  using framework::EventObject;
  using framework::EventResource;
  const std::string key = pod->Key();
  auto it = pods_.find(key);
  PodEntry* e = it == pods_.end() ? nullptr : &it->second;
  // getLEPriorityPreCheck: the pods a nominated pod stood before.
  auto no_higher_than = [](const Pod& nominated) {
    const int32_t priority = PodPriority(nominated);
    return [priority](const Pod& p) { return PodPriority(p) <= priority; };
  };

  if (type == WatchEventType::kDeleted || Terminal(*pod)) {
    if (e == nullptr) return;
    const bool was_assigned = !e->pod->spec.node_name.empty() || !e->placed_node.empty();
    PodPtr last = e->pod;
    if (!e->placed_node.empty() && e->pod->spec.node_name.empty()) {
      // An assumed pod: its room is what frees (handleAssumedPodDeletion).
      auto assumed = std::make_shared<Pod>(*e->pod);
      assumed->spec.node_name = e->placed_node;
      last = assumed;
    }
    UnplacePod(e);
    assumed_.erase(key);
    pods_.erase(it);
    if (queue_ == nullptr) return;
    if (was_assigned) {
      queue_->Delete(*last);
      RaiseV135(EventResource::kAssignedPod, framework::kDelete, EventObject(last), {});
    } else if (Responsible(*last)) {
      queue_->Delete(*last);
      // A nominated pod held room for the pods of no higher priority.
      if (!last->nominated_node_name.empty())
        RaiseV135(EventResource::kAssignedPod, framework::kDelete, EventObject(last), {},
                  no_higher_than(*last));
    }
    return;
  }

  if (!pod->spec.node_name.empty()) {
    PodPtr old = ApplyAssigned(key, e, pod);
    if (old == nullptr) {
      RaiseV135(EventResource::kAssignedPod, framework::kAdd, {}, EventObject(pod));
      return;
    }
    const bool was_pending = old->spec.node_name.empty();
    if (queue_ == nullptr) return;
    if (was_pending) {
      // The binding (ours confirmed, or someone else's): out of the queue.
      if (Responsible(*old)) queue_->Delete(*old);
      RaiseV135(EventResource::kAssignedPod, framework::kAdd, {}, EventObject(pod));
    } else {
      for (const framework::ClusterEvent& ev : PodSchedulingPropertiesChange(*pod, *old))
        RaiseV135(ev.resource, ev.action, EventObject(old), EventObject(pod));
    }
    return;
  }

  // Pending.
  if (e == nullptr) {
    e = &pods_[key];
    e->pod = pod;
    if (queue_ != nullptr && Responsible(*pod)) queue_->Add(pod);
    return;
  }
  PodPtr old = e->pod;
  e->pod = pod;
  if (!old->spec.node_name.empty()) return;  // nodeName never goes back to empty
  if (queue_ == nullptr || !Responsible(*pod)) return;
  // Identical objects (a relist) change nothing.
  if (!old->meta.resource_version.empty() &&
      old->meta.resource_version == pod->meta.resource_version)
    return;
  if (e->assumed) {
    // Decided and binding: only its deletion matters (handleAssumedPodDeletion).
    if (pod->meta.has_deletion_timestamp && !old->meta.has_deletion_timestamp) {
      UnplacePod(e);
      e->assumed = false;
      assumed_.erase(key);
      auto assumed = std::make_shared<Pod>(*old);
      assumed->spec.node_name = e->placed_node;
      RaiseV135(EventResource::kAssignedPod, framework::kDelete, EventObject(PodPtr(assumed)), {});
    }
    return;
  }
  queue_->Update(old, pod);
  if (!old->nominated_node_name.empty() && old->nominated_node_name != pod->nominated_node_name)
    RaiseV135(EventResource::kAssignedPod, framework::kDelete, EventObject(old), {},
              no_higher_than(*old));
}

void LiveCache::ApplyPod(WatchEventType type, PodPtr pod) {
  if (V135()) {
    ApplyPodV135(type, std::move(pod));
    return;
  }
  const std::string key = pod->Key();
  auto it = pods_.find(key);
  PodEntry* e = it == pods_.end() ? nullptr : &it->second;

  if (type == WatchEventType::kDeleted || Terminal(*pod)) {
    if (e == nullptr) return;
    const bool was_assigned = !e->pod->spec.node_name.empty() || !e->placed_node.empty();
    UnplacePod(e);
    assumed_.erase(key);
    if (queue_ != nullptr) {
      queue_->Delete(*e->pod);
      if (was_assigned && V126Moves()) {
        queue_->MoveAllToActive(queue_events::kAssignedPodDelete);
      } else if (was_assigned) {
        queue_->MoveAllToActive();
      }
    }
    pods_.erase(it);
    return;
  }

  if (!pod->spec.node_name.empty()) {
    // Assigned: placed on its node, in place of an assumption.
    PodPtr old = ApplyAssigned(key, e, pod);
    if (old == nullptr) {
      if (queue_ != nullptr) queue_->AssignedPodAdded(*pod);
      return;
    }
    const bool was_pending = old->spec.node_name.empty();
    if (queue_ != nullptr) {
      if (was_pending) {
        queue_->Delete(*old);  // bound by someone (or confirmed): not ours to schedule
        queue_->AssignedPodAdded(*pod);
      } else {
        queue_->AssignedPodUpdated(*pod);
      }
    }
    return;
  }

  // Pending.
  if (e == nullptr) {
    e = &pods_[key];
    e->pod = pod;
    if (queue_ != nullptr && Responsible(*pod)) queue_->Add(pod);
    return;
  }
  PodPtr old = e->pod;
  e->pod = pod;
  if (e->assumed) return;                    // decided and binding: upstream skips its updates
  if (!old->spec.node_name.empty()) return;  // nodeName never goes back to empty
  if (queue_ != nullptr && Responsible(*pod)) queue_->Update(old, pod);
}

void LiveCache::ApplyNode(WatchEventType type, Node node) {
  const std::string name = node.meta.name;
  auto it = nodes_.find(name);
  if (V135()) {
    // v1.35: every event at once, with its objects (no pre-check).
    using framework::EventObject;
    using framework::EventResource;
    if (type == WatchEventType::kDeleted) {
      if (it == nodes_.end()) return;
      auto gone = std::make_shared<const Node>(std::move(it->second));
      nodes_.erase(it);
      dirty_ = true;
      RaiseV135(EventResource::kNode, framework::kDelete, EventObject(gone), {});
      return;
    }
    if (it == nodes_.end()) {
      auto added = std::make_shared<const Node>(node);
      nodes_.emplace(name, std::move(node));
      dirty_ = true;
      RaiseV135(EventResource::kNode, framework::kAdd, {}, EventObject(added));
      return;
    }
    if (SameForScheduling(it->second, node)) return;  // heartbeats and the like
    std::vector<framework::ClusterEvent> events =
        NodeSchedulingPropertiesChangeV135(it->second, node);
    std::shared_ptr<const Node> before, after;
    if (!events.empty()) {
      before = std::make_shared<const Node>(std::move(it->second));
      after = std::make_shared<const Node>(node);
    }
    it->second = std::move(node);
    dirty_ = true;
    for (const framework::ClusterEvent& ev : events)
      RaiseV135(EventResource::kNode, ev.action, EventObject(before), EventObject(after));
    return;
  }
  if (type == WatchEventType::kDeleted) {
    if (it != nodes_.end()) {
      nodes_.erase(it);
      dirty_ = true;
    }
    return;
  }
  if (it == nodes_.end()) {
    nodes_.emplace(name, std::move(node));
    dirty_ = true;
    if (V126Moves()) {
      node_moves_.emplace_back(queue_events::kNodeAdd, name);
    } else if (queue_ != nullptr) {
      queue_->MoveAllToActive();
    }
    return;
  }
  if (SameForScheduling(it->second, node)) return;  // heartbeats and the like
  const framework::ClusterEvent* change = NodeSchedulingPropertiesChange(it->second, node);
  it->second = std::move(node);
  dirty_ = true;
  if (V126Moves()) {
    if (change != nullptr) node_moves_.emplace_back(*change, name);
  } else if (queue_ != nullptr && (change != nullptr || queue_->sizes().unschedulable == 0)) {
    queue_->MoveAllToActive();  // v1.15 also moves when nothing waits
  }
}

Status LiveCache::AssumePod(const Pod& pod, const std::string& node) {
  const std::string key = pod.Key();
  auto it = pods_.find(key);
  if (it == pods_.end()) return MakeError(fmt::format("pod {} is gone", key));
  PodEntry& e = it->second;
  if (e.assumed || !e.pod->spec.node_name.empty()) {
    return MakeError(fmt::format("pod {} is already on node {}", key,
                                 e.assumed ? e.placed_node : e.pod->spec.node_name));
  }
  if (!nodes_.count(node)) return MakeError(fmt::format("node {} is gone", node));
  Pod placed = pod;
  placed.spec.node_name = node;
  e.assumed = true;
  e.binding_finished = false;
  assumed_.insert(key);
  PlacePod(&e, placed, node);
  return Status::Ok();
}

void LiveCache::FinishBinding(const std::string& key) {
  auto it = pods_.find(key);
  if (it == pods_.end() || !it->second.assumed) return;
  it->second.binding_finished = true;
  it->second.deadline = clock_->Now() + options_.assumed_pod_ttl;
}

bool LiveCache::ForgetPod(const std::string& key) {
  auto it = pods_.find(key);
  if (it == pods_.end() || !it->second.assumed) return false;
  UnplacePod(&it->second);
  it->second.assumed = false;
  assumed_.erase(key);
  return true;
}

std::vector<std::string> LiveCache::ExpireAssumedPods() {
  std::vector<std::string> expired;
  const Clock::TimePoint now = clock_->Now();
  for (const std::string& key : assumed_) {
    const PodEntry& e = pods_.at(key);
    if (e.binding_finished && now > e.deadline) expired.push_back(key);
  }
  for (const std::string& key : expired) ForgetPod(key);
  return expired;
}

void LiveCache::Rebuild() {
  ObjectSet objects;
  objects.nodes.reserve(nodes_.size());
  for (const auto& [name, node] : nodes_) objects.nodes.push_back(node);
  // Placed pods, in a fixed order so that PodIds can be matched back.
  std::vector<PodEntry*> placed;
  for (auto& [key, e] : pods_) {
    if (e.placed_node.empty()) continue;
    placed.push_back(&e);
  }
  objects.pods.reserve(placed.size());
  for (PodEntry* e : placed) {
    Pod p = *e->pod;
    p.spec.node_name = e->placed_node;
    objects.pods.push_back(std::move(p));
  }
  for (const auto& [k, v] : services_) objects.services.push_back(v);
  for (const auto& [k, v] : rcs_) objects.replication_controllers.push_back(v);
  for (const auto& [k, v] : rss_) objects.replica_sets.push_back(v);
  for (const auto& [k, v] : sss_) objects.stateful_sets.push_back(v);
  for (const auto& [k, v] : pvs_) objects.persistent_volumes.push_back(v);
  for (const auto& [k, v] : pvcs_) objects.persistent_volume_claims.push_back(v);
  for (const auto& [k, v] : scs_) objects.storage_classes.push_back(v);
  for (const auto& [k, v] : pdbs_) objects.pod_disruption_budgets.push_back(v);
  for (const auto& [k, v] : pcs_) objects.priority_classes.push_back(v);
  for (const auto& [k, v] : namespaces_) objects.namespaces.push_back(v);
  for (const auto& [k, v] : csi_nodes_) objects.csi_nodes.push_back(v);
  for (const auto& [k, v] : csi_drivers_) objects.csi_drivers.push_back(v);
  objects.csi_storage_capacities = CSIStorageCapacities();
  auto built = ClusterState::Build(std::move(objects), nullptr, options_.cache_options);
  // Keys are unique in the stores, so Build cannot fail on duplicates.
  state_.emplace(std::move(built).value());
  // Build numbers the pods it keeps in input order.
  PodId next = 0;
  for (PodEntry* e : placed) {
    e->id = next++;  // pods on missing nodes too: they count for nothing
  }
  tree_.emplace(*state_);
  nominated_ = NominatedPods();
  nominated_sig_.clear();
  dirty_ = false;
  ++rebuilds_;
}

void LiveCache::SyncNominated() {
  if (queue_ == nullptr) return;
  std::vector<std::pair<std::string, PodPtr>> now = queue_->NominatedPods();
  std::vector<std::pair<std::string, std::string>> sig;
  sig.reserve(now.size());
  for (const auto& [node, pod] : now) sig.emplace_back(node, pod->meta.uid);
  if (sig == nominated_sig_) return;
  for (const auto& [node, uid] : nominated_sig_) nominated_.Remove(&*state_, uid);
  for (const auto& [node, pod] : now) nominated_.Add(&*state_, *pod, node);
  nominated_sig_ = std::move(sig);
}

void LiveCache::Prepare() {
  if (state_ && !dirty_) {
    // Compaction: removed and detached pods keep their slots.
    const size_t all = state_->num_pods(), live = state_->num_live_pods();
    if (all - live > std::max<size_t>(4096, live)) dirty_ = true;
  }
  if (dirty_ || !state_) Rebuild();
  SyncNominated();
}

ClusterState& LiveCache::state() {
  if (!state_ || dirty_) Rebuild();
  return *state_;
}

NodeTree* LiveCache::tree() {
  if (!state_ || dirty_) Rebuild();
  return &*tree_;
}

}  // namespace ksched::live
