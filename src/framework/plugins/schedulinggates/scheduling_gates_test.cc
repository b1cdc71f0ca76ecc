#include <gtest/gtest.h>

#include "config/feature_gates.h"
#include "framework/plugins/registry_factories.h"
#include "framework/plugins/testing/fake_handle.h"
#include "tests/fixtures.h"

namespace ksched::framework::plugins {
namespace scheduling_gates_test {

using framework::testing::As;
using framework::testing::FakeHandle;
using framework::testing::MustNew;

const char* kUngated = R"({"kind":"Pod","metadata":{"name":"p"},"spec":{
    "containers":[{"name":"c"}]}})";

// spec.schedulingGates [foo, bar] (set directly: the decoder's v1.26 fields
// are tested with the decoder).
Pod Gated() {
  Pod p = ksched::testing::TestPod(kUngated);
  p.spec.scheduling_gates = {"foo", "bar"};
  return p;
}

TEST(SchedulingGates, WaitsForGatesWhenEnabled) {
  ClusterState cluster = ksched::testing::TestCluster(R"({"kind":"List","items":[]})");
  config::FeatureGates gates;
  gates.pod_scheduling_readiness = true;
  FakeHandle handle(&cluster, gates);
  auto plugin = MustNew(&NewSchedulingGates, &handle);
  auto* pre = As<PreEnqueuePlugin>(plugin);
  ASSERT_NE(pre, nullptr);

  Status s = pre->PreEnqueue(Gated());
  EXPECT_EQ(s.code(), Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(s.Message(), "waiting for scheduling gates: [foo bar]");
  EXPECT_TRUE(pre->PreEnqueue(ksched::testing::TestPod(kUngated)).IsSuccess());

  auto events = As<EnqueueExtensions>(plugin)->EventsToRegister();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].resource, EventResource::kPod);
  EXPECT_EQ(events[0].action, kUpdate);
}

TEST(SchedulingGates, IgnoresGatesWhenFeatureIsOff) {
  ClusterState cluster = ksched::testing::TestCluster(R"({"kind":"List","items":[]})");
  FakeHandle handle(&cluster);  // v1.26 default: PodSchedulingReadiness off
  auto plugin = MustNew(&NewSchedulingGates, &handle);
  EXPECT_TRUE(As<PreEnqueuePlugin>(plugin)->PreEnqueue(Gated()).IsSuccess());
}

// v1.35: the gate is GA and locked; the plugin holds gated pods whatever
// the struct's field says (v1.26 with the same field off lets them pass).
TEST(SchedulingGates, AlwaysWaitsInV135) {
  ClusterState cluster = ksched::testing::TestCluster(R"({"kind":"List","items":[]})");
  config::FeatureGates gates = config::DefaultFeatureGates(config::SchedulerVersion::kV135);
  EXPECT_TRUE(gates.pod_scheduling_readiness);
  gates.pod_scheduling_readiness = false;
  FakeHandle handle(&cluster, gates);
  auto plugin = MustNew(&NewSchedulingGates, &handle);
  Status s = As<PreEnqueuePlugin>(plugin)->PreEnqueue(Gated());
  EXPECT_EQ(s.code(), Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(s.Message(), "waiting for scheduling gates: [foo bar]");
  EXPECT_TRUE(
      As<PreEnqueuePlugin>(plugin)->PreEnqueue(ksched::testing::TestPod(kUngated)).IsSuccess());
}

}  // namespace scheduling_gates_test
}  // namespace ksched::framework::plugins
