// Dynamic Resource Allocation objects (resource.k8s.io/v1, GA in v1.34):
// DeviceClass, ResourceSlice, ResourceClaim and ResourceClaimTemplate, as
// kube-scheduler v1.35 reads them through its DRA manager.
//
// Plain structs, filled by api/decode.h. Fields keep the API's optionality
// where upstream tells "unset" from a zero value (nodeName, allNodes,
// adminAccess); maps (attributes, capacity) are vectors in the order the
// input wrote them, a repeated key keeping its last value.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/quantity.h"
#include "api/types.h"

namespace ksched {

// DeviceSelector: only CEL exists in v1. An entry without one is some later
// selector type, which the allocator refuses ("CEL expression empty").
struct DeviceSelector {
  std::optional<std::string> cel;  // cel.expression

  bool operator==(const DeviceSelector&) const = default;
};

// DeviceConfiguration: opaque driver parameters, kept as compact JSON (the
// scheduler copies them into an allocation's config and reads nothing).
struct DeviceConfiguration {
  std::optional<std::string> opaque_driver;  // opaque.driver; nullopt: no opaque
  std::string opaque_parameters;             // opaque.parameters, compact JSON

  bool operator==(const DeviceConfiguration&) const = default;
};

struct DeviceClass {
  ObjectMeta meta;
  std::vector<DeviceSelector> selectors;
  std::vector<DeviceConfiguration> config;
  std::optional<std::string> extended_resource_name;  // DRAExtendedResource (alpha)
};

// ---------------------------------------------------------------- slices

// DeviceAttribute: exactly one of int, bool, string, version in a valid
// object; kNone when none is set (upstream: an unsupported value).
struct DeviceAttribute {
  enum class Kind : uint8_t { kNone, kInt, kBool, kString, kVersion };
  std::string name;  // QualifiedName as written: "id" or "domain/id"
  Kind kind = Kind::kNone;
  int64_t int_value = 0;
  bool bool_value = false;
  std::string string_value;  // kString and kVersion

  bool operator==(const DeviceAttribute&) const = default;
};

struct DeviceCapacity {
  std::string name;  // QualifiedName
  Quantity value;
  bool has_request_policy = false;  // requestPolicy (DRAConsumableCapacity)

  bool operator==(const DeviceCapacity& o) const {
    return name == o.name && value.Compare(o.value) == 0 &&
           has_request_policy == o.has_request_policy;
  }
};

struct Counter {
  std::string name;
  Quantity value;
};

struct CounterSet {
  std::string name;
  std::vector<Counter> counters;
};

struct DeviceCounterConsumption {
  std::string counter_set;
  std::vector<Counter> counters;
};

struct DeviceTaint {
  std::string key;
  std::string value;
  std::string effect;  // NoSchedule, NoExecute, None
  std::string time_added;
};

struct Device {
  std::string name;
  std::vector<DeviceAttribute> attributes;
  std::vector<DeviceCapacity> capacity;
  std::vector<DeviceCounterConsumption> consumes_counters;
  // Per-device node selection (DRAPartitionableDevices, with the slice's
  // perDeviceNodeSelection).
  std::optional<std::string> node_name;
  std::optional<NodeSelector> node_selector;
  std::optional<bool> all_nodes;
  std::vector<DeviceTaint> taints;
  std::optional<bool> binds_to_node;
  std::vector<std::string> binding_conditions;
  std::vector<std::string> binding_failure_conditions;
  std::optional<bool> allow_multiple_allocations;
};

struct ResourcePool {
  std::string name;
  int64_t generation = 0;
  int64_t resource_slice_count = 0;
};

struct ResourceSlice {
  ObjectMeta meta;
  std::string driver;
  ResourcePool pool;
  std::optional<std::string> node_name;
  std::optional<NodeSelector> node_selector;
  std::optional<bool> all_nodes;
  std::vector<Device> devices;
  std::optional<bool> per_device_node_selection;
  std::vector<CounterSet> shared_counters;
};

// ---------------------------------------------------------------- claims

// DeviceAllocationMode values.
inline constexpr std::string_view kAllocationModeExactCount = "ExactCount";
inline constexpr std::string_view kAllocationModeAll = "All";

struct DeviceToleration {
  std::string key;
  std::string op;  // Exists, Equal (the API's default)
  std::string value;
  std::string effect;
  std::optional<int64_t> toleration_seconds;

  bool operator==(const DeviceToleration&) const = default;
};

struct ExactDeviceRequest {
  std::string device_class_name;
  std::vector<DeviceSelector> selectors;
  std::string allocation_mode;  // ExactCount (default) or All
  int64_t count = 0;            // 1 by default with ExactCount
  std::optional<bool> admin_access;
  std::vector<DeviceToleration> tolerations;
  bool has_capacity = false;  // capacity.requests (DRAConsumableCapacity)

  bool operator==(const ExactDeviceRequest&) const = default;
};

struct DeviceSubRequest {
  std::string name;
  std::string device_class_name;
  std::vector<DeviceSelector> selectors;
  std::string allocation_mode;
  int64_t count = 0;
  std::vector<DeviceToleration> tolerations;
  bool has_capacity = false;

  bool operator==(const DeviceSubRequest&) const = default;
};

struct DeviceRequest {
  std::string name;
  std::optional<ExactDeviceRequest> exactly;
  std::vector<DeviceSubRequest> first_available;

  bool operator==(const DeviceRequest&) const = default;
};

struct DeviceConstraint {
  std::vector<std::string> requests;
  std::optional<std::string> match_attribute;     // FullyQualifiedName
  std::optional<std::string> distinct_attribute;  // DRAConsumableCapacity

  bool operator==(const DeviceConstraint&) const = default;
};

struct DeviceClaimConfiguration {
  std::vector<std::string> requests;
  DeviceConfiguration config;

  bool operator==(const DeviceClaimConfiguration&) const = default;
};

// ResourceClaimSpec.devices.
struct DeviceClaim {
  std::vector<DeviceRequest> requests;
  std::vector<DeviceConstraint> constraints;
  std::vector<DeviceClaimConfiguration> config;

  bool operator==(const DeviceClaim&) const = default;
};

struct DeviceRequestAllocationResult {
  std::string request;  // "req", or "req/subreq" for firstAvailable
  std::string driver;
  std::string pool;
  std::string device;
  std::optional<bool> admin_access;
  std::vector<DeviceToleration> tolerations;
  std::vector<std::string> binding_conditions;
  std::vector<std::string> binding_failure_conditions;
  std::optional<std::string> share_id;  // DRAConsumableCapacity

  bool AdminAccess() const { return admin_access.value_or(false); }
  bool operator==(const DeviceRequestAllocationResult&) const = default;
};

struct DeviceAllocationConfiguration {
  std::string source;  // FromClass or FromClaim
  std::vector<std::string> requests;
  DeviceConfiguration config;

  bool operator==(const DeviceAllocationConfiguration&) const = default;
};

struct AllocationResult {
  std::vector<DeviceRequestAllocationResult> results;  // devices.results
  std::vector<DeviceAllocationConfiguration> config;   // devices.config
  std::optional<NodeSelector> node_selector;           // nullopt: every node
  std::string allocation_timestamp;

  bool operator==(const AllocationResult&) const = default;
};

struct ResourceClaimConsumerReference {
  std::string api_group;
  std::string resource;  // "pods"
  std::string name;
  std::string uid;

  bool operator==(const ResourceClaimConsumerReference&) const = default;
};

// The finalizer the scheduler adds before it writes an allocation.
inline constexpr std::string_view kResourceClaimFinalizer =
    "resource.kubernetes.io/delete-protection";

struct ResourceClaim {
  ObjectMeta meta;
  std::vector<std::string> finalizers;  // metadata.finalizers
  DeviceClaim spec;                     // spec.devices
  std::optional<AllocationResult> allocation;
  std::vector<ResourceClaimConsumerReference> reserved_for;
  size_t num_device_statuses = 0;  // status.devices (kept, never read)

  std::string Key() const { return std::string(Str(meta.ns)) + "/" + meta.name; }
  bool HasFinalizer(std::string_view f) const {
    for (const std::string& s : finalizers)
      if (s == f) return true;
    return false;
  }
  bool ReservedForUid(std::string_view uid) const {
    for (const auto& r : reserved_for)
      if (r.uid == uid) return true;
    return false;
  }
};

struct ResourceClaimTemplate {
  ObjectMeta meta;
  // spec.metadata: labels and annotations the generated claim gets.
  Labels claim_labels;
  std::vector<std::pair<std::string, std::string>> claim_annotations;
  DeviceClaim spec;  // spec.spec.devices
};

}  // namespace ksched
