// CEL device selectors of Dynamic Resource Allocation
// (resource.k8s.io DeviceSelector.cel.expression), compiled and evaluated
// as k8s.io/dynamic-resource-allocation/cel v1.35 does.
//
// There is no C++ CEL implementation in the package registries ksched
// builds from (Debian has none; cel-cpp needs Bazel and Abseil), so src/cel
// is ksched's own implementation of the subset of CEL the DRA environment
// offers: the whole expression grammar and macros, cel-go's type checker
// and runtime semantics, and the libraries listed in cel/library.h.
// Expressions using a library that is not implemented fail to compile with
// cel-go's "undeclared reference" message.
//
// The environment: one variable `device` of type kubernetes.DRADevice with
// fields driver (string), attributes (map(string, map(string, any))),
// capacity (map(string, map(string, kubernetes.Quantity))) and, with the
// DRAConsumableCapacity gate, allowMultipleAllocations (bool). Attribute
// names without a domain belong to the driver's domain;
// device.attributes["unknown.domain"] is an empty map, a missing attribute
// in a known map is the runtime error "no such key: name". The result must
// be bool (or any); the runtime cost limit is 1,000,000 as upstream's
// CELSelectorExpressionMaxCost (cost counted as cel-go's tracker counts it
// for the standard library; the Kubernetes libraries' calls cost 1 here).
#pragma once

#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "cel/ast.h"
#include "cel/checker.h"
#include "cel/device.h"
#include "util/result.h"

namespace ksched::cel {

struct Features {
  // The DRAConsumableCapacity gate (alpha, off by default in v1.35).
  bool consumable_capacity = false;
};

// A compiled selector. Immutable and safe to share between threads; Matches
// allocates nothing for the common selectors (attribute and capacity
// look-ups, comparisons, semver and quantity calls on literals) beyond what
// the expression itself builds.
class Program {
 public:
  // true or false, or upstream's runtime error text: "no such key: model",
  // "no such overload", "integer overflow", "operation cancelled: actual
  // cost limit exceeded", "attribute x: parse semantic version: ...",
  // "CEL result of type int could not be converted to bool: ...". The
  // caller adds upstream's context ("claim ns/name: selector #0: CEL
  // runtime error: "). *cost, when given, receives the actual cost.
  Result<bool> Matches(const DeviceView& device, uint64_t* cost = nullptr) const;

  const std::string& expression() const { return expression_; }

 private:
  friend Result<std::shared_ptr<const Program>> CompileDeviceSelector(std::string_view,
                                                                      const Features&);
  std::string expression_;
  ExprPtr expr_;
  CheckResult checked_;
};

// Compiles a selector. Errors carry upstream's CompilationResult.Error
// text: "compilation failed: ERROR: <input>:1:8: undeclared reference to
// 'x' (in container '')\n | ...", or "must evaluate to bool or the unknown
// type, not int". The caller adds upstream's context ("class %s: selector
// #%d: CEL compile error: ").
Result<std::shared_ptr<const Program>> CompileDeviceSelector(std::string_view expression,
                                                             const Features& features = {});

// Compiled selectors by expression, as upstream's cel.Cache: successful
// compilations are kept (least recently used dropped beyond the capacity),
// failures are compiled again on every call. Thread-safe.
class SelectorCache {
 public:
  explicit SelectorCache(size_t capacity = 10, Features features = {})
      : capacity_(capacity), features_(features) {}
  Result<std::shared_ptr<const Program>> GetOrCompile(std::string_view expression);

 private:
  size_t capacity_;
  Features features_;
  std::mutex mu_;
  std::list<std::shared_ptr<const Program>> lru_;  // most recent first
  std::unordered_map<std::string_view, std::list<std::shared_ptr<const Program>>::iterator> index_;
};

}  // namespace ksched::cel
