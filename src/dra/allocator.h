// The structured allocator of Dynamic Resource Allocation, as kube-scheduler
// v1.35 runs it with its default feature gates: the "incubating" allocator
// of k8s.io/dynamic-resource-allocation/structured (admin access,
// firstAvailable alternatives, device taints, partitionable devices are
// its features; consumable capacity and binding conditions select the
// "experimental" one, which ksched does not have).
//
// For one node it finds devices for every request of every claim given,
// depth first in upstream's order: claims, then their requests, then each
// request's devices; for a device, the node's pools (by driver, then pool
// name), each pool's slices (by name), each slice's devices in order. The
// first complete solution wins, so the devices chosen and their order are
// upstream's. Constraints (matchAttribute) are checked as devices are added
// and undone when the search backs up.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <unordered_set>
#include <vector>

#include "api/dra_types.h"
#include "cache/dra_state.h"
#include "cel/device_selector.h"
#include "dra/slice_index.h"

namespace ksched::dra {

// resourceapi.AllocationResultsMaxSize and FirstAvailableDeviceRequestMaxSize.
inline constexpr int kAllocationResultsMaxSize = 32;
inline constexpr int kFirstAvailableDeviceRequestMaxSize = 8;

// The outcome of Allocate on one node.
struct AllocateOutcome {
  enum class Kind : uint8_t {
    kAllocated,     // results holds one AllocationResult per claim
    kNoSolution,    // the claims do not fit on the node (upstream: nil, nil)
    kFailedOnNode,  // ErrFailedAllocationOnNode: message for this node only
    kError,         // a fatal error (a CEL runtime error, an invalid claim)
  };
  Kind kind = Kind::kNoSolution;
  std::vector<AllocationResult> results;
  std::string message;
};

class Allocator {
 public:
  // `cache` outlives the allocator. `allocated` is every device
  // allocated to a claim or in flight, fixed for this allocator's life
  // (upstream gathers it once in PreFilter).
  Allocator(Features features, std::shared_ptr<const SliceIndex> index,
            std::unordered_set<DeviceId, DeviceIdHash> allocated, cel::SelectorCache* cache);

  // Allocate(ctx, node, claims). Thread-safe.
  AllocateOutcome Allocate(const Node& node, std::span<const ResourceClaim* const> claims) const;

  const Features& features() const { return features_; }
  const SliceIndex* index() const { return index_.get(); }
  bool IsAllocated(const DeviceId& id) const { return allocated_.count(id) != 0; }

 private:
  friend class AllocationRun;
  Features features_;
  std::shared_ptr<const SliceIndex> index_;
  std::unordered_set<DeviceId, DeviceIdHash> allocated_;
  cel::SelectorCache* cache_;
};

// klog.KObj of a claim: "namespace/name".
std::string ClaimRef(const ResourceClaim& claim);

}  // namespace ksched::dra
