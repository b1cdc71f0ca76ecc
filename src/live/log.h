// One line per message on stderr in klog's format,
//   Lmmdd hh:mm:ss.uuuuuu PID file:line] message
// (L: I, W or E; the time in UTC), written with a single call so lines from
// different threads never mix. kube-scheduler's log tooling reads it as
// klog's.
#pragma once

#include <chrono>
#include <string>
#include <string_view>

namespace ksched::live {

// level: 'I' info, 'W' warning, 'E' error. file and line default to the
// caller's (std::source_location would say the same, but clang 14, the
// sanitizer build's compiler, cannot use libstdc++ 12's <source_location>).
void Log(char level, std::string_view message, const char* file = __builtin_FILE(),
         unsigned line = __builtin_LINE());

// The line Log writes (with its newline), for tests.
std::string FormatLogLine(char level, std::string_view message,
                          std::chrono::system_clock::time_point time, int pid,
                          std::string_view file, unsigned line);

}  // namespace ksched::live
