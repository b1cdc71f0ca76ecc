#include <gtest/gtest.h>

#include "framework/plugins/registry_factories.h"
#include "framework/plugins/testing/fake_handle.h"
#include "tests/fixtures.h"

namespace ksched::framework::plugins {
namespace default_binder_test {

using framework::testing::As;
using framework::testing::FakeHandle;
using framework::testing::MustNew;
using framework::testing::RecordingBinder;

TEST(DefaultBinder, BindsThroughTheHandlesBinder) {
  ClusterState cluster = ksched::testing::TestCluster(R"({"kind":"List","items":[
      {"kind":"Node","metadata":{"name":"n1"}},{"kind":"Node","metadata":{"name":"n2"}}]})");
  FakeHandle handle(&cluster);
  RecordingBinder binder;
  handle.set_binder(&binder);
  auto plugin = MustNew(&NewDefaultBinder, &handle);
  Pod pod = ksched::testing::TestPod(R"({"kind":"Pod","metadata":{"name":"p","namespace":"ns"},
      "spec":{"containers":[{"name":"c"}]}})");
  CycleState state;
  ASSERT_TRUE(As<BindPlugin>(plugin)->Bind(&state, pod, cluster.FindNode("n2")).IsSuccess());
  ASSERT_EQ(binder.bound.size(), 1u);
  EXPECT_EQ(binder.bound[0], (std::pair<std::string, std::string>{"ns/p", "n2"}));

  binder.result = Status::Error("pods \"p\" not found");
  Status s = As<BindPlugin>(plugin)->Bind(&state, pod, cluster.FindNode("n1"));
  EXPECT_TRUE(s.IsError());
  EXPECT_EQ(s.Message(), "pods \"p\" not found");
}

}  // namespace default_binder_test
}  // namespace ksched::framework::plugins
