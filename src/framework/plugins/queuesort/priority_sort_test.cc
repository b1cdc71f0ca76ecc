#include <gtest/gtest.h>

#include "framework/plugins/registry_factories.h"
#include "framework/plugins/testing/fake_handle.h"
#include "tests/fixtures.h"

namespace ksched::framework::plugins {
namespace priority_sort_test {

using framework::testing::As;
using framework::testing::FakeHandle;
using framework::testing::MustNew;

Pod WithPriority(const char* name, int priority) {
  Pod p = ksched::testing::TestPod(R"({"kind":"Pod","metadata":{"name":"p"},
      "spec":{"containers":[{"name":"c"}]}})");
  p.meta.name = name;
  if (priority != 0) p.spec.priority = priority;
  return p;
}

TEST(PrioritySort, HigherPriorityFirstThenEarlierTimestamp) {
  ClusterState cluster = ksched::testing::TestCluster(R"({"kind":"List","items":[]})");
  FakeHandle handle(&cluster);
  auto plugin = MustNew(&NewPrioritySort, &handle);
  auto* sort = As<QueueSortPlugin>(plugin);
  ASSERT_NE(sort, nullptr);
  EXPECT_EQ(plugin->Name(), "PrioritySort");

  Pod low = WithPriority("low", 0), high = WithPriority("high", 100);
  Pod neg = WithPriority("neg", -5);
  EXPECT_TRUE(sort->Less({&high, 2}, {&low, 1}));
  EXPECT_FALSE(sort->Less({&low, 1}, {&high, 2}));
  EXPECT_TRUE(sort->Less({&low, 1}, {&neg, 0}));  // unset priority is 0
  EXPECT_TRUE(sort->Less({&low, 1}, {&low, 2}));
  EXPECT_FALSE(sort->Less({&low, 2}, {&low, 1}));
  EXPECT_FALSE(sort->Less({&low, 1}, {&low, 1}));
}

}  // namespace priority_sort_test
}  // namespace ksched::framework::plugins
