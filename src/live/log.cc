#include "live/log.h"

#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <string>

namespace ksched::live {

void Log(char level, std::string_view message) {
  const auto now = std::chrono::system_clock::now();
  const std::time_t t = std::chrono::system_clock::to_time_t(now);
  const auto micros =
      std::chrono::duration_cast<std::chrono::microseconds>(now.time_since_epoch()).count() %
      1'000'000;
  std::tm tm{};
  gmtime_r(&t, &tm);
  std::string line = fmt::format("{}{:02}{:02} {:02}:{:02}:{:02}.{:06}] {}\n", level, tm.tm_mon + 1,
                                 tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, micros, message);
  std::fwrite(line.data(), 1, line.size(), stderr);
}

}  // namespace ksched::live
