// CEL compile issues and how cel-go prints them: "ERROR: <input>:line:col:
// message" followed by the source line and a caret under the column
// (common.Error.ToDisplayString), issues sorted by position and joined by
// newlines.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ksched::cel {

// An offset of -1 is cel-go's NoLocation (printed as line -1, column 0).
struct Issue {
  int32_t offset = -1;  // code point offset into the source
  std::string message;
};

// The issues as cel-go's Issues.String() prints them.
std::string FormatIssues(std::string_view source, std::vector<Issue> issues);

}  // namespace ksched::cel
