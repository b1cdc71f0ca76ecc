// The functions of the DRA CEL environment: declarations for the checker
// (cel-go's overloads, ids and signatures) and their implementations.
//
// Implemented: cel-go's standard library without timestamps and durations
// (operators, size, contains/startsWith/endsWith/matches, the type
// conversions int/uint/double/string/bytes/bool/dyn/type), optional types,
// ext.Strings v2 without format(), ext.Lists v3 (slice, flatten,
// lists.range, distinct, reverse, sort, first, last; not sortBy), ext.Sets,
// cel.bind and the two-variable comprehensions' map insertion, and the
// Kubernetes libraries Lists, Regex (find, findAll), Quantity and Semver.
// Not implemented (their names are "undeclared references" here): the
// Kubernetes URL, IP, CIDR, Format and Authz libraries, timestamps and
// durations, string.format(), lists.sortBy. Regular expressions are run by
// std::regex (ECMAScript), not RE2: plain patterns agree, RE2-only syntax
// (e.g. "(?i)", "\pL") fails to compile here, subjects over 1 KiB are an
// error, and std::regex backtracks: a pathological pattern such as
// "(a*)*$" takes exponential time, where RE2 is linear. Debian's libre2-dev
// would give RE2 exactly; it is not a dependency of ksched yet.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "cel/runtime.h"
#include "cel/types.h"

namespace ksched::cel {

using FunctionImpl = Value (*)(EvalContext& ctx, const Value* args, size_t n);

struct OverloadDecl {
  std::string id;  // cel-go's overload id, e.g. "add_int64"
  bool member = false;
  std::vector<TypePtr> args;  // the receiver first for member overloads
  TypePtr result;
  FunctionImpl impl = nullptr;
  std::vector<std::string> type_params;
};

struct FunctionDecl {
  std::string name;
  std::vector<OverloadDecl> overloads;
};

// The declared function, or null.
const FunctionDecl* LookupFunction(std::string_view name);

// Whether a runtime value can be passed where the type is declared (type
// parameters and dyn accept anything).
bool ValueMatchesType(const Value& v, const Type& t);

// The runtime cost of one call, as cel-go's CostTracker counts it for the
// standard library (string traversals at 0.1 per byte, 'in' at the list's
// size); every other function costs 1 (an approximation for the
// Kubernetes libraries, whose cost estimator charges by argument size).
uint64_t CallCost(const OverloadDecl& o, const Value* args, size_t n);

}  // namespace ksched::cel
