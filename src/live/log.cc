#include "live/log.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <ctime>

namespace ksched::live {

std::string FormatLogLine(char level, std::string_view message,
                          std::chrono::system_clock::time_point time, int pid,
                          std::string_view file, unsigned line) {
  const std::time_t t = std::chrono::system_clock::to_time_t(time);
  const auto micros =
      std::chrono::duration_cast<std::chrono::microseconds>(time.time_since_epoch()).count() %
      1'000'000;
  std::tm tm{};
  gmtime_r(&t, &tm);
  // klog names the file without its directory.
  if (size_t slash = file.rfind('/'); slash != std::string_view::npos)
    file.remove_prefix(slash + 1);
  return fmt::format("{}{:02}{:02} {:02}:{:02}:{:02}.{:06} {:7} {}:{}] {}\n", level, tm.tm_mon + 1,
                     tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, micros, pid, file, line,
                     message);
}

void Log(char level, std::string_view message, const char* file, unsigned line) {
  static const int pid = static_cast<int>(getpid());
  const std::string text =
      FormatLogLine(level, message, std::chrono::system_clock::now(), pid, file, line);
  std::fwrite(text.data(), 1, text.size(), stderr);
}

}  // namespace ksched::live
