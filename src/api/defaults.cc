#include "api/defaults.h"

#include <algorithm>
#include <unordered_set>

#include "api/pod_resources.h"

namespace ksched {
namespace {

// Requests default to limits for each resource the requests do not name.
void DefaultRequestsToLimits(Container* c) {
  for (const ResourceQuantity& limit : c->limits) {
    bool named = std::any_of(c->requests.begin(), c->requests.end(),
                             [&](const ResourceQuantity& r) { return r.name == limit.name; });
    if (!named) c->requests.push_back(limit);
  }
}

void DefaultHostNetworkPorts(std::vector<Container>* containers) {
  for (Container& c : *containers)
    for (ContainerPort& p : c.ports)
      if (p.host_port == 0) p.host_port = p.container_port;
}

// The DefaultTolerationSeconds plugin's test: a toleration with this key (or
// no key) and effect NoExecute (or no effect) counts, whatever its operator.
bool Covers(const Toleration& t, StrId key) {
  return (t.key == key || t.key == kEmptyStr) &&
         (t.effect == TaintEffect::kNoExecute || t.effect == TaintEffect::kNone);
}

bool IsDefaultClass(const StorageClass& sc) {
  for (std::string_view a :
       {kIsDefaultStorageClassAnnotation, kBetaIsDefaultStorageClassAnnotation})
    if (const std::string* v = sc.meta.Annotation(a); v != nullptr && *v == "true") return true;
  return false;
}

// defaultHugePagePodLimits: with pod-level resources partly set and no
// pod-level request for a hugepage size, the pod's limit of it defaults to
// the containers' (KEP-753 sum).
void DefaultHugePagePodLimits(const PodSpec& spec, PodResources* r) {
  if (r->limits.empty() && r->requests.empty()) return;
  for (const ResourceQuantity& agg : AggregateContainerLimits(spec)) {
    if (!IsHugePageResourceName(Str(agg.name))) continue;
    if (FindResource(r->requests, agg.name) != nullptr) continue;
    if (FindResource(r->limits, agg.name) == nullptr) r->limits.push_back(agg);
  }
}

// defaultPodRequests: with pod-level limits set, a pod-level request
// defaults to the containers' requests (cpu and memory, when some container
// requests it), else to the pod-level limit.
void DefaultPodRequests(const PodSpec& spec, PodResources* r) {
  if (r->limits.empty()) return;
  for (const ResourceQuantity& agg : AggregateContainerRequests(spec)) {
    std::string_view name = Str(agg.name);
    if (FindResource(r->requests, agg.name) == nullptr && (name == "cpu" || name == "memory"))
      r->requests.push_back(agg);
  }
  for (const ResourceQuantity& limit : r->limits) {
    if (FindResource(r->requests, limit.name) == nullptr &&
        IsSupportedPodLevelResource(Str(limit.name)))
      r->requests.push_back(limit);
  }
}

}  // namespace

void SetPodDefaults(Pod* pod, const ApiServerOptions& api) {
  SetPodDefaults(pod);
  // v1.34+ (PodLevelResources), after the containers' requests are set.
  if (api.v135() && api.pod_level_resources && pod->spec.resources) {
    PodResources r = *pod->spec.resources;
    DefaultHugePagePodLimits(pod->spec, &r);
    DefaultPodRequests(pod->spec, &r);
    pod->spec.resources = std::move(r);
  }
}

void SetPodDefaults(Pod* pod) {
  PodSpec& s = pod->spec;
  for (Container& c : s.containers) DefaultRequestsToLimits(&c);
  for (Container& c : s.init_containers) DefaultRequestsToLimits(&c);
  if (s.host_network) {
    DefaultHostNetworkPorts(&s.containers);
    DefaultHostNetworkPorts(&s.init_containers);
  }
  for (std::vector<Container>* list : {&s.containers, &s.init_containers})
    for (Container& c : *list)
      for (ContainerPort& p : c.ports)
        if (p.protocol.empty()) p.protocol = "TCP";
  if (s.scheduler_name.empty()) s.scheduler_name = kDefaultSchedulerName;
}

void AdmitDefaultTolerationSeconds(Pod* pod) {
  static const StrId not_ready = Intern(kTaintNodeNotReady);
  static const StrId unreachable = Intern(kTaintNodeUnreachable);
  std::vector<Toleration>& ts = pod->spec.tolerations;
  bool has_not_ready = false, has_unreachable = false;
  for (const Toleration& t : ts) {
    has_not_ready = has_not_ready || Covers(t, not_ready);
    has_unreachable = has_unreachable || Covers(t, unreachable);
  }
  auto add = [&](StrId key) {
    Toleration t;
    t.key = key;
    t.op = "Exists";
    t.effect = TaintEffect::kNoExecute;
    t.effect_str = "NoExecute";
    t.toleration_seconds = kDefaultTolerationSeconds;
    ts.push_back(std::move(t));
  };
  if (!has_not_ready) add(not_ready);
  if (!has_unreachable) add(unreachable);
}

void SetNodeDefaults(Node* node) {
  // Upstream tests for a nil map; an empty list is the closest this struct
  // can tell (an explicit `allocatable: {}` is defaulted too).
  if (node->allocatable.empty() && !node->capacity.empty()) node->allocatable = node->capacity;
}

void SetReplicationControllerDefaults(ReplicationController* rc) {
  if (rc->selector.empty() && !rc->template_labels.empty()) {
    rc->selector = rc->template_labels;
    rc->has_selector = true;
  }
}

void AdmitDefaultStorageClass(const std::vector<StorageClass>& classes,
                              std::vector<PersistentVolumeClaim>* claims) {
  const StorageClass* def = nullptr;
  for (const StorageClass& sc : classes) {
    if (!IsDefaultClass(sc)) continue;
    // Two defaults: the API server refuses to create a claim without a class
    // ("2 default StorageClasses were found"); a stored claim keeps none.
    if (def != nullptr) return;
    def = &sc;
  }
  if (def == nullptr) return;
  for (PersistentVolumeClaim& pvc : *claims) {
    if (pvc.storage_class_name || pvc.meta.Annotation("volume.beta.kubernetes.io/storage-class"))
      continue;
    pvc.storage_class_name = def->meta.name;
  }
}

void ApplyPodDefaults(std::vector<Pod>* pods, const ApiServerOptions& api) {
  for (Pod& p : *pods) {
    SetPodDefaults(&p, api);
    AdmitDefaultTolerationSeconds(&p);
  }
}

void ApplyApiServerDefaults(ObjectSet* objects, const ApiServerOptions& api) {
  for (Pod& p : objects->pods) {
    SetPodDefaults(&p, api);
    // No scheduler reads a bound pod's tolerations; sparing them two more
    // each saves a snapshot of 100,000 pods as many allocations.
    if (p.spec.node_name.empty()) AdmitDefaultTolerationSeconds(&p);
  }
  for (Node& n : objects->nodes) SetNodeDefaults(&n);
  for (ReplicationController& rc : objects->replication_controllers)
    SetReplicationControllerDefaults(&rc);
  for (DaemonSet& ds : objects->daemon_sets) {
    // A pod template's spec is defaulted as a pod's.
    Pod p;
    p.spec = std::move(ds.template_spec);
    SetPodDefaults(&p, api);
    ds.template_spec = std::move(p.spec);
  }
  AdmitDefaultStorageClass(objects->storage_classes, &objects->persistent_volume_claims);
}

void SetNamespaceDefaults(Namespace* ns) {
  static const StrId key = Intern(kLabelMetadataName);
  if (!ns->meta.name.empty()) ns->meta.labels.Set(key, Intern(ns->meta.name));
}

void AddPodNamespaces(ObjectSet* objects, const std::vector<Pod>& pending) {
  std::unordered_set<StrId> have;
  for (const Namespace& ns : objects->namespaces) have.insert(Intern(ns.meta.name));
  auto add = [&](const std::vector<Pod>& pods) {
    for (const Pod& p : pods) {
      if (p.meta.ns == kEmptyStr || !have.insert(p.meta.ns).second) continue;
      Namespace ns;
      ns.meta.name = std::string(Str(p.meta.ns));
      objects->namespaces.push_back(std::move(ns));
    }
  };
  add(objects->pods);
  add(pending);
}

void ApplyV126Defaults(ObjectSet* objects, std::vector<Pod>* pending, const ApiServerOptions& api) {
  static const std::vector<Pod> kNoPods;
  AddPodNamespaces(objects, pending != nullptr ? *pending : kNoPods);
  for (Pod& p : objects->pods) SetPodDefaults(&p, api);
  if (pending != nullptr)
    for (Pod& p : *pending) SetPodDefaults(&p, api);
  for (Node& n : objects->nodes) SetNodeDefaults(&n);
  for (ReplicationController& rc : objects->replication_controllers)
    SetReplicationControllerDefaults(&rc);
  ApplyV126ServerDefaults(objects);
}

void ApplyV126ServerDefaults(ObjectSet* objects) {
  static const std::vector<Pod> kNoPods;
  AddPodNamespaces(objects, kNoPods);
  for (Namespace& ns : objects->namespaces) SetNamespaceDefaults(&ns);
  for (PersistentVolume& pv : objects->persistent_volumes)
    if (pv.phase.empty()) pv.phase = "Pending";
  for (PersistentVolumeClaim& pvc : objects->persistent_volume_claims)
    if (pvc.phase.empty()) pvc.phase = "Pending";
}

}  // namespace ksched
