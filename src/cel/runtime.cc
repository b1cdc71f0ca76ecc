#include "cel/runtime.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <limits>

#include "cel/semver.h"

namespace ksched::cel {
namespace {

void SplitName(std::string_view name, std::string_view driver, std::string_view& domain,
               std::string_view& id) {
  size_t sep = name.find('/');
  if (sep == std::string_view::npos) {
    domain = driver;
    id = name;
  } else {
    domain = name.substr(0, sep);
    id = name.substr(sep + 1);
  }
}

template <typename Entries>
bool HasDomain(const DeviceView& d, const Entries& entries, std::string_view domain) {
  for (const auto& e : entries) {
    std::string_view dom, id;
    SplitName(e.name, d.driver, dom, id);
    if (dom == domain) return true;
  }
  return false;
}

template <typename Entries>
const typename Entries::element_type* FindEntry(const DeviceView& d, const Entries& entries,
                                                std::string_view domain, std::string_view want) {
  for (const auto& e : entries) {
    std::string_view dom, id;
    SplitName(e.name, d.driver, dom, id);
    if (dom == domain && id == want) return &e;
  }
  return nullptr;
}

// Distinct domains (or ids within one domain) in first-seen order.
template <typename Entries>
std::vector<std::string_view> Names(const DeviceView& d, const Entries& entries, bool domains,
                                    std::string_view in_domain) {
  std::vector<std::string_view> out;
  for (const auto& e : entries) {
    std::string_view dom, id;
    SplitName(e.name, d.driver, dom, id);
    std::string_view n = domains ? dom : id;
    if (!domains && dom != in_domain) continue;
    bool seen = false;
    for (std::string_view o : out) seen |= o == n;
    if (!seen) out.push_back(n);
  }
  return out;
}

int Cmp(double a, double b) { return a < b ? -1 : a > b ? 1 : 0; }
int CmpIntDouble(int64_t i, double d) {
  if (d < -9223372036854775808.0) return 1;
  if (d >= 9223372036854775808.0) return -1;
  return Cmp(static_cast<double>(i), d);
}
int CmpUintDouble(uint64_t u, double d) {
  if (d < 0) return 1;
  if (d >= 18446744073709551616.0) return -1;
  return Cmp(static_cast<double>(u), d);
}
int CmpIntUint(int64_t i, uint64_t u) {
  if (i < 0) return -1;
  uint64_t x = static_cast<uint64_t>(i);
  return x < u ? -1 : x > u ? 1 : 0;
}

// A numeric comparison, or false when a or b is not a number.
bool NumCompare(const Value& a, const Value& b, int& out, bool& nan) {
  nan = false;
  auto isnum = [](const Value& v) {
    return v.kind() == ValueKind::kInt || v.kind() == ValueKind::kUint ||
           v.kind() == ValueKind::kDouble;
  };
  if (!isnum(a) || !isnum(b)) return false;
  if ((a.kind() == ValueKind::kDouble && std::isnan(a.double_value())) ||
      (b.kind() == ValueKind::kDouble && std::isnan(b.double_value()))) {
    nan = true;
    return true;
  }
  switch (a.kind()) {
    case ValueKind::kInt:
      if (b.kind() == ValueKind::kInt)
        out = a.int_value() < b.int_value() ? -1 : a.int_value() > b.int_value();
      else if (b.kind() == ValueKind::kUint)
        out = CmpIntUint(a.int_value(), b.uint_value());
      else
        out = CmpIntDouble(a.int_value(), b.double_value());
      return true;
    case ValueKind::kUint:
      if (b.kind() == ValueKind::kUint)
        out = a.uint_value() < b.uint_value() ? -1 : a.uint_value() > b.uint_value();
      else if (b.kind() == ValueKind::kInt)
        out = -CmpIntUint(b.int_value(), a.uint_value());
      else
        out = CmpUintDouble(a.uint_value(), b.double_value());
      return true;
    default:
      if (b.kind() == ValueKind::kDouble)
        out = Cmp(a.double_value(), b.double_value());
      else if (b.kind() == ValueKind::kInt)
        out = -CmpIntDouble(b.int_value(), a.double_value());
      else
        out = -CmpUintDouble(b.uint_value(), a.double_value());
      return true;
  }
}

}  // namespace

bool IsMapLike(const Value& v) {
  switch (v.kind()) {
    case ValueKind::kMap:
    case ValueKind::kDevice:
    case ValueKind::kAttrDomains:
    case ValueKind::kAttrDomain:
    case ValueKind::kCapDomains:
    case ValueKind::kCapDomain:
      return true;
    default:
      return false;
  }
}

std::vector<Value> MapKeys(EvalContext& ctx, const Value& m) {
  std::vector<Value> keys;
  const DeviceView* d = ctx.device;
  switch (m.kind()) {
    case ValueKind::kMap:
      for (const auto& [k, v] : m.map()) keys.push_back(k);
      break;
    case ValueKind::kDevice:
      for (const char* f : {"driver", "allowMultipleAllocations", "attributes", "capacity"})
        keys.push_back(Value::StringView(f));
      break;
    case ValueKind::kAttrDomains:
      for (std::string_view n : Names(*d, d->attributes, true, {}))
        keys.push_back(Value::StringView(n));
      break;
    case ValueKind::kAttrDomain:
      for (std::string_view n : Names(*d, d->attributes, false, m.str()))
        keys.push_back(Value::StringView(n));
      break;
    case ValueKind::kCapDomains:
      for (std::string_view n : Names(*d, d->capacity, true, {}))
        keys.push_back(Value::StringView(n));
      break;
    case ValueKind::kCapDomain:
      for (std::string_view n : Names(*d, d->capacity, false, m.str()))
        keys.push_back(Value::StringView(n));
      break;
    default:
      break;
  }
  return keys;
}

Value Materialize(EvalContext& ctx, const Value& m) {
  if (m.kind() == ValueKind::kMap) return m;
  ValueMap entries;
  for (const Value& k : MapKeys(ctx, m)) {
    bool found;
    Value v = MapLookup(ctx, m, k, found);
    entries.emplace_back(k, v);
  }
  return Value::Map(std::move(entries));
}

Value Size(EvalContext& ctx, const Value& v) {
  switch (v.kind()) {
    case ValueKind::kString: {
      int64_t n = 0;
      for (unsigned char c : v.str()) n += (c & 0xC0) != 0x80;
      return Value::Int(n);
    }
    case ValueKind::kBytes:
      return Value::Int(static_cast<int64_t>(v.str().size()));
    case ValueKind::kList:
      return Value::Int(static_cast<int64_t>(v.list().size()));
    case ValueKind::kMap:
      return Value::Int(static_cast<int64_t>(v.map().size()));
    case ValueKind::kDevice:
    case ValueKind::kAttrDomains:
    case ValueKind::kAttrDomain:
    case ValueKind::kCapDomains:
    case ValueKind::kCapDomain:
      return Value::Int(static_cast<int64_t>(MapKeys(ctx, v).size()));
    default:
      return NoSuchOverload();
  }
}

namespace {
// Numeric keys match across int, uint and integral doubles (cel-go's map
// Find on heterogeneous keys).
bool KeyEquals(const Value& a, const Value& b) {
  if (a.kind() == ValueKind::kString || b.kind() == ValueKind::kString)
    return a.kind() == b.kind() && a.str() == b.str();
  if (a.kind() == ValueKind::kBool || b.kind() == ValueKind::kBool)
    return a.kind() == b.kind() && a.bool_value() == b.bool_value();
  int c;
  bool nan;
  if (NumCompare(a, b, c, nan)) return !nan && c == 0;
  return false;
}
}  // namespace

Value MapLookup(EvalContext& ctx, const Value& m, const Value& key, bool& found) {
  found = true;
  const DeviceView* d = ctx.device;
  auto missing = [&]() {
    found = false;
    return Value::Error("no such key: " + FormatValue(key));
  };
  switch (m.kind()) {
    case ValueKind::kMap:
      for (const auto& [k, v] : m.map())
        if (KeyEquals(k, key)) return v;
      return missing();
    case ValueKind::kDevice:
      if (key.kind() == ValueKind::kString) {
        std::string_view k = key.str();
        if (k == "driver") return Value::StringView(d->driver);
        if (k == "attributes") return Value::Special(ValueKind::kAttrDomains);
        if (k == "capacity") return Value::Special(ValueKind::kCapDomains);
        if (k == "allowMultipleAllocations") return Value::Bool(d->allow_multiple_allocations);
      }
      return missing();
    case ValueKind::kAttrDomains:
    case ValueKind::kCapDomains:
      // Unknown domains read as empty maps (newStringInterfaceMapWithDefault).
      if (key.kind() == ValueKind::kString) {
        return Value::Special(
            m.kind() == ValueKind::kAttrDomains ? ValueKind::kAttrDomain : ValueKind::kCapDomain,
            key.str());
      }
      return Value::Map({});
    case ValueKind::kAttrDomain: {
      if (key.kind() != ValueKind::kString) return missing();
      const DeviceAttribute* a = FindEntry(*d, d->attributes, m.str(), key.str());
      if (!a) return missing();
      switch (a->value.kind) {
        case DeviceAttributeValue::Kind::kInt:
          return Value::Int(a->value.int_value);
        case DeviceAttributeValue::Kind::kBool:
          return Value::Bool(a->value.bool_value);
        case DeviceAttributeValue::Kind::kString:
          return Value::StringView(a->value.string_value);
        case DeviceAttributeValue::Kind::kVersion:
          return Value::SemverView(a->value.string_value);
        default:
          return Value::ErrorView("unsupported attribute value");
      }
    }
    case ValueKind::kCapDomain: {
      if (key.kind() != ValueKind::kString) return missing();
      const DeviceCapacity* c = FindEntry(*d, d->capacity, m.str(), key.str());
      if (!c || !c->value) return missing();
      return Value::QuantityRef(c->value);
    }
    default:
      found = false;
      return NoSuchOverload();
  }
}

Value MapContains(EvalContext& ctx, const Value& m, const Value& key) {
  const DeviceView* d = ctx.device;
  switch (m.kind()) {
    case ValueKind::kAttrDomains:
      return Value::Bool(key.kind() == ValueKind::kString &&
                         HasDomain(*d, d->attributes, key.str()));
    case ValueKind::kCapDomains:
      return Value::Bool(key.kind() == ValueKind::kString && HasDomain(*d, d->capacity, key.str()));
    case ValueKind::kAttrDomain:
      return Value::Bool(key.kind() == ValueKind::kString &&
                         FindEntry(*d, d->attributes, m.str(), key.str()));
    case ValueKind::kCapDomain:
      return Value::Bool(key.kind() == ValueKind::kString &&
                         FindEntry(*d, d->capacity, m.str(), key.str()));
    default: {
      bool found;
      Value v = MapLookup(ctx, m, key, found);
      return Value::Bool(found);
    }
  }
}

Value Equals(EvalContext& ctx, const Value& a, const Value& b) {
  if (a.kind() == ValueKind::kNull || b.kind() == ValueKind::kNull)
    return Value::Bool(a.kind() == b.kind());
  switch (a.kind()) {
    case ValueKind::kBool:
      return Value::Bool(b.kind() == ValueKind::kBool && a.bool_value() == b.bool_value());
    case ValueKind::kInt:
    case ValueKind::kUint:
    case ValueKind::kDouble: {
      int c;
      bool nan;
      if (!NumCompare(a, b, c, nan)) return Value::Bool(false);
      return Value::Bool(!nan && c == 0);
    }
    case ValueKind::kString:
    case ValueKind::kBytes:
      return Value::Bool(b.kind() == a.kind() && a.str() == b.str());
    case ValueKind::kType:
      return Value::Bool(b.kind() == ValueKind::kType && a.str() == b.str());
    case ValueKind::kList: {
      if (b.kind() != ValueKind::kList || a.list().size() != b.list().size())
        return Value::Bool(false);
      for (size_t i = 0; i < a.list().size(); ++i) {
        Value e = Equals(ctx, a.list()[i], b.list()[i]);
        if (e.kind() == ValueKind::kBool && !e.bool_value()) return e;
      }
      return Value::Bool(true);
    }
    case ValueKind::kQuantity:
      if (b.kind() != ValueKind::kQuantity) return NoSuchOverload();
      return Value::Bool(a.quantity().Compare(b.quantity()) == 0);
    case ValueKind::kSemver: {
      if (b.kind() != ValueKind::kSemver) return NoSuchOverload();
      SemverParts x, y;
      ParseSemver(a.str(), x, nullptr);
      ParseSemver(b.str(), y, nullptr);
      return Value::Bool(CompareSemver(x, y) == 0);
    }
    case ValueKind::kOptional: {
      if (b.kind() != ValueKind::kOptional) return Value::Bool(false);
      if (!a.optional_value() || !b.optional_value())
        return Value::Bool(!a.optional_value() && !b.optional_value());
      return Equals(ctx, *a.optional_value(), *b.optional_value());
    }
    case ValueKind::kError:
      return a;
    default:
      break;
  }
  if (IsMapLike(a)) {
    if (!IsMapLike(b)) return Value::Bool(false);
    Value sa = Size(ctx, a), sb = Size(ctx, b);
    if (sa.int_value() != sb.int_value()) return Value::Bool(false);
    for (const Value& k : MapKeys(ctx, a)) {
      bool fa, fb;
      Value va = MapLookup(ctx, a, k, fa);
      Value vb = MapLookup(ctx, b, k, fb);
      if (!fb) return Value::Bool(false);
      Value e = Equals(ctx, va, vb);
      if (e.kind() == ValueKind::kBool && !e.bool_value()) return e;
    }
    return Value::Bool(true);
  }
  return Value::Bool(false);
}

Value Compare(const Value& a, const Value& b) {
  int c = 0;
  bool nan = false;
  if (NumCompare(a, b, c, nan)) {
    if (nan) return Value::ErrorView("NaN values cannot be ordered");
    return Value::Int(c);
  }
  if (a.kind() != b.kind()) return NoSuchOverload();
  switch (a.kind()) {
    case ValueKind::kBool:
      return Value::Int(static_cast<int>(a.bool_value()) - static_cast<int>(b.bool_value()));
    case ValueKind::kString:
    case ValueKind::kBytes: {
      int r = a.str().compare(b.str());
      return Value::Int(r < 0 ? -1 : r > 0 ? 1 : 0);
    }
    default:
      return NoSuchOverload();
  }
}

std::string FormatDouble(double d, int eprec) {
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d > 0 ? "+Inf" : "-Inf";
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), d, std::chars_format::scientific);
  std::string s(buf, end);
  // s is "[-]d[.ddd]e[+-]XX"
  bool neg = false;
  if (s[0] == '-') {
    neg = true;
    s.erase(0, 1);
  }
  size_t e = s.find('e');
  std::string mant = s.substr(0, e);
  int exp = std::stoi(s.substr(e + 1));
  std::string digits;
  for (char c : mant)
    if (c != '.') digits += c;
  std::string out = neg ? "-" : "";
  if (exp < -4 || exp >= eprec) {
    out += digits[0];
    if (digits.size() > 1) out += "." + digits.substr(1);
    out += fmt::format("e{}{:02d}", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
    return out;
  }
  if (exp < 0) {
    out += "0." + std::string(static_cast<size_t>(-exp - 1), '0') + digits;
  } else if (static_cast<size_t>(exp) + 1 >= digits.size()) {
    out += digits + std::string(static_cast<size_t>(exp) + 1 - digits.size(), '0');
  } else {
    out += digits.substr(0, static_cast<size_t>(exp) + 1) + "." +
           digits.substr(static_cast<size_t>(exp) + 1);
  }
  return out;
}

std::string FormatValue(const Value& v) {
  switch (v.kind()) {
    case ValueKind::kNull:
      return "NULL_VALUE";
    case ValueKind::kBool:
      return v.bool_value() ? "true" : "false";
    case ValueKind::kInt:
      return std::to_string(v.int_value());
    case ValueKind::kUint:
      return std::to_string(v.uint_value());
    case ValueKind::kDouble:
      return FormatDouble(v.double_value(), 21);
    case ValueKind::kString:
    case ValueKind::kType:
    case ValueKind::kError:
    case ValueKind::kSemver:
      return std::string(v.str());
    case ValueKind::kBytes: {
      std::string out = "[";
      for (size_t i = 0; i < v.str().size(); ++i) {
        if (i) out += ' ';
        out += std::to_string(static_cast<unsigned char>(v.str()[i]));
      }
      return out + "]";
    }
    case ValueKind::kQuantity:
      return v.quantity().String();
    default:
      return std::string(v.TypeName());
  }
}

}  // namespace ksched::cel
