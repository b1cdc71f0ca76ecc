// Resource amounts as the scheduler adds and compares them.
//
// Mirrors upstream's nodeinfo.Resource: the four first-class resources are
// plain fields; everything else that upstream calls a "scalar resource"
// (extended resources, hugepages-*, kubernetes.io/-prefixed names and
// attachable-volumes-*) lives in a small vector sorted by interned name, which
// is faster than a map for the one or two entries real pods carry.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "api/intern.h"
#include "api/pod_resources.h"
#include "api/types.h"

namespace ksched {

// Interned ids of the resource names the scheduler treats specially.
struct ResourceNames {
  StrId cpu, memory, pods, ephemeral_storage;
  static const ResourceNames& Get();
};

// Upstream's v1helper classification of resource names.
bool IsExtendedResourceName(std::string_view name);
// IsHugePageResourceName: api/pod_resources.h.
bool IsAttachableVolumeResourceName(std::string_view name);
// Extended, hugepages, kubernetes.io/-prefixed native, or attachable volumes.
bool IsScalarResourceName(StrId name);

struct Resource {
  int64_t milli_cpu = 0;
  int64_t memory = 0;
  int64_t ephemeral_storage = 0;
  int64_t allowed_pod_number = 0;
  std::vector<std::pair<StrId, int64_t>> scalars;  // sorted by name id

  // Upstream Resource.Add(ResourceList): sum every entry.
  void Add(const ResourceList& list);
  // Upstream Resource.SetMaxResource: per resource, the larger of the two.
  void SetMax(const ResourceList& list);
  // Adds another Resource's cpu/memory/ephemeral/scalars (not pod count).
  void AddRequest(const Resource& other);

  int64_t Scalar(StrId name) const;
  void AddScalar(StrId name, int64_t amount);
  void SetScalar(StrId name, int64_t amount);

  bool operator==(const Resource& o) const = default;
};

// Upstream's non-zero defaults for priorities: a container that does not name
// cpu (memory) in its requests counts as 100m (200Mi). An explicit "0" stays 0.
inline constexpr int64_t kDefaultMilliCpuRequest = 100;
inline constexpr int64_t kDefaultMemoryRequest = 200 * 1024 * 1024;

struct NonZeroRequest {
  int64_t milli_cpu = 0;
  int64_t memory = 0;
};

// The requests of a pod as the cache counts them on a node: regular containers
// only (init containers are ignored once a pod is placed).
Resource PodRequestOnNode(const Pod& pod);
// The request of an incoming pod as PodFitsResources sees it: the sum of the
// regular containers, raised to any single init container's request.
Resource PodRequestToSchedule(const Pod& pod);
// Sum over regular containers of the non-zero-defaulted cpu and memory.
NonZeroRequest PodNonZeroRequest(const Pod& pod);

// v1.26 (framework.NodeInfo's calculateResource) counts a pod the same way
// on a node and when scheduling it: the sum of the regular containers, raised
// per resource to any single init container's request, plus spec.overhead.
Resource PodRequestV126(const Pod& pod);
// Its non-zero cpu and memory: the containers' non-zero sum, raised to any
// init container's non-zero value, plus the overhead's cpu and memory when
// the overhead names them.
NonZeroRequest PodNonZeroRequestV126(const Pod& pod);

}  // namespace ksched

namespace ksched {

// What kube-scheduler v1.35 asks of component-helpers' PodRequests
// (resource.PodResourcesOptions) when it counts a pod, from its gates.
struct PodRequestOptions {
  // InPlacePodVerticalScaling (GA, locked on in v1.35): a container whose
  // status reports its resources counts the larger of spec, actuated and
  // allocated requests (only actuated and allocated while its resize is
  // infeasible).
  bool use_status_resources = true;
  // PodLevelResources (beta, on): spec.resources.requests of cpu, memory and
  // hugepages-* replace the containers' sums.
  bool pod_level_resources = true;
  // NonMissingContainerRequests {cpu: 100m, memory: 200Mi}: every container
  // (regular, sidecar or init) that names no cpu (memory) counts the
  // default before the containers are combined; an explicit 0 stays 0.
  // NodeResourcesFit's scoring asks for it.
  bool non_missing_container_requests = false;
};

// v1.35's pod requests (component-helpers resource.PodRequests, KEP-753):
// regular containers summed; each restartable init container (a native
// sidecar) added to them and to the sidecars before it; an ordinary init
// container counts with the sidecars started before it; per resource the
// larger of the sum and any init container's use; then pod-level requests,
// then spec.overhead.
ResourceList PodRequestsV135(const Pod& pod, const PodRequestOptions& options);
Resource PodRequestV135(const Pod& pod, const PodRequestOptions& options);
// Its non-zero cpu and memory (framework.PodInfo.CalculateResource): the
// same sum with 100m / 200Mi for each container that names no cpu (memory),
// unless pod-level requests give that resource.
NonZeroRequest PodNonZeroRequestV135(const Pod& pod, const PodRequestOptions& options);

// Whether spec.resources.requests names cpu, memory or hugepages-*
// (resource.IsPodLevelRequestsSet).
bool PodLevelRequestsSet(const Pod& pod);
// Whether spec.resources names cpu, memory or hugepages-* in requests or
// limits (resource.IsPodLevelResourcesSet).
bool PodLevelResourcesSet(const Pod& pod);

}  // namespace ksched
