// What DynamicResources keeps in the cycle state (upstream's stateData),
// for the plugin and for reports that explain its verdicts.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <vector>

#include "api/dra_types.h"
#include "config/types.h"
#include "dra/allocator.h"
#include "dra/slice_index.h"
#include "framework/cycle_state.h"

namespace ksched::framework::plugins::dynamicresources {

// informationForClaim with the claim itself.
struct ClaimInfo {
  ResourceClaim claim;  // as PreFilter read it (then as PreBind wrote it)
  uint32_t index = 0;   // in DraState
  // The allocation's node selector of an allocated claim.
  std::optional<dra::CompiledNodeSelection> available_on;
  // Set by Reserve: what PreBind writes.
  std::optional<AllocationResult> allocation;
};

struct CycleData {
  std::vector<ClaimInfo> claims;  // the pod's, in spec order; empty: nothing to do
  // The unallocated claims (pointers into claims) and their positions.
  std::vector<const ResourceClaim*> to_allocate;
  std::vector<size_t> to_allocate_index;
  std::unique_ptr<dra::Allocator> allocator;  // nullptr when nothing is to be allocated
  // Written by Filter, which runs on many nodes at once.
  std::mutex mu;
  std::set<size_t> unavailable;  // allocated claims some node could not use
  // Filter's allocation per NodeId (one result per unallocated claim).
  std::vector<std::optional<std::vector<AllocationResult>>> by_node;
  // PostFilter's deallocation, written by ApplyPostFilterWrites.
  std::optional<size_t> deallocate;
};

// Clone shares the data, as upstream's Clone returns the same pointer.
struct State final : StateData {
  std::shared_ptr<CycleData> inner = std::make_shared<CycleData>();
  std::unique_ptr<StateData> Clone() const override { return std::make_unique<State>(*this); }
};

const StateKey& Key();
// The cycle's data, or nullptr when PreFilter did not run.
const CycleData* ReadCycle(const CycleState& state);

// structured.Features from the scheduler's feature gates.
dra::Features AllocatorFeatures(const config::FeatureGates& gates);

}  // namespace ksched::framework::plugins::dynamicresources
