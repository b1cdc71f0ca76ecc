// The CEL parser: cel-go v0.26's grammar (parser/gen/CEL.g4) as a
// hand-written recursive-descent parser, with its literal and escape rules,
// its reserved identifiers, the optional syntax (".?", "[?", "{?k: v}"),
// and the macros the Kubernetes DRA environment enables: has, all, exists,
// exists_one, map, filter, cel.bind, and the two-variable comprehensions
// (all, exists, existsOne, transformList, transformMap, transformMapEntry).
//
// Differences from cel-go, all in error reporting only: ANTLR's syntax
// error texts ("mismatched input 'x' expecting {...}") are approximated and
// only the first syntax error is reported (ANTLR recovers and may report
// more).
#pragma once

#include <string_view>
#include <vector>

#include "cel/ast.h"
#include "cel/source.h"

namespace ksched::cel {

struct ParseResult {
  ExprPtr expr;  // null when issues is not empty
  std::vector<Issue> issues;
  int64_t next_id = 1;  // ids above every node's
};

// cel-go's defaults: expressions of up to 100,000 code points, nesting of up
// to 250.
inline constexpr int kMaxRecursionDepth = 250;
inline constexpr size_t kExpressionSizeCodePointLimit = 100000;

ParseResult Parse(std::string_view source);

}  // namespace ksched::cel
