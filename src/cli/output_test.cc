#include "cli/output.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <sstream>
#include <string>

namespace ksched {
namespace output_test {

size_t WidestLine(const std::string& text) {
  std::istringstream in(text);
  size_t widest = 0;
  for (std::string line; std::getline(in, line);) widest = std::max(widest, line.size());
  return widest;
}

TEST(WrapText, BreaksBetweenWordsAndIndentsContinuations) {
  EXPECT_EQ(WrapText("one two three four five six", 12, 2), "one two\n  three four\n  five six");
  // An indent that would leave under ten columns is dropped.
  EXPECT_EQ(WrapText("one two three", 9, 2), "one two\nthree");
  EXPECT_EQ(WrapText("short", 80, 4), "short");
  EXPECT_EQ(WrapText("no limit at all", 0, 4), "no limit at all");
}

TEST(WrapText, CutsAWordLongerThanALineAndKeepsNewlines) {
  EXPECT_EQ(WrapText("abcdefghijklmnopqrstuvwxyz", 12, 0), "abcdefghijkl\nmnopqrstuvwx\nyz");
  EXPECT_EQ(WrapText("first line\nsecond", 80, 0), "first line\nsecond");
  EXPECT_EQ(WrapText("\nafter a blank", 80, 0), "\nafter a blank");
}

TEST(TextTable, RenderWrapsTheLastColumnUnderItself) {
  TextTable t({"NODE", "RESULT"});
  t.AddRow({"node-a1", "MatchInterPodAffinity: node(s) didn't match pod affinity/anti-affinity"});
  t.AddRow({"", "  a cause indented under the reason, long enough to wrap twice over here"});
  std::string out = t.Render(40);
  EXPECT_LE(WidestLine(out), 40u) << out;
  EXPECT_EQ(out,
            "NODE     RESULT\n"
            "node-a1  MatchInterPodAffinity: node(s)\n"
            "         didn't match pod\n"
            "         affinity/anti-affinity\n"
            "           a cause indented under the\n"
            "           reason, long enough to wrap\n"
            "           twice over here\n");
  // Without a limit, as before.
  EXPECT_EQ(t.Render(0), t.Render());
}

TEST(TerminalWidth, ColumnsWhenNotATerminalElseOneHundred) {
  // The test's stdout is a pipe or a file under ctest; skip on a terminal.
  if (isatty(STDOUT_FILENO)) GTEST_SKIP() << "stdout is a terminal";
  const char* saved = std::getenv("COLUMNS");
  std::string keep = saved ? saved : "";
  setenv("COLUMNS", "60", 1);
  EXPECT_EQ(TerminalWidth(), 60u);
  setenv("COLUMNS", "wide", 1);
  EXPECT_EQ(TerminalWidth(), 100u);
  unsetenv("COLUMNS");
  EXPECT_EQ(TerminalWidth(), 100u);
  if (saved) setenv("COLUMNS", keep.c_str(), 1);
}

}  // namespace output_test
}  // namespace ksched
