// Operations on CEL values shared by the interpreter and the function
// library: cel-go's equality, ordering, map lookup, size and iteration,
// including the device maps of the DRA environment (whose missing domains
// read as empty maps, as upstream's newStringInterfaceMapWithDefault).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cel/device.h"
#include "cel/value.h"

namespace ksched::cel {

// cel-go's default cost limit for DRA selectors
// (resourceapi.CELSelectorExpressionMaxCost).
inline constexpr uint64_t kSelectorMaxCost = 1000000;

struct EvalContext {
  const DeviceView* device = nullptr;
  uint64_t cost = 0;
  uint64_t cost_limit = kSelectorMaxCost;
  bool cost_exceeded = false;
  // Comprehension variables, innermost last.
  std::vector<std::pair<std::string_view, Value>> vars;
};

inline Value NoSuchOverload() { return Value::ErrorView("no such overload"); }

// cel-go's Equal: a bool, or an error (custom types compared with another
// type give "no such overload").
Value Equals(EvalContext& ctx, const Value& a, const Value& b);
// Compare for _<_ etc.: -1/0/1 as an int value, or an error.
Value Compare(const Value& a, const Value& b);

bool IsMapLike(const Value& v);
// size(): an int, or an error.
Value Size(EvalContext& ctx, const Value& v);
// m[key] (index and field selection): the value, or "no such key: ..".
// found is false when the key is absent (the value is then the error).
Value MapLookup(EvalContext& ctx, const Value& m, const Value& key, bool& found);
// key in m.
Value MapContains(EvalContext& ctx, const Value& m, const Value& key);
// The keys of a map-like value in iteration order.
std::vector<Value> MapKeys(EvalContext& ctx, const Value& m);
// A device map as a plain map value.
Value Materialize(EvalContext& ctx, const Value& m);

// %v of a value, as cel-go prints keys in errors and string() does.
std::string FormatValue(const Value& v);
// A double as Go's fmt prints it with the shortest digits: %g switches to
// an exponent at 6 digits before the point (eprec 6), %v at 21.
std::string FormatDouble(double d, int eprec = 6);

}  // namespace ksched::cel
