#include "util/base64.h"

#include <cstdint>

namespace ksched {

Result<std::string> DecodeBase64Std(std::string_view raw, std::string_view what) {
  auto value = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
  };
  std::string in;
  in.reserve(raw.size());
  for (char c : raw) {
    if (c != '\r' && c != '\n') in.push_back(c);
  }
  if (in.size() % 4 != 0) {
    return MakeError(std::string(what) + ": illegal base64 data (length " +
                     std::to_string(in.size()) + " is not a multiple of 4)");
  }
  std::string out;
  out.reserve(in.size() / 4 * 3);
  for (size_t i = 0; i < in.size(); i += 4) {
    int v[4];
    int pad = 0;
    for (int k = 0; k < 4; ++k) {
      char c = in[i + k];
      if (c == '=' && i + 4 == in.size() && k >= 2) {
        v[k] = 0;
        ++pad;
        continue;
      }
      if (pad > 0 || (v[k] = value(c)) < 0) {
        return MakeError(std::string(what) + ": illegal base64 data at input byte " +
                         std::to_string(i + k));
      }
    }
    uint32_t n = (static_cast<uint32_t>(v[0]) << 18) | (static_cast<uint32_t>(v[1]) << 12) |
                 (static_cast<uint32_t>(v[2]) << 6) | static_cast<uint32_t>(v[3]);
    out.push_back(static_cast<char>(n >> 16));
    if (pad < 2) out.push_back(static_cast<char>((n >> 8) & 0xff));
    if (pad < 1) out.push_back(static_cast<char>(n & 0xff));
  }
  return out;
}

}  // namespace ksched
