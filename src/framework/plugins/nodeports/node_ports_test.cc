#include <gtest/gtest.h>

#include "config/feature_gates.h"
#include "framework/cache_options.h"
#include "framework/plugins/registry_factories.h"
#include "framework/plugins/testing/fake_handle.h"
#include "tests/fixtures.h"

namespace ksched::framework::plugins {
namespace node_ports_test {

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

// ------------------------------------------------- decisions keyed by release

// Node n runs a pod whose native sidecar holds 0.0.0.0:15000/TCP.
const char* kSidecarCluster = R"({"kind":"List","items":[
    {"kind":"Node","metadata":{"name":"n"}},
    {"kind":"Pod","metadata":{"name":"running"},"spec":{"nodeName":"n",
        "initContainers":[{"name":"proxy","restartPolicy":"Always",
                           "ports":[{"containerPort":15000,"hostPort":15000}]}],
        "containers":[{"name":"c"}]}}]})";

struct Versioned {
  config::FeatureGates gates;
  ClusterState cluster;
  FakeHandle handle;
  std::unique_ptr<Plugin> plugin;
  explicit Versioned(config::SchedulerVersion v, const char* json = kSidecarCluster)
      : gates(config::DefaultFeatureGates(v)),
        cluster(TestCluster(json, FrameworkCacheOptions(gates))),
        handle(&cluster, gates),
        plugin(MustNew(&NewNodePorts, &handle)) {}

  // PreFilter's code, then Filter's on n when PreFilter succeeded.
  std::pair<Code, Code> Run(const Pod& pod) {
    CycleState state;
    PreFilterResult result;
    const Code pre = As<PreFilterPlugin>(plugin)->PreFilter(&state, pod, &result).code();
    if (pre != Code::kSuccess) return {pre, Code::kSuccess};
    return {pre, As<FilterPlugin>(plugin)->Filter(state, pod, NodeNamed(cluster, "n")).code()};
  }
};

TEST(NodePortsVersions, PodWithoutHostPortsSkipsInV135) {
  Pod pod = TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[
      {"name":"c","ports":[{"containerPort":80}]}]}})");
  Versioned v126(config::SchedulerVersion::kV126), v135(config::SchedulerVersion::kV135);
  EXPECT_EQ(v126.Run(pod), std::make_pair(Code::kSuccess, Code::kSuccess));
  EXPECT_EQ(v135.Run(pod), std::make_pair(Code::kSkip, Code::kSuccess));
  EXPECT_TRUE(As<FilterPlugin>(v135.plugin)->PassesEveryNodeFor(pod));
}

TEST(NodePortsVersions, NativeSidecarsHostPortsCountInV135) {
  Versioned v126(config::SchedulerVersion::kV126), v135(config::SchedulerVersion::kV135);
  // The running pod's sidecar holds 15000 on a v1.35 node only.
  Pod wants_15000 = TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[
      {"name":"c","ports":[{"containerPort":1,"hostPort":15000}]}]}})");
  EXPECT_EQ(v126.Run(wants_15000), std::make_pair(Code::kSuccess, Code::kSuccess));
  EXPECT_EQ(v135.Run(wants_15000), std::make_pair(Code::kSuccess, Code::kUnschedulable));
  // The incoming pod's own sidecar port: checked in v1.35 only (v1.26 has
  // no host ports to check and passes).
  Pod sidecar_15000 = TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{
      "initContainers":[{"name":"proxy","restartPolicy":"Always",
                         "ports":[{"containerPort":1,"hostPort":15000}]}],
      "containers":[{"name":"c"}]}})");
  EXPECT_TRUE(As<FilterPlugin>(v126.plugin)->PassesEveryNodeFor(sidecar_15000));
  EXPECT_FALSE(As<FilterPlugin>(v135.plugin)->PassesEveryNodeFor(sidecar_15000));
  EXPECT_EQ(v135.Run(sidecar_15000), std::make_pair(Code::kSuccess, Code::kUnschedulable));
  // An ordinary init container's port counts in neither.
  Pod init_15000 = TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{
      "initContainers":[{"name":"setup","ports":[{"containerPort":1,"hostPort":15000}]}],
      "containers":[{"name":"c"}]}})");
  EXPECT_EQ(v135.Run(init_15000), std::make_pair(Code::kSkip, Code::kSuccess));
}

}  // namespace node_ports_test
}  // namespace ksched::framework::plugins
