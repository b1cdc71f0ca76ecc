#include "live/log.h"

#include <gtest/gtest.h>

namespace ksched::live {
namespace log_test {

TEST(Log, KlogHeader) {
  // 2026-12-02T07:45:07.000123Z
  const auto t = std::chrono::system_clock::time_point(std::chrono::seconds(1796197507)) +
                 std::chrono::microseconds(123);
  EXPECT_EQ(FormatLogLine('W', "lease held", t, 4242, "/src/ksched/src/cli/run.cc", 87),
            "W1202 07:45:07.000123    4242 run.cc:87] lease held\n");
  EXPECT_EQ(FormatLogLine('I', "x", t, 1, "log.cc", 1),
            "I1202 07:45:07.000123       1 log.cc:1] x\n");
}

}  // namespace log_test
}  // namespace ksched::live
