// The CEL type checker for the DRA environment: cel-go's checker
// (checker/checker.go) with its type-parameter unification, overload
// resolution and messages ("undeclared reference to 'x' (in container '')",
// "found no matching overload for '_+_' applied to '(int, string)'",
// "undefined field 'foo'", ...), against the `device` variable as
// k8s.io/dynamic-resource-allocation/cel declares it.
#pragma once

#include <vector>

#include "cel/ast.h"
#include "cel/library.h"
#include "cel/source.h"
#include "cel/types.h"

namespace ksched::cel {

struct CheckOptions {
  // The DRAConsumableCapacity gate: declares device.allowMultipleAllocations.
  bool consumable_capacity = false;
};

// What the checker learned about one expression node (indexed by id).
struct NodeInfo {
  TypePtr type;
  // kCall: the overloads that matched statically, in declaration order.
  std::vector<const OverloadDecl*> overloads;
  // kIdent naming a type (int, string, ...): its name.
  const char* type_name = nullptr;
};

struct CheckResult {
  std::vector<NodeInfo> nodes;  // by expression id
  TypePtr output;               // the expression's type, type parameters as dyn
  std::vector<Issue> issues;
};

// Checks expr (rewriting namespaced calls such as strings.quote(x) into
// global calls). next_id bounds the ids in expr.
CheckResult Check(Expr& expr, int64_t next_id, const CheckOptions& options);

}  // namespace ksched::cel
