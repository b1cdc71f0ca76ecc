// The Dynamic Resource Allocation objects of a cluster as kube-scheduler
// v1.35's DRA manager holds them: the DeviceClass lister, the ResourceSlice
// lister (sorted by name, as refsched135 makes the informer's map order
// deterministic), the ResourceClaim assume cache and, beside it, the set of
// devices that allocated claims hold (upstream's allocatedDevices, kept up
// to date claim by claim instead of counted again each cycle).
//
// Classes and slices are fixed for the life of a ClusterState; claims
// change when the scheduler writes an allocation or a reservation (PreBind),
// deallocates one (PostFilter), or when the loop releases a deleted pod's
// claims. Every change bumps generation(), so caches of what an allocator
// derived from the claims know when to look again.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "api/dra_types.h"
#include "api/intern.h"
#include "util/result.h"

namespace ksched {

// structured.DeviceID: driver, pool and device name, interned.
struct DeviceId {
  StrId driver = kEmptyStr;
  StrId pool = kEmptyStr;
  StrId device = kEmptyStr;

  bool operator==(const DeviceId&) const = default;
  // "driver/pool/device", as upstream prints it in messages.
  std::string String() const;
};

struct DeviceIdHash {
  size_t operator()(const DeviceId& d) const {
    uint64_t h = (uint64_t{d.driver} * 0x9E3779B97F4A7C15ull) ^ (uint64_t{d.pool} << 21) ^
                 (uint64_t{d.device} * 0xC2B2AE3D27D4EB4Full);
    return static_cast<size_t>(h ^ (h >> 29));
  }
};

class DraState {
 public:
  DraState() = default;

  // Takes the objects of a snapshot or scenario. Errors on two objects of
  // one kind with the same name (namespace and name for claims and
  // templates), as the API server refuses the second.
  static Result<DraState> Build(std::vector<DeviceClass> classes, std::vector<ResourceSlice> slices,
                                std::vector<ResourceClaim> claims,
                                std::vector<ResourceClaimTemplate> templates);

  // True when the cluster has no DRA object at all.
  bool empty() const {
    return classes_.empty() && slices_.empty() && claims_.empty() && templates_.empty();
  }

  // ---- DeviceClasses
  const std::vector<DeviceClass>& classes() const { return classes_; }
  const DeviceClass* FindClass(std::string_view name) const;

  // ---- ResourceSlices, sorted by name
  const std::vector<ResourceSlice>& slices() const { return slices_; }
  // Indices into slices() of the slices whose spec.nodeName is `node`, in
  // name order; and of every other slice (nodeSelector, allNodes,
  // per-device node selection, shared counters, or nothing known), which a
  // node must be matched against.
  const std::vector<uint32_t>& SlicesOnNode(std::string_view node) const;
  const std::vector<uint32_t>& slices_not_on_one_node() const { return not_node_local_; }

  // ---- ResourceClaims. Indices are stable: a deleted claim keeps its slot
  // (ClaimExists false) so that nothing holding an index is misled.
  size_t num_claims() const { return claims_.size(); }
  bool ClaimExists(uint32_t i) const { return exists_[i]; }
  const ResourceClaim& claim(uint32_t i) const { return claims_[i]; }
  std::optional<uint32_t> FindClaim(StrId ns, std::string_view name) const;
  const ResourceClaim* GetClaim(StrId ns, std::string_view name) const {
    auto i = FindClaim(ns, name);
    return i ? &claims_[*i] : nullptr;
  }

  // ---- ResourceClaimTemplates
  const std::vector<ResourceClaimTemplate>& templates() const { return templates_; }
  const ResourceClaimTemplate* FindTemplate(StrId ns, std::string_view name) const;

  // ---- allocated devices: the non-admin-access results of every
  // allocated claim (upstream's ListAllAllocatedDevices without the claims
  // in flight, which the plugin adds).
  bool IsAllocated(const DeviceId& id) const { return allocated_.count(id) != 0; }
  const std::unordered_map<DeviceId, uint32_t, DeviceIdHash>& allocated() const {
    return allocated_;
  }

  // Bumped by every claim change.
  uint64_t generation() const { return generation_; }

  // ---- changes (as the API's writes reach the assume cache)
  // Replaces claim `i` (its status, finalizers; spec and name as they were).
  void UpdateClaim(uint32_t i, ResourceClaim updated);
  // Deletes claim `i` (the garbage collector's delete of a generated claim).
  void DeleteClaim(uint32_t i);
  // Adds a claim (a copy of a template's claim); its index, or an error
  // when one of that namespace and name exists.
  Result<uint32_t> AddClaim(ResourceClaim claim);

 private:
  void CountDevices(const ResourceClaim& claim, int delta);

  std::vector<DeviceClass> classes_;
  std::unordered_map<std::string, uint32_t> class_by_name_;
  std::vector<ResourceSlice> slices_;
  std::unordered_map<std::string, std::vector<uint32_t>> slices_by_node_;
  std::vector<uint32_t> not_node_local_;
  std::vector<ResourceClaim> claims_;
  std::vector<uint8_t> exists_;
  std::unordered_map<std::string, uint32_t> claim_by_key_;  // "ns/name"
  std::vector<ResourceClaimTemplate> templates_;
  std::unordered_map<std::string, uint32_t> template_by_key_;
  std::unordered_map<DeviceId, uint32_t, DeviceIdHash> allocated_;
  uint64_t generation_ = 0;
};

}  // namespace ksched
