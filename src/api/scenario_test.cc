#include "api/scenario.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

namespace ksched {
namespace scenario_test {

using ::testing::AllOf;
using ::testing::HasSubstr;

std::string SharedDir() { return KSCHED_SHARED_DIR; }

TEST(ScenarioTest, LoadsEveryConformanceScenario) {
  namespace fs = std::filesystem;
  size_t loaded = 0;
  for (const std::string dir : {"/conformance", "/extenders", "/upstream-order"}) {
    if (!fs::exists(SharedDir() + dir)) continue;
    for (const auto& entry : fs::directory_iterator(SharedDir() + dir)) {
      std::string path = entry.path().string();
      if (entry.path().extension() != ".json") continue;
      Result<Scenario> sc = LoadScenario(path);
      ASSERT_TRUE(sc.ok()) << sc.error().message;
      EXPECT_FALSE(sc->cluster.nodes.empty()) << path;
      EXPECT_FALSE(sc->pending.empty()) << path;
      for (const Pod& pod : sc->pending) EXPECT_FALSE(pod.meta.uid.empty()) << path;
      EXPECT_TRUE(sc->unknown_fields.empty()) << path << ": " << sc->unknown_fields.front();
      ++loaded;
    }
  }
  EXPECT_GE(loaded, 150u);
}

TEST(ScenarioTest, Conf001Counts) {
  Result<Scenario> sc = LoadScenario(SharedDir() + "/conformance/conf-001.json");
  ASSERT_TRUE(sc.ok()) << sc.error().message;
  EXPECT_EQ(sc->name, "conf-001");
  EXPECT_EQ(sc->provider, "DefaultProvider");
  EXPECT_TRUE(sc->has_provider);
  EXPECT_FALSE(sc->policy_json.has_value());
  EXPECT_EQ(sc->hard_pod_affinity_symmetric_weight, 1);
  EXPECT_FALSE(sc->has_hard_weight);
  EXPECT_EQ(sc->percentage_of_nodes_to_score, 100);
  EXPECT_EQ(sc->cluster.nodes.size(), 35u);
  EXPECT_EQ(sc->cluster.pods.size(), 5u);
  EXPECT_EQ(sc->cluster.services.size(), 6u);
  EXPECT_EQ(sc->cluster.replication_controllers.size(), 2u);
  EXPECT_EQ(sc->cluster.replica_sets.size(), 2u);
  EXPECT_EQ(sc->cluster.stateful_sets.size(), 2u);
  EXPECT_EQ(sc->cluster.persistent_volumes.size(), 12u);
  EXPECT_EQ(sc->cluster.persistent_volume_claims.size(), 12u);
  EXPECT_EQ(sc->cluster.storage_classes.size(), 3u);
  EXPECT_EQ(sc->pending.size(), 21u);
  EXPECT_EQ(sc->features.size(), 13u);
  EXPECT_EQ(sc->features.front(), "avoid");

  // pending[1] requests "5e-1" cpu and a UDP host port on a specific address.
  const Pod& p1 = sc->pending.at(1);
  EXPECT_EQ(p1.Key(), "default/pod-1");
  EXPECT_EQ(p1.meta.uid, "default/pod-1");  // README rule for missing uids
  ASSERT_FALSE(p1.spec.containers.empty());
  const Container& c0 = p1.spec.containers[0];
  ASSERT_FALSE(c0.requests.empty());
  bool found_cpu = false;
  for (const ResourceQuantity& q : c0.requests) {
    if (Str(q.name) == "cpu") {
      EXPECT_EQ(q.milli, 500);
      found_cpu = true;
    }
  }
  EXPECT_TRUE(found_cpu);
  ASSERT_EQ(c0.ports.size(), 1u);
  EXPECT_EQ(c0.ports[0].protocol, "UDP");
  EXPECT_EQ(c0.ports[0].host_ip, "10.0.0.1");
}

TEST(ScenarioTest, PolicyIsKeptAsJson) {
  Result<Scenario> sc = LoadScenario(SharedDir() + "/conformance/conf-013.json");
  ASSERT_TRUE(sc.ok()) << sc.error().message;
  ASSERT_TRUE(sc->policy_json.has_value());
  nlohmann::json policy = nlohmann::json::parse(*sc->policy_json);
  EXPECT_EQ(policy["kind"], "Policy");
  EXPECT_TRUE(policy["predicates"].is_array());
  EXPECT_EQ(sc->hard_pod_affinity_symmetric_weight, 100);
  EXPECT_TRUE(sc->has_hard_weight);
}

TEST(ScenarioTest, ParsesInlineJsonAndYaml) {
  Result<Scenario> sc = ParseScenario(R"({
    "name": "t", "features": ["x"], "hardPodAffinitySymmetricWeight": 5,
    "percentageOfNodesToScore": 0, "provider": "ClusterAutoscalerProvider",
    "policy": {"kind": "Policy", "predicates": [], "hardPodAffinitySymmetricWeight": 2},
    "unknownField": {"ignored": true},
    "cluster": {"nodes": [{"metadata": {"name": "n1"}}],
                "pods": [{"metadata": {"name": "p", "namespace": "ns", "uid": "given"},
                          "spec": {"nodeName": "n1"}}],
                "services": null},
    "pending": [{"metadata": {"name": "q"}}]})",
                                      "inline.json");
  ASSERT_TRUE(sc.ok()) << sc.error().message;
  EXPECT_EQ(sc->provider, "ClusterAutoscalerProvider");
  EXPECT_EQ(sc->hard_pod_affinity_symmetric_weight, 5);
  EXPECT_EQ(sc->percentage_of_nodes_to_score, 0);
  EXPECT_TRUE(sc->has_percentage);
  EXPECT_EQ(*sc->policy_json,
            R"({"kind":"Policy","predicates":[],"hardPodAffinitySymmetricWeight":2})");
  EXPECT_EQ(sc->cluster.pods.at(0).meta.uid, "given");
  EXPECT_EQ(sc->pending.at(0).meta.uid, "default/q");

  Result<Scenario> yaml = ParseScenario(R"(name: y
cluster:
  nodes:
  - metadata: {name: n1}
    status: {allocatable: {cpu: 2}}
pending:
- metadata: {name: q}
)",
                                        "inline.yaml");
  ASSERT_TRUE(yaml.ok()) << yaml.error().message;
  EXPECT_EQ(yaml->provider, "DefaultProvider");
  EXPECT_FALSE(yaml->has_provider);
  EXPECT_EQ(yaml->cluster.nodes.at(0).allocatable.at(0).milli, 2000);
  EXPECT_EQ(yaml->pending.size(), 1u);
}

TEST(ScenarioTest, UnknownFieldsAreListedNotFatal) {
  Result<Scenario> sc = ParseScenario(
      R"({"name":"x","pendng":[],"cluster":{"nodes":[],"node":[],"pods":null},"extra":null})",
      "u.json");
  ASSERT_TRUE(sc.ok()) << sc.error().message;
  EXPECT_EQ(sc->unknown_fields, (std::vector<std::string>{"pendng", "cluster.node"}));
}

TEST(ScenarioTest, ErrorsNameFilePositionAndField) {
  auto error = [](std::string_view text) {
    Result<Scenario> sc = ParseScenario(text, "s.json");
    EXPECT_FALSE(sc.ok());
    return sc.ok() ? std::string() : sc.error().message;
  };
  EXPECT_THAT(error(R"({"cluster": {"nodes": [{"metadata": {"name": "a"}}, {"metadata": {}}]}})"),
              HasSubstr("s.json: cluster.nodes[1] (Node): metadata.name: missing"));
  EXPECT_THAT(error(R"({"pending": [{"metadata": {"name": "p"}, "spec": {"containers": [
                 {"resources": {"requests": {"memory": "12Q"}}}]}}]})"),
              AllOf(HasSubstr("s.json: Pod default/p: "
                              "spec.containers[0].resources.requests.memory: "),
                    HasSubstr("\"12Q\"")));
  EXPECT_THAT(error(R"({"cluster": {"pods": {}}})"),
              HasSubstr("s.json: cluster.pods: expected an array, got an object"));
  EXPECT_THAT(error(R"({"hardPodAffinitySymmetricWeight": "10"})"),
              HasSubstr("s.json: hardPodAffinitySymmetricWeight: expected an integer"));
  EXPECT_THAT(error(R"({"policy": [1]})"), HasSubstr("s.json: policy: expected an object"));
  EXPECT_THAT(error(R"({"features": ["a", 2]})"), HasSubstr("s.json: features[1]: expected"));
  EXPECT_THAT(error(R"([1, 2])"), HasSubstr("s.json: expected a scenario object"));
  EXPECT_THAT(error(R"({"name": "x",)"), HasSubstr("s.json:1:"));

  Result<Scenario> missing = LoadScenario("/nonexistent/scenario.json");
  ASSERT_FALSE(missing.ok());
  EXPECT_THAT(missing.error().message, HasSubstr("/nonexistent/scenario.json"));
}

// Not an assertion: a record of how long the biggest shared scenario takes.
TEST(ScenarioTest, PerfFileLoadTime) {
  std::string path = SharedDir() + "/perf/perf-basic-5000n-1000e-10000p.json";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " not found";
  auto start = std::chrono::steady_clock::now();
  Result<Scenario> sc = LoadScenario(path);
  auto elapsed = std::chrono::steady_clock::now() - start;
  ASSERT_TRUE(sc.ok()) << sc.error().message;
  EXPECT_EQ(sc->cluster.nodes.size(), 5000u);
  EXPECT_EQ(sc->cluster.pods.size(), 1000u);
  EXPECT_EQ(sc->pending.size(), 10000u);
  std::cout << "[   INFO   ] loaded " << path << " in "
            << std::chrono::duration<double, std::milli>(elapsed).count() << " ms\n";
}

}  // namespace scenario_test
}  // namespace ksched

namespace ksched {
namespace scenario_test {

// The v1.35 harness defaults a pod with pod-level limits as v1.35's API
// server does (pod-level requests from them); v1.26's has no such field.
TEST(ScenarioTest, V135PodLevelRequestsDefaultFromLimits) {
  auto pending_requests = [](std::string_view version, std::string_view gates) {
    std::string text = R"({"schedulerVersion":")" + std::string(version) + R"(","featureGates":)" +
                       std::string(gates) +
                       R"(,"cluster":{"nodes":[{"metadata":{"name":"n"}}]},"pending":[
        {"metadata":{"name":"p"},"spec":{"resources":{"limits":{"cpu":"3500m"}},
         "containers":[{"name":"c"}]}}]})";
    Result<Scenario> sc = ParseScenario(text, "s.json");
    EXPECT_TRUE(sc.ok()) << sc.error().message;
    std::vector<int64_t> milli;
    for (const ResourceQuantity& q : sc->pending[0].spec.resources->requests)
      milli.push_back(q.milli);
    return milli;
  };
  EXPECT_THAT(pending_requests("v1.35", "{}"), ::testing::ElementsAre(3500));
  EXPECT_THAT(pending_requests("v1.35", R"({"PodLevelResources":false})"), ::testing::IsEmpty());
  EXPECT_THAT(pending_requests("v1.26", "{}"), ::testing::IsEmpty());
}

}  // namespace scenario_test
}  // namespace ksched
