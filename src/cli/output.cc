#include "cli/output.h"

#include <unistd.h>

#include <algorithm>
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
