// Per-node scheduling state, as upstream's nodeinfo.NodeInfo keeps it.
//
// A NodeInfo lives in ClusterState's flat array, indexed by NodeId. It holds
// what the predicates and priorities read for one node: allocatable and
// requested resources, the pods placed on it, used host ports and images.
// Only ClusterState mutates it (when a pod is assumed onto the node), and each
// mutation bumps `generation` so caches can tell exactly which nodes changed.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "api/types.h"
#include "cache/resource.h"

namespace ksched {

using NodeId = uint32_t;
using PodId = uint32_t;
inline constexpr NodeId kNoNode = 0xffffffffu;

// One (hostIP, protocol, hostPort) triple; ip "" is normalised to 0.0.0.0
// and protocol "" to TCP, as upstream's HostPortInfo does.
struct HostPort {
  StrId ip = kEmptyStr;
  StrId protocol = kEmptyStr;
  int32_t port = 0;
  bool operator==(const HostPort&) const = default;
};

// The host ports a pod asks for (hostPort > 0 only): its regular
// containers', after those of its native sidecars (restartable init
// containers) when `sidecars` (v1.35's util.GetHostPorts).
std::vector<HostPort> PodHostPorts(const Pod& pod, bool sidecars = false);

// True when `want` conflicts with any of `used`: same protocol and port, and
// either side binds 0.0.0.0 or both bind the same address.
bool HostPortConflicts(const std::vector<HostPort>& used, const HostPort& want);

// A pod as the cache holds it: the object plus what every scheduling cycle
// would otherwise recompute from it.
struct PodInfo {
  Pod pod;
  NodeId node = kNoNode;  // where it runs; kNoNode for unknown nodes
  // As counted on a node: v1.15 sums the regular containers only; v1.26
  // (CacheOptions::v126) raises that to each init container and adds the
  // overhead (PodRequestV126).
  Resource request;
  NonZeroRequest nonzero;  // the same with upstream's non-zero defaults
  std::vector<HostPort> host_ports;
  bool has_affinity = false;  // pod affinity or anti-affinity present
  // Required (requiredDuringScheduling...) anti-affinity terms present: the
  // pods v1.26's InterPodAffinity checks against every incoming pod.
  bool has_required_anti_affinity = false;
  bool terminating = false;  // metadata.deletionTimestamp set
  // False for pods the cache holds without counting them: deleted pods
  // (ClusterState::RemovePod) and detached ones (ClusterState::AddDetachedPod,
  // e.g. nominated pods that are not running anywhere yet).
  bool live = true;
  // Dense id of the pod's (namespace, labels) within its ClusterState: pods
  // with equal ids match every label selector and namespace list alike, so
  // per-cycle matching can be memoised by it.
  uint32_t label_set = 0;
};

struct ImageOnNode {
  StrId name = kEmptyStr;  // one of the image's names, as listed by the node
  int64_t size = 0;        // from the node's last entry listing the name
  int64_t first_size = 0;  // from its first such entry (ImageLocality's choice)
};

struct NodeInfo {
  const Node* node = nullptr;
  NodeId id = kNoNode;  // its index in ClusterState
  Resource allocatable;
  Resource requested;
  NonZeroRequest nonzero_requested;
  std::vector<PodId> pods;
  std::vector<PodId> pods_with_affinity;
  // Upstream's PodsWithRequiredAntiAffinity (v1.26), kept like pods_with_affinity.
  std::vector<PodId> pods_with_required_anti_affinity;
  std::vector<HostPort> used_ports;
  std::vector<ImageOnNode> images;  // sorted by name id, unique
  uint64_t generation = 0;

  std::string_view name() const { return node->meta.name; }
  const Labels& labels() const { return node->meta.labels; }

  // Upstream's NodeInfo.AddPod / RemovePod on this NodeInfo alone: requests,
  // non-zero requests, the pod lists and used host ports. ClusterState uses
  // them for real changes; the scheduler uses them on copies to look at a
  // node with nominated pods added or preemption victims removed. RemovePod,
  // as upstream's, moves the last pod into the removed one's slot and frees
  // each of the pod's host ports entirely. Neither touches `generation`.
  void AddPod(PodId id, const PodInfo& info);
  // False (and no change) when `id` is not on this node.
  bool RemovePod(PodId id, const PodInfo& info);
  // Size of the image named `name` on this node, or -1 if absent.
  int64_t ImageSize(StrId name) const;
};

}  // namespace ksched
