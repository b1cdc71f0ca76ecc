// Evaluates a checked CEL expression with cel-go's semantics: strict calls
// (the first error argument wins), commutative && and || (false / true
// wins over an error on either side, else the first error), comprehensions
// as folds, and runtime cost tracking against a limit with cel-go's
// "operation cancelled: actual cost limit exceeded".
#pragma once

#include "cel/ast.h"
#include "cel/checker.h"
#include "cel/runtime.h"

namespace ksched::cel {

// Evaluates e against ctx (ctx.device is the `device` variable). Returns an
// error value for runtime errors, including an exceeded cost limit.
Value Evaluate(const Expr& e, const CheckResult& checked, EvalContext& ctx);

}  // namespace ksched::cel
