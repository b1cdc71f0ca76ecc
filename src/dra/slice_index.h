// What the structured allocator reads of a cluster's ResourceSlices, worked
// out once per DraState (slices never change within one): each device's
// CEL view, each slice's compiled node selector, the slices of each pool
// and the pools each node sees (GatherPools, cached per node).
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "api/types.h"
#include "cache/dra_state.h"
#include "cel/device.h"
#include "labels/node_selector.h"

namespace ksched::dra {

// The allocator's optional behaviours (structured.Features), from the
// scheduler's DRA feature gates.
struct Features {
  bool admin_access = false;           // DRAAdminAccess
  bool prioritized_list = false;       // DRAPrioritizedList
  bool partitionable_devices = false;  // DRAPartitionableDevices
  bool device_taints = false;          // DRADeviceTaints
  bool device_binding_and_status =
      false;                         // DRADeviceBindingConditions && DRAResourceClaimDeviceStatus
  bool consumable_capacity = false;  // DRAConsumableCapacity
};

// A node-selection rule compiled (a slice's or a device's nodeSelector).
struct CompiledNodeSelection {
  labels::CompiledNodeSelectorTerms terms;
  // nodeaffinity.NewNodeSelector's error for a selector that does not
  // parse ("" when it does).
  std::string error;
};

// One resource pool as a node sees it (GatherPools' Pool).
struct Pool {
  StrId driver = kEmptyStr;
  StrId pool = kEmptyStr;
  bool incomplete = false;
  bool invalid = false;
  std::string invalid_reason;
  // Indices into DraState::slices() of the slices with devices for the
  // node, in the lister's (name) order.
  std::vector<uint32_t> slices;

  // "driver/pool", as upstream prints a PoolID.
  std::string Id() const;
};

class SliceIndex {
 public:
  explicit SliceIndex(const DraState& state);

  const DraState& state() const { return *state_; }

  // The device's input to a CEL selector.
  cel::DeviceView View(uint32_t slice, uint32_t device) const;
  DeviceId Id(uint32_t slice, uint32_t device) const {
    return DeviceId{slices_[slice].driver, slices_[slice].pool, slices_[slice].devices[device]};
  }
  StrId driver(uint32_t slice) const { return slices_[slice].driver; }
  StrId pool(uint32_t slice) const { return slices_[slice].pool; }

  // NodeMatches for a slice's (or a per-device) node selection; an error
  // message in *error when the selector does not parse.
  bool SliceMatches(uint32_t slice, const Node& node, std::string* error) const;
  bool DeviceMatches(uint32_t slice, uint32_t device, const Node& node, std::string* error) const;

  // GatherPools for `node`, sorted by driver then pool (refsched135's order
  // for upstream's map). Kept per node name; `features` must be the same on
  // every call. An error when a node selector does not parse.
  Result<std::shared_ptr<const std::vector<Pool>>> PoolsFor(const Node& node,
                                                            const Features& features) const;

 private:
  struct DeviceData {
    std::vector<cel::DeviceAttribute> attributes;
    std::vector<cel::DeviceCapacity> capacity;
    std::optional<CompiledNodeSelection> node_selector;
  };
  struct SliceData {
    StrId driver = kEmptyStr;
    StrId pool = kEmptyStr;
    std::vector<StrId> devices;
    std::vector<DeviceData> data;
    std::optional<CompiledNodeSelection> node_selector;
  };
  Result<std::vector<Pool>> GatherPools(const Node& node, const Features& features) const;
  const std::vector<uint32_t>& SlicesOfPool(StrId driver, StrId pool) const;

  const DraState* state_;
  std::vector<SliceData> slices_;
  std::unordered_map<uint64_t, std::vector<uint32_t>> by_pool_;
  mutable std::mutex mu_;
  mutable std::unordered_map<std::string, std::shared_ptr<const std::vector<Pool>>> pools_by_node_;
};

// incubating.NodeMatches on compiled parts.
bool NodeMatches(const Node& node, const std::optional<std::string>& node_name,
                 const std::optional<bool>& all_nodes, const CompiledNodeSelection* selector,
                 std::string* error);

// Compiles a NodeSelector as nodeaffinity.NewNodeSelector does.
CompiledNodeSelection CompileNodeSelection(const NodeSelector& selector);

}  // namespace ksched::dra
