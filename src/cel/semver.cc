#include "cel/semver.h"

#include <fmt/format.h>

#include <vector>

namespace ksched::cel {
namespace {

bool OnlyDigits(std::string_view s) {
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}
bool OnlyAlnum(std::string_view s) {
  for (char c : s)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-'))
      return false;
  return true;
}
bool LeadingZero(std::string_view s) { return s.size() > 1 && s[0] == '0'; }

// Go's %q for the ASCII texts these errors quote (others escaped as \x..).
std::string Quote(std::string_view s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      out += fmt::format("\\x{:02x}", c);
    }
  }
  return out + "\"";
}

// strconv.ParseUint(s, 10, 64) with its error text.
bool ParseUint(std::string_view s, uint64_t& v, std::string* error) {
  v = 0;
  if (s.empty()) {
    if (error) *error = fmt::format("strconv.ParseUint: parsing {}: invalid syntax", Quote(s));
    return false;
  }
  for (char c : s) {
    uint64_t d = static_cast<uint64_t>(c - '0');
    if (v > (UINT64_MAX - d) / 10) {
      if (error)
        *error = fmt::format("strconv.ParseUint: parsing {}: value out of range", Quote(s));
      return false;
    }
    v = v * 10 + d;
  }
  return true;
}

bool Fail(std::string* error, std::string msg) {
  if (error) *error = std::move(msg);
  return false;
}

}  // namespace

bool ParseSemver(std::string_view s, SemverParts& out, std::string* error) {
  if (s.empty()) return Fail(error, "Version string empty");
  size_t d1 = s.find('.');
  size_t d2 = d1 == std::string_view::npos ? d1 : s.find('.', d1 + 1);
  if (d2 == std::string_view::npos) return Fail(error, "No Major.Minor.Patch elements found");
  std::string_view major = s.substr(0, d1), minor = s.substr(d1 + 1, d2 - d1 - 1),
                   rest = s.substr(d2 + 1);
  if (!OnlyDigits(major))
    return Fail(error, fmt::format("Invalid character(s) found in major number {}", Quote(major)));
  if (LeadingZero(major))
    return Fail(error,
                fmt::format("Major number must not contain leading zeroes {}", Quote(major)));
  if (!ParseUint(major, out.major, error)) return false;
  if (!OnlyDigits(minor))
    return Fail(error, fmt::format("Invalid character(s) found in minor number {}", Quote(minor)));
  if (LeadingZero(minor))
    return Fail(error,
                fmt::format("Minor number must not contain leading zeroes {}", Quote(minor)));
  if (!ParseUint(minor, out.minor, error)) return false;
  std::string_view patch = rest, build, pre;
  bool has_build = false, has_pre = false;
  if (size_t b = patch.find('+'); b != std::string_view::npos) {
    build = patch.substr(b + 1);
    patch = patch.substr(0, b);
    has_build = true;
  }
  if (size_t p = patch.find('-'); p != std::string_view::npos) {
    pre = patch.substr(p + 1);
    patch = patch.substr(0, p);
    has_pre = true;
  }
  if (!OnlyDigits(patch))
    return Fail(error, fmt::format("Invalid character(s) found in patch number {}", Quote(patch)));
  if (LeadingZero(patch))
    return Fail(error,
                fmt::format("Patch number must not contain leading zeroes {}", Quote(patch)));
  if (!ParseUint(patch, out.patch, error)) return false;
  out.pre = pre;
  if (has_pre) {
    size_t start = 0;
    for (;;) {
      size_t dot = pre.find('.', start);
      std::string_view id =
          pre.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
      if (id.empty()) return Fail(error, "Prerelease is empty");
      if (OnlyDigits(id)) {
        if (LeadingZero(id))
          return Fail(error,
                      fmt::format("Numeric PreRelease version must not contain leading zeroes {}",
                                  Quote(id)));
        uint64_t n;
        if (!ParseUint(id, n, error)) return false;
      } else if (!OnlyAlnum(id)) {
        return Fail(error, fmt::format("Invalid character(s) found in prerelease {}", Quote(id)));
      }
      if (dot == std::string_view::npos) break;
      start = dot + 1;
    }
  }
  if (has_build) {
    size_t start = 0;
    for (;;) {
      size_t dot = build.find('.', start);
      std::string_view id =
          build.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
      if (id.empty()) return Fail(error, "Build meta data is empty");
      if (!OnlyAlnum(id))
        return Fail(error,
                    fmt::format("Invalid character(s) found in build meta data {}", Quote(id)));
      if (dot == std::string_view::npos) break;
      start = dot + 1;
    }
  }
  return true;
}

int CompareSemver(const SemverParts& a, const SemverParts& b) {
  auto cmp = [](uint64_t x, uint64_t y) { return x == y ? 0 : x > y ? 1 : -1; };
  if (int c = cmp(a.major, b.major)) return c;
  if (int c = cmp(a.minor, b.minor)) return c;
  if (int c = cmp(a.patch, b.patch)) return c;
  if (a.pre.empty() && b.pre.empty()) return 0;
  if (a.pre.empty()) return 1;
  if (b.pre.empty()) return -1;
  size_t ia = 0, ib = 0;
  for (;;) {
    bool ea = ia > a.pre.size(), eb = ib > b.pre.size();
    if (ea && eb) return 0;
    if (ea) return -1;
    if (eb) return 1;
    size_t da = a.pre.find('.', ia), db = b.pre.find('.', ib);
    std::string_view x =
        a.pre.substr(ia, da == std::string_view::npos ? std::string_view::npos : da - ia);
    std::string_view y =
        b.pre.substr(ib, db == std::string_view::npos ? std::string_view::npos : db - ib);
    ia = da == std::string_view::npos ? a.pre.size() + 1 : da + 1;
    ib = db == std::string_view::npos ? b.pre.size() + 1 : db + 1;
    bool nx = OnlyDigits(x), ny = OnlyDigits(y);
    int c = 0;
    if (nx && !ny) {
      c = -1;
    } else if (!nx && ny) {
      c = 1;
    } else if (nx && ny) {
      uint64_t vx = 0, vy = 0;
      ParseUint(x, vx, nullptr);
      ParseUint(y, vy, nullptr);
      c = cmp(vx, vy);
    } else {
      c = x == y ? 0 : x > y ? 1 : -1;
    }
    if (c != 0) return c;
  }
}

bool NormalizeSemver(std::string_view s, std::string* normalized, std::string* error) {
  if (s.starts_with("v")) s.remove_prefix(1);
  std::vector<std::string> parts;
  size_t start = 0;
  for (int k = 0; k < 2; ++k) {
    size_t dot = s.find('.', start);
    if (dot == std::string_view::npos) break;
    parts.emplace_back(s.substr(start, dot - start));
    start = dot + 1;
  }
  parts.emplace_back(s.substr(start));
  for (std::string& p : parts) {
    if (p.size() > 1) {
      size_t z = p.find_first_not_of('0');
      std::string t = z == std::string::npos ? "" : p.substr(z);
      if (t.empty() || !(t[0] >= '0' && t[0] <= '9')) t = "0" + t;
      p = t;
    }
  }
  if (parts.size() < 3) {
    if (parts.back().find_first_of("+-") != std::string::npos) {
      if (error) *error = "short version cannot contain PreRelease/Build meta data";
      return false;
    }
    while (parts.size() < 3) parts.push_back("0");
  }
  std::string joined = parts[0] + "." + parts[1] + "." + parts[2];
  SemverParts v;
  if (!ParseSemver(joined, v, error)) return false;
  *normalized = std::move(joined);
  return true;
}

}  // namespace ksched::cel
