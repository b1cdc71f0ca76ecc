#include "cel/source.h"

#include <fmt/format.h>

#include <algorithm>

namespace ksched::cel {
namespace {

// Length of the UTF-8 sequence starting with byte c (1 for invalid bytes, as
// Go's decoder consumes one byte of an invalid sequence).
size_t SeqLen(std::string_view s, size_t i) {
  unsigned char c = static_cast<unsigned char>(s[i]);
  size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 1;
  if (i + n > s.size()) return 1;
  for (size_t k = 1; k < n; ++k) {
    if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return 1;
  }
  return n;
}

constexpr size_t kMaxErrorsToReport = 100;
constexpr size_t kMaxSnippetLength = 16384;

}  // namespace

std::string FormatIssues(std::string_view source, std::vector<Issue> issues) {
  // Line starts in code points, and each line's text.
  struct Line {
    int32_t start_cp;
    std::string_view text;
  };
  std::vector<Line> lines;
  {
    int32_t cp = 0;
    size_t line_start = 0;
    int32_t line_start_cp = 0;
    for (size_t i = 0; i < source.size();) {
      if (source[i] == '\n') {
        lines.push_back({line_start_cp, source.substr(line_start, i - line_start)});
        ++i;
        ++cp;
        line_start = i;
        line_start_cp = cp;
        continue;
      }
      i += SeqLen(source, i);
      ++cp;
    }
    lines.push_back({line_start_cp, source.substr(line_start)});
  }
  auto locate = [&](int32_t offset, int32_t& line, int32_t& col) {
    if (offset < 0) {
      line = -1;
      col = -1;
      return;
    }
    size_t l = 0;
    while (l + 1 < lines.size() && lines[l + 1].start_cp <= offset) ++l;
    line = static_cast<int32_t>(l) + 1;
    col = offset - lines[l].start_cp;
  };
  std::stable_sort(issues.begin(), issues.end(), [&](const Issue& a, const Issue& b) {
    int32_t la, ca, lb, cb;
    locate(a.offset, la, ca);
    locate(b.offset, lb, cb);
    return la < lb || (la == lb && ca < cb);
  });
  std::string out;
  size_t n = std::min(issues.size(), kMaxErrorsToReport);
  for (size_t k = 0; k < n; ++k) {
    const Issue& is = issues[k];
    int32_t line, col;
    locate(is.offset, line, col);
    if (k > 0) out += '\n';
    out += fmt::format("ERROR: <input>:{}:{}: {}", line, col + 1, is.message);
    if (line >= 1 && lines[line - 1].text.size() <= kMaxSnippetLength) {
      std::string snippet(lines[line - 1].text);
      std::replace(snippet.begin(), snippet.end(), '\t', ' ');
      out += "\n | " + snippet + "\n | ";
      size_t i = 0;
      for (int32_t c = 0; c < col && i < snippet.size(); ++c) {
        size_t len = SeqLen(snippet, i);
        out += len > 1 ? "\uff0e" : ".";
        i += len;
      }
      out += (i < snippet.size() && SeqLen(snippet, i) > 1) ? "\uff3e" : "^";
    }
  }
  if (issues.size() > kMaxErrorsToReport) {
    out += fmt::format("\n{} more errors were truncated", issues.size() - kMaxErrorsToReport);
  }
  return out;
}

}  // namespace ksched::cel
