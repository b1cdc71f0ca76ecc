#include <gtest/gtest.h>

#include "priorities/factories.h"
#include "priorities/priority_test_util.h"
#include "tests/fixtures.h"

namespace ksched {
namespace equal_priority_test {

using testing::ListOf;
using testing::ScoreNodes;
using testing::TestCluster;
using testing::TestPod;

TEST(EqualPriority, EveryNodeScoresOne) {
  ClusterState c = TestCluster(ListOf({R"({"kind":"Node","metadata":{"name":"a"}})",
                                       R"({"kind":"Node","metadata":{"name":"b"}})"}));
  Pod pod = TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[]}})");
  auto s = ScoreNodes(*NewEqualPriority(), pod, c);
  EXPECT_EQ(s.at("a"), 1);
  EXPECT_EQ(s.at("b"), 1);
}

}  // namespace equal_priority_test
}  // namespace ksched
