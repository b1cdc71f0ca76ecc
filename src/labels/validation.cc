#include "labels/validation.h"

#include <limits>

namespace ksched::labels {
namespace {

constexpr std::string_view kQualifiedNameFmt = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
constexpr std::string_view kQualifiedNameErrMsg =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
    "alphanumeric character";
constexpr std::string_view kLabelValueFmt = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
constexpr std::string_view kLabelValueErrMsg =
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or "
    "'.', and must start and end with an alphanumeric character";
constexpr std::string_view kDNS1123LabelFmt = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
constexpr std::string_view kDNS1123LabelErrMsg =
    "a DNS-1123 label must consist of lower case alphanumeric characters or '-', and must start "
    "and end with an alphanumeric character";
constexpr std::string_view kDNS1123SubdomainFmt =
    "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
constexpr std::string_view kDNS1123SubdomainErrMsg =
    "a DNS-1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and "
    "must start and end with an alphanumeric character";

bool IsAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}
bool IsLowerAlnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

// ^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$ (Go's $ does not accept a
// trailing newline, so a plain full-string check is exact).
bool MatchesQualifiedNamePart(std::string_view s) {
  if (s.empty() || !IsAlnum(s.front()) || !IsAlnum(s.back())) return false;
  for (char c : s) {
    if (!IsAlnum(c) && c != '-' && c != '_' && c != '.') return false;
  }
  return true;
}

// ^[a-z0-9]([-a-z0-9]*[a-z0-9])?$
bool MatchesDNS1123Label(std::string_view s) {
  if (s.empty() || !IsLowerAlnum(s.front()) || !IsLowerAlnum(s.back())) return false;
  for (char c : s) {
    if (!IsLowerAlnum(c) && c != '-') return false;
  }
  return true;
}

// One or more DNS-1123 labels joined by single dots.
bool MatchesDNS1123Subdomain(std::string_view s) {
  size_t start = 0;
  while (true) {
    size_t dot = s.find('.', start);
    std::string_view part = s.substr(start, dot == std::string_view::npos ? s.npos : dot - start);
    if (!MatchesDNS1123Label(part)) return false;
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

std::string MaxLenError(size_t length) {
  return "must be no more than " + std::to_string(length) + " characters";
}

// validation.RegexError with examples; reproduces upstream's "', " + " or "
// double space between examples.
std::string RegexError(std::string_view msg, std::string_view fmt,
                       std::initializer_list<std::string_view> examples) {
  std::string out(msg);
  out += " (e.g. ";
  bool first = true;
  for (std::string_view ex : examples) {
    if (!first) out += " or ";
    first = false;
    out += '\'';
    out += ex;
    out += "', ";
  }
  out += "regex used for validation is '";
  out += fmt;
  out += "')";
  return out;
}

std::string Join(const std::vector<std::string>& parts, std::string_view sep) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += sep;
    out += parts[i];
  }
  return out;
}

// Decodes one UTF-8 sequence at s[i]; returns its length, or 0 if invalid
// (Go then treats the byte as RuneError of width 1).
size_t DecodeRune(std::string_view s, size_t i, uint32_t* rune) {
  auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char c = b(i);
  size_t n;
  uint32_t r, min;
  if (c < 0x80) {
    *rune = c;
    return 1;
  } else if ((c & 0xe0) == 0xc0) {
    n = 2, r = c & 0x1f, min = 0x80;
  } else if ((c & 0xf0) == 0xe0) {
    n = 3, r = c & 0x0f, min = 0x800;
  } else if ((c & 0xf8) == 0xf0) {
    n = 4, r = c & 0x07, min = 0x10000;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    if ((b(i + k) & 0xc0) != 0x80) return 0;
    r = (r << 6) | (b(i + k) & 0x3f);
  }
  if (r < min || r > 0x10ffff || (r >= 0xd800 && r <= 0xdfff)) return 0;
  *rune = r;
  return n;
}

// A close approximation of strconv.IsPrint for non-ASCII runes: the C1
// controls and the common non-ASCII spaces and format characters are not
// printable; everything else is.
bool IsPrintNonAscii(uint32_t r) {
  if (r >= 0x80 && r <= 0xa0) return false;
  if (r == 0xad || r == 0x1680 || r == 0x3000 || r == 0xfeff) return false;
  if (r >= 0x2000 && r <= 0x200f) return false;
  if (r >= 0x2028 && r <= 0x202f) return false;
  if (r >= 0x205f && r <= 0x206f) return false;
  if (r >= 0xfff9 && r <= 0xfffb) return false;
  return true;
}

void AppendHex(std::string* out, uint32_t v, int digits) {
  static constexpr char kHex[] = "0123456789abcdef";
  for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4) *out += kHex[(v >> shift) & 0xf];
}

}  // namespace

std::vector<std::string> IsQualifiedName(std::string_view value) {
  std::vector<std::string> errs;
  std::string_view name = value;
  size_t slash = value.find('/');
  if (slash != std::string_view::npos) {
    if (value.find('/', slash + 1) != std::string_view::npos) {
      errs.push_back(
          "a qualified name " +
          RegexError(kQualifiedNameErrMsg, kQualifiedNameFmt, {"MyName", "my.name", "123-abc"}) +
          " with an optional DNS subdomain prefix and '/' (e.g. "
          "'example.com/MyName')");
      return errs;
    }
    std::string_view prefix = value.substr(0, slash);
    name = value.substr(slash + 1);
    if (prefix.empty()) {
      errs.push_back("prefix part must be non-empty");
    } else {
      for (std::string& msg : IsDNS1123Subdomain(prefix)) errs.push_back("prefix part " + msg);
    }
  }
  if (name.empty()) {
    errs.push_back("name part must be non-empty");
  } else if (name.size() > kQualifiedNameMaxLength) {
    errs.push_back("name part " + MaxLenError(kQualifiedNameMaxLength));
  }
  if (!MatchesQualifiedNamePart(name)) {
    errs.push_back("name part " + RegexError(kQualifiedNameErrMsg, kQualifiedNameFmt,
                                             {"MyName", "my.name", "123-abc"}));
  }
  return errs;
}

std::vector<std::string> IsValidLabelValue(std::string_view value) {
  std::vector<std::string> errs;
  if (value.size() > kLabelValueMaxLength) errs.push_back(MaxLenError(kLabelValueMaxLength));
  if (!value.empty() && !MatchesQualifiedNamePart(value)) {
    errs.push_back(RegexError(kLabelValueErrMsg, kLabelValueFmt, {"MyValue", "my_value", "12345"}));
  }
  return errs;
}

std::vector<std::string> IsDNS1123Label(std::string_view value) {
  std::vector<std::string> errs;
  if (value.size() > kDNS1123LabelMaxLength) errs.push_back(MaxLenError(kDNS1123LabelMaxLength));
  if (!MatchesDNS1123Label(value)) {
    errs.push_back(RegexError(kDNS1123LabelErrMsg, kDNS1123LabelFmt, {"my-name", "123-abc"}));
  }
  return errs;
}

std::vector<std::string> IsDNS1123Subdomain(std::string_view value) {
  std::vector<std::string> errs;
  if (value.size() > kDNS1123SubdomainMaxLength) {
    errs.push_back(MaxLenError(kDNS1123SubdomainMaxLength));
  }
  if (!MatchesDNS1123Subdomain(value)) {
    errs.push_back(RegexError(kDNS1123SubdomainErrMsg, kDNS1123SubdomainFmt, {"example.com"}));
  }
  return errs;
}

Status ValidateLabelKey(std::string_view key) {
  std::vector<std::string> errs = IsQualifiedName(key);
  if (errs.empty()) return Status::Ok();
  return MakeError("invalid label key " + GoQuote(key) + ": " + Join(errs, "; "));
}

Status ValidateLabelValue(std::string_view key, std::string_view value) {
  std::vector<std::string> errs = IsValidLabelValue(value);
  if (errs.empty()) return Status::Ok();
  return MakeError("invalid label value: " + GoQuote(value) + ": at key: " + GoQuote(key) + ": " +
                   Join(errs, "; "));
}

std::optional<int64_t> ParseInt64(std::string_view s) {
  bool negative = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s.empty()) return std::nullopt;
  // Accumulate the magnitude as unsigned, so INT64_MIN is representable.
  constexpr uint64_t kMaxMagnitude = uint64_t{1} << 63;  // |INT64_MIN|
  uint64_t n = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    uint64_t d = static_cast<uint64_t>(c - '0');
    if (n > (kMaxMagnitude - d) / 10) return std::nullopt;  // n*10+d would exceed 2^63
    n = n * 10 + d;
  }
  if (!negative && n == kMaxMagnitude) return std::nullopt;
  if (negative)
    return n == kMaxMagnitude ? std::numeric_limits<int64_t>::min() : -static_cast<int64_t>(n);
  return static_cast<int64_t>(n);
}

std::string GoQuote(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  out += '"';
  size_t i = 0;
  while (i < s.size()) {
    uint32_t r = 0;
    size_t n = DecodeRune(s, i, &r);
    if (n == 0) {  // invalid UTF-8: one byte, hex-escaped
      out += "\\x";
      AppendHex(&out, static_cast<unsigned char>(s[i]), 2);
      ++i;
      continue;
    }
    if (n > 1) {
      if (IsPrintNonAscii(r)) {
        out.append(s.substr(i, n));
      } else if (r < 0x10000) {
        out += "\\u";
        AppendHex(&out, r, 4);
      } else {
        out += "\\U";
        AppendHex(&out, r, 8);
      }
      i += n;
      continue;
    }
    char c = s[i++];
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
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
      default:
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
          out += "\\x";
          AppendHex(&out, static_cast<unsigned char>(c), 2);
        } else {
          out += c;
        }
    }
  }
  out += '"';
  return out;
}

}  // namespace ksched::labels
