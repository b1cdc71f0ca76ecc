// What a CEL device selector sees of a device: the input of upstream's
// dynamic-resource-allocation/cel Device, as views into storage the caller
// keeps alive while matching.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "api/quantity.h"

namespace ksched::cel {

// One value of a resource.k8s.io DeviceAttribute: exactly one of int, bool,
// string or version is set in a valid object; kNone is an attribute with
// none of them (upstream: "unsupported attribute value").
struct DeviceAttributeValue {
  enum class Kind : uint8_t { kNone, kInt, kBool, kString, kVersion };
  Kind kind = Kind::kNone;
  int64_t int_value = 0;
  bool bool_value = false;
  std::string_view string_value;  // kString, and kVersion's text
};

struct DeviceAttribute {
  // The qualified name as the API stores it: "domain/id", or "id" for the
  // driver's own domain.
  std::string_view name;
  DeviceAttributeValue value;
};

struct DeviceCapacity {
  std::string_view name;  // qualified as for attributes
  const Quantity* value = nullptr;
};

struct DeviceView {
  std::string_view driver;
  // Only the DRAConsumableCapacity environment declares it; upstream's
  // stable and incubating allocators always pass false.
  bool allow_multiple_allocations = false;
  std::span<const DeviceAttribute> attributes;
  std::span<const DeviceCapacity> capacity;
};

}  // namespace ksched::cel
