// CEL runtime values. A Value is small and cheap to copy: scalars inline,
// strings as views (into the compiled program, the device being matched, or
// an owned buffer kept alive by the value), aggregates behind a shared
// pointer. Values read from a DeviceView borrow its storage, so matching a
// device allocates nothing unless the expression builds new strings, lists
// or maps.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/quantity.h"

namespace ksched::cel {

enum class ValueKind : uint8_t {
  kNull,
  kBool,
  kInt,
  kUint,
  kDouble,
  kString,
  kBytes,
  kList,
  kMap,
  kType,      // str(): the type's name, e.g. "int", "kubernetes.Quantity"
  kError,     // str(): the message
  kOptional,  // optional_value(): the value, or null for optional.none()
  kQuantity,
  kSemver,  // str(): the version text, already validated
  // The `device` variable and its maps, read from the DeviceView being
  // matched (see interpreter.h).
  kDevice,
  kAttrDomains,  // device.attributes
  kAttrDomain,   // device.attributes[str()]
  kCapDomains,   // device.capacity
  kCapDomain,    // device.capacity[str()]
};

class Value;
using ValueList = std::vector<Value>;
using ValueMap = std::vector<std::pair<Value, Value>>;  // insertion order, unique keys

class Value {
 public:
  Value() = default;  // null

  static Value Bool(bool b) {
    Value v(ValueKind::kBool);
    v.b_ = b;
    return v;
  }
  static Value Int(int64_t i) {
    Value v(ValueKind::kInt);
    v.i_ = i;
    return v;
  }
  static Value Uint(uint64_t u) {
    Value v(ValueKind::kUint);
    v.u_ = u;
    return v;
  }
  static Value Double(double d) {
    Value v(ValueKind::kDouble);
    v.d_ = d;
    return v;
  }
  // A view: the caller keeps the text alive for the value's lifetime.
  static Value StringView(std::string_view s) {
    Value v(ValueKind::kString);
    v.s_ = s;
    return v;
  }
  static Value String(std::string s) { return Owned(ValueKind::kString, std::move(s)); }
  static Value BytesView(std::string_view s) {
    Value v(ValueKind::kBytes);
    v.s_ = s;
    return v;
  }
  static Value Bytes(std::string s) { return Owned(ValueKind::kBytes, std::move(s)); }
  static Value TypeName(std::string_view name) {
    Value v(ValueKind::kType);
    v.s_ = name;
    return v;
  }
  static Value Error(std::string message) { return Owned(ValueKind::kError, std::move(message)); }
  static Value ErrorView(std::string_view message) {
    Value v(ValueKind::kError);
    v.s_ = message;
    return v;
  }
  static Value List(ValueList items) {
    Value v(ValueKind::kList);
    auto p = std::make_shared<const ValueList>(std::move(items));
    v.p_ = p.get();
    v.hold_ = std::move(p);
    return v;
  }
  static Value Map(ValueMap entries) {
    Value v(ValueKind::kMap);
    auto p = std::make_shared<const ValueMap>(std::move(entries));
    v.p_ = p.get();
    v.hold_ = std::move(p);
    return v;
  }
  static Value OptionalOf(Value inner) {
    Value v(ValueKind::kOptional);
    auto p = std::make_shared<const Value>(std::move(inner));
    v.p_ = p.get();
    v.hold_ = std::move(p);
    return v;
  }
  static Value OptionalNone() { return Value(ValueKind::kOptional); }
  static Value QuantityRef(const ksched::Quantity* q) {
    Value v(ValueKind::kQuantity);
    v.p_ = q;
    return v;
  }
  static Value QuantityOwned(ksched::Quantity q) {
    Value v(ValueKind::kQuantity);
    auto p = std::make_shared<const ksched::Quantity>(q);
    v.p_ = p.get();
    v.hold_ = std::move(p);
    return v;
  }
  static Value SemverView(std::string_view text) {
    Value v(ValueKind::kSemver);
    v.s_ = text;
    return v;
  }
  static Value Semver(std::string text) { return Owned(ValueKind::kSemver, std::move(text)); }
  static Value Special(ValueKind k, std::string_view s = {}) {
    Value v(k);
    v.s_ = s;
    return v;
  }

  ValueKind kind() const { return kind_; }
  bool is_error() const { return kind_ == ValueKind::kError; }
  bool bool_value() const { return b_; }
  int64_t int_value() const { return i_; }
  uint64_t uint_value() const { return u_; }
  double double_value() const { return d_; }
  std::string_view str() const { return s_; }
  const ValueList& list() const { return *static_cast<const ValueList*>(p_); }
  const ValueMap& map() const { return *static_cast<const ValueMap*>(p_); }
  const ksched::Quantity& quantity() const { return *static_cast<const ksched::Quantity*>(p_); }
  const Value* optional_value() const { return static_cast<const Value*>(p_); }

  // The CEL type name of the value, as cel-go's Type().TypeName().
  std::string_view TypeName() const;

 private:
  explicit Value(ValueKind k) : kind_(k) {}
  static Value Owned(ValueKind k, std::string s) {
    Value v(k);
    auto p = std::make_shared<const std::string>(std::move(s));
    v.s_ = *p;
    v.hold_ = std::move(p);
    return v;
  }

  ValueKind kind_ = ValueKind::kNull;
  union {
    bool b_;
    int64_t i_ = 0;
    uint64_t u_;
    double d_;
  };
  std::string_view s_;
  const void* p_ = nullptr;
  std::shared_ptr<const void> hold_;
};

}  // namespace ksched::cel
