#include "cache/cluster_state.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <unordered_set>

#include "labels/label_selector.h"
#include "util/go_arith.h"

namespace ksched {

std::string ZoneKey(const Labels& labels) {
  static const StrId kRegion = Intern("failure-domain.beta.kubernetes.io/region");
  static const StrId kZone = Intern("failure-domain.beta.kubernetes.io/zone");
  std::string_view region = Str(labels.Get(kRegion).value_or(kEmptyStr));
  std::string_view zone = Str(labels.Get(kZone).value_or(kEmptyStr));
  if (region.empty() && zone.empty()) return "";
  std::string key(region);
  key += ":";
  key += '\0';
  key += ":";
  key += zone;
  return key;
}

namespace {

// v1.26's GetZoneKey as one integer: the region's id in the high half, the
// zone's in the low one. An absent label reads as "", as upstream's map
// lookup does, so two nodes share upstream's "region:\0:zone" string exactly
// when they share this, and 0 is upstream's "" key.
uint64_t ZoneKey126(const Labels& labels) {
  static const StrId kBetaZone = Intern("failure-domain.beta.kubernetes.io/zone");
  static const StrId kZone = Intern("topology.kubernetes.io/zone");
  static const StrId kBetaRegion = Intern("failure-domain.beta.kubernetes.io/region");
  static const StrId kRegion = Intern("topology.kubernetes.io/region");
  auto get = [&](StrId beta, StrId ga) -> uint64_t {
    if (auto v = labels.Get(beta)) return *v;
    return labels.Get(ga).value_or(kEmptyStr);
  };
  return get(kBetaRegion, kRegion) << 32 | get(kBetaZone, kZone);
}

// MakePodInfo into a record in place (the cache's pods are built where they
// stay, not moved there).
void FillPodInfo(PodInfo* out, Pod&& pod, const CacheOptions& options) {
  PodInfo& info = *out;
  if (options.v135) {
    info.request = PodRequestV135(pod, options.requests);
    info.nonzero = PodNonZeroRequestV135(pod, options.requests);
  } else if (options.v126) {
    info.request = PodRequestV126(pod);
    info.nonzero = PodNonZeroRequestV126(pod);
  } else {
    info.request = PodRequestOnNode(pod);
    info.nonzero = PodNonZeroRequest(pod);
  }
  info.host_ports = PodHostPorts(pod, /*sidecars=*/options.v135);
  const std::optional<Affinity>& affinity = pod.spec.affinity;
  info.has_affinity = affinity.has_value() && (affinity->pod_affinity.has_value() ||
                                               affinity->pod_anti_affinity.has_value());
  info.has_required_anti_affinity = affinity.has_value() &&
                                    affinity->pod_anti_affinity.has_value() &&
                                    !affinity->pod_anti_affinity->required.empty();
  info.terminating = pod.meta.has_deletion_timestamp;
  info.pod = std::move(pod);
}

}  // namespace

PodInfo MakePodInfo(Pod pod, const CacheOptions& options) {
  PodInfo info;
  FillPodInfo(&info, std::move(pod), options);
  return info;
}

Result<ClusterState> ClusterState::Build(ObjectSet objects, std::vector<Pod>* pending,
                                         CacheOptions options) {
  static std::atomic<uint64_t> next_id{1};
  ClusterState s;
  s.id_ = next_id.fetch_add(1);
  s.options_ = options;
  s.nodes_ = std::move(objects.nodes);
  s.node_infos_.resize(s.nodes_.size());
  s.zone_keys_.resize(s.nodes_.size());
  s.node_by_name_.reserve(s.nodes_.size() * 2);
  for (NodeId id = 0; id < s.nodes_.size(); ++id) {
    const Node& node = s.nodes_[id];
    if (!s.node_by_name_.emplace(node.meta.name, id).second) {
      return MakeError(fmt::format("Node {}: duplicate node name", node.meta.name));
    }
    NodeInfo& info = s.node_infos_[id];
    info.node = &node;
    info.id = id;
    for (const auto& [k, v] : node.meta.labels) s.nodes_by_label_[LabelPairKey(k, v)].push_back(id);
    info.allocatable.Add(node.allocatable);
    s.zone_keys_[id] = Intern(ZoneKey(node.meta.labels));
    // Sorted by name with one entry per name: sort the listings (stably, so
    // that each name's run keeps listing order) and fold each run.
    for (const ContainerImage& image : node.images) {
      for (const std::string& name : image.names) {
        info.images.push_back(ImageOnNode{Intern(name), image.size_bytes, image.size_bytes});
      }
    }
    std::stable_sort(info.images.begin(), info.images.end(),
                     [](const ImageOnNode& a, const ImageOnNode& b) { return a.name < b.name; });
    size_t kept = 0;
    for (size_t i = 0; i < info.images.size(); ++i) {
      if (kept > 0 && info.images[kept - 1].name == info.images[i].name) {
        info.images[kept - 1].size = info.images[i].size;  // a later listing wins
      } else {
        info.images[kept++] = info.images[i];
      }
    }
    info.images.resize(kept);
    for (const ImageOnNode& image : info.images) ++s.image_num_nodes_[image.name];
  }

  {
    std::unordered_map<StrId, uint32_t> dense;
    s.zone_index_.resize(s.nodes_.size());
    for (NodeId i = 0; i < s.nodes_.size(); ++i) {
      StrId z = s.zone_keys_[i];
      if (z == kEmptyStr) continue;
      auto [it, inserted] = dense.emplace(z, static_cast<uint32_t>(dense.size() + 1));
      s.zone_index_[i] = it->second;
    }
    s.num_zones_ = static_cast<uint32_t>(dense.size());
  }
  {
    std::unordered_map<uint64_t, uint32_t> dense;
    s.zone126_index_.resize(s.nodes_.size());
    for (NodeId i = 0; i < s.nodes_.size(); ++i) {
      const uint64_t key = ZoneKey126(s.nodes_[i].meta.labels);
      if (key == 0) continue;
      auto [it, inserted] = dense.try_emplace(key, static_cast<uint32_t>(dense.size() + 1));
      s.zone126_index_[i] = it->second;
    }
    s.num_zones126_ = static_cast<uint32_t>(dense.size());
  }
  {
    std::vector<NodeId> by_name(s.nodes_.size());
    for (NodeId i = 0; i < by_name.size(); ++i) by_name[i] = i;
    std::sort(by_name.begin(), by_name.end(),
              [&](NodeId a, NodeId b) { return s.nodes_[a].meta.name < s.nodes_[b].meta.name; });
    s.name_rank_.resize(by_name.size());
    for (uint32_t r = 0; r < by_name.size(); ++r) s.name_rank_[by_name[r]] = r;
  }

  std::unordered_map<std::string, bool> seen_pods;
  seen_pods.reserve(objects.pods.size() * 2);
  for (Pod& pod : objects.pods) {
    if (!seen_pods.emplace(pod.Key(), true).second) {
      return MakeError(fmt::format("Pod {}: duplicate pod (same namespace and name)", pod.Key()));
    }
    if (pod.phase == "Succeeded" || pod.phase == "Failed") continue;
    if (pod.spec.node_name.empty()) {
      if (pending != nullptr) pending->push_back(std::move(pod));
      continue;
    }
    NodeId node = s.FindNode(pod.spec.node_name);
    s.AddPodInfo(std::move(pod), node);
  }

  s.services_ = std::move(objects.services);
  s.rcs_ = std::move(objects.replication_controllers);
  s.rss_ = std::move(objects.replica_sets);
  s.sss_ = std::move(objects.stateful_sets);
  auto compile = [](const std::vector<ReplicaSet>& objs,
                    std::vector<std::optional<labels::Selector>>* out) {
    out->reserve(objs.size());
    for (const ReplicaSet& obj : objs) {
      Result<labels::Selector> sel = labels::FromLabelSelector(obj.selector);
      out->push_back(sel.ok() ? std::optional<labels::Selector>(std::move(sel).value())
                              : std::nullopt);
    }
  };
  compile(s.rss_, &s.rs_selectors_);
  compile(s.sss_, &s.ss_selectors_);
  s.pvs_ = std::move(objects.persistent_volumes);
  s.pvcs_ = std::move(objects.persistent_volume_claims);
  s.scs_ = std::move(objects.storage_classes);
  s.pdbs_ = std::move(objects.pod_disruption_budgets);
  s.priority_classes_ = std::move(objects.priority_classes);
  for (size_t i = 0; i < s.pvcs_.size(); ++i) {
    std::string key = std::string(Str(s.pvcs_[i].meta.ns)) + "/" + s.pvcs_[i].meta.name;
    s.pvc_by_key_.emplace(std::move(key), i);
  }
  for (size_t i = 0; i < s.pvs_.size(); ++i) s.pv_by_name_.emplace(s.pvs_[i].meta.name, i);
  for (size_t i = 0; i < s.scs_.size(); ++i) s.sc_by_name_.emplace(s.scs_[i].meta.name, i);
  Result<DraState> dra = DraState::Build(
      std::move(objects.device_classes), std::move(objects.resource_slices),
      std::move(objects.resource_claims), std::move(objects.resource_claim_templates));
  if (!dra.ok()) return dra.error();
  s.dra_ = std::move(dra).value();
  s.BuildNamespacesAndCsi(std::move(objects));
  return s;
}

void ClusterState::BuildNamespacesAndCsi(ObjectSet objects) {
  namespaces_ = std::move(objects.namespaces);
  // A repeated name: the later object wins, as a later write to the API would.
  for (size_t i = 0; i < namespaces_.size(); ++i)
    namespace_by_id_[Intern(namespaces_[i].meta.name)] = i;

  csi_nodes_ = std::move(objects.csi_nodes);
  if (options_.v126) {
    // Every kubelet registers a CSINode named after its node.
    // (Copies of the names: csi_nodes_ grows below, which moves its strings.)
    std::unordered_set<std::string> have;
    for (const CSINode& n : csi_nodes_) have.insert(n.meta.name);
    for (const Node& node : nodes_) {
      if (have.count(node.meta.name) != 0) continue;
      CSINode empty;
      empty.meta.name = node.meta.name;
      csi_nodes_.push_back(std::move(empty));
    }
  }
  for (size_t i = 0; i < csi_nodes_.size(); ++i) csi_node_by_name_[csi_nodes_[i].meta.name] = i;
  csi_node_of_.assign(nodes_.size(), nullptr);
  for (NodeId id = 0; id < nodes_.size(); ++id)
    csi_node_of_[id] = FindCSINode(nodes_[id].meta.name);

  csi_drivers_ = std::move(objects.csi_drivers);
  for (size_t i = 0; i < csi_drivers_.size(); ++i)
    csi_driver_by_name_[csi_drivers_[i].meta.name] = i;
  csi_storage_capacities_ = std::move(objects.csi_storage_capacities);
}

const Labels* ClusterState::NamespaceLabels(StrId ns) const {
  auto it = namespace_by_id_.find(ns);
  return it == namespace_by_id_.end() ? nullptr : &namespaces_[it->second].meta.labels;
}

const CSINode* ClusterState::FindCSINode(std::string_view node) const {
  auto it = csi_node_by_name_.find(std::string(node));
  return it == csi_node_by_name_.end() ? nullptr : &csi_nodes_[it->second];
}

const CSIDriver* ClusterState::FindCSIDriver(std::string_view name) const {
  auto it = csi_driver_by_name_.find(std::string(name));
  return it == csi_driver_by_name_.end() ? nullptr : &csi_drivers_[it->second];
}

const std::vector<NodeId>& ClusterState::NodesWithLabel(StrId key, StrId value) const {
  static const std::vector<NodeId> kNone;
  auto it = nodes_by_label_.find(LabelPairKey(key, value));
  return it == nodes_by_label_.end() ? kNone : it->second;
}

NodeId ClusterState::FindNode(std::string_view name) const {
  auto it = node_by_name_.find(std::string(name));
  return it == node_by_name_.end() ? kNoNode : it->second;
}

uint32_t ClusterState::LabelSetId(const Pod& pod) {
  // Interned ids are fixed-width, so the encoding is unambiguous.
  std::string key;
  key.reserve(4 + 8 * pod.meta.labels.size());
  auto put = [&](StrId v) { key.append(reinterpret_cast<const char*>(&v), sizeof v); };
  put(pod.meta.ns);
  for (const auto& [k, v] : pod.meta.labels) {
    put(k);
    put(v);
  }
  const uint32_t next = static_cast<uint32_t>(label_set_ids_.size());
  return label_set_ids_.try_emplace(std::move(key), next).first->second;
}

PodId ClusterState::AddPodInfo(Pod pod, NodeId node) {
  PodId id = static_cast<PodId>(pods_.size());
  PodInfo& info = pods_.emplace_back();
  FillPodInfo(&info, std::move(pod), options_);
  info.node = node;
  info.label_set = LabelSetId(info.pod);
  if (info.has_affinity) pods_with_affinity_.push_back(id);
  // A pod bound to a node that does not exist stays in the cache (it still
  // counts for nothing any predicate reads) but touches no NodeInfo.
  if (node == kNoNode) {
    ++pods_on_missing_nodes_;
    return id;
  }
  NodeInfo& n = node_infos_[node];
  n.AddPod(id, info);
  n.generation = ++generation_;
  change_log_.push_back(node);
  pod_log_.push_back(PodChange{id, true});
  return id;
}

PodId ClusterState::AddDetachedPod(Pod pod) {
  PodId id = static_cast<PodId>(pods_.size());
  PodInfo& info = pods_.emplace_back();
  FillPodInfo(&info, std::move(pod), options_);
  info.live = false;
  info.node = kDetached;
  info.label_set = LabelSetId(info.pod);
  ++detached_pods_;
  return id;
}

bool ClusterState::RemovePod(PodId id) {
  if (id >= pods_.size()) return false;
  PodInfo& info = pods_[id];
  if (!info.live) {
    if (info.node == kDetached) {
      info.node = kNoNode;
      --detached_pods_;
      ++removed_pods_;
      return true;
    }
    return false;  // removed already
  }
  info.live = false;
  ++removed_pods_;
  if (info.has_affinity) {
    pods_with_affinity_.erase(
        std::find(pods_with_affinity_.begin(), pods_with_affinity_.end(), id));
  }
  if (info.node == kNoNode) {
    --pods_on_missing_nodes_;
    return true;
  }
  NodeInfo& n = node_infos_[info.node];
  n.RemovePod(id, info);
  n.generation = ++generation_;
  change_log_.push_back(info.node);
  pod_log_.push_back(PodChange{id, false});
  return true;
}

PodId ClusterState::Assume(Pod pod, NodeId node) {
  pod.spec.node_name = nodes_[node].meta.name;
  return AddPodInfo(std::move(pod), node);
}

int ClusterState::ImageNumNodes(StrId image) const {
  auto it = image_num_nodes_.find(image);
  return it == image_num_nodes_.end() ? 0 : it->second;
}

const PersistentVolumeClaim* ClusterState::FindPvc(StrId ns, std::string_view name) const {
  std::string key(Str(ns));
  key += '/';
  key += name;
  auto it = pvc_by_key_.find(key);
  return it == pvc_by_key_.end() ? nullptr : &pvcs_[it->second];
}

const PersistentVolume* ClusterState::FindPv(std::string_view name) const {
  auto it = pv_by_name_.find(std::string(name));
  return it == pv_by_name_.end() ? nullptr : &pvs_[it->second];
}

const StorageClass* ClusterState::FindStorageClass(std::string_view name) const {
  auto it = sc_by_name_.find(std::string(name));
  return it == sc_by_name_.end() ? nullptr : &scs_[it->second];
}

}  // namespace ksched
