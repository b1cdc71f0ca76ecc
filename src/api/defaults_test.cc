#include "api/defaults.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "algorithm/generic_scheduler.h"
#include "algorithm/provider.h"
#include "api/decode.h"
#include "cache/node_tree.h"
#include "tests/fixtures.h"

namespace ksched {
namespace api_defaults_test {

using ::ksched::testing::TestNode;
using ::ksched::testing::TestPod;

const ResourceQuantity* Find(const ResourceList& l, std::string_view name) {
  for (const ResourceQuantity& r : l)
    if (Str(r.name) == name) return &r;
  return nullptr;
}

TEST(SetPodDefaults, RequestsDefaultToLimitsResourceByResource) {
  Pod p = TestPod(R"({"kind":"Pod","metadata":{"name":"gpu"},"spec":{"containers":[
      {"name":"a","resources":{"limits":{"nvidia.com/gpu":1,"cpu":"2"},"requests":{"cpu":"1"}}},
      {"name":"b","resources":{"limits":{"memory":"1Gi"}}}]}})");
  SetPodDefaults(&p);
  const Container& a = p.spec.containers[0];
  ASSERT_NE(Find(a.requests, "nvidia.com/gpu"), nullptr) << "the usual way to ask for a GPU";
  EXPECT_EQ(Find(a.requests, "nvidia.com/gpu")->value, 1);
  EXPECT_EQ(Find(a.requests, "cpu")->milli, 1000) << "a request that is set stays";
  EXPECT_EQ(Find(p.spec.containers[1].requests, "memory")->value, int64_t{1} << 30);
}

TEST(SetPodDefaults, InitContainersToo) {
  Pod p = TestPod(R"({"kind":"Pod","metadata":{"name":"i"},"spec":{"containers":[{"name":"c"}],
      "initContainers":[{"name":"init","resources":{"limits":{"cpu":"3"}}}]}})");
  SetPodDefaults(&p);
  ASSERT_NE(Find(p.spec.init_containers[0].requests, "cpu"), nullptr);
  EXPECT_EQ(Find(p.spec.init_containers[0].requests, "cpu")->milli, 3000);
  EXPECT_TRUE(p.spec.containers[0].requests.empty());
}

TEST(SetPodDefaults, SchedulerName) {
  Pod p = TestPod(R"({"kind":"Pod","metadata":{"name":"a"},"spec":{"containers":[{"name":"c"}]}})");
  SetPodDefaults(&p);
  EXPECT_EQ(p.spec.scheduler_name, "default-scheduler");
  Pod q = TestPod(
      R"({"kind":"Pod","metadata":{"name":"a"},"spec":{"schedulerName":"mine","containers":[{"name":"c"}]}})");
  SetPodDefaults(&q);
  EXPECT_EQ(q.spec.scheduler_name, "mine");
}

TEST(SetPodDefaults, HostNetworkPortsTakeTheContainerPort) {
  Pod p = TestPod(R"({"kind":"Pod","metadata":{"name":"a"},"spec":{"hostNetwork":true,"containers":[
      {"name":"c","ports":[{"containerPort":8080},{"containerPort":9090,"hostPort":9091}]}]}})");
  SetPodDefaults(&p);
  EXPECT_EQ(p.spec.containers[0].ports[0].host_port, 8080);
  EXPECT_EQ(p.spec.containers[0].ports[1].host_port, 9091) << "a hostPort that is set stays";
  Pod q = TestPod(R"({"kind":"Pod","metadata":{"name":"b"},"spec":{"containers":[
      {"name":"c","ports":[{"containerPort":8080}]}]}})");
  SetPodDefaults(&q);
  EXPECT_EQ(q.spec.containers[0].ports[0].host_port, 0) << "without hostNetwork: no host port";
}

TEST(SetPodDefaults, PortProtocolTcpAndHostIpLeftEmpty) {
  Pod p = TestPod(R"({"kind":"Pod","metadata":{"name":"a"},"spec":{"containers":[
      {"name":"c","ports":[{"containerPort":80,"hostPort":80},
                           {"containerPort":53,"hostPort":53,"protocol":"UDP"}]}]}})");
  SetPodDefaults(&p);
  EXPECT_EQ(p.spec.containers[0].ports[0].protocol, "TCP");
  EXPECT_EQ(p.spec.containers[0].ports[1].protocol, "UDP");
  EXPECT_EQ(p.spec.containers[0].ports[0].host_ip, "") << "v1.15 has no hostIP default";
}

TEST(SetPodDefaults, TolerationOperatorIsNotDefaulted) {
  Pod p = TestPod(R"({"kind":"Pod","metadata":{"name":"a"},"spec":{"containers":[{"name":"c"}],
      "tolerations":[{"key":"k","value":"v","effect":"NoSchedule"}]}})");
  SetPodDefaults(&p);
  EXPECT_EQ(p.spec.tolerations[0].op, "") << "v1.15 leaves it empty; empty means Equal";
}

std::vector<std::string> TolerationKeys(const Pod& p) {
  std::vector<std::string> keys;
  for (const Toleration& t : p.spec.tolerations) {
    keys.push_back(std::string(Str(t.key)) + "/" + t.op + "/" +
                   std::to_string(t.toleration_seconds.value_or(-1)));
  }
  return keys;
}

TEST(AdmitDefaultTolerationSeconds, AddsNotReadyAndUnreachable) {
  Pod p = TestPod(R"({"kind":"Pod","metadata":{"name":"a"},"spec":{"containers":[{"name":"c"}]}})");
  AdmitDefaultTolerationSeconds(&p);
  EXPECT_THAT(TolerationKeys(p),
              ::testing::ElementsAre("node.kubernetes.io/not-ready/Exists/300",
                                     "node.kubernetes.io/unreachable/Exists/300"));
  EXPECT_EQ(p.spec.tolerations[0].effect, TaintEffect::kNoExecute);
}

TEST(AdmitDefaultTolerationSeconds, KeepsWhatThePodAlreadyTolerates) {
  Pod own = TestPod(R"({"kind":"Pod","metadata":{"name":"a"},"spec":{"containers":[{"name":"c"}],
      "tolerations":[{"key":"node.kubernetes.io/not-ready","operator":"Exists",
                      "effect":"NoExecute","tolerationSeconds":10}]}})");
  AdmitDefaultTolerationSeconds(&own);
  EXPECT_THAT(TolerationKeys(own),
              ::testing::ElementsAre("node.kubernetes.io/not-ready/Exists/10",
                                     "node.kubernetes.io/unreachable/Exists/300"));
  // An empty key and an empty effect cover both, whatever the operator.
  Pod all = TestPod(R"({"kind":"Pod","metadata":{"name":"b"},"spec":{"containers":[{"name":"c"}],
      "tolerations":[{"operator":"Exists"}]}})");
  AdmitDefaultTolerationSeconds(&all);
  EXPECT_EQ(all.spec.tolerations.size(), 1u);
  // A NoSchedule toleration of the key does not count.
  Pod ns = TestPod(R"({"kind":"Pod","metadata":{"name":"c"},"spec":{"containers":[{"name":"c"}],
      "tolerations":[{"key":"node.kubernetes.io/unreachable","operator":"Exists",
                      "effect":"NoSchedule"}]}})");
  AdmitDefaultTolerationSeconds(&ns);
  EXPECT_EQ(ns.spec.tolerations.size(), 3u);
}

TEST(SetNodeDefaults, AllocatableDefaultsToCapacity) {
  Node n = TestNode(
      R"({"kind":"Node","metadata":{"name":"n"},"status":{"capacity":{"cpu":"4","pods":"110"}}})");
  SetNodeDefaults(&n);
  ASSERT_EQ(n.allocatable.size(), 2u);
  EXPECT_EQ(Find(n.allocatable, "cpu")->milli, 4000);
  Node m = TestNode(R"({"kind":"Node","metadata":{"name":"m"},
      "status":{"capacity":{"cpu":"4"},"allocatable":{"cpu":"3"}}})");
  SetNodeDefaults(&m);
  EXPECT_EQ(Find(m.allocatable, "cpu")->milli, 3000) << "a stored allocatable stays";
}

TEST(SetReplicationControllerDefaults, SelectorFromTemplateLabels) {
  ObjectSet set;
  ASSERT_TRUE(DecodeObjects(R"({"kind":"List","items":[
      {"kind":"ReplicationController","metadata":{"name":"a"},
       "spec":{"template":{"metadata":{"labels":{"app":"web"}}}}},
      {"kind":"ReplicationController","metadata":{"name":"b"},
       "spec":{"selector":{"app":"db"},"template":{"metadata":{"labels":{"app":"db","v":"1"}}}}}
      ]})",
                            "rc.json", &set)
                  .ok());
  ApplyApiServerDefaults(&set);
  EXPECT_TRUE(set.replication_controllers[0].has_selector);
  EXPECT_EQ(set.replication_controllers[0].selector.Get(Intern("app")), Intern("web"));
  EXPECT_EQ(set.replication_controllers[1].selector.size(), 1u) << "a selector that is set stays";
}

TEST(AdmitDefaultStorageClass, OneDefaultClassFillsClaimsWithoutClass) {
  StorageClass fast, slow;
  fast.meta.name = "fast";
  fast.meta.annotations = {{"storageclass.kubernetes.io/is-default-class", "true"}};
  slow.meta.name = "slow";
  std::vector<PersistentVolumeClaim> claims(3);
  claims[1].storage_class_name = "slow";
  claims[2].storage_class_name = "";  // explicitly no class: stays so
  AdmitDefaultStorageClass({fast, slow}, &claims);
  EXPECT_EQ(claims[0].storage_class_name, "fast");
  EXPECT_EQ(claims[1].storage_class_name, "slow");
  EXPECT_EQ(claims[2].storage_class_name, "");

  slow.meta.annotations = {{"storageclass.beta.kubernetes.io/is-default-class", "true"}};
  std::vector<PersistentVolumeClaim> two(1);
  AdmitDefaultStorageClass({fast, slow}, &two);
  EXPECT_FALSE(two[0].storage_class_name) << "two defaults: the API server defaults nothing";
}

// What kubectl get prints for the hand-written GPU pod below, once the API
// server has defaulted and admitted it.
constexpr std::string_view kWritten = R"({"kind":"Pod","metadata":{"name":"train","namespace":"ml"},
  "spec":{"containers":[{"name":"c","resources":{"limits":{"nvidia.com/gpu":1,"cpu":"1"}},
                         "ports":[{"containerPort":8080}]}],"hostNetwork":true}})";
constexpr std::string_view kDumped = R"({"kind":"Pod","metadata":{"name":"train","namespace":"ml"},
  "spec":{"containers":[{"name":"c","resources":{"limits":{"nvidia.com/gpu":"1","cpu":"1"},
                                                 "requests":{"nvidia.com/gpu":"1","cpu":"1"}},
                         "ports":[{"containerPort":8080,"hostPort":8080,"protocol":"TCP"}]}],
          "hostNetwork":true,"schedulerName":"default-scheduler",
          "tolerations":[
            {"key":"node.kubernetes.io/not-ready","operator":"Exists","effect":"NoExecute",
             "tolerationSeconds":300},
            {"key":"node.kubernetes.io/unreachable","operator":"Exists","effect":"NoExecute",
             "tolerationSeconds":300}]}})";

TEST(ApiServerDefaults, DefaultedPodEqualsItsKubectlDumpAndIsIdempotent) {
  Pod written = TestPod(kWritten);
  Pod dumped = TestPod(kDumped);
  std::vector<Pod> pods = {written, dumped};
  ApplyPodDefaults(&pods);
  EXPECT_EQ(pods[0].spec, pods[1].spec);
  EXPECT_EQ(pods[1].spec, dumped.spec) << "defaults change nothing in a stored pod";
  std::vector<Pod> again = pods;
  ApplyPodDefaults(&again);
  EXPECT_EQ(again[0].spec, pods[0].spec) << "idempotent";
}

TEST(ApiServerDefaults, DefaultedPodSchedulesAsItsKubectlDump) {
  // gpu-node has the GPU; cpu-node does not; tainted is not-ready:NoExecute
  // (tolerated only once DefaultTolerationSeconds has run).
  auto cluster = [] {
    return ::ksched::testing::TestCluster(R"({"kind":"List","items":[
      {"kind":"Node","metadata":{"name":"cpu-node"},
       "status":{"allocatable":{"cpu":"8","memory":"8Gi","pods":"10"}}},
      {"kind":"Node","metadata":{"name":"gpu-node"},
       "status":{"allocatable":{"cpu":"2","memory":"8Gi","pods":"10","nvidia.com/gpu":"1"}}},
      {"kind":"Node","metadata":{"name":"tainted"},
       "spec":{"taints":[{"key":"node.kubernetes.io/not-ready","effect":"NoExecute"}]},
       "status":{"allocatable":{"cpu":"2","memory":"8Gi","pods":"10","nvidia.com/gpu":"1"}}}
      ]})");
  };
  auto schedule = [&](Pod pod) {
    ClusterState c = cluster();
    NodeTree tree(c);
    auto config = BuildFromProvider("DefaultProvider", BuildOptions{});
    EXPECT_TRUE(config.ok());
    GenericScheduler s(std::move(config).value(), TieBreak::kName);
    ScheduleResult r = s.Schedule(pod, c, &tree);
    std::vector<std::string> feasible;
    for (NodeId n : r.feasible) feasible.push_back(c.node(n).meta.name);
    std::sort(feasible.begin(), feasible.end());
    return std::make_pair(r.chosen == kNoNode ? "" : c.node(r.chosen).meta.name, feasible);
  };
  std::vector<Pod> pods = {TestPod(kWritten)};
  auto raw = schedule(pods[0]);
  EXPECT_THAT(raw.second, ::testing::Contains("cpu-node")) << "undefaulted: requests nothing";
  ApplyPodDefaults(&pods);
  auto defaulted = schedule(pods[0]);
  auto dumped = schedule(TestPod(kDumped));
  EXPECT_EQ(defaulted, dumped);
  EXPECT_THAT(defaulted.second, ::testing::ElementsAre("gpu-node", "tainted"));
}

}  // namespace api_defaults_test
}  // namespace ksched

namespace ksched {
namespace api_defaults_test {

using ::ksched::testing::TestPod;

// "cpu=1,memory=..." of a ResourceList, in name order, as Quantity.String().
std::string Text(const ResourceList& l) {
  std::vector<std::string> parts;
  for (const ResourceQuantity& q : l) parts.push_back(std::string(Str(q.name)) + "=" + q.String());
  std::sort(parts.begin(), parts.end());
  std::string s;
  for (const std::string& p : parts) s += (s.empty() ? "" : ",") + p;
  return s;
}

TEST(SetPodDefaultsV135, PodLevelRequestsFromContainersThenLimits) {
  // Limits at pod level only for cpu and memory; the containers request
  // cpu (a sidecar adds to the regular container), not memory.
  Pod p = TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{
      "resources":{"limits":{"cpu":"4","memory":"2Gi"}},
      "initContainers":[{"name":"s","restartPolicy":"Always","resources":{"requests":{"cpu":"500m"}}}],
      "containers":[{"name":"c","resources":{"requests":{"cpu":"1"}}}]}})");
  Pod v126 = p;
  SetPodDefaults(&p, ApiServerOptions{});
  ASSERT_TRUE(p.spec.resources);
  EXPECT_EQ(Text(p.spec.resources->requests), "cpu=1500m,memory=2Gi");
  EXPECT_EQ(Text(p.spec.resources->limits), "cpu=4,memory=2Gi");
  // v1.26's API server has no pod-level resources; nor has v1.35's with
  // the gate off.
  SetPodDefaults(&v126, ApiServerOptions::For(ApiRelease::kV126));
  EXPECT_EQ(Text(v126.spec.resources->requests), "");
  Pod off = TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{
      "resources":{"limits":{"cpu":"4"}},"containers":[{"name":"c"}]}})");
  ApiServerOptions gate_off;
  gate_off.pod_level_resources = false;
  SetPodDefaults(&off, gate_off);
  EXPECT_EQ(Text(off.spec.resources->requests), "");
}

TEST(SetPodDefaultsV135, HugePageLimitsFromContainersUnlessRequested) {
  Pod p = TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{
      "resources":{"requests":{"cpu":"1"}},
      "containers":[{"name":"a","resources":{"limits":{"hugepages-2Mi":"4Mi","memory":"1Gi"}}},
                    {"name":"b","resources":{"limits":{"hugepages-2Mi":"2Mi"}}}]}})");
  SetPodDefaults(&p, ApiServerOptions{});
  // Limits of hugepages summed; then requests: cpu as given, memory and
  // hugepages from the (defaulted) container requests / pod limits.
  EXPECT_EQ(Text(p.spec.resources->limits), "hugepages-2Mi=6Mi");
  EXPECT_EQ(Text(p.spec.resources->requests), "cpu=1,hugepages-2Mi=6Mi,memory=1Gi");
  // No pod-level resources at all: nothing at pod level.
  Pod q = TestPod(R"({"kind":"Pod","metadata":{"name":"q"},"spec":{
      "containers":[{"name":"a","resources":{"limits":{"hugepages-2Mi":"4Mi"}}}]}})");
  SetPodDefaults(&q, ApiServerOptions{});
  EXPECT_FALSE(q.spec.resources);
}

}  // namespace api_defaults_test
}  // namespace ksched
