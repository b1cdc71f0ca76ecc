#include "cel/library.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <regex>

#include "cel/semver.h"

namespace ksched::cel {
namespace {

constexpr double kStringTraversalCostFactor = 0.1;
constexpr double kRegexStringLengthCostFactor = 0.25;

TypePtr A() {
  static const TypePtr t = TypeParam("A");
  return t;
}
TypePtr B() {
  static const TypePtr t = TypeParam("B");
  return t;
}
TypePtr LA() {
  static const TypePtr t = ListType(A());
  return t;
}
TypePtr LS() {
  static const TypePtr t = ListType(StringType());
  return t;
}
TypePtr MAB() {
  static const TypePtr t = MapType(A(), B());
  return t;
}
TypePtr OA() {
  static const TypePtr t = OptionalType(A());
  return t;
}

Value Err(std::string msg) { return Value::Error(std::move(msg)); }
Value IntOverflow() { return Value::ErrorView("integer overflow"); }
Value UintOverflow() { return Value::ErrorView("unsigned integer overflow"); }

// ---- arithmetic ----
Value AddInt(EvalContext&, const Value* a, size_t) {
  int64_t r;
  if (__builtin_add_overflow(a[0].int_value(), a[1].int_value(), &r)) return IntOverflow();
  return Value::Int(r);
}
Value SubInt(EvalContext&, const Value* a, size_t) {
  int64_t r;
  if (__builtin_sub_overflow(a[0].int_value(), a[1].int_value(), &r)) return IntOverflow();
  return Value::Int(r);
}
Value MulInt(EvalContext&, const Value* a, size_t) {
  int64_t r;
  if (__builtin_mul_overflow(a[0].int_value(), a[1].int_value(), &r)) return IntOverflow();
  return Value::Int(r);
}
Value DivInt(EvalContext&, const Value* a, size_t) {
  int64_t x = a[0].int_value(), y = a[1].int_value();
  if (y == 0) return Value::ErrorView("division by zero");
  if (x == INT64_MIN && y == -1) return IntOverflow();
  return Value::Int(x / y);
}
Value ModInt(EvalContext&, const Value* a, size_t) {
  int64_t x = a[0].int_value(), y = a[1].int_value();
  if (y == 0) return Value::ErrorView("modulus by zero");
  if (x == INT64_MIN && y == -1) return IntOverflow();
  return Value::Int(x % y);
}
Value NegInt(EvalContext&, const Value* a, size_t) {
  if (a[0].int_value() == INT64_MIN) return IntOverflow();
  return Value::Int(-a[0].int_value());
}
Value AddUint(EvalContext&, const Value* a, size_t) {
  uint64_t r;
  if (__builtin_add_overflow(a[0].uint_value(), a[1].uint_value(), &r)) return UintOverflow();
  return Value::Uint(r);
}
Value SubUint(EvalContext&, const Value* a, size_t) {
  uint64_t r;
  if (__builtin_sub_overflow(a[0].uint_value(), a[1].uint_value(), &r)) return UintOverflow();
  return Value::Uint(r);
}
Value MulUint(EvalContext&, const Value* a, size_t) {
  uint64_t r;
  if (__builtin_mul_overflow(a[0].uint_value(), a[1].uint_value(), &r)) return UintOverflow();
  return Value::Uint(r);
}
Value DivUint(EvalContext&, const Value* a, size_t) {
  if (a[1].uint_value() == 0) return Value::ErrorView("division by zero");
  return Value::Uint(a[0].uint_value() / a[1].uint_value());
}
Value ModUint(EvalContext&, const Value* a, size_t) {
  if (a[1].uint_value() == 0) return Value::ErrorView("modulus by zero");
  return Value::Uint(a[0].uint_value() % a[1].uint_value());
}
Value AddDouble(EvalContext&, const Value* a, size_t) {
  return Value::Double(a[0].double_value() + a[1].double_value());
}
Value SubDouble(EvalContext&, const Value* a, size_t) {
  return Value::Double(a[0].double_value() - a[1].double_value());
}
Value MulDouble(EvalContext&, const Value* a, size_t) {
  return Value::Double(a[0].double_value() * a[1].double_value());
}
Value DivDouble(EvalContext&, const Value* a, size_t) {
  return Value::Double(a[0].double_value() / a[1].double_value());
}
Value NegDouble(EvalContext&, const Value* a, size_t) {
  return Value::Double(-a[0].double_value());
}
Value AddString(EvalContext&, const Value* a, size_t) {
  std::string s(a[0].str());
  s += a[1].str();
  return Value::String(std::move(s));
}
Value AddBytes(EvalContext&, const Value* a, size_t) {
  std::string s(a[0].str());
  s += a[1].str();
  return Value::Bytes(std::move(s));
}
Value AddList(EvalContext&, const Value* a, size_t) {
  if (a[1].list().empty()) return a[0];
  if (a[0].list().empty()) return a[1];
  ValueList l = a[0].list();
  l.insert(l.end(), a[1].list().begin(), a[1].list().end());
  return Value::List(std::move(l));
}
Value NotBool(EvalContext&, const Value* a, size_t) { return Value::Bool(!a[0].bool_value()); }

// ---- comparisons ----
Value EqualsImpl(EvalContext& ctx, const Value* a, size_t) { return Equals(ctx, a[0], a[1]); }
Value NotEqualsImpl(EvalContext& ctx, const Value* a, size_t) {
  Value e = Equals(ctx, a[0], a[1]);
  if (e.is_error()) return e;
  return Value::Bool(!e.bool_value());
}
template <int kOp>
Value Relation(EvalContext&, const Value* a, size_t) {
  Value c = Compare(a[0], a[1]);
  if (c.is_error()) return c;
  int64_t r = c.int_value();
  switch (kOp) {
    case 0:
      return Value::Bool(r < 0);
    case 1:
      return Value::Bool(r <= 0);
    case 2:
      return Value::Bool(r > 0);
    default:
      return Value::Bool(r >= 0);
  }
}

// ---- index / in / size ----
Value IndexList(EvalContext&, const Value* a, size_t) {
  const ValueList& l = a[0].list();
  const Value& i = a[1];
  int64_t idx;
  if (i.kind() == ValueKind::kInt) {
    idx = i.int_value();
  } else if (i.kind() == ValueKind::kUint) {
    if (i.uint_value() > static_cast<uint64_t>(INT64_MAX))
      return Err("index out of bounds: " + FormatValue(i));
    idx = static_cast<int64_t>(i.uint_value());
  } else if (i.kind() == ValueKind::kDouble) {
    double d = i.double_value();
    if (d != std::trunc(d) || !(d > -9.3e18 && d < 9.3e18))
      return Err(fmt::format("unsupported index value {} in list", FormatValue(i)));
    idx = static_cast<int64_t>(d);
  } else {
    return Err(fmt::format("unsupported index type '{}' in list", i.TypeName()));
  }
  if (idx < 0 || static_cast<uint64_t>(idx) >= l.size())
    return Err("index out of bounds: " + FormatValue(i));
  return l[static_cast<size_t>(idx)];
}
Value IndexMap(EvalContext& ctx, const Value* a, size_t) {
  bool found;
  return MapLookup(ctx, a[0], a[1], found);
}
Value InList(EvalContext& ctx, const Value* a, size_t) {
  for (const Value& e : a[1].list()) {
    Value eq = Equals(ctx, a[0], e);
    if (eq.kind() == ValueKind::kBool && eq.bool_value()) return eq;
  }
  return Value::Bool(false);
}
Value InMap(EvalContext& ctx, const Value* a, size_t) { return MapContains(ctx, a[1], a[0]); }
Value SizeImpl(EvalContext& ctx, const Value* a, size_t) { return Size(ctx, a[0]); }

// ---- conversions ----
Value ToInt(EvalContext&, const Value* a, size_t) {
  const Value& v = a[0];
  switch (v.kind()) {
    case ValueKind::kInt:
      return v;
    case ValueKind::kUint:
      if (v.uint_value() > static_cast<uint64_t>(INT64_MAX)) return IntOverflow();
      return Value::Int(static_cast<int64_t>(v.uint_value()));
    case ValueKind::kDouble: {
      double d = v.double_value();
      if (std::isnan(d) || std::isinf(d) || d <= -9223372036854775808.0 ||
          d >= 9223372036854775807.0)
        return IntOverflow();
      return Value::Int(static_cast<int64_t>(d));
    }
    case ValueKind::kString: {
      std::string s(v.str());
      char* end = nullptr;
      errno = 0;
      long long r = std::strtoll(s.c_str(), &end, 10);
      bool ok = !s.empty() && errno == 0 && *end == '\0' &&
                !std::isspace(static_cast<unsigned char>(s[0]));
      if (ok && s[0] == '+' && s.size() == 1) ok = false;
      if (!ok) return Value::ErrorView("type conversion error from 'string' to 'int'");
      return Value::Int(r);
    }
    default:
      return NoSuchOverload();
  }
}
Value ToUint(EvalContext&, const Value* a, size_t) {
  const Value& v = a[0];
  switch (v.kind()) {
    case ValueKind::kUint:
      return v;
    case ValueKind::kInt:
      if (v.int_value() < 0) return UintOverflow();
      return Value::Uint(static_cast<uint64_t>(v.int_value()));
    case ValueKind::kDouble: {
      double d = v.double_value();
      if (std::isnan(d) || std::isinf(d) || d < 0 || d >= 18446744073709551615.0)
        return UintOverflow();
      return Value::Uint(static_cast<uint64_t>(d));
    }
    case ValueKind::kString: {
      std::string s(v.str());
      bool ok = !s.empty() &&
                std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
      char* end = nullptr;
      errno = 0;
      unsigned long long r = ok ? std::strtoull(s.c_str(), &end, 10) : 0;
      if (!ok || errno != 0)
        return Value::ErrorView("type conversion error from 'string' to 'uint'");
      return Value::Uint(r);
    }
    default:
      return NoSuchOverload();
  }
}
Value ToDouble(EvalContext&, const Value* a, size_t) {
  const Value& v = a[0];
  switch (v.kind()) {
    case ValueKind::kDouble:
      return v;
    case ValueKind::kInt:
      return Value::Double(static_cast<double>(v.int_value()));
    case ValueKind::kUint:
      return Value::Double(static_cast<double>(v.uint_value()));
    case ValueKind::kString: {
      std::string s(v.str());
      char* end = nullptr;
      double d = std::strtod(s.c_str(), &end);
      if (s.empty() || *end != '\0' || std::isspace(static_cast<unsigned char>(s[0])))
        return Value::ErrorView("type conversion error from 'string' to 'double'");
      return Value::Double(d);
    }
    default:
      return NoSuchOverload();
  }
}
bool ValidUtf8(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    size_t n;
    uint32_t cp;
    if (c < 0x80) {
      ++i;
      continue;
    }
    if ((c >> 5) == 6) {
      n = 2;
      cp = c & 0x1F;
    } else if ((c >> 4) == 14) {
      n = 3;
      cp = c & 0x0F;
    } else if ((c >> 3) == 30) {
      n = 4;
      cp = c & 0x07;
    } else
      return false;
    if (i + n > s.size()) return false;
    for (size_t k = 1; k < n; ++k) {
      unsigned char cc = static_cast<unsigned char>(s[i + k]);
      if ((cc & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (cc & 0x3F);
    }
    if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) ||
        (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) || (cp >= 0xD800 && cp <= 0xDFFF))
      return false;
    i += n;
  }
  return true;
}
Value ToString(EvalContext&, const Value* a, size_t) {
  const Value& v = a[0];
  switch (v.kind()) {
    case ValueKind::kString:
      return v;
    case ValueKind::kInt:
      return Value::String(std::to_string(v.int_value()));
    case ValueKind::kUint:
      return Value::String(std::to_string(v.uint_value()));
    case ValueKind::kDouble:
      return Value::String(FormatDouble(v.double_value()));
    case ValueKind::kBool:
      return Value::StringView(v.bool_value() ? "true" : "false");
    case ValueKind::kBytes:
      if (!ValidUtf8(v.str()))
        return Value::ErrorView("invalid UTF-8 in bytes, cannot convert to string");
      return Value::StringView(v.str()).kind() == ValueKind::kString
                 ? Value::String(std::string(v.str()))
                 : v;
    default:
      return NoSuchOverload();
  }
}
Value ToBytes(EvalContext&, const Value* a, size_t) {
  if (a[0].kind() == ValueKind::kBytes) return a[0];
  return Value::Bytes(std::string(a[0].str()));
}
Value ToBool(EvalContext&, const Value* a, size_t) {
  const Value& v = a[0];
  if (v.kind() == ValueKind::kBool) return v;
  std::string_view s = v.str();
  if (s == "1" || s == "t" || s == "T" || s == "TRUE" || s == "true" || s == "True")
    return Value::Bool(true);
  if (s == "0" || s == "f" || s == "F" || s == "FALSE" || s == "false" || s == "False")
    return Value::Bool(false);
  return Value::ErrorView("type conversion error from 'string' to 'bool'");
}
Value Identity(EvalContext&, const Value* a, size_t) { return a[0]; }
Value TypeOf(EvalContext&, const Value* a, size_t) { return Value::TypeName(a[0].TypeName()); }

// ---- strings ----
Value Contains(EvalContext&, const Value* a, size_t) {
  return Value::Bool(a[0].str().find(a[1].str()) != std::string_view::npos);
}
Value StartsWith(EvalContext&, const Value* a, size_t) {
  return Value::Bool(a[0].str().starts_with(a[1].str()));
}
Value EndsWith(EvalContext&, const Value* a, size_t) {
  return Value::Bool(a[0].str().ends_with(a[1].str()));
}

// Regular expressions: std::regex stands in for RE2 (see library.h).
bool CompileRegex(std::string_view pattern, std::regex& re, std::string& error) {
  if (pattern.size() > 4096) {
    error = "error parsing regexp: expression too large";
    return false;
  }
  try {
    re = std::regex(std::string(pattern), std::regex::ECMAScript);
  } catch (const std::regex_error& e) {
    error = fmt::format("error parsing regexp: {}: `{}`", e.what(), pattern);
    return false;
  }
  return true;
}
// libstdc++'s matcher recurses per character and backtracks without a
// bound; short subjects keep it off the stack's edge (see library.h).
constexpr size_t kMaxRegexSubject = 1024;
Value Matches(EvalContext&, const Value* a, size_t) {
  std::regex re;
  std::string err;
  if (!CompileRegex(a[1].str(), re, err)) return Err(err);
  if (a[0].str().size() > kMaxRegexSubject) return Value::ErrorView("regex subject too large");
  try {
    return Value::Bool(std::regex_search(a[0].str().begin(), a[0].str().end(), re));
  } catch (const std::regex_error& e) {
    return Err(fmt::format("regex evaluation failed: {}", e.what()));
  }
}
Value Find(EvalContext&, const Value* a, size_t) {
  std::regex re;
  std::string err;
  if (!CompileRegex(a[1].str(), re, err)) return Err(err);
  if (a[0].str().size() > kMaxRegexSubject) return Value::ErrorView("regex subject too large");
  try {
    std::match_results<std::string_view::const_iterator> m;
    if (std::regex_search(a[0].str().begin(), a[0].str().end(), m, re))
      return Value::String(m.str(0));
  } catch (const std::regex_error& e) {
    return Err(fmt::format("regex evaluation failed: {}", e.what()));
  }
  return Value::StringView("");
}
Value FindAll(EvalContext&, const Value* a, size_t n) {
  std::regex re;
  std::string err;
  if (!CompileRegex(a[1].str(), re, err)) return Err(err);
  if (a[0].str().size() > kMaxRegexSubject) return Value::ErrorView("regex subject too large");
  int64_t limit = n > 2 ? a[2].int_value() : -1;
  ValueList out;
  if (limit == 0) return Value::List({});
  try {
    std::string_view s = a[0].str();
    for (auto it = std::regex_iterator<std::string_view::const_iterator>(s.begin(), s.end(), re);
         it != std::regex_iterator<std::string_view::const_iterator>(); ++it) {
      out.push_back(Value::String(it->str(0)));
      if (limit > 0 && static_cast<int64_t>(out.size()) >= limit) break;
    }
  } catch (const std::regex_error& e) {
    return Err(fmt::format("regex evaluation failed: {}", e.what()));
  }
  return Value::List(std::move(out));
}

// Code point helpers for ext.Strings (which indexes by code point).
std::vector<std::string_view> Runes(std::string_view s) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 1;
    if (i + n > s.size()) n = 1;
    out.push_back(s.substr(i, n));
    i += n;
  }
  return out;
}
std::string Join(const std::vector<std::string_view>& r, size_t from, size_t to) {
  std::string out;
  for (size_t i = from; i < to; ++i) out += r[i];
  return out;
}
Value CharAt(EvalContext&, const Value* a, size_t) {
  auto r = Runes(a[0].str());
  int64_t i = a[1].int_value();
  if (i < 0 || static_cast<uint64_t>(i) > r.size())
    return Err(fmt::format("index out of range: {}", i));
  if (static_cast<size_t>(i) == r.size()) return Value::StringView("");
  return Value::String(std::string(r[static_cast<size_t>(i)]));
}
int64_t RuneIndexOf(const std::vector<std::string_view>& s,
                    const std::vector<std::string_view>& sub, int64_t from) {
  if (sub.empty()) return from;
  for (size_t i = static_cast<size_t>(from); i + sub.size() <= s.size(); ++i) {
    bool ok = true;
    for (size_t k = 0; k < sub.size() && ok; ++k) ok = s[i + k] == sub[k];
    if (ok) return static_cast<int64_t>(i);
  }
  return -1;
}
Value IndexOf(EvalContext&, const Value* a, size_t n) {
  auto s = Runes(a[0].str()), sub = Runes(a[1].str());
  int64_t off = n > 2 ? a[2].int_value() : 0;
  if (off < 0 || static_cast<uint64_t>(off) > s.size())
    return Err(fmt::format("index out of range: {}", off));
  if (sub.size() > s.size()) return Value::Int(-1);
  return Value::Int(RuneIndexOf(s, sub, off));
}
Value LastIndexOf(EvalContext&, const Value* a, size_t n) {
  auto s = Runes(a[0].str()), sub = Runes(a[1].str());
  int64_t off = n > 2 ? a[2].int_value() : static_cast<int64_t>(s.size()) - 1;
  if (sub.empty() && n <= 2) return Value::Int(static_cast<int64_t>(s.size()));
  if (n > 2 && (off < 0 || static_cast<uint64_t>(off) >= s.size() + (s.empty() ? 1 : 0)))
    return Err(fmt::format("index out of range: {}", off));
  if (sub.empty()) return Value::Int(off);
  if (sub.size() > s.size()) return Value::Int(-1);
  int64_t start = std::min<int64_t>(off, static_cast<int64_t>(s.size() - sub.size()));
  for (int64_t i = start; i >= 0; --i) {
    bool ok = true;
    for (size_t k = 0; k < sub.size() && ok; ++k) ok = s[static_cast<size_t>(i) + k] == sub[k];
    if (ok) return Value::Int(i);
  }
  return Value::Int(-1);
}
Value LowerAscii(EvalContext&, const Value* a, size_t) {
  std::string s(a[0].str());
  for (char& c : s)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return Value::String(std::move(s));
}
Value UpperAscii(EvalContext&, const Value* a, size_t) {
  std::string s(a[0].str());
  for (char& c : s)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  return Value::String(std::move(s));
}
// Go's strings.Replace(s, old, new, n).
Value Replace(EvalContext&, const Value* a, size_t n) {
  std::string_view s = a[0].str(), from = a[1].str(), to = a[2].str();
  int64_t limit = n > 3 ? a[3].int_value() : -1;
  if (limit == 0 || (from == to)) return a[0];
  std::string out;
  int64_t done = 0;
  if (from.empty()) {
    auto r = Runes(s);
    for (size_t i = 0; i <= r.size(); ++i) {
      if (limit < 0 || done < limit) {
        out += to;
        ++done;
      }
      if (i < r.size()) out += r[i];
    }
    return Value::String(std::move(out));
  }
  size_t i = 0;
  while (i <= s.size()) {
    size_t p = (limit < 0 || done < limit) ? s.find(from, i) : std::string_view::npos;
    if (p == std::string_view::npos) {
      out += s.substr(i);
      break;
    }
    out += s.substr(i, p - i);
    out += to;
    ++done;
    i = p + from.size();
  }
  return Value::String(std::move(out));
}
// Go's strings.SplitN (n < 0: all).
Value Split(EvalContext&, const Value* a, size_t n) {
  std::string_view s = a[0].str(), sep = a[1].str();
  int64_t limit = n > 2 ? a[2].int_value() : -1;
  ValueList out;
  if (limit == 0) return Value::List({});
  if (sep.empty()) {
    auto r = Runes(s);
    size_t cnt = r.size();
    if (limit > 0 && static_cast<size_t>(limit) < cnt) cnt = static_cast<size_t>(limit);
    for (size_t i = 0; i < cnt; ++i) {
      if (i + 1 == cnt)
        out.push_back(Value::String(Join(r, i, r.size())));
      else
        out.push_back(Value::String(std::string(r[i])));
    }
    return Value::List(std::move(out));
  }
  size_t i = 0;
  while (true) {
    if (limit > 0 && static_cast<int64_t>(out.size()) == limit - 1) {
      out.push_back(Value::String(std::string(s.substr(i))));
      break;
    }
    size_t p = s.find(sep, i);
    if (p == std::string_view::npos) {
      out.push_back(Value::String(std::string(s.substr(i))));
      break;
    }
    out.push_back(Value::String(std::string(s.substr(i, p - i))));
    i = p + sep.size();
  }
  return Value::List(std::move(out));
}
Value Substring(EvalContext&, const Value* a, size_t n) {
  auto r = Runes(a[0].str());
  int64_t start = a[1].int_value();
  int64_t end = n > 2 ? a[2].int_value() : static_cast<int64_t>(r.size());
  if (start < 0 || static_cast<uint64_t>(start) > r.size())
    return Err(fmt::format("index out of range: {}", start));
  if (n > 2 && (end < 0 || static_cast<uint64_t>(end) > r.size()))
    return Err(fmt::format("index out of range: {}", end));
  if (start > end)
    return Err(fmt::format("invalid substring range. start: {}, end: {}", start, end));
  return Value::String(Join(r, static_cast<size_t>(start), static_cast<size_t>(end)));
}
bool IsGoSpace(std::string_view r) {
  if (r.size() == 1) {
    char c = r[0];
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
  }
  static const char* kSpaces[] = {"\u0085", "\u00a0", "\u1680", "\u2000", "\u2001",
                                  "\u2002", "\u2003", "\u2004", "\u2005", "\u2006",
                                  "\u2007", "\u2008", "\u2009", "\u200a", "\u2028",
                                  "\u2029", "\u202f", "\u205f", "\u3000"};
  for (const char* sp : kSpaces)
    if (r == sp) return true;
  return false;
}
Value Trim(EvalContext&, const Value* a, size_t) {
  auto r = Runes(a[0].str());
  size_t b = 0, e = r.size();
  while (b < e && IsGoSpace(r[b])) ++b;
  while (e > b && IsGoSpace(r[e - 1])) --e;
  return Value::String(Join(r, b, e));
}
Value JoinList(EvalContext&, const Value* a, size_t n) {
  std::string out;
  std::string_view sep = n > 1 ? a[1].str() : std::string_view();
  const ValueList& l = a[0].list();
  for (size_t i = 0; i < l.size(); ++i) {
    if (l[i].kind() != ValueKind::kString) return NoSuchOverload();
    if (i) out += sep;
    out += l[i].str();
  }
  return Value::String(std::move(out));
}
// strconv.Quote-like quoting of ext.Strings' strings.quote.
Value Quote(EvalContext&, const Value* a, size_t) {
  std::string out = "\"";
  for (std::string_view r : Runes(a[0].str())) {
    if (r.size() == 1) {
      char c = r[0];
      switch (c) {
        case '\a':
          out += "\\a";
          break;
        case '\b':
          out += "\\b";
          break;
        case '\f':
          out += "\\f";
          break;
        case '\n':
          out += "\\n";
          break;
        case '\r':
          out += "\\r";
          break;
        case '\t':
          out += "\\t";
          break;
        case '\v':
          out += "\\v";
          break;
        case '\\':
          out += "\\\\";
          break;
        case '"':
          out += "\\\"";
          break;
        default:
          if (static_cast<unsigned char>(c) >= 0x80)
            out += "\ufffd";
          else
            out += c;
      }
    } else {
      out += r;
    }
  }
  return Value::String(out + "\"");
}

// ---- lists (Kubernetes and ext.Lists) ----
Value IsSorted(EvalContext&, const Value* a, size_t) {
  const ValueList& l = a[0].list();
  for (size_t i = 1; i < l.size(); ++i) {
    Value c = Compare(l[i - 1], l[i]);
    if (c.is_error()) return c;
    if (c.int_value() > 0) return Value::Bool(false);
  }
  return Value::Bool(true);
}
Value Sum(EvalContext& ctx, const Value* a, size_t) {
  const ValueList& l = a[0].list();
  if (l.empty()) return Value::Int(0);
  Value acc = l[0];
  for (size_t i = 1; i < l.size(); ++i) {
    Value args[2] = {acc, l[i]};
    if (acc.kind() == ValueKind::kInt && l[i].kind() == ValueKind::kInt)
      acc = AddInt(ctx, args, 2);
    else if (acc.kind() == ValueKind::kUint && l[i].kind() == ValueKind::kUint)
      acc = AddUint(ctx, args, 2);
    else if (acc.kind() == ValueKind::kDouble && l[i].kind() == ValueKind::kDouble)
      acc = AddDouble(ctx, args, 2);
    else
      return NoSuchOverload();
    if (acc.is_error()) return acc;
  }
  return acc;
}
template <bool kMax>
Value MinMax(EvalContext&, const Value* a, size_t) {
  const ValueList& l = a[0].list();
  if (l.empty())
    return Value::ErrorView(kMax ? "max(list) called on empty list"
                                 : "min(list) called on empty list");
  Value best = l[0];
  for (size_t i = 1; i < l.size(); ++i) {
    Value c = Compare(l[i], best);
    if (c.is_error()) return c;
    if (kMax ? c.int_value() > 0 : c.int_value() < 0) best = l[i];
  }
  return best;
}
Value ListIndexOf(EvalContext& ctx, const Value* a, size_t) {
  const ValueList& l = a[0].list();
  for (size_t i = 0; i < l.size(); ++i) {
    Value e = Equals(ctx, l[i], a[1]);
    if (e.kind() == ValueKind::kBool && e.bool_value()) return Value::Int(static_cast<int64_t>(i));
  }
  return Value::Int(-1);
}
Value ListLastIndexOf(EvalContext& ctx, const Value* a, size_t) {
  const ValueList& l = a[0].list();
  for (size_t i = l.size(); i-- > 0;) {
    Value e = Equals(ctx, l[i], a[1]);
    if (e.kind() == ValueKind::kBool && e.bool_value()) return Value::Int(static_cast<int64_t>(i));
  }
  return Value::Int(-1);
}
Value Slice(EvalContext&, const Value* a, size_t) {
  const ValueList& l = a[0].list();
  int64_t s = a[1].int_value(), e = a[2].int_value();
  if (s < 0 || e < 0)
    return Err(fmt::format("cannot slice({}, {}), negative indexes not supported", s, e));
  if (s > e)
    return Err(fmt::format(
        "cannot slice({}, {}), start index must be less than or equal to end index", s, e));
  if (static_cast<uint64_t>(e) > l.size())
    return Err(fmt::format("cannot slice({}, {}), list is length {}", s, e, l.size()));
  return Value::List(ValueList(l.begin() + s, l.begin() + e));
}
void FlattenInto(const ValueList& l, int64_t depth, ValueList& out) {
  for (const Value& v : l) {
    if (v.kind() == ValueKind::kList && depth > 0)
      FlattenInto(v.list(), depth - 1, out);
    else
      out.push_back(v);
  }
}
Value Flatten(EvalContext&, const Value* a, size_t n) {
  int64_t depth = n > 1 ? a[1].int_value() : 1;
  if (depth < 0) return Value::ErrorView("level must be non-negative");
  ValueList out;
  FlattenInto(a[0].list(), std::min<int64_t>(depth, 64), out);
  return Value::List(std::move(out));
}
Value Range(EvalContext&, const Value* a, size_t) {
  int64_t n = a[0].int_value();
  if (n > 1000000) return Value::ErrorView("lists.range() size too large");
  ValueList out;
  for (int64_t i = 0; i < n; ++i) out.push_back(Value::Int(i));
  return Value::List(std::move(out));
}
Value Distinct(EvalContext& ctx, const Value* a, size_t) {
  ValueList out;
  for (const Value& v : a[0].list()) {
    bool seen = false;
    for (const Value& o : out) {
      Value e = Equals(ctx, o, v);
      if (e.kind() == ValueKind::kBool && e.bool_value()) {
        seen = true;
        break;
      }
    }
    if (!seen) out.push_back(v);
  }
  return Value::List(std::move(out));
}
Value Reverse(EvalContext&, const Value* a, size_t) {
  ValueList out(a[0].list().rbegin(), a[0].list().rend());
  return Value::List(std::move(out));
}
Value Sort(EvalContext&, const Value* a, size_t) {
  ValueList out = a[0].list();
  for (size_t i = 1; i < out.size(); ++i) {
    if (Compare(out[0], out[i]).is_error())
      return Value::ErrorView("list elements must be comparable");
  }
  std::stable_sort(out.begin(), out.end(), [](const Value& x, const Value& y) {
    Value c = Compare(x, y);
    return !c.is_error() && c.int_value() < 0;
  });
  return Value::List(std::move(out));
}
Value First(EvalContext&, const Value* a, size_t) {
  if (a[0].list().empty()) return Value::OptionalNone();
  return Value::OptionalOf(a[0].list().front());
}
Value Last(EvalContext&, const Value* a, size_t) {
  if (a[0].list().empty()) return Value::OptionalNone();
  return Value::OptionalOf(a[0].list().back());
}

// ---- sets ----
bool ListHas(EvalContext& ctx, const ValueList& l, const Value& v) {
  for (const Value& e : l) {
    Value eq = Equals(ctx, e, v);
    if (eq.kind() == ValueKind::kBool && eq.bool_value()) return true;
  }
  return false;
}
Value SetsContains(EvalContext& ctx, const Value* a, size_t) {
  for (const Value& v : a[1].list())
    if (!ListHas(ctx, a[0].list(), v)) return Value::Bool(false);
  return Value::Bool(true);
}
Value SetsEquivalent(EvalContext& ctx, const Value* a, size_t n) {
  Value x = SetsContains(ctx, a, n);
  if (!x.bool_value()) return x;
  Value rev[2] = {a[1], a[0]};
  return SetsContains(ctx, rev, n);
}
Value SetsIntersects(EvalContext& ctx, const Value* a, size_t) {
  for (const Value& v : a[1].list())
    if (ListHas(ctx, a[0].list(), v)) return Value::Bool(true);
  return Value::Bool(false);
}

// ---- optionals ----
Value OptOf(EvalContext&, const Value* a, size_t) { return Value::OptionalOf(a[0]); }
Value OptOfNonZero(EvalContext& ctx, const Value* a, size_t) {
  const Value& v = a[0];
  bool zero = false;
  switch (v.kind()) {
    case ValueKind::kNull:
      zero = true;
      break;
    case ValueKind::kBool:
      zero = !v.bool_value();
      break;
    case ValueKind::kInt:
      zero = v.int_value() == 0;
      break;
    case ValueKind::kUint:
      zero = v.uint_value() == 0;
      break;
    case ValueKind::kDouble:
      zero = v.double_value() == 0;
      break;
    case ValueKind::kString:
    case ValueKind::kBytes:
      zero = v.str().empty();
      break;
    case ValueKind::kList:
      zero = v.list().empty();
      break;
    default:
      if (IsMapLike(v)) zero = Size(ctx, v).int_value() == 0;
      break;
  }
  return zero ? Value::OptionalNone() : Value::OptionalOf(v);
}
Value OptNone(EvalContext&, const Value*, size_t) { return Value::OptionalNone(); }
Value OptHasValue(EvalContext&, const Value* a, size_t) {
  return Value::Bool(a[0].optional_value() != nullptr);
}
Value OptValue(EvalContext&, const Value* a, size_t) {
  if (!a[0].optional_value()) return Value::ErrorView("optional.none() dereference");
  return *a[0].optional_value();
}
Value OptOrValue(EvalContext&, const Value* a, size_t) {
  return a[0].optional_value() ? *a[0].optional_value() : a[1];
}
Value OptOr(EvalContext&, const Value* a, size_t) { return a[0].optional_value() ? a[0] : a[1]; }
Value OptIndexList(EvalContext& ctx, const Value* a, size_t n) {
  Value v = IndexList(ctx, a, n);
  if (v.is_error()) {
    if (v.str().starts_with("index out of bounds")) return Value::OptionalNone();
    return v;
  }
  return Value::OptionalOf(v);
}
Value OptIndexMap(EvalContext& ctx, const Value* a, size_t) {
  bool found;
  Value v = MapLookup(ctx, a[0], a[1], found);
  if (!found) return Value::OptionalNone();
  return Value::OptionalOf(v);
}

// ---- map insertion (two-variable comprehensions) ----
Value MapInsert(EvalContext& ctx, const Value* a, size_t n) {
  Value base = Materialize(ctx, a[0]);
  ValueMap m = base.map();
  auto insert = [&](const Value& k, const Value& v) -> bool {
    for (const auto& [ek, ev] : m) {
      Value eq = Equals(ctx, ek, k);
      if (eq.kind() == ValueKind::kBool && eq.bool_value()) return false;
    }
    m.emplace_back(k, v);
    return true;
  };
  if (n == 3) {
    if (!insert(a[1], a[2]))
      return Err(fmt::format("insert failed: key {} already exists", FormatValue(a[1])));
  } else {
    Value other = Materialize(ctx, a[1]);
    for (const auto& [k, v] : other.map())
      if (!insert(k, v))
        return Err(fmt::format("insert failed: key {} already exists", FormatValue(k)));
  }
  return Value::Map(std::move(m));
}

// ---- Kubernetes quantity ----
Value QuantityParse(EvalContext&, const Value* a, size_t) {
  auto q = Quantity::Parse(a[0].str());
  if (!q.ok()) return Err(q.error().message);
  return Value::QuantityOwned(*q);
}
Value IsQuantity(EvalContext&, const Value* a, size_t) {
  return Value::Bool(Quantity::Parse(a[0].str()).ok());
}
Value QuantitySign(EvalContext&, const Value* a, size_t) {
  return Value::Int(a[0].quantity().Sign());
}
Value QuantityCompareTo(EvalContext&, const Value* a, size_t) {
  return Value::Int(a[0].quantity().Compare(a[1].quantity()));
}
Value QuantityGreater(EvalContext&, const Value* a, size_t) {
  return Value::Bool(a[0].quantity().Compare(a[1].quantity()) == 1);
}
Value QuantityLess(EvalContext&, const Value* a, size_t) {
  return Value::Bool(a[0].quantity().Compare(a[1].quantity()) == -1);
}
bool QuantityAsInt64(const Quantity& q, int64_t& out) {
  out = q.Value();
  return Quantity::FromScaled(out, 0).Compare(q) == 0;
}
Value QuantityIsInteger(EvalContext&, const Value* a, size_t) {
  int64_t v;
  return Value::Bool(QuantityAsInt64(a[0].quantity(), v));
}
Value QuantityAsInteger(EvalContext&, const Value* a, size_t) {
  int64_t v;
  if (!QuantityAsInt64(a[0].quantity(), v))
    return Value::ErrorView("cannot convert value to integer");
  return Value::Int(v);
}
// An exact decimal reading of a quantity from its canonical text:
// mantissa * 10^exp10 (binary suffixes multiply the mantissa).
bool QuantityDecimal(const Quantity& q, __int128& mant, int& exp10) {
  std::string s = q.String();
  size_t i = 0;
  bool neg = false;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) neg = s[i++] == '-';
  unsigned __int128 m = 0;
  int frac = 0;
  bool dot = false;
  for (; i < s.size() && ((s[i] >= '0' && s[i] <= '9') || s[i] == '.'); ++i) {
    if (s[i] == '.') {
      dot = true;
      continue;
    }
    if (m > (static_cast<unsigned __int128>(1) << 120)) return false;
    m = m * 10 + static_cast<unsigned>(s[i] - '0');
    if (dot) ++frac;
  }
  std::string suf = s.substr(i);
  int e = 0;
  int bin = 0;
  static const std::pair<const char*, int> kDec[] = {{"n", -9}, {"u", -6}, {"m", -3}, {"", 0},
                                                     {"k", 3},  {"M", 6},  {"G", 9},  {"T", 12},
                                                     {"P", 15}, {"E", 18}};
  static const std::pair<const char*, int> kBin[] = {{"Ki", 10}, {"Mi", 20}, {"Gi", 30},
                                                     {"Ti", 40}, {"Pi", 50}, {"Ei", 60}};
  bool ok = false;
  for (auto [n, v] : kDec)
    if (suf == n) {
      e = v;
      ok = true;
    }
  for (auto [n, v] : kBin)
    if (suf == n) {
      bin = v;
      ok = true;
    }
  if (!ok && !suf.empty() && (suf[0] == 'e' || suf[0] == 'E')) {
    e = std::atoi(suf.c_str() + 1);
    ok = true;
  }
  if (!ok) return false;
  for (int k = 0; k < bin; ++k) {
    if (m > (static_cast<unsigned __int128>(1) << 125)) return false;
    m <<= 1;
  }
  mant = neg ? -static_cast<__int128>(m) : static_cast<__int128>(m);
  exp10 = e - frac;
  return true;
}
Value QuantityAddSub(const Quantity& x, const Quantity& y, bool sub) {
  __int128 mx, my;
  int ex, ey;
  if (!QuantityDecimal(x, mx, ex) || !QuantityDecimal(y, my, ey))
    return Value::ErrorView("quantity out of range");
  int e = std::min(ex, ey);
  auto scale = [&](__int128& m, int from) {
    for (int k = from; k > e; --k) {
      if (m > (static_cast<__int128>(1) << 120) || m < -(static_cast<__int128>(1) << 120))
        return false;
      m *= 10;
    }
    return true;
  };
  if (!scale(mx, ex) || !scale(my, ey)) return Value::ErrorView("quantity out of range");
  __int128 r = sub ? mx - my : mx + my;
  bool neg = r < 0;
  unsigned __int128 u =
      neg ? static_cast<unsigned __int128>(-r) : static_cast<unsigned __int128>(r);
  std::string digits;
  do {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(u % 10)));
    u /= 10;
  } while (u);
  std::string text = (neg ? "-" : "") + digits + "e" + std::to_string(e);
  auto q = Quantity::Parse(text);
  if (!q.ok()) return Err(q.error().message);
  return Value::QuantityOwned(*q);
}
Value QuantityAdd(EvalContext&, const Value* a, size_t) {
  return QuantityAddSub(a[0].quantity(), a[1].quantity(), false);
}
Value QuantitySub(EvalContext&, const Value* a, size_t) {
  return QuantityAddSub(a[0].quantity(), a[1].quantity(), true);
}
Value QuantityAddInt(EvalContext&, const Value* a, size_t) {
  return QuantityAddSub(a[0].quantity(), Quantity::FromScaled(a[1].int_value(), 0), false);
}
Value QuantitySubInt(EvalContext&, const Value* a, size_t) {
  return QuantityAddSub(a[0].quantity(), Quantity::FromScaled(a[1].int_value(), 0), true);
}
Value QuantityFloat(EvalContext&, const Value* a, size_t) {
  __int128 m;
  int e;
  if (!QuantityDecimal(a[0].quantity(), m, e))
    return Value::Double(a[0].quantity().Sign() * HUGE_VAL);
  return Value::Double(static_cast<double>(m) * std::pow(10.0, e));
}

// ---- Kubernetes semver ----
Value SemverParse(EvalContext&, const Value* a, size_t n) {
  bool normalize = n > 1 && a[1].bool_value();
  std::string err;
  if (normalize) {
    std::string norm;
    if (!NormalizeSemver(a[0].str(), &norm, &err)) return Err(err);
    return Value::Semver(std::move(norm));
  }
  SemverParts p;
  if (!ParseSemver(a[0].str(), p, &err)) return Err(err);
  return Value::Semver(std::string(a[0].str()));
}
Value IsSemver(EvalContext&, const Value* a, size_t n) {
  bool normalize = n > 1 && a[1].bool_value();
  if (normalize) {
    std::string norm;
    return Value::Bool(NormalizeSemver(a[0].str(), &norm, nullptr));
  }
  SemverParts p;
  return Value::Bool(ParseSemver(a[0].str(), p, nullptr));
}
SemverParts Parts(const Value& v) {
  SemverParts p;
  ParseSemver(v.str(), p, nullptr);
  return p;
}
Value SemverMajor(EvalContext&, const Value* a, size_t) {
  return Value::Int(static_cast<int64_t>(Parts(a[0]).major));
}
Value SemverMinor(EvalContext&, const Value* a, size_t) {
  return Value::Int(static_cast<int64_t>(Parts(a[0]).minor));
}
Value SemverPatch(EvalContext&, const Value* a, size_t) {
  return Value::Int(static_cast<int64_t>(Parts(a[0]).patch));
}
Value SemverCompareTo(EvalContext&, const Value* a, size_t) {
  return Value::Int(CompareSemver(Parts(a[0]), Parts(a[1])));
}
Value SemverGreater(EvalContext&, const Value* a, size_t) {
  return Value::Bool(CompareSemver(Parts(a[0]), Parts(a[1])) == 1);
}
Value SemverLess(EvalContext&, const Value* a, size_t) {
  return Value::Bool(CompareSemver(Parts(a[0]), Parts(a[1])) == -1);
}

Value Unreachable(EvalContext&, const Value*, size_t) {
  return Value::ErrorView("no such overload");
}

// ---- the table ----
struct Builder {
  std::map<std::string, FunctionDecl, std::less<>> fns;
  void G(const std::string& name, const std::string& id, std::vector<TypePtr> args, TypePtr result,
         FunctionImpl impl) {
    Add(name, id, false, std::move(args), std::move(result), impl);
  }
  void M(const std::string& name, const std::string& id, std::vector<TypePtr> args, TypePtr result,
         FunctionImpl impl) {
    Add(name, id, true, std::move(args), std::move(result), impl);
  }
  void Add(const std::string& name, const std::string& id, bool member, std::vector<TypePtr> args,
           TypePtr result, FunctionImpl impl) {
    FunctionDecl& f = fns[name];
    f.name = name;
    OverloadDecl o;
    o.id = id;
    o.member = member;
    o.args = std::move(args);
    o.result = std::move(result);
    o.impl = impl;
    f.overloads.push_back(std::move(o));
  }
};

std::map<std::string, FunctionDecl, std::less<>> BuildTable() {
  Builder b;
  TypePtr I = IntType(), U = UintType(), D = DoubleType(), S = StringType(), BY = BytesType(),
          BO = BoolType();
  TypePtr Q = QuantityType(), SV = SemverType(), DY = DynType();
  // Operators.
  b.G("_+_", "add_int64", {I, I}, I, AddInt);
  b.G("_+_", "add_uint64", {U, U}, U, AddUint);
  b.G("_+_", "add_double", {D, D}, D, AddDouble);
  b.G("_+_", "add_string", {S, S}, S, AddString);
  b.G("_+_", "add_bytes", {BY, BY}, BY, AddBytes);
  b.G("_+_", "add_list", {LA(), LA()}, LA(), AddList);
  b.G("_-_", "subtract_int64", {I, I}, I, SubInt);
  b.G("_-_", "subtract_uint64", {U, U}, U, SubUint);
  b.G("_-_", "subtract_double", {D, D}, D, SubDouble);
  b.G("_*_", "multiply_int64", {I, I}, I, MulInt);
  b.G("_*_", "multiply_uint64", {U, U}, U, MulUint);
  b.G("_*_", "multiply_double", {D, D}, D, MulDouble);
  b.G("_/_", "divide_int64", {I, I}, I, DivInt);
  b.G("_/_", "divide_uint64", {U, U}, U, DivUint);
  b.G("_/_", "divide_double", {D, D}, D, DivDouble);
  b.G("_%_", "modulo_int64", {I, I}, I, ModInt);
  b.G("_%_", "modulo_uint64", {U, U}, U, ModUint);
  b.G("-_", "negate_int64", {I}, I, NegInt);
  b.G("-_", "negate_double", {D}, D, NegDouble);
  b.G("!_", "logical_not", {BO}, BO, NotBool);
  b.G("_&&_", "logical_and", {BO, BO}, BO, Unreachable);
  b.G("_||_", "logical_or", {BO, BO}, BO, Unreachable);
  b.G("_?_:_", "conditional", {BO, A(), A()}, A(), Unreachable);
  b.G("@not_strictly_false", "not_strictly_false", {BO}, BO, Unreachable);
  b.G("_==_", "equals", {A(), A()}, BO, EqualsImpl);
  b.G("_!=_", "not_equals", {A(), A()}, BO, NotEqualsImpl);
  struct Rel {
    const char* fn;
    const char* id;
    FunctionImpl impl;
  };
  const Rel rels[] = {{"_<_", "less", Relation<0>},
                      {"_<=_", "less_equals", Relation<1>},
                      {"_>_", "greater", Relation<2>},
                      {"_>=_", "greater_equals", Relation<3>}};
  for (const Rel& r : rels) {
    std::string id = r.id;
    b.G(r.fn, id + "_bool", {BO, BO}, BO, r.impl);
    b.G(r.fn, id + "_int64", {I, I}, BO, r.impl);
    b.G(r.fn, id + "_int64_double", {I, D}, BO, r.impl);
    b.G(r.fn, id + "_int64_uint64", {I, U}, BO, r.impl);
    b.G(r.fn, id + "_uint64", {U, U}, BO, r.impl);
    b.G(r.fn, id + "_uint64_double", {U, D}, BO, r.impl);
    b.G(r.fn, id + "_uint64_int64", {U, I}, BO, r.impl);
    b.G(r.fn, id + "_double", {D, D}, BO, r.impl);
    b.G(r.fn, id + "_double_int64", {D, I}, BO, r.impl);
    b.G(r.fn, id + "_double_uint64", {D, U}, BO, r.impl);
    b.G(r.fn, id + "_string", {S, S}, BO, r.impl);
    b.G(r.fn, id + "_bytes", {BY, BY}, BO, r.impl);
  }
  b.G("_[_]", "index_list", {LA(), I}, A(), IndexList);
  b.G("_[_]", "index_map", {MAB(), A()}, B(), IndexMap);
  b.G("@in", "in_list", {A(), LA()}, BO, InList);
  b.G("@in", "in_map", {A(), MAB()}, BO, InMap);
  b.G("size", "size_string", {S}, I, SizeImpl);
  b.G("size", "size_bytes", {BY}, I, SizeImpl);
  b.G("size", "size_list", {LA()}, I, SizeImpl);
  b.G("size", "size_map", {MAB()}, I, SizeImpl);
  b.M("size", "string_size", {S}, I, SizeImpl);
  b.M("size", "bytes_size", {BY}, I, SizeImpl);
  b.M("size", "list_size", {LA()}, I, SizeImpl);
  b.M("size", "map_size", {MAB()}, I, SizeImpl);
  // Conversions.
  b.G("int", "int64_to_int64", {I}, I, ToInt);
  b.G("int", "uint64_to_int64", {U}, I, ToInt);
  b.G("int", "double_to_int64", {D}, I, ToInt);
  b.G("int", "string_to_int64", {S}, I, ToInt);
  b.G("uint", "uint64_to_uint64", {U}, U, ToUint);
  b.G("uint", "int64_to_uint64", {I}, U, ToUint);
  b.G("uint", "double_to_uint64", {D}, U, ToUint);
  b.G("uint", "string_to_uint64", {S}, U, ToUint);
  b.G("double", "double_to_double", {D}, D, ToDouble);
  b.G("double", "int64_to_double", {I}, D, ToDouble);
  b.G("double", "uint64_to_double", {U}, D, ToDouble);
  b.G("double", "string_to_double", {S}, D, ToDouble);
  b.G("string", "string_to_string", {S}, S, ToString);
  b.G("string", "int64_to_string", {I}, S, ToString);
  b.G("string", "uint64_to_string", {U}, S, ToString);
  b.G("string", "double_to_string", {D}, S, ToString);
  b.G("string", "bool_to_string", {BO}, S, ToString);
  b.G("string", "bytes_to_string", {BY}, S, ToString);
  b.G("bytes", "bytes_to_bytes", {BY}, BY, ToBytes);
  b.G("bytes", "string_to_bytes", {S}, BY, ToBytes);
  b.G("bool", "bool_to_bool", {BO}, BO, ToBool);
  b.G("bool", "string_to_bool", {S}, BO, ToBool);
  b.G("dyn", "to_dyn", {A()}, DY, Identity);
  b.G("type", "type", {A()}, TypeType(A()), TypeOf);
  // Strings.
  b.M("contains", "contains_string", {S, S}, BO, Contains);
  b.M("startsWith", "starts_with_string", {S, S}, BO, StartsWith);
  b.M("endsWith", "ends_with_string", {S, S}, BO, EndsWith);
  b.G("matches", "matches", {S, S}, BO, Matches);
  b.M("matches", "matches_string", {S, S}, BO, Matches);
  b.M("charAt", "string_char_at_int", {S, I}, S, CharAt);
  b.M("indexOf", "string_index_of_string", {S, S}, I, IndexOf);
  b.M("indexOf", "string_index_of_string_int", {S, S, I}, I, IndexOf);
  b.M("lastIndexOf", "string_last_index_of_string", {S, S}, I, LastIndexOf);
  b.M("lastIndexOf", "string_last_index_of_string_int", {S, S, I}, I, LastIndexOf);
  b.M("lowerAscii", "string_lower_ascii", {S}, S, LowerAscii);
  b.M("upperAscii", "string_upper_ascii", {S}, S, UpperAscii);
  b.M("replace", "string_replace_string_string", {S, S, S}, S, Replace);
  b.M("replace", "string_replace_string_string_int", {S, S, S, I}, S, Replace);
  b.M("split", "string_split_string", {S, S}, LS(), Split);
  b.M("split", "string_split_string_int", {S, S, I}, LS(), Split);
  b.M("substring", "string_substring_int", {S, I}, S, Substring);
  b.M("substring", "string_substring_int_int", {S, I, I}, S, Substring);
  b.M("trim", "string_trim", {S}, S, Trim);
  b.M("join", "list_join", {LS()}, S, JoinList);
  b.M("join", "list_join_string", {LS(), S}, S, JoinList);
  b.G("strings.quote", "strings_quote", {S}, S, Quote);
  // Kubernetes regex library.
  b.M("find", "string_find_string", {S, S}, S, Find);
  b.M("findAll", "string_find_all_string", {S, S}, LS(), FindAll);
  b.M("findAll", "string_find_all_string_int", {S, S, I}, LS(), FindAll);
  // Kubernetes lists library.
  b.M("isSorted", "list_is_sorted", {LA()}, BO, IsSorted);
  b.M("sum", "list_sum", {LA()}, A(), Sum);
  b.M("min", "list_min", {LA()}, A(), MinMax<false>);
  b.M("max", "list_max", {LA()}, A(), MinMax<true>);
  b.M("indexOf", "list_a_index_of_int", {LA(), A()}, I, ListIndexOf);
  b.M("lastIndexOf", "list_a_last_index_of_int", {LA(), A()}, I, ListLastIndexOf);
  // ext.Lists v3.
  b.M("slice", "list_slice", {LA(), I, I}, LA(), Slice);
  b.M("flatten", "list_flatten", {ListType(LA())}, LA(), Flatten);
  b.M("flatten", "list_flatten_int", {ListType(DY), I}, ListType(DY), Flatten);
  b.G("lists.range", "lists_range", {I}, ListType(I), Range);
  b.M("distinct", "list_distinct", {LA()}, LA(), Distinct);
  b.M("reverse", "list_reverse", {LA()}, LA(), Reverse);
  b.M("sort", "list_sort", {LA()}, LA(), Sort);
  b.M("first", "list_first", {LA()}, OA(), First);
  b.M("last", "list_last", {LA()}, OA(), Last);
  // ext.Sets.
  b.G("sets.contains", "list_sets_contains_list", {LA(), LA()}, BO, SetsContains);
  b.G("sets.equivalent", "list_sets_equivalent_list", {LA(), LA()}, BO, SetsEquivalent);
  b.G("sets.intersects", "list_sets_intersects_list", {LA(), LA()}, BO, SetsIntersects);
  // Optional types.
  b.G("optional.of", "optional_of", {A()}, OA(), OptOf);
  b.G("optional.ofNonZeroValue", "optional_ofNonZeroValue", {A()}, OA(), OptOfNonZero);
  b.G("optional.none", "optional_none", {}, OA(), OptNone);
  b.M("hasValue", "optional_hasValue", {OA()}, BO, OptHasValue);
  b.M("value", "optional_value", {OA()}, A(), OptValue);
  b.M("orValue", "optional_orValue_value", {OA(), A()}, A(), OptOrValue);
  b.M("or", "optional_or_optional", {OA(), OA()}, OA(), OptOr);
  b.G("_[?_]", "list_optindex_optional_int", {LA(), I}, OA(), OptIndexList);
  b.G("_[?_]", "map_optindex_optional_value", {MAB(), A()}, OptionalType(B()), OptIndexMap);
  b.G("_[?_]", "optional_list_optindex_optional_int", {OptionalType(LA()), I}, OA(), Unreachable);
  b.G("_[?_]", "optional_map_optindex_optional_value", {OptionalType(MAB()), A()},
      OptionalType(B()), Unreachable);
  b.G("_[_]", "optional_list_index_int", {OptionalType(LA()), I}, OA(), Unreachable);
  b.G("_[_]", "optional_map_index_value", {OptionalType(MAB()), A()}, OptionalType(B()),
      Unreachable);
  // Two-variable comprehensions.
  b.G("cel.@mapInsert", "@mapInsert_map_key_value", {MAB(), A(), B()}, MAB(), MapInsert);
  b.G("cel.@mapInsert", "@mapInsert_map_map", {MAB(), MAB()}, MAB(), MapInsert);
  // Kubernetes quantity library.
  b.G("quantity", "string_to_quantity", {S}, Q, QuantityParse);
  b.G("isQuantity", "is_quantity_string", {S}, BO, IsQuantity);
  b.G("sign", "quantity_sign", {Q}, I, QuantitySign);
  b.M("isGreaterThan", "quantity_is_greater_than", {Q, Q}, BO, QuantityGreater);
  b.M("isLessThan", "quantity_is_less_than", {Q, Q}, BO, QuantityLess);
  b.M("compareTo", "quantity_compare_to", {Q, Q}, I, QuantityCompareTo);
  b.M("asApproximateFloat", "quantity_get_float", {Q}, D, QuantityFloat);
  b.M("asInteger", "quantity_get_int", {Q}, I, QuantityAsInteger);
  b.M("isInteger", "quantity_is_integer", {Q}, BO, QuantityIsInteger);
  b.M("add", "quantity_add", {Q, Q}, Q, QuantityAdd);
  b.M("add", "quantity_add_int", {Q, I}, Q, QuantityAddInt);
  b.M("sub", "quantity_sub", {Q, Q}, Q, QuantitySub);
  b.M("sub", "quantity_sub_int", {Q, I}, Q, QuantitySubInt);
  // Kubernetes semver library (version 1).
  b.G("semver", "string_to_semver", {S}, SV, SemverParse);
  b.G("semver", "string_bool_to_semver", {S, BO}, SV, SemverParse);
  b.G("isSemver", "is_semver_string", {S}, BO, IsSemver);
  b.G("isSemver", "is_semver_string_bool", {S, BO}, BO, IsSemver);
  b.M("isGreaterThan", "semver_is_greater_than", {SV, SV}, BO, SemverGreater);
  b.M("isLessThan", "semver_is_less_than", {SV, SV}, BO, SemverLess);
  b.M("compareTo", "semver_compare_to", {SV, SV}, I, SemverCompareTo);
  b.M("major", "semver_major", {SV}, I, SemverMajor);
  b.M("minor", "semver_minor", {SV}, I, SemverMinor);
  b.M("patch", "semver_patch", {SV}, I, SemverPatch);
  // Which overloads have type parameters.
  for (auto& [name, fn] : b.fns) {
    for (OverloadDecl& o : fn.overloads) {
      std::function<void(const Type&)> walk = [&](const Type& t) {
        if (t.kind == TypeKind::kTypeParam &&
            std::find(o.type_params.begin(), o.type_params.end(), t.name) == o.type_params.end())
          o.type_params.push_back(t.name);
        for (const TypePtr& p : t.params) walk(*p);
      };
      for (const TypePtr& t : o.args) walk(*t);
      walk(*o.result);
    }
  }
  return std::move(b.fns);
}

}  // namespace

const FunctionDecl* LookupFunction(std::string_view name) {
  static const auto kTable = BuildTable();
  auto it = kTable.find(name);
  return it == kTable.end() ? nullptr : &it->second;
}

bool ValueMatchesType(const Value& v, const Type& t) {
  switch (t.kind) {
    case TypeKind::kDyn:
    case TypeKind::kAny:
    case TypeKind::kTypeParam:
    case TypeKind::kError:
      return true;
    case TypeKind::kNull:
      return v.kind() == ValueKind::kNull;
    case TypeKind::kBool:
      return v.kind() == ValueKind::kBool;
    case TypeKind::kInt:
      return v.kind() == ValueKind::kInt;
    case TypeKind::kUint:
      return v.kind() == ValueKind::kUint;
    case TypeKind::kDouble:
      return v.kind() == ValueKind::kDouble;
    case TypeKind::kString:
      return v.kind() == ValueKind::kString;
    case TypeKind::kBytes:
      return v.kind() == ValueKind::kBytes;
    case TypeKind::kList:
      return v.kind() == ValueKind::kList;
    case TypeKind::kMap:
      return IsMapLike(v);
    case TypeKind::kType:
      return v.kind() == ValueKind::kType;
    case TypeKind::kOpaque:
      return v.kind() == ValueKind::kOptional;
    case TypeKind::kStruct:
      if (t.name == "kubernetes.Quantity") return v.kind() == ValueKind::kQuantity;
      if (t.name == "kubernetes.Semver") return v.kind() == ValueKind::kSemver;
      return IsMapLike(v);
    default:
      return false;
  }
}

uint64_t CallCost(const OverloadDecl& o, const Value* args, size_t n) {
  auto size = [&](size_t i) -> uint64_t {
    if (i >= n) return 1;
    const Value& v = args[i];
    switch (v.kind()) {
      case ValueKind::kString: {
        uint64_t c = 0;
        for (unsigned char ch : v.str()) c += (ch & 0xC0) != 0x80;
        return c;
      }
      case ValueKind::kBytes:
        return v.str().size();
      case ValueKind::kList:
        return v.list().size();
      case ValueKind::kMap:
        return v.map().size();
      default:
        return 1;
    }
  };
  auto trav = [](double x) {
    return static_cast<uint64_t>(std::ceil(x * kStringTraversalCostFactor));
  };
  const std::string& id = o.id;
  if (id == "starts_with_string" || id == "ends_with_string" || id == "string_to_bytes" ||
      id == "bytes_to_string" || id == "strings_quote")
    return trav(static_cast<double>(size(0)));
  if (id == "in_list") return size(1);
  if (id.starts_with("less_string") || id.starts_with("greater_string") ||
      id.starts_with("less_equals_string") || id.starts_with("greater_equals_string") ||
      id.ends_with("_bytes") || id == "equals" || id == "not_equals") {
    if (id == "add_bytes") return trav(static_cast<double>(size(0) + size(1)));
    return trav(static_cast<double>(std::min(size(0), size(1))));
  }
  if (id == "add_string") return trav(static_cast<double>(size(0) + size(1)));
  if (id == "matches" || id == "matches_string") {
    uint64_t s = static_cast<uint64_t>(
        std::ceil((1.0 + static_cast<double>(size(0))) * kStringTraversalCostFactor));
    uint64_t r = static_cast<uint64_t>(
        std::ceil(static_cast<double>(size(1)) * kRegexStringLengthCostFactor));
    return s * r;
  }
  if (id == "contains_string")
    return trav(static_cast<double>(size(0))) * trav(static_cast<double>(size(1)));
  return 1;
}

}  // namespace ksched::cel
