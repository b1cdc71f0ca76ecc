#include <gtest/gtest.h>

#include "framework/plugins/registry_factories.h"
#include "framework/plugins/testing/fake_handle.h"
#include "tests/fixtures.h"

namespace ksched::framework::plugins {
namespace node_name_test {

using framework::testing::As;
using framework::testing::FakeHandle;
using framework::testing::MustNew;
using framework::testing::NodeNamed;
using ksched::testing::TestCluster;
using ksched::testing::TestPod;

TEST(NodeName, OnlyTheNamedNodeFits) {
  ClusterState cluster = TestCluster(R"({"kind":"List","items":[
      {"kind":"Node","metadata":{"name":"a"}}, {"kind":"Node","metadata":{"name":"b"}}]})");
  FakeHandle handle(&cluster);
  auto plugin = MustNew(&NewNodeName, &handle);
  auto* filter = As<FilterPlugin>(plugin);
  CycleState state;

  Pod any =
      TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c"}]}})");
  EXPECT_TRUE(filter->Filter(state, any, NodeNamed(cluster, "a")).IsSuccess());

  Pod on_b = any;
  on_b.spec.node_name = "b";
  EXPECT_TRUE(filter->Filter(state, on_b, NodeNamed(cluster, "b")).IsSuccess());
  Status s = filter->Filter(state, on_b, NodeNamed(cluster, "a"));
  EXPECT_EQ(s.code(), Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(s.Message(), "node(s) didn't match the requested node name");
  // Kept verdicts leave it out only for a pod that names no node.
  EXPECT_TRUE(filter->PassesEveryNodeFor(any));
  EXPECT_FALSE(filter->PassesEveryNodeFor(on_b));

  auto events = As<EnqueueExtensions>(plugin)->EventsToRegister();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].action, kAdd | kUpdate);
}

}  // namespace node_name_test
}  // namespace ksched::framework::plugins
