#include "framework/plugins/noderesources/resource_allocation.h"

#include <algorithm>
#include <iterator>
#include <variant>

#include "cache/resource.h"
#include "util/go_arith.h"

namespace ksched::framework::noderesources {

std::vector<ScoredResource> ResourcesToScore(const std::vector<config::ResourceSpec>& specs) {
  const ResourceNames& rn = ResourceNames::Get();
  std::vector<ScoredResource> out;
  for (const config::ResourceSpec& spec : specs) {
    const StrId name = Intern(spec.name);
    auto same = [name](const ScoredResource& r) { return r.name == name; };
    if (auto it = std::find_if(out.begin(), out.end(), same); it != out.end()) {
      it->weight = spec.weight;
      continue;
    }
    ScoredResource r;
    r.name = name;
    r.weight = spec.weight;
    if (name == rn.cpu) {
      r.kind = ResourceKind::kCpu;
    } else if (name == rn.memory) {
      r.kind = ResourceKind::kMemory;
    } else if (name == rn.ephemeral_storage) {
      r.kind = ResourceKind::kEphemeralStorage;
    }
    r.scalar = IsScalarResourceName(name);
    out.push_back(r);
  }
  return out;
}

std::vector<config::ResourceSpec> DefaultResourceSpec() { return {{"cpu", 1}, {"memory", 1}}; }

namespace {

// The entry named `name` in a requests map; the last one wins if the list
// repeats a name (a decoded JSON object keeps its last duplicate key).
const ResourceQuantity* Find(const ResourceList& list, StrId name) {
  const ResourceQuantity* found = nullptr;
  for (const ResourceQuantity& q : list)
    if (q.name == name) found = &q;
  return found;
}

}  // namespace

int64_t ContainerRequest(const ResourceList& requests, const ScoredResource& r, bool non_zero) {
  const ResourceQuantity* q = Find(requests, r.name);
  switch (r.kind) {
    case ResourceKind::kCpu:
      if (q == nullptr) return non_zero ? kDefaultMilliCpuRequest : 0;
      return q->milli;
    case ResourceKind::kMemory:
      if (q == nullptr) return non_zero ? kDefaultMemoryRequest : 0;
      return q->value;
    case ResourceKind::kEphemeralStorage:
    case ResourceKind::kOther:
      return q == nullptr ? 0 : q->value;
  }
  return 0;
}

int64_t PodResourceRequest(const Pod& pod, const ScoredResource& r, bool non_zero) {
  int64_t request = 0;
  for (const Container& c : pod.spec.containers)
    request = goarith::Add(request, ContainerRequest(c.requests, r, non_zero));
  for (const Container& c : pod.spec.init_containers)
    request = std::max(request, ContainerRequest(c.requests, r, non_zero));
  if (const ResourceQuantity* q = Find(pod.spec.overhead, r.name))
    request = goarith::Add(request, q->value);
  return request;
}

std::unique_ptr<PodScoringRequest> ResourceAllocationScorer::ComputePodRequests(
    const Pod& pod) const {
  auto state = std::make_unique<PodScoringRequest>();
  state->requests.reserve(resources_.size());
  if (!v135_requests_) {
    for (const ScoredResource& r : resources_)
      state->requests.push_back(PodResourceRequest(pod, r, !use_requested_));
    return state;
  }
  // v1.35 sums the pod's quantities (overhead included) before converting
  // them, so a 250m cpu overhead counts 250 millicores (v1.26 added its
  // Value(), 1).
  const ResourceList requests = PodRequestsV135(pod, *v135_requests_);
  for (const ScoredResource& r : resources_) {
    const ResourceQuantity* q = Find(requests, r.name);
    state->requests.push_back(q == nullptr                   ? 0
                              : r.kind == ResourceKind::kCpu ? q->milli
                                                             : q->value);
  }
  return state;
}

bool ResourceAllocationScorer::RequestsNothing(const PodScoringRequest& requests) {
  for (int64_t r : requests.requests)
    if (r != 0) return false;
  return true;
}

void ResourceAllocationScorer::AllocatableRequest(const NodeInfo& node, const ScoredResource& r,
                                                  int64_t pod_request, int64_t* allocatable,
                                                  int64_t* requested) const {
  *allocatable = 0;
  *requested = 0;
  // A scalar resource the pod does not ask for is left out of the score.
  if (pod_request == 0 && r.scalar) return;
  switch (r.kind) {
    case ResourceKind::kCpu:
      *allocatable = node.allocatable.milli_cpu;
      *requested =
          goarith::Add(use_requested_ ? node.requested.milli_cpu : node.nonzero_requested.milli_cpu,
                       pod_request);
      return;
    case ResourceKind::kMemory:
      *allocatable = node.allocatable.memory;
      *requested = goarith::Add(
          use_requested_ ? node.requested.memory : node.nonzero_requested.memory, pod_request);
      return;
    case ResourceKind::kEphemeralStorage:
      *allocatable = node.allocatable.ephemeral_storage;
      *requested = goarith::Add(node.requested.ephemeral_storage, pod_request);
      return;
    case ResourceKind::kOther:
      // Only scalar names have allocatable entries; others score (0, 0).
      *allocatable = node.allocatable.Scalar(r.name);
      if (*allocatable != 0) *requested = goarith::Add(node.requested.Scalar(r.name), pod_request);
      return;
  }
}

// The Go type name upstream's factories print for args of the wrong type.
std::string ArgsTypeName(const config::PluginArgs& args) {
  static constexpr const char* kNames[] = {
      "<nil>",
      "*config.NodeResourcesFitArgs",
      "*config.NodeResourcesBalancedAllocationArgs",
      "*config.PodTopologySpreadArgs",
      "*config.NodeAffinityArgs",
      "*config.InterPodAffinityArgs",
      "*config.DefaultPreemptionArgs",
      "*config.VolumeBindingArgs",
      "*config.DynamicResourcesArgs",
  };
  static_assert(std::size(kNames) == std::variant_size_v<config::PluginArgs>);
  return kNames[args.index()];
}

}  // namespace ksched::framework::noderesources
