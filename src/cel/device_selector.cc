#include "cel/device_selector.h"

#include <fmt/format.h>

#include "cel/interpreter.h"
#include "cel/parser.h"
#include "cel/semver.h"

namespace ksched::cel {

Result<std::shared_ptr<const Program>> CompileDeviceSelector(std::string_view expression,
                                                             const Features& features) {
  ParseResult parsed = Parse(expression);
  if (!parsed.issues.empty()) {
    return MakeError("compilation failed: " + FormatIssues(expression, std::move(parsed.issues)));
  }
  auto program = std::shared_ptr<Program>(new Program());
  program->expression_ = std::string(expression);
  program->expr_ = std::move(parsed.expr);
  CheckOptions opts;
  opts.consumable_capacity = features.consumable_capacity;
  program->checked_ = Check(*program->expr_, parsed.next_id, opts);
  if (!program->checked_.issues.empty()) {
    return MakeError("compilation failed: " +
                     FormatIssues(expression, std::move(program->checked_.issues)));
  }
  const Type& out = *program->checked_.output;
  if (out.kind != TypeKind::kBool && out.kind != TypeKind::kAny) {
    return MakeError(
        fmt::format("must evaluate to bool or the unknown type, not {}", out.DeclaredString()));
  }
  return std::shared_ptr<const Program>(std::move(program));
}

namespace {

// The message of Go's ConvertToNative(bool) failure for a non-bool result.
std::string NotBool(const Value& v) {
  std::string_view t = v.TypeName();
  std::string why;
  switch (v.kind()) {
    case ValueKind::kInt:
      why = "unsupported type conversion from 'int' to bool";
      break;
    case ValueKind::kUint:
      why = "unsupported type conversion from 'uint' to bool";
      break;
    case ValueKind::kDouble:
      why = "type conversion error from Double to 'bool'";
      break;
    case ValueKind::kString:
      why = "unsupported native conversion from string to 'bool'";
      break;
    case ValueKind::kBytes:
      why = "type conversion error from Bytes to 'bool'";
      break;
    case ValueKind::kNull:
      why = "type conversion error from 'null_type' to 'bool'";
      break;
    case ValueKind::kList:
      why = "type conversion error from list to 'bool'";
      break;
    case ValueKind::kQuantity:
      why = "type conversion error from 'Quantity' to 'bool'";
      break;
    case ValueKind::kSemver:
      why = "type conversion error from 'Semver' to 'bool'";
      break;
    default:
      if (IsMapLike(v))
        why = "type conversion error from map to 'bool'";
      else
        why = fmt::format("type conversion error from '{}' to 'bool'", t);
      break;
  }
  return fmt::format("CEL result of type {} could not be converted to bool: {}", t, why);
}

}  // namespace

Result<bool> Program::Matches(const DeviceView& device, uint64_t* cost) const {
  // Upstream converts every attribute before evaluating, so one bad
  // attribute fails every selector on the device.
  for (const DeviceAttribute& a : device.attributes) {
    if (a.value.kind == DeviceAttributeValue::Kind::kNone) {
      return MakeError(fmt::format("attribute {}: unsupported attribute value", a.name));
    }
    if (a.value.kind == DeviceAttributeValue::Kind::kVersion) {
      SemverParts p;
      std::string err;
      if (!ParseSemver(a.value.string_value, p, &err)) {
        return MakeError(fmt::format("attribute {}: parse semantic version: {}", a.name, err));
      }
    }
  }
  EvalContext ctx;
  ctx.device = &device;
  Value v = Evaluate(*expr_, checked_, ctx);
  if (cost) *cost = ctx.cost;
  if (v.is_error()) return MakeError(std::string(v.str()));
  if (v.kind() != ValueKind::kBool) return MakeError(NotBool(v));
  return v.bool_value();
}

Result<std::shared_ptr<const Program>> SelectorCache::GetOrCompile(std::string_view expression) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = index_.find(expression);
    if (it != index_.end()) {
      lru_.splice(lru_.begin(), lru_, it->second);
      return *it->second;
    }
  }
  auto compiled = CompileDeviceSelector(expression, features_);
  if (!compiled.ok()) return compiled;
  std::lock_guard<std::mutex> lock(mu_);
  auto it = index_.find(expression);
  if (it != index_.end()) return *it->second;
  lru_.push_front(*compiled);
  index_[lru_.front()->expression()] = lru_.begin();
  while (capacity_ > 0 && lru_.size() > capacity_) {
    index_.erase(lru_.back()->expression());
    lru_.pop_back();
  }
  return compiled;
}

}  // namespace ksched::cel
