#include <gtest/gtest.h>

#include "framework/plugins/registry_factories.h"
#include "framework/plugins/testing/fake_handle.h"
#include "tests/fixtures.h"

namespace ksched::framework::plugins {
namespace {

using framework::testing::As;
using framework::testing::FakeHandle;
using framework::testing::MustNew;
using framework::testing::NodeNamed;
using ksched::testing::TestCluster;
using ksched::testing::TestPod;

// Node n runs a pod on 127.0.0.1:8080/TCP and 0.0.0.0:9090/UDP.
const char* kCluster = R"({"kind":"List","items":[
    {"kind":"Node","metadata":{"name":"n"}},
    {"kind":"Pod","metadata":{"name":"running"},"spec":{"nodeName":"n","containers":[{"name":"c",
        "ports":[{"containerPort":80,"hostPort":8080,"hostIP":"127.0.0.1"},
                 {"containerPort":90,"hostPort":9090,"protocol":"UDP"}]}]}}]})";

Status Check(const char* ports_json) {
  ClusterState cluster = TestCluster(kCluster);
  FakeHandle handle(&cluster);
  auto plugin = MustNew(&NewNodePorts, &handle);
  Pod pod = TestPod(std::string(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[
      {"name":"c","ports":)") +
                    ports_json + "}]}}");
  CycleState state;
  PreFilterResult result;
  EXPECT_TRUE(As<PreFilterPlugin>(plugin)->PreFilter(&state, pod, &result).IsSuccess());
  EXPECT_TRUE(result.AllNodes());
  return As<FilterPlugin>(plugin)->Filter(state, pod, NodeNamed(cluster, "n"));
}

TEST(NodePorts, Conflicts) {
  EXPECT_TRUE(Check(R"([{"containerPort":80}])").IsSuccess());  // no host port
  EXPECT_TRUE(Check(R"([{"containerPort":80,"hostPort":8080,"hostIP":"10.0.0.1"}])").IsSuccess());
  EXPECT_TRUE(Check(R"([{"containerPort":80,"hostPort":8080,"protocol":"UDP"}])").IsSuccess());
  EXPECT_TRUE(Check(R"([{"containerPort":80,"hostPort":9090}])").IsSuccess());  // TCP vs UDP

  Status s = Check(R"([{"containerPort":80,"hostPort":8080}])");  // 0.0.0.0 vs 127.0.0.1
  EXPECT_EQ(s.code(), Code::kUnschedulable);
  EXPECT_EQ(s.Message(), "node(s) didn't have free ports for the requested pod ports");
  EXPECT_FALSE(
      Check(R"([{"containerPort":1,"hostPort":9090,"hostIP":"10.1.1.1","protocol":"UDP"}])")
          .IsSuccess());
}

TEST(NodePorts, PassesEveryNodeOnlyWithoutHostPorts) {
  ClusterState cluster = TestCluster(kCluster);
  FakeHandle handle(&cluster);
  auto plugin = MustNew(&NewNodePorts, &handle);
  auto* filter = As<FilterPlugin>(plugin);
  auto pod = [](const char* ports) {
    return TestPod(std::string(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[
        {"name":"c","ports":)") +
                   ports + "}]}}");
  };
  EXPECT_TRUE(filter->PassesEveryNodeFor(pod(R"([{"containerPort":80}])")));
  EXPECT_FALSE(filter->PassesEveryNodeFor(pod(R"([{"containerPort":80,"hostPort":8080}])")));
}

TEST(NodePorts, FilterWithoutPreFilterIsAnError) {
  ClusterState cluster = TestCluster(kCluster);
  FakeHandle handle(&cluster);
  auto plugin = MustNew(&NewNodePorts, &handle);
  CycleState state;
  Pod pod =
      TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c"}]}})");
  EXPECT_TRUE(As<FilterPlugin>(plugin)->Filter(state, pod, NodeNamed(cluster, "n")).IsError());
  EXPECT_EQ(As<EnqueueExtensions>(plugin)->EventsToRegister().size(), 2u);
}

}  // namespace
}  // namespace ksched::framework::plugins
