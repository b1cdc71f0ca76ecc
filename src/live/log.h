// One line per message on stderr, klog-style ("I1124 08:45:01.123456] ..."),
// written with a single call so lines from different threads never mix.
#pragma once

#include <string_view>

namespace ksched::live {

// level: 'I' info, 'W' warning, 'E' error.
void Log(char level, std::string_view message);

}  // namespace ksched::live
