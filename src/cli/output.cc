#include "cli/output.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "cli/commands.h"
#include "cli/document_writer.h"

namespace ksched {

std::string TextTable::Render() const {
  std::vector<size_t> widths;
  for (const auto& row : rows_) {
    if (widths.size() < row.size()) widths.resize(row.size(), 0);
    for (size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], row[i].size());
  }
  std::string out;
  for (const auto& row : rows_) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size()) line.append(widths[i] - row[i].size() + 2, ' ');
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line;
    out += '\n';
  }
  return out;
}

std::string TextTable::Render(size_t max_width) const {
  if (max_width == 0) return Render();
  std::vector<size_t> widths;
  for (const auto& row : rows_) {
    if (widths.size() < row.size()) widths.resize(row.size(), 0);
    // The last cell of a row is wrapped: it does not widen its column.
    for (size_t i = 0; i + 1 < row.size(); ++i) widths[i] = std::max(widths[i], row[i].size());
  }
  std::string out;
  for (const auto& row : rows_) {
    std::string line;
    for (size_t i = 0; i + 1 < row.size(); ++i) {
      line += row[i];
      line.append(widths[i] - row[i].size() + 2, ' ');
    }
    const size_t start = line.size();
    std::string last = row.empty() ? "" : row.back();
    size_t indent = 0;
    while (indent < last.size() && last[indent] == ' ') ++indent;
    const size_t room = max_width > start + indent + 10 ? max_width - start : indent + 10;
    std::string wrapped = WrapText(std::string_view(last).substr(indent), room - indent, 0);
    // Every line of the wrapped cell starts at the column, after the cell's
    // own indentation.
    std::string pad(start + indent, ' ');
    line += std::string(indent, ' ');
    for (char ch : wrapped) {
      line += ch;
      if (ch == '\n') line += pad;
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line;
    out += '\n';
  }
  return out;
}

std::string WrapText(std::string_view text, size_t width, size_t indent) {
  if (width == 0) return std::string(text);
  if (indent + 10 > width) indent = 0;
  std::string out;
  size_t start = 0;
  while (true) {
    const size_t nl = text.find('\n', start);
    std::string_view para = text.substr(start, nl == std::string_view::npos ? nl : nl - start);
    size_t col = 0, i = 0;
    bool line_has_word = false;
    auto new_line = [&] {
      out += '\n';
      out.append(indent, ' ');
      col = indent;
      line_has_word = false;
    };
    for (; i < para.size() && para[i] == ' '; ++i, ++col) out += ' ';  // keep the indent
    while (i < para.size()) {
      const size_t end = para.find(' ', i);
      std::string_view word = para.substr(i, end == std::string_view::npos ? end : end - i);
      i = end == std::string_view::npos ? para.size() : end + 1;
      if (word.empty()) continue;
      if (line_has_word) {
        if (col + 1 + word.size() <= width) {
          out += ' ';
          ++col;
        } else {
          new_line();
        }
      }
      while (col + word.size() > width) {  // longer than a line: cut
        const size_t fits = width > col ? width - col : 0;
        out += word.substr(0, fits);
        word.remove_prefix(fits);
        new_line();
      }
      out += word;
      col += word.size();
      line_has_word = true;
    }
    if (nl == std::string_view::npos) break;
    out += '\n';
    start = nl + 1;
  }
  return out;
}

size_t TerminalWidth() {
  if (isatty(STDOUT_FILENO)) {
    struct winsize ws {};
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
  }
  if (const char* columns = std::getenv("COLUMNS")) {
    char* end = nullptr;
    long v = std::strtol(columns, &end, 10);
    if (end != columns && *end == '\0' && v >= 20 && v <= 10000) return static_cast<size_t>(v);
  }
  return 100;
}

std::string JsonToYaml(const nlohmann::ordered_json& value) {
  std::string out;
  {
    OutputBuffer buffer(&out);
    auto w = MakeYamlWriter(&buffer);
    WriteJsonValue(w.get(), value);
    w->EndDocument();
  }
  return out;
}

int ReportWriteError(const OutputBuffer& out) {
  std::fprintf(stderr, "ksched: cannot write the output: %s\n", std::strerror(out.error()));
  return kExitBadInput;
}

ProgressBar::ProgressBar(size_t total, const char* what)
    : total_(total), what_(what), enabled_(total >= 200 && isatty(STDERR_FILENO)) {}

ProgressBar::~ProgressBar() {
  if (enabled_) std::fprintf(stderr, "\r\033[K");
}

void ProgressBar::Update(size_t done) {
  if (!enabled_ || total_ == 0) return;
  size_t permille = done * 1000 / total_;
  if (permille == last_drawn_) return;
  last_drawn_ = permille;
  constexpr int kWidth = 30;
  int filled = static_cast<int>(done * kWidth / total_);
  std::string bar(filled, '#');
  bar.append(kWidth - filled, ' ');
  std::fprintf(stderr, "\r[%s] %zu/%zu %s", bar.c_str(), done, total_, what_);
  std::fflush(stderr);
}

}  // namespace ksched
