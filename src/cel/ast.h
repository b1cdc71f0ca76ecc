// The CEL abstract syntax tree, as cel-go's parser produces it: macros are
// already expanded into comprehensions, operators are calls of functions
// named as cel-go names them ("_+_", "_[_]", "@in", "_?_:_", ...).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ksched::cel {

enum class ExprKind : uint8_t {
  kConst,
  kIdent,
  kSelect,  // operand.field, or has(operand.field) when test_only
  kCall,    // function(args) or target.function(args)
  kList,
  kMap,  // args alternate key, value
  kComprehension,
};

enum class ConstKind : uint8_t { kNull, kBool, kInt, kUint, kDouble, kString, kBytes };

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

struct Expr {
  int64_t id = 0;
  int32_t offset = 0;  // code point offset into the source, for messages
  ExprKind kind = ExprKind::kConst;

  // kConst
  ConstKind const_kind = ConstKind::kNull;
  bool bool_value = false;
  int64_t int_value = 0;
  uint64_t uint_value = 0;
  double double_value = 0;
  std::string string_value;  // kString and kBytes (raw bytes)

  // kIdent: the name; kSelect: the field; kCall: the function.
  std::string name;
  bool test_only = false;                 // kSelect from has()
  ExprPtr target;                         // kSelect operand, kCall receiver (may be null)
  std::vector<ExprPtr> args;              // kCall arguments, kList elements, kMap key/value pairs
  std::vector<int32_t> optional_indices;  // kList / kMap entries written with '?'

  // kComprehension (cel-go's fold): for iter_var[, iter_var2] in iter_range,
  // accu_var = accu_init; while loop_condition: accu_var = loop_step; result.
  std::string iter_var, iter_var2, accu_var;
  ExprPtr iter_range, accu_init, loop_condition, loop_step, result;
};

}  // namespace ksched::cel
