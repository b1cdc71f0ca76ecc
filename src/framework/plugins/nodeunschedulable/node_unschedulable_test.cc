#include <gtest/gtest.h>

#include "config/feature_gates.h"
#include "framework/plugins/registry_factories.h"
#include "framework/plugins/testing/fake_handle.h"
#include "tests/fixtures.h"

namespace ksched::framework::plugins {
namespace node_unschedulable_test {

using framework::testing::As;
using framework::testing::FakeHandle;
using framework::testing::MustNew;
using framework::testing::NodeNamed;
using ksched::testing::TestCluster;
using ksched::testing::TestPod;

class NodeUnschedulableTest : public ::testing::Test {
 protected:
  ClusterState cluster = TestCluster(R"({"kind":"List","items":[
      {"kind":"Node","metadata":{"name":"open"}},
      {"kind":"Node","metadata":{"name":"cordoned"},"spec":{"unschedulable":true}}]})");
  FakeHandle handle{&cluster};
  std::unique_ptr<Plugin> plugin = MustNew(&NewNodeUnschedulable, &handle);
  FilterPlugin* filter = As<FilterPlugin>(plugin);
  CycleState state;
};

TEST_F(NodeUnschedulableTest, RejectsCordonedNodes) {
  Pod pod =
      TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c"}]}})");
  EXPECT_TRUE(filter->Filter(state, pod, NodeNamed(cluster, "open")).IsSuccess());
  Status s = filter->Filter(state, pod, NodeNamed(cluster, "cordoned"));
  EXPECT_EQ(s.code(), Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(s.reasons(), std::vector<std::string>{"node(s) were unschedulable"});
}

TEST_F(NodeUnschedulableTest, ToleratingTheUnschedulableTaintPasses) {
  Pod pod = TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c"}],
      "tolerations":[{"key":"node.kubernetes.io/unschedulable","operator":"Exists",
                      "effect":"NoSchedule"}]}})");
  EXPECT_TRUE(filter->Filter(state, pod, NodeNamed(cluster, "cordoned")).IsSuccess());
  // A toleration for another effect does not count.
  Pod other = TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c"}],
      "tolerations":[{"key":"node.kubernetes.io/unschedulable","operator":"Exists",
                      "effect":"NoExecute"}]}})");
  EXPECT_FALSE(filter->Filter(state, other, NodeNamed(cluster, "cordoned")).IsSuccess());
}

TEST_F(NodeUnschedulableTest, Events) {
  auto events = As<EnqueueExtensions>(plugin)->EventsToRegister();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].resource, EventResource::kNode);
  EXPECT_EQ(events[0].action, kAdd | kUpdateNodeTaint);
}

// With TaintTolerationComparisonOperators on, Lt and Gt tolerations compare
// numbers; the unschedulable taint has no value, so none tolerates it.
TEST_F(NodeUnschedulableTest, ComparisonOperatorsNeverTolerateTheValuelessTaint) {
  config::FeatureGates gates = config::DefaultFeatureGates(config::SchedulerVersion::kV135);
  gates.taint_toleration_comparison_operators = true;
  FakeHandle h{&cluster, gates};
  auto p = MustNew(&NewNodeUnschedulable, &h);
  Pod pod = TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c"}],
      "tolerations":[{"key":"node.kubernetes.io/unschedulable","operator":"Gt","value":"0"}]}})");
  EXPECT_EQ(As<FilterPlugin>(p)->Filter(state, pod, NodeNamed(cluster, "cordoned")).code(),
            Code::kUnschedulableAndUnresolvable);
}

}  // namespace node_unschedulable_test
}  // namespace ksched::framework::plugins
