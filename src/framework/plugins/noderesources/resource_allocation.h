// What NodeResourcesFit's scoring strategies and
// NodeResourcesBalancedAllocation share (upstream's resource_allocation.go):
// for each configured resource, the node's allocatable amount and what the
// node would have requested with the pod placed on it.
//
// Upstream keys the configured resources by name in a Go map and recomputes
// the pod's request of each one for every node. ksched keeps them in a flat
// vector (configuration order, one entry per name) and computes the pod's
// requests once per cycle (PreScore), so Score walks a few integers per node
// and allocates nothing.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "api/types.h"
#include "cache/node_info.h"
#include "cache/resource.h"
#include "config/types.h"
#include "framework/cycle_state.h"

namespace ksched::framework::noderesources {

enum class ResourceKind : uint8_t { kCpu, kMemory, kEphemeralStorage, kOther };

struct ScoredResource {
  StrId name = kEmptyStr;
  ResourceKind kind = ResourceKind::kOther;
  bool scalar = false;  // schedutil.IsScalarResourceName
  int64_t weight = 0;
};

// The resources to score: one entry per name in first-seen order, with the
// weight of the name's last entry (what upstream's name-keyed map holds).
std::vector<ScoredResource> ResourcesToScore(const std::vector<config::ResourceSpec>& specs);

// upstream's default resource spec: cpu and memory, weight 1 each.
std::vector<config::ResourceSpec> DefaultResourceSpec();

// schedutil.GetRequestForResource over one container's requests: a missing
// cpu (memory) counts as 100m (200Mi) when `non_zero`; an explicit 0 stays 0.
int64_t ContainerRequest(const ResourceList& requests, const ScoredResource& r, bool non_zero);

// calculatePodResourceRequest: max(sum of containers, each init container)
// plus the pod's overhead of the resource. The overhead adds Quantity.Value()
// even for cpu (whole cores rounded up, not milli-cores), as v1.26 does.
int64_t PodResourceRequest(const Pod& pod, const ScoredResource& r, bool non_zero);

// The pod's request of each scored resource, parallel to the scorer's
// resources; written by PreScore.
struct PodScoringRequest final : StateData {
  std::vector<int64_t> requests;
  std::unique_ptr<StateData> Clone() const override {
    return std::make_unique<PodScoringRequest>(*this);
  }
};

// The Go type name upstream's factories print for args of the wrong type
// ("want args to be of type ..., got *config.NodeAffinityArgs").
std::string ArgsTypeName(const config::PluginArgs& args);

class ResourceAllocationScorer {
 public:
  // `use_requested`: the node's cpu and memory are its plain requests
  // (BalancedAllocation) instead of its non-zero-defaulted ones, and the
  // pod's requests are counted without non-zero defaults either.
  // `v135_requests`: the pod's requests are v1.35's (component-helpers'
  // PodRequests with these options, NonMissingContainerRequests added unless
  // `use_requested`: sidecars, pod-level requests and resized containers as
  // the options say, overhead added as a quantity); nullopt: v1.26's
  // calculatePodResourceRequest (PodResourceRequest).
  ResourceAllocationScorer(std::vector<ScoredResource> resources, bool use_requested,
                           std::optional<PodRequestOptions> v135_requests = std::nullopt)
      : resources_(std::move(resources)),
        use_requested_(use_requested),
        v135_requests_(v135_requests) {
    if (v135_requests_) v135_requests_->non_missing_container_requests = !use_requested_;
  }

  const std::vector<ScoredResource>& resources() const { return resources_; }

  std::unique_ptr<PodScoringRequest> ComputePodRequests(const Pod& pod) const;

  // v1.35's isBestEffortPod: the pod requests none of the resources
  // (requests as ComputePodRequests counts them).
  static bool RequestsNothing(const PodScoringRequest& requests);

  // Calls f(resource, allocatable, requested) for every configured resource
  // whose allocatable amount is not 0, in configuration order (upstream's
  // score() drops the others). `pre` may be null (no PreScore ran): the
  // pod's requests are then computed on the spot.
  template <typename F>
  void ForEachResource(const NodeInfo& node, const Pod& pod, const PodScoringRequest* pre,
                       F&& f) const {
    std::unique_ptr<PodScoringRequest> computed;
    if (pre == nullptr && v135_requests_) {
      computed = ComputePodRequests(pod);
      pre = computed.get();
    }
    for (size_t i = 0; i < resources_.size(); ++i) {
      const ScoredResource& r = resources_[i];
      const int64_t pod_request =
          pre != nullptr ? pre->requests[i] : PodResourceRequest(pod, r, !use_requested_);
      int64_t allocatable = 0;
      int64_t requested = 0;
      AllocatableRequest(node, r, pod_request, &allocatable, &requested);
      if (allocatable != 0) f(r, allocatable, requested);
    }
  }

  // calculateResourceAllocatableRequest: (0, 0) for a scalar resource the pod
  // does not request and for names the node has no allocatable entry for.
  void AllocatableRequest(const NodeInfo& node, const ScoredResource& r, int64_t pod_request,
                          int64_t* allocatable, int64_t* requested) const;

 private:
  std::vector<ScoredResource> resources_;
  bool use_requested_ = false;
  std::optional<PodRequestOptions> v135_requests_;
};

}  // namespace ksched::framework::noderesources
