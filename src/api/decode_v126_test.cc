// Decoding of the fields and kinds the v1.26 framework reads (topology
// spread constraints, overhead, scheduling gates, namespace selectors,
// ephemeral and inline CSI volumes, Namespace, CSINode, CSIDriver, policy/v1
// budgets), and loading of the framework scenarios.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "api/decode.h"
#include "api/scenario.h"
#include "api/unknown_fields.h"

namespace ksched {
namespace decode_v126_test {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Pair;

ObjectSet MustDecode(std::string_view text) {
  ObjectSet set;
  Status s = DecodeObjects(text, "v126.json", &set);
  EXPECT_TRUE(s.ok()) << s.error().message;
  return set;
}

std::string DecodeError(std::string_view text) {
  ObjectSet set;
  Status s = DecodeObjects(text, "bad.json", &set);
  EXPECT_FALSE(s.ok()) << "accepted:\n" << text;
  return s.ok() ? "" : s.error().message;
}

int64_t Milli(const ResourceList& list, std::string_view name) {
  for (const ResourceQuantity& q : list)
    if (Str(q.name) == name) return q.milli;
  return -1;
}

constexpr char kSpreadPod[] = R"({
  "apiVersion": "v1", "kind": "Pod",
  "metadata": {"name": "web", "namespace": "shop"},
  "spec": {
    "containers": [{"name": "c", "resources": {"requests": {"cpu": "100m"}}}],
    "overhead": {"cpu": "250m", "memory": "120Mi"},
    "schedulingGates": [{"name": "example.com/wait"}, {"name": "other"}],
    "topologySpreadConstraints": [
      {"maxSkew": 2, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule",
       "labelSelector": {"matchLabels": {"app": "web"}},
       "minDomains": 3, "nodeAffinityPolicy": "Ignore", "nodeTaintsPolicy": "Honor",
       "matchLabelKeys": ["pod-template-hash"]},
      {"maxSkew": 1, "topologyKey": "kubernetes.io/hostname",
       "whenUnsatisfiable": "ScheduleAnyway"}],
    "affinity": {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
      {"labelSelector": {"matchLabels": {"app": "db"}}, "topologyKey": "zone",
       "namespaceSelector": {"matchLabels": {"team": "a"}}},
      {"topologyKey": "zone", "namespaceSelector": {}},
      {"topologyKey": "zone"}]}},
    "volumes": [
      {"name": "scratch", "ephemeral": {"volumeClaimTemplate": {"spec": {}}}},
      {"name": "inline", "csi": {"driver": "ebs.csi.aws.com", "readOnly": true}},
      {"name": "tmp", "emptyDir": {}}]
  }})";

TEST(DecodeV126Test, PodSpreadOverheadGatesVolumes) {
  ObjectSet set = MustDecode(kSpreadPod);
  ASSERT_EQ(set.pods.size(), 1u);
  const PodSpec& s = set.pods[0].spec;
  EXPECT_EQ(Milli(s.overhead, "cpu"), 250);
  EXPECT_EQ(Milli(s.overhead, "memory"), 120LL * 1024 * 1024 * 1000);
  EXPECT_THAT(s.scheduling_gates, ElementsAre("example.com/wait", "other"));

  ASSERT_EQ(s.topology_spread_constraints.size(), 2u);
  const TopologySpreadConstraint& c0 = s.topology_spread_constraints[0];
  EXPECT_EQ(c0.max_skew, 2);
  EXPECT_EQ(c0.topology_key, "zone");
  EXPECT_EQ(c0.when_unsatisfiable, "DoNotSchedule");
  ASSERT_TRUE(c0.label_selector.has_value());
  EXPECT_THAT(c0.label_selector->match_labels, ElementsAre(Pair("app", "web")));
  EXPECT_EQ(c0.min_domains, 3);
  EXPECT_EQ(c0.node_affinity_policy, "Ignore");
  EXPECT_EQ(c0.node_taints_policy, "Honor");
  EXPECT_THAT(c0.match_label_keys, ElementsAre("pod-template-hash"));
  const TopologySpreadConstraint& c1 = s.topology_spread_constraints[1];
  EXPECT_EQ(c1.when_unsatisfiable, "ScheduleAnyway");
  EXPECT_FALSE(c1.label_selector.has_value());
  EXPECT_FALSE(c1.min_domains.has_value());
  EXPECT_EQ(c1.node_affinity_policy, "");
  EXPECT_TRUE(c1.match_label_keys.empty());

  const auto& terms = s.affinity->pod_anti_affinity->required;
  ASSERT_EQ(terms.size(), 3u);
  ASSERT_TRUE(terms[0].namespace_selector.has_value());
  EXPECT_THAT(terms[0].namespace_selector->match_labels, ElementsAre(Pair("team", "a")));
  ASSERT_TRUE(terms[1].namespace_selector.has_value());  // {} selects every namespace
  EXPECT_TRUE(terms[1].namespace_selector->match_labels.empty());
  EXPECT_FALSE(terms[2].namespace_selector.has_value());

  ASSERT_EQ(s.volumes.size(), 3u);
  EXPECT_EQ(s.volumes[0].kind, VolumeKind::kEphemeral);
  EXPECT_EQ(s.volumes[0].id, "web-scratch");
  EXPECT_EQ(s.volumes[1].kind, VolumeKind::kCSI);
  EXPECT_EQ(s.volumes[1].id, "ebs.csi.aws.com");
  EXPECT_TRUE(s.volumes[1].read_only);
  EXPECT_EQ(s.volumes[2].kind, VolumeKind::kOther);
}

TEST(DecodeV126Test, SpreadConstraintTypeErrorsNameTheField) {
  EXPECT_THAT(DecodeError(R"({"kind": "Pod", "metadata": {"name": "p"}, "spec": {
                 "topologySpreadConstraints": [{"maxSkew": "1"}]}})"),
              HasSubstr("bad.json: Pod default/p: spec.topologySpreadConstraints[0].maxSkew: "
                        "expected an integer"));
  EXPECT_THAT(DecodeError(R"({"kind": "Pod", "metadata": {"name": "p"}, "spec": {
                 "overhead": {"cpu": "lots"}}})"),
              HasSubstr("spec.overhead.cpu"));
  EXPECT_THAT(DecodeError(R"({"kind": "Pod", "metadata": {"name": "p"}, "spec": {
                 "volumes": [{"name": "v", "ephemeral": 3}]}})"),
              HasSubstr("spec.volumes[0].ephemeral: expected an object"));
}

TEST(DecodeV126Test, NamespacesCSINodesCSIDriversInLists) {
  ObjectSet set = MustDecode(R"({"kind": "List", "items": [
    {"apiVersion": "v1", "kind": "Namespace",
     "metadata": {"name": "shop", "labels": {"team": "a"}}},
    {"apiVersion": "storage.k8s.io/v1", "kind": "CSINode",
     "metadata": {"name": "n1", "annotations": {
        "storage.alpha.kubernetes.io/migrated-plugins": "kubernetes.io/aws-ebs,kubernetes.io/gce-pd"}},
     "spec": {"drivers": [
       {"name": "ebs.csi.aws.com", "nodeID": "i-1", "allocatable": {"count": 25},
        "topologyKeys": ["topology.ebs.csi.aws.com/zone"]},
       {"name": "other", "nodeID": "x"}]}},
    {"apiVersion": "storage.k8s.io/v1", "kind": "CSIDriver", "metadata": {"name": "d1"},
     "spec": {"attachRequired": false, "storageCapacity": true}},
    {"apiVersion": "storage.k8s.io/v1", "kind": "CSIDriver", "metadata": {"name": "d2"}}]})");
  ASSERT_EQ(set.namespaces.size(), 1u);
  EXPECT_EQ(set.namespaces[0].meta.name, "shop");
  EXPECT_EQ(set.namespaces[0].meta.ns, kEmptyStr);  // cluster-scoped
  EXPECT_EQ(set.namespaces[0].meta.labels.Get(Intern("team")), Intern("a"));

  ASSERT_EQ(set.csi_nodes.size(), 1u);
  const CSINode& n = set.csi_nodes[0];
  EXPECT_EQ(n.meta.name, "n1");
  EXPECT_THAT(n.migrated_plugins, ElementsAre("kubernetes.io/aws-ebs", "kubernetes.io/gce-pd"));
  ASSERT_EQ(n.drivers.size(), 2u);
  EXPECT_EQ(n.drivers[0].name, "ebs.csi.aws.com");
  EXPECT_EQ(n.drivers[0].node_id, "i-1");
  EXPECT_EQ(n.drivers[0].allocatable_count, 25);
  EXPECT_THAT(n.drivers[0].topology_keys, ElementsAre("topology.ebs.csi.aws.com/zone"));
  EXPECT_FALSE(n.drivers[1].allocatable_count.has_value());

  ASSERT_EQ(set.csi_drivers.size(), 2u);
  EXPECT_FALSE(set.csi_drivers[0].attach_required);
  EXPECT_TRUE(set.csi_drivers[0].storage_capacity);
  EXPECT_TRUE(set.csi_drivers[1].attach_required);  // the API's default
  EXPECT_FALSE(set.csi_drivers[1].storage_capacity);
  EXPECT_EQ(set.skipped, 0u);
}

TEST(DecodeV126Test, CSIStorageCapacities) {
  ObjectSet set = MustDecode(R"({"kind": "List", "items": [
    {"apiVersion": "storage.k8s.io/v1", "kind": "CSIStorageCapacity",
     "metadata": {"name": "c1", "namespace": "kube-system"}, "storageClassName": "topo",
     "capacity": "10Gi", "maximumVolumeSize": "2Gi",
     "nodeTopology": {"matchLabels": {"zone": "a"}}},
    {"apiVersion": "storage.k8s.io/v1", "kind": "CSIStorageCapacity",
     "metadata": {"name": "c2", "namespace": "kube-system"}, "storageClassName": "topo"}]})");
  ASSERT_EQ(set.csi_storage_capacities.size(), 2u);
  const CSIStorageCapacity& c = set.csi_storage_capacities[0];
  EXPECT_EQ(c.meta.name, "c1");
  EXPECT_EQ(c.storage_class_name, "topo");
  ASSERT_TRUE(c.capacity && c.maximum_volume_size && c.node_topology);
  EXPECT_EQ(c.capacity->Value(), int64_t{10} << 30);
  EXPECT_EQ(c.maximum_volume_size->Value(), int64_t{2} << 30);
  EXPECT_FALSE(set.csi_storage_capacities[1].capacity.has_value());
  EXPECT_FALSE(set.csi_storage_capacities[1].node_topology.has_value());
  EXPECT_EQ(set.skipped, 0u);
}

TEST(DecodeV126Test, MigratedPluginsSplitAsUpstream) {
  EXPECT_TRUE(SplitMigratedPlugins("").empty());
  EXPECT_THAT(SplitMigratedPlugins("a"), ElementsAre("a"));
  EXPECT_THAT(SplitMigratedPlugins("a, b"), ElementsAre("a", " b"));
  EXPECT_THAT(SplitMigratedPlugins("a,,b"), ElementsAre("a", "", "b"));
}

TEST(DecodeV126Test, PodDisruptionBudgetVersions) {
  ObjectSet set = MustDecode(R"([
    {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
     "metadata": {"name": "a", "namespace": "shop"},
     "spec": {"selector": {}, "minAvailable": "50%"}, "status": {"disruptionsAllowed": 2}},
    {"apiVersion": "policy/v1beta1", "kind": "PodDisruptionBudget",
     "metadata": {"name": "b"}, "spec": {"maxUnavailable": 1}}])");
  ASSERT_EQ(set.pod_disruption_budgets.size(), 2u);
  EXPECT_TRUE(set.pod_disruption_budgets[0].policy_v1);
  EXPECT_TRUE(set.pod_disruption_budgets[0].selector.has_value());
  EXPECT_EQ(set.pod_disruption_budgets[0].disruptions_allowed, 2);
  EXPECT_FALSE(set.pod_disruption_budgets[1].policy_v1);
}

TEST(ScenarioV126Test, FrameworkKeys) {
  Result<Scenario> sc = ParseScenario(R"({
    "name": "f", "schedulerVersion": "v1.26",
    "config": {"apiVersion": "kubescheduler.config.k8s.io/v1",
               "kind": "KubeSchedulerConfiguration", "percentageOfNodesToScore": 50},
    "featureGates": {"MinDomainsInPodTopologySpread": true, "ReadWriteOncePod": false},
    "cluster": {
      "nodes": [{"metadata": {"name": "n1"}}],
      "namespaces": [{"apiVersion": "v1", "kind": "Namespace",
                      "metadata": {"name": "shop", "labels": {"team": "a"}}}],
      "csiNodes": [{"metadata": {"name": "n1"}, "spec": {"drivers": [{"name": "d"}]}}],
      "csiDrivers": [{"metadata": {"name": "d"}, "spec": {"attachRequired": false}}],
      "podDisruptionBudgets": [{"apiVersion": "policy/v1beta1", "kind": "PodDisruptionBudget",
                                "metadata": {"name": "b", "namespace": "shop"}}]},
    "pending": [{"metadata": {"name": "q", "namespace": "shop"}}]})",
                                      "f.json");
  ASSERT_TRUE(sc.ok()) << sc.error().message;
  EXPECT_EQ(sc->scheduler_version, "v1.26");
  ASSERT_TRUE(sc->config_json.has_value());
  EXPECT_EQ(*sc->config_json,
            R"({"apiVersion":"kubescheduler.config.k8s.io/v1","kind":"KubeSchedulerConfiguration",)"
            R"("percentageOfNodesToScore":50})");
  EXPECT_THAT(sc->feature_gates, ElementsAre(Pair("MinDomainsInPodTopologySpread", true),
                                             Pair("ReadWriteOncePod", false)));
  EXPECT_TRUE(sc->unknown_fields.empty());
  ASSERT_GE(sc->cluster.namespaces.size(), 1u);
  EXPECT_EQ(sc->cluster.namespaces[0].meta.name, "shop");
  ASSERT_EQ(sc->cluster.csi_nodes.size(), 1u);
  EXPECT_EQ(sc->cluster.csi_nodes[0].drivers.at(0).name, "d");
  ASSERT_EQ(sc->cluster.csi_drivers.size(), 1u);
  EXPECT_FALSE(sc->cluster.csi_drivers[0].attach_required);
  // The reference harness reads every budget as policy/v1.
  ASSERT_EQ(sc->cluster.pod_disruption_budgets.size(), 1u);
  EXPECT_TRUE(sc->cluster.pod_disruption_budgets[0].policy_v1);
  EXPECT_EQ(sc->pending.at(0).meta.uid, "shop/q");
}

TEST(ScenarioV126Test, FrameworkScenarioIsDefaultedAsV126Stores) {
  Result<Scenario> sc = ParseScenario(R"({
    "schedulerVersion": "v1.26",
    "cluster": {
      "nodes": [{"metadata": {"name": "n1"}, "status": {"capacity": {"cpu": "2"}}}],
      "namespaces": [{"metadata": {"name": "shop", "labels": {"team": "a"}}}],
      "pods": [{"metadata": {"name": "p", "namespace": "kube-system"},
                "spec": {"nodeName": "n1"}}],
      "persistentVolumes": [{"metadata": {"name": "pv"}}],
      "persistentVolumeClaims": [{"metadata": {"name": "c"}, "status": {"phase": "Bound"}}]},
    "pending": [{"metadata": {"name": "q", "namespace": "shop"},
                 "spec": {"containers": [{"resources": {"limits": {"cpu": "1"}}}]}},
                {"metadata": {"name": "r"}}]})",
                                      "d.json");
  ASSERT_TRUE(sc.ok()) << sc.error().message;
  // Listed first, then the pods' namespaces in the pods' order.
  ASSERT_EQ(sc->cluster.namespaces.size(), 3u);
  const StrId name_label = Intern("kubernetes.io/metadata.name");
  EXPECT_EQ(sc->cluster.namespaces[0].meta.labels.Get(name_label), Intern("shop"));
  EXPECT_EQ(sc->cluster.namespaces[0].meta.labels.Get(Intern("team")), Intern("a"));
  EXPECT_EQ(sc->cluster.namespaces[1].meta.name, "kube-system");
  EXPECT_EQ(sc->cluster.namespaces[1].meta.labels.Get(name_label), Intern("kube-system"));
  EXPECT_EQ(sc->cluster.namespaces[2].meta.name, "default");
  EXPECT_EQ(sc->cluster.nodes[0].allocatable.size(), 1u);
  EXPECT_EQ(Milli(sc->pending[0].spec.containers[0].requests, "cpu"), 1000);
  EXPECT_EQ(sc->pending[0].spec.scheduler_name, "default-scheduler");
  // No admission plugin: no default tolerations.
  EXPECT_TRUE(sc->pending[0].spec.tolerations.empty());
  EXPECT_EQ(sc->cluster.persistent_volumes[0].phase, "Pending");
  EXPECT_EQ(sc->cluster.persistent_volume_claims[0].phase, "Bound");

  // A v1.15 scenario stays as written.
  Result<Scenario> old = ParseScenario(R"({
    "cluster": {"nodes": [{"metadata": {"name": "n1"}, "status": {"capacity": {"cpu": "2"}}}]},
    "pending": [{"metadata": {"name": "q"}}]})",
                                       "o.json");
  ASSERT_TRUE(old.ok()) << old.error().message;
  EXPECT_TRUE(old->cluster.namespaces.empty());
  EXPECT_TRUE(old->cluster.nodes[0].allocatable.empty());
  EXPECT_EQ(old->pending[0].spec.scheduler_name, "");
}

TEST(ScenarioV126Test, V115ScenarioHasNoVersionNorConfig) {
  Result<Scenario> sc = ParseScenario(R"({"cluster": {}, "pending": []})", "old.json");
  ASSERT_TRUE(sc.ok()) << sc.error().message;
  EXPECT_EQ(sc->scheduler_version, "");
  EXPECT_FALSE(sc->config_json.has_value());
  EXPECT_TRUE(sc->feature_gates.empty());
}

TEST(ScenarioV126Test, ConfigWithoutVersionIsAFrameworkScenario) {
  Result<Scenario> sc = ParseScenario(R"({"config": {"percentageOfNodesToScore": 100},
    "cluster": {}, "pending": [{"metadata": {"name": "q"}}]})",
                                      "cfg.json");
  ASSERT_TRUE(sc.ok()) << sc.error().message;
  EXPECT_EQ(sc->scheduler_version, "v1.26");
  EXPECT_TRUE(sc->scheduler_version_inferred);
  EXPECT_EQ(sc->pending[0].spec.scheduler_name, "default-scheduler");  // v1.26 defaulting
}

TEST(ScenarioV126Test, FrameworkKeyErrors) {
  auto error = [](std::string_view text) {
    Result<Scenario> sc = ParseScenario(text, "s.json");
    EXPECT_FALSE(sc.ok());
    return sc.ok() ? std::string() : sc.error().message;
  };
  EXPECT_THAT(error(R"({"featureGates": {"A": "yes"}})"),
              HasSubstr("s.json: featureGates.A: expected a boolean"));
  EXPECT_THAT(error(R"({"featureGates": []})"), HasSubstr("s.json: featureGates: expected an"));
  EXPECT_THAT(error(R"({"config": "x"})"), HasSubstr("s.json: config: expected an object"));
  EXPECT_THAT(error(R"({"schedulerVersion": 126})"),
              HasSubstr("s.json: schedulerVersion: expected a string"));
  EXPECT_THAT(error(R"({"cluster": {"csiNodes": [{"metadata": {"name": "n"},
                 "spec": {"drivers": [{"allocatable": {"count": "2"}}]}}]}})"),
              HasSubstr("s.json: CSINode n: spec.drivers[0].allocatable.count: expected an "
                        "integer"));
}

// Every framework vector loads, and a few decoded values are as written.
TEST(ScenarioV126Test, LoadsEveryFrameworkScenario) {
  namespace fs = std::filesystem;
  const std::string dir = std::string(KSCHED_SHARED_DIR) + "/framework";
  if (!fs::exists(dir)) GTEST_SKIP() << dir << " not found";
  size_t loaded = 0, spread = 0, overhead = 0, ns_selectors = 0, configs = 0, gates = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".json") continue;
    std::string path = entry.path().string();
    Result<Scenario> sc = LoadScenario(path);
    ASSERT_TRUE(sc.ok()) << sc.error().message;
    EXPECT_EQ(sc->scheduler_version, "v1.26") << path;
    EXPECT_TRUE(sc->unknown_fields.empty()) << path << ": " << sc->unknown_fields.front();
    EXPECT_FALSE(sc->pending.empty()) << path;
    for (const Pod& pod : sc->pending) {
      EXPECT_FALSE(pod.meta.uid.empty()) << path;
      spread += pod.spec.topology_spread_constraints.size();
      overhead += pod.spec.overhead.empty() ? 0 : 1;
      if (pod.spec.affinity && pod.spec.affinity->pod_affinity)
        for (const PodAffinityTerm& t : pod.spec.affinity->pod_affinity->required)
          ns_selectors += t.namespace_selector.has_value() ? 1 : 0;
    }
    configs += sc->config_json.has_value() ? 1 : 0;
    gates += sc->feature_gates.size();
    ++loaded;
  }
  EXPECT_GE(loaded, 150u);
  EXPECT_GT(spread, 1000u);
  EXPECT_GT(overhead, 100u);
  EXPECT_GT(ns_selectors, 10u);
  EXPECT_GT(configs, 10u);
  EXPECT_GT(gates, 10u);
}

// The field table (api_fields.inc) knows every field the framework vectors
// use: none is reported as unknown (a typo), only as newer than v1.15.
TEST(ScenarioV126Test, FrameworkVectorsHaveNoUnknownFields) {
  namespace fs = std::filesystem;
  namespace dom = simdjson::dom;
  const std::string dir = std::string(KSCHED_SHARED_DIR) + "/framework";
  if (!fs::exists(dir)) GTEST_SKIP() << dir << " not found";
  const std::pair<const char*, const char*> lists[] = {
      {"nodes", "Node"},
      {"pods", "Pod"},
      {"services", "Service"},
      {"replicationControllers", "ReplicationController"},
      {"replicaSets", "ReplicaSet"},
      {"statefulSets", "StatefulSet"},
      {"persistentVolumes", "PersistentVolume"},
      {"persistentVolumeClaims", "PersistentVolumeClaim"},
      {"storageClasses", "StorageClass"},
      {"podDisruptionBudgets", "PodDisruptionBudget"}};
  size_t objects = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".json") continue;
    dom::parser parser;
    dom::element root;
    ASSERT_EQ(parser.load(entry.path().string()).get(root), simdjson::SUCCESS);
    std::vector<FoundField> found;
    auto check = [&](simdjson::simdjson_result<dom::element> value, std::string_view kind) {
      dom::array arr;
      if (value.get(arr) != simdjson::SUCCESS) return;
      for (dom::element obj : arr) {
        FindUnknownFields(obj, kind, &found);
        ++objects;
      }
    };
    for (const auto& [key, kind] : lists) check(root["cluster"][key], kind);
    check(root["pending"], "Pod");
    for (const FoundField& f : found)
      EXPECT_NE(f.what, FieldFinding::What::kUnknown) << entry.path() << ": " << f.Message("");
  }
  EXPECT_GT(objects, 10000u);
}

// mconf-0001 as written: its first pending pod, namespaces and gates.
TEST(ScenarioV126Test, Mconf0001Values) {
  std::string path = std::string(KSCHED_SHARED_DIR) + "/framework/mconf-0001.json";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " not found";
  Result<Scenario> sc = LoadScenario(path);
  ASSERT_TRUE(sc.ok()) << sc.error().message;
  EXPECT_THAT(sc->feature_gates, ElementsAre(Pair("MatchLabelKeysInPodTopologySpread", true),
                                             Pair("MinDomainsInPodTopologySpread", true)));
  EXPECT_FALSE(sc->cluster.namespaces.empty());
}

// What v1.26's VolumeBinding reads beyond v1.15: volume modes, a class's
// allowedTopologies, resourceVersion (the assume cache), azureDisk's URI
// and kind (CSI migration).
TEST(DecodeV126Test, VolumeBindingFields) {
  ObjectSet set = MustDecode(R"({"kind":"List","items":[
    {"kind":"PersistentVolume","metadata":{"name":"pv","resourceVersion":"42"},
     "spec":{"volumeMode":"Block","azureDisk":{"diskName":"d","diskURI":"u","kind":"Managed"}}},
    {"kind":"PersistentVolumeClaim","metadata":{"name":"c"},"spec":{"volumeMode":"Block"}},
    {"apiVersion":"storage.k8s.io/v1","kind":"StorageClass","metadata":{"name":"zonal"},
     "provisioner":"p","allowedTopologies":[{"matchLabelExpressions":[
       {"key":"topology.kubernetes.io/zone","values":["a","b"]}]}]}]})");
  ASSERT_EQ(set.persistent_volumes.size(), 1u);
  EXPECT_EQ(set.persistent_volumes[0].meta.resource_version, "42");
  EXPECT_EQ(set.persistent_volumes[0].volume_mode, "Block");
  EXPECT_EQ(set.persistent_volumes[0].azure_disk_uri, "u");
  EXPECT_EQ(set.persistent_volumes[0].azure_kind, "Managed");
  ASSERT_EQ(set.persistent_volume_claims.size(), 1u);
  EXPECT_EQ(set.persistent_volume_claims[0].volume_mode, "Block");
  ASSERT_EQ(set.storage_classes.size(), 1u);
  ASSERT_EQ(set.storage_classes[0].allowed_topologies.size(), 1u);
  ASSERT_EQ(set.storage_classes[0].allowed_topologies[0].size(), 1u);
  EXPECT_EQ(set.storage_classes[0].allowed_topologies[0][0].key, "topology.kubernetes.io/zone");
  EXPECT_THAT(set.storage_classes[0].allowed_topologies[0][0].values, ElementsAre("a", "b"));
}

}  // namespace decode_v126_test
}  // namespace ksched
