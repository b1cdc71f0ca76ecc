#include "cli/output.h"

#include <unistd.h>

#include <algorithm>

#include <yaml-cpp/yaml.h>

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

namespace {

void Emit(YAML::Emitter& e, const nlohmann::ordered_json& v) {
  switch (v.type()) {
    case nlohmann::ordered_json::value_t::object:
      e << YAML::BeginMap;
      for (auto it = v.begin(); it != v.end(); ++it) {
        e << YAML::Key << it.key() << YAML::Value;
        Emit(e, it.value());
      }
      e << YAML::EndMap;
      break;
    case nlohmann::ordered_json::value_t::array:
      e << YAML::BeginSeq;
      for (const auto& x : v) Emit(e, x);
      e << YAML::EndSeq;
      break;
    case nlohmann::ordered_json::value_t::string:
      // Quote strings so values such as "true" or "10" stay strings.
      e << YAML::DoubleQuoted << v.get<std::string>();
      break;
    case nlohmann::ordered_json::value_t::null:
      e << YAML::Null;
      break;
    default:
      e << v.dump();
  }
}

}  // namespace

std::string JsonToYaml(const nlohmann::ordered_json& value) {
  YAML::Emitter e;
  Emit(e, value);
  std::string out = e.c_str();
  out += '\n';
  return out;
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
