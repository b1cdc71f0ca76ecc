// Small output helpers for the person-facing commands: aligned text tables,
// small JSON values as YAML, write errors, and a progress bar that only draws
// on a terminal.
#pragma once

#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "cli/output_buffer.h"

namespace ksched {

// A text table with left-aligned columns separated by two spaces.
class TextTable {
 public:
  explicit TextTable(std::vector<std::string> header) { rows_.push_back(std::move(header)); }
  void AddRow(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  std::string Render() const;
  // Lines of at most `max_width` columns: the last column is word-wrapped,
  // continuation lines keeping the cell's own indentation; 0 means no limit.
  // The other columns are never cut.
  std::string Render(size_t max_width) const;

 private:
  std::vector<std::vector<std::string>> rows_;
};

// `text` word-wrapped to `width` columns (0: no limit), continuation lines
// indented by `indent` spaces; a word longer than a line is cut. Newlines in
// `text` are kept. No trailing newline.
std::string WrapText(std::string_view text, size_t width, size_t indent);

// Columns for person-facing tables: the terminal's width when stdout is a
// terminal (TIOCGWINSZ), else $COLUMNS when set, else 100.
size_t TerminalWidth();

// Renders a small JSON value as block-style YAML (keys in their JSON order);
// large reports stream through MakeYamlWriter (document_writer.h) instead.
std::string JsonToYaml(const nlohmann::ordered_json& value);

// Prints why the output could not be written (a closed pipe, a full disk)
// and returns the exit status for it.
int ReportWriteError(const OutputBuffer& out);

// Draws "[#####     ] 120/1000 pods" on stderr, only when stderr is a terminal.
class ProgressBar {
 public:
  ProgressBar(size_t total, const char* what);
  ~ProgressBar();
  void Update(size_t done);

 private:
  size_t total_;
  const char* what_;
  bool enabled_;
  size_t last_drawn_ = static_cast<size_t>(-1);
};

}  // namespace ksched
