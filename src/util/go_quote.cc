#include "util/go_quote.h"

#include <cstdint>

namespace ksched {
namespace {

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

}  // namespace ksched
