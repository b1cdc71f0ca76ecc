#include "config/decode.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace ksched::config {
namespace config_decode_test {

// The v1.26 tests below predate the release parameter.
Result<DecodedConfiguration> DecodeV126(std::string_view text, std::string_view filename) {
  return DecodeConfiguration(text, filename, SchedulerVersion::kV126);
}

std::string Error(std::string_view text) {
  auto r = DecodeV126(text, "sched.json");
  return r.ok() ? "<ok>" : r.error().message;
}

constexpr const char* kHead =
    R"("apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration")";

std::string Config(const std::string& body) {
  return "{" + std::string(kHead) + (body.empty() ? "" : ", " + body) + "}";
}

TEST(ConfigDecode, EveryTopLevelField) {
  auto r = DecodeV126(Config(R"(
    "parallelism": 8, "percentageOfNodesToScore": 40,
    "podInitialBackoffSeconds": 2, "podMaxBackoffSeconds": 20,
    "enableProfiling": false,
    "leaderElection": {"leaderElect": false, "leaseDuration": "30s", "renewDeadline": "1m30s",
                       "retryPeriod": "500ms", "resourceLock": "leases", "resourceName": "n",
                       "resourceNamespace": "ns"},
    "clientConnection": {"kubeconfig": "/k", "acceptContentTypes": "a", "contentType": "c",
                         "qps": 12.5, "burst": 7},
    "extenders": [{"urlPrefix": "http://e", "filterVerb": "f", "prioritizeVerb": "p",
                   "preemptVerb": "pr", "bindVerb": "b", "weight": 3, "enableHTTPS": true,
                   "httpTimeout": "2s", "nodeCacheCapable": true, "ignorable": true,
                   "managedResources": [{"name": "example.com/gpu", "ignoredByScheduler": true}],
                   "tlsConfig": {"insecure": true, "serverName": "s", "caData": "aGk="}}])"),
                      "f");
  ASSERT_TRUE(r.ok()) << r.error().message;
  const auto& c = r->config;
  EXPECT_EQ(r->api_version, kVersionV1);
  EXPECT_EQ(c.parallelism, 8);
  EXPECT_EQ(c.percentage_of_nodes_to_score, 40);
  EXPECT_EQ(c.pod_initial_backoff_seconds, 2);
  EXPECT_EQ(c.pod_max_backoff_seconds, 20);
  EXPECT_FALSE(c.enable_profiling);
  EXPECT_FALSE(c.leader_election.leader_elect);
  EXPECT_EQ(c.leader_election.lease_duration_ns, 30'000'000'000);
  EXPECT_EQ(c.leader_election.renew_deadline_ns, 90'000'000'000);
  EXPECT_EQ(c.leader_election.retry_period_ns, 500'000'000);
  EXPECT_EQ(c.leader_election.resource_namespace, "ns");
  EXPECT_EQ(c.client_connection.qps, 12.5f);
  EXPECT_EQ(c.client_connection.burst, 7);
  ASSERT_EQ(c.extenders.size(), 1u);
  const Extender& e = c.extenders[0];
  EXPECT_EQ(e.url_prefix, "http://e");
  EXPECT_EQ(e.weight, 3);
  EXPECT_EQ(e.http_timeout_ns, 2'000'000'000);
  ASSERT_EQ(e.managed_resources.size(), 1u);
  EXPECT_TRUE(e.managed_resources[0].ignored_by_scheduler);
  ASSERT_TRUE(e.tls_config);
  EXPECT_EQ(e.tls_config->ca_data, "hi");
  EXPECT_TRUE(c.profiles.empty());
}

TEST(ConfigDecode, ProfilesPluginsAndArgs) {
  auto r = DecodeV126(Config(R"(
    "profiles": [{"schedulerName": "a", "percentageOfNodesToScore": 30,
      "plugins": {"multiPoint": {"enabled": [{"name": "X"}]},
                  "score": {"enabled": [{"name": "NodeAffinity", "weight": 5}],
                            "disabled": [{"name": "*"}]},
                  "preEnqueue": {}, "queueSort": {}, "preFilter": {}, "filter": {},
                  "postFilter": {}, "preScore": {}, "reserve": {}, "permit": {}, "preBind": {},
                  "bind": {}, "postBind": {}},
      "pluginConfig": [
        {"name": "NodeResourcesFit", "args": {"scoringStrategy": {"type": "RequestedToCapacityRatio",
           "resources": [{"name": "cpu", "weight": 2}],
           "requestedToCapacityRatio": {"shape": [{"utilization": 0, "score": 0},
                                                  {"utilization": 100, "score": 10}]}},
           "ignoredResources": ["a"], "ignoredResourceGroups": ["g"]}},
        {"name": "NodeResourcesBalancedAllocation", "args": {"resources": [{"name": "memory"}]}},
        {"name": "PodTopologySpread", "args": {"defaultingType": "List", "defaultConstraints": [
           {"maxSkew": 2, "topologyKey": "zone", "whenUnsatisfiable": "ScheduleAnyway"}]}},
        {"name": "NodeAffinity", "args": {"addedAffinity": {"requiredDuringSchedulingIgnoredDuringExecution":
           {"nodeSelectorTerms": [{"matchExpressions": [{"key": "k", "operator": "In", "values": ["v"]}]}]}}}},
        {"name": "InterPodAffinity", "args": {"kind": "InterPodAffinityArgs",
           "apiVersion": "kubescheduler.config.k8s.io/v1", "hardPodAffinityWeight": 0}},
        {"name": "DefaultPreemption", "args": {"minCandidateNodesPercentage": 5}},
        {"name": "VolumeBinding", "args": {"bindTimeoutSeconds": 30}},
        {"name": "TaintToleration", "args": {"whatever": 1}},
        {"name": "OutOfTree"}]},
     {"schedulerName": "b"}])"),
                      "f");
  ASSERT_TRUE(r.ok()) << r.error().message;
  const auto& profiles = r->config.profiles;
  ASSERT_EQ(profiles.size(), 2u);
  EXPECT_EQ(r->scheduler_name_set, (std::vector<bool>{true, true}));
  const Profile& p = profiles[0];
  EXPECT_EQ(p.scheduler_name, "a");
  EXPECT_EQ(p.percentage_of_nodes_to_score, 30);
  ASSERT_EQ(p.plugins.score.enabled.size(), 1u);
  EXPECT_EQ(p.plugins.score.enabled[0].weight, 5);
  EXPECT_EQ(p.plugins.score.disabled[0].name, "*");
  EXPECT_EQ(p.plugins.multi_point.enabled[0].name, "X");
  ASSERT_EQ(p.plugin_config.size(), 9u);
  auto& fit = std::get<NodeResourcesFitArgs>(p.plugin_config[0].args);
  EXPECT_EQ(fit.scoring_strategy.type, kRequestedToCapacityRatio);
  EXPECT_TRUE(fit.scoring_strategy.has_requested_to_capacity_ratio);
  EXPECT_EQ(fit.scoring_strategy.requested_to_capacity_ratio.shape.size(), 2u);
  EXPECT_EQ(fit.scoring_strategy.resources[0].weight, 2);
  EXPECT_EQ(fit.ignored_resource_groups, std::vector<std::string>{"g"});
  auto& ba = std::get<NodeResourcesBalancedAllocationArgs>(p.plugin_config[1].args);
  EXPECT_EQ(ba.resources[0].weight, 0);  // defaulting makes it 1
  auto& pts = std::get<PodTopologySpreadArgs>(p.plugin_config[2].args);
  EXPECT_EQ(pts.defaulting_type, kListDefaulting);
  EXPECT_EQ(pts.default_constraints[0].max_skew, 2);
  auto& na = std::get<NodeAffinityArgs>(p.plugin_config[3].args);
  ASSERT_TRUE(na.added_affinity && na.added_affinity->required);
  EXPECT_EQ(na.added_affinity->required->terms[0].match_expressions[0].values[0], "v");
  EXPECT_EQ(std::get<InterPodAffinityArgs>(p.plugin_config[4].args).hard_pod_affinity_weight, 0);
  auto& dp = std::get<DefaultPreemptionArgs>(p.plugin_config[5].args);
  EXPECT_EQ(dp.min_candidate_nodes_percentage, 5);
  EXPECT_EQ(dp.min_candidate_nodes_absolute, 100);
  EXPECT_EQ(std::get<VolumeBindingArgs>(p.plugin_config[6].args).bind_timeout_seconds, 30);
  EXPECT_TRUE(std::holds_alternative<std::monostate>(p.plugin_config[7].args));
  EXPECT_TRUE(std::holds_alternative<std::monostate>(p.plugin_config[8].args));
}

TEST(ConfigDecode, Yaml) {
  auto r = DecodeV126(R"(apiVersion: kubescheduler.config.k8s.io/v1beta3
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: y
  pluginConfig:
  - name: InterPodAffinity
    args:
      hardPodAffinityWeight: 7
)",
                      "s.yaml");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->api_version, kVersionV1beta3);
  EXPECT_EQ(std::get<InterPodAffinityArgs>(r->config.profiles[0].plugin_config[0].args)
                .hard_pod_affinity_weight,
            7);
}

TEST(ConfigDecode, UnknownAndDuplicateFieldsAreStrictErrors) {
  EXPECT_EQ(Error(Config(R"("profiles": [{"plugin": {}}])")),
            "sched.json: strict decoding error: unknown field \"profiles[0].plugin\"");
  EXPECT_EQ(Error(Config(R"("parallelism": 1, "parallelism": 2, "foo": 1, "bar": {"x": 1})")),
            "sched.json: strict decoding error: duplicate field \"parallelism\", unknown field "
            "\"foo\", unknown field \"bar\"");
  EXPECT_EQ(Error(Config(R"("leaderElection": {}, "leaderElection": {"x": 1})")),
            "sched.json: strict decoding error: duplicate field \"leaderElection\", unknown field "
            "\"leaderElection.x\"");
  EXPECT_EQ(Error(Config(R"("Parallelism": 1)")),
            "sched.json: strict decoding error: unknown field \"Parallelism\"");
  // v1beta3 profiles have no percentageOfNodesToScore.
  EXPECT_EQ(Error(R"({"apiVersion": "kubescheduler.config.k8s.io/v1beta3",
                      "kind": "KubeSchedulerConfiguration",
                      "profiles": [{"percentageOfNodesToScore": 1}]})"),
            "sched.json: strict decoding error: unknown field "
            "\"profiles[0].percentageOfNodesToScore\"");
}

TEST(ConfigDecode, StrictErrorsInArgs) {
  EXPECT_EQ(Error(Config(R"("profiles": [{"pluginConfig": [{"name": "A"},
      {"name": "NodeResourcesFit", "args": {"scoringStrategy": {"typ": "x"}, "foo": 1}}]}],
      "zzz": 1)")),
            "sched.json: strict decoding error: unknown field \"zzz\", decoding "
            ".profiles[0].pluginConfig[1]: decoding args for plugin NodeResourcesFit: strict "
            "decoding error: unknown field \"scoringStrategy.typ\", unknown field \"foo\"");
}

TEST(ConfigDecode, WrongTypesInGoWords) {
  EXPECT_EQ(Error(Config(R"("profiles": [{"plugins": {"score": {"enabled": [{"name": "A",
                                                                  "weight": "x"}]}}}])")),
            "sched.json: json: cannot unmarshal string into Go struct field "
            "Plugin.profiles.plugins.score.enabled.weight of type int32");
  EXPECT_EQ(Error(Config(R"("parallelism": 1.5)")),
            "sched.json: json: cannot unmarshal number 1.5 into Go struct field "
            "KubeSchedulerConfiguration.parallelism of type int32");
  EXPECT_EQ(Error(Config(R"("profiles": {})")),
            "sched.json: json: cannot unmarshal object into Go struct field "
            "KubeSchedulerConfiguration.profiles of type []v1.KubeSchedulerProfile");
  // A wrong type wins over strict findings.
  EXPECT_EQ(Error(Config(R"("foo": 1, "podMaxBackoffSeconds": true)")),
            "sched.json: json: cannot unmarshal bool into Go struct field "
            "KubeSchedulerConfiguration.podMaxBackoffSeconds of type int64");
  EXPECT_EQ(Error(Config(R"("profiles": [{"pluginConfig": [{"name": "InterPodAffinity",
                                                              "args": {"hardPodAffinityWeight": "1"}}]}])")),
            "sched.json: decoding .profiles[0].pluginConfig[0]: decoding args for plugin "
            "InterPodAffinity: json: cannot unmarshal string into Go struct field "
            "InterPodAffinityArgs.hardPodAffinityWeight of type int32");
  EXPECT_EQ(Error(Config(R"("leaderElection": {"leaseDuration": "soon"})")),
            "sched.json: time: invalid duration \"soon\"");
  EXPECT_EQ(Error(Config(R"("parallelism": 3000000000)")),
            "sched.json: json: cannot unmarshal number 3000000000 into Go struct field "
            "KubeSchedulerConfiguration.parallelism of type int32");
}

TEST(ConfigDecode, KindAndVersion) {
  EXPECT_EQ(Error(R"({"apiVersion": "kubescheduler.config.k8s.io/v1"})"),
            "sched.json: Object 'Kind' is missing in '{\"apiVersion\": "
            "\"kubescheduler.config.k8s.io/v1\"}'");
  EXPECT_EQ(
      Error(
          R"({"apiVersion": "kubescheduler.config.k8s.io/v2", "kind": "KubeSchedulerConfiguration"})"),
      "sched.json: no kind \"KubeSchedulerConfiguration\" is registered for version "
      "\"kubescheduler.config.k8s.io/v2\" in scheme "
      "\"pkg/scheduler/apis/config/scheme/scheme.go:31\"");
  EXPECT_EQ(
      Error(R"({"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "InterPodAffinityArgs"})"),
      "sched.json: couldn't decode as KubeSchedulerConfiguration, got "
      "kubescheduler.config.k8s.io/v1, Kind=InterPodAffinityArgs: ");
  EXPECT_EQ(Error(Config(R"("profiles": [{"pluginConfig": [{"name": "InterPodAffinity",
                                                              "args": {"kind": "NodeAffinityArgs"}}]}])")),
            "sched.json: decoding .profiles[0].pluginConfig[0]: args for plugin InterPodAffinity "
            "were not of type InterPodAffinityArgs.kubescheduler.config.k8s.io, got "
            "NodeAffinityArgs.kubescheduler.config.k8s.io");
  EXPECT_NE(Error("[1]"), "<ok>");
  EXPECT_NE(Error("{"), "<ok>");
}

TEST(ConfigDecode, NullMeansAbsent) {
  auto r = DecodeV126(Config(R"("parallelism": null, "profiles": [{"schedulerName": null,
      "pluginConfig": [{"name": "InterPodAffinity", "args": null}]}])"),
                      "");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->config.parallelism, 16);
  EXPECT_EQ(r->scheduler_name_set, std::vector<bool>{false});
  EXPECT_EQ(std::get<InterPodAffinityArgs>(r->config.profiles[0].plugin_config[0].args)
                .hard_pod_affinity_weight,
            1);
}

// ---------------------------------------------------------------- v1.35

std::string Error135(std::string_view text) {
  auto r = DecodeConfiguration(text, "sched.json", SchedulerVersion::kV135);
  return r.ok() ? "<ok>" : r.error().message;
}

std::string Error126(std::string_view text) {
  auto r = DecodeV126(text, "sched.json");
  return r.ok() ? "<ok>" : r.error().message;
}

std::string WithVersion(std::string_view api_version) {
  return R"({"apiVersion": "kubescheduler.config.k8s.io/)" + std::string(api_version) +
         R"(", "kind": "KubeSchedulerConfiguration"})";
}

// v1.35's scheme registers only v1: v1beta3 (v1.26's deprecated version)
// and v1beta2 are unknown kinds, in the harness's words.
TEST(ConfigDecodeV135, OnlyV1) {
  EXPECT_EQ(Error126(WithVersion("v1beta3")), "<ok>");
  EXPECT_EQ(Error135(WithVersion("v1beta3")),
            "sched.json: no kind \"KubeSchedulerConfiguration\" is registered for version "
            "\"kubescheduler.config.k8s.io/v1beta3\" in scheme "
            "\"k8s.io/kubernetes/pkg/scheduler/apis/config/scheme/scheme.go:29\"");
  EXPECT_EQ(Error126(WithVersion("v1beta2")),
            "sched.json: KubeSchedulerConfiguration kubescheduler.config.k8s.io/v1beta2 is not "
            "supported by ksched: use kubescheduler.config.k8s.io/v1");
  EXPECT_EQ(Error135(WithVersion("v1beta2")),
            "sched.json: no kind \"KubeSchedulerConfiguration\" is registered for version "
            "\"kubescheduler.config.k8s.io/v1beta2\" in scheme "
            "\"k8s.io/kubernetes/pkg/scheduler/apis/config/scheme/scheme.go:29\"");
  EXPECT_EQ(Error126(WithVersion("v1alpha1")),
            "sched.json: no kind \"KubeSchedulerConfiguration\" is registered for version "
            "\"kubescheduler.config.k8s.io/v1alpha1\" in scheme "
            "\"pkg/scheduler/apis/config/scheme/scheme.go:31\"");
  EXPECT_EQ(Error135(WithVersion("v1")), "<ok>");
}

TEST(ConfigDecodeV135, DelayCacheUntilActive) {
  const std::string on = Config(R"("delayCacheUntilActive": true)");
  EXPECT_EQ(Error126(on),
            "sched.json: strict decoding error: unknown field \"delayCacheUntilActive\"");
  auto r = DecodeConfiguration(on, "", SchedulerVersion::kV135);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->config.delay_cache_until_active);
  EXPECT_EQ(Error135(Config(R"("delayCacheUntilActive": null)")), "<ok>");
  EXPECT_EQ(Error135(Config(R"("delayCacheUntilActive": "x")")),
            "sched.json: json: cannot unmarshal string into Go struct field "
            "KubeSchedulerConfiguration.delayCacheUntilActive of type bool");
}

std::string ArgsConfig(const std::string& plugin, const std::string& args) {
  return Config(R"("profiles": [{"pluginConfig": [{"name": ")" + plugin + R"(", "args": )" + args +
                "}]}]");
}

TEST(ConfigDecodeV135, IgnorePreferredTermsOfExistingPods) {
  const std::string text =
      ArgsConfig("InterPodAffinity", R"({"ignorePreferredTermsOfExistingPods": true})");
  EXPECT_EQ(Error126(text),
            "sched.json: strict decoding error: decoding .profiles[0].pluginConfig[0]: decoding "
            "args for plugin InterPodAffinity: strict decoding error: unknown field "
            "\"ignorePreferredTermsOfExistingPods\"");
  auto r = DecodeConfiguration(text, "", SchedulerVersion::kV135);
  ASSERT_TRUE(r.ok()) << r.error().message;
  const auto& a = std::get<InterPodAffinityArgs>(r->config.profiles[0].plugin_config[0].args);
  EXPECT_TRUE(a.ignore_preferred_terms_of_existing_pods);
  EXPECT_EQ(a.hard_pod_affinity_weight, 1);
  EXPECT_EQ(
      Error135(ArgsConfig("InterPodAffinity", R"({"ignorePreferredTermsOfExistingPods": "x"})")),
      "sched.json: decoding .profiles[0].pluginConfig[0]: decoding args for plugin "
      "InterPodAffinity: json: cannot unmarshal string into Go struct field "
      "InterPodAffinityArgs.ignorePreferredTermsOfExistingPods of type bool");
}

// v1.35 wraps a plugin's strict errors once more ("strict decoding error:
// decoding args ..."); v1.26's text is ksched's earlier one.
TEST(ConfigDecodeV135, NestedStrictErrors) {
  const std::string text = Config(
      R"("foo": 1, "profiles": [{"pluginConfig": [{"name": "InterPodAffinity", "args": {"foo": 1}}]}])");
  EXPECT_EQ(Error135(text),
            "sched.json: strict decoding error: unknown field \"foo\", decoding "
            ".profiles[0].pluginConfig[0]: strict decoding error: decoding args for plugin "
            "InterPodAffinity: strict decoding error: unknown field \"foo\"");
  EXPECT_EQ(Error126(text),
            "sched.json: strict decoding error: unknown field \"foo\", decoding "
            ".profiles[0].pluginConfig[0]: decoding args for plugin InterPodAffinity: strict "
            "decoding error: unknown field \"foo\"");
}

TEST(ConfigDecodeV135, DynamicResourcesArgs) {
  auto r = DecodeConfiguration(
      ArgsConfig("DynamicResources", R"({"filterTimeout": "1m30s", "bindingTimeout": null})"), "",
      SchedulerVersion::kV135);
  ASSERT_TRUE(r.ok()) << r.error().message;
  const auto& a = std::get<DynamicResourcesArgs>(r->config.profiles[0].plugin_config[0].args);
  EXPECT_EQ(a.filter_timeout_ns, int64_t{90'000'000'000});
  EXPECT_FALSE(a.binding_timeout_ns);
  // v1.26 has no DynamicResourcesArgs kind: the args stay raw (an
  // out-of-tree plugin's would too).
  auto old = DecodeV126(ArgsConfig("DynamicResources", R"({"foo": 1})"), "");
  ASSERT_TRUE(old.ok()) << old.error().message;
  EXPECT_TRUE(
      std::holds_alternative<std::monostate>(old->config.profiles[0].plugin_config[0].args));
  EXPECT_EQ(Error135(ArgsConfig("DynamicResources", R"({"foo": 1})")),
            "sched.json: strict decoding error: decoding .profiles[0].pluginConfig[0]: strict "
            "decoding error: decoding args for plugin DynamicResources: strict decoding error: "
            "unknown field \"foo\"");
  EXPECT_EQ(Error135(ArgsConfig("DynamicResources", R"({"filterTimeout": 5})")),
            "sched.json: decoding .profiles[0].pluginConfig[0]: decoding args for plugin "
            "DynamicResources: json: cannot unmarshal number into Go struct field "
            "DynamicResourcesArgs.filterTimeout of type string");
  EXPECT_EQ(Error135(ArgsConfig("DynamicResources", R"({"filterTimeout": "5x"})")),
            "sched.json: decoding .profiles[0].pluginConfig[0]: decoding args for plugin "
            "DynamicResources: time: unknown unit \"x\" in duration \"5x\"");
  EXPECT_EQ(
      Error135(
          R"({"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "DynamicResourcesArgs"})"),
      "sched.json: couldn't decode as KubeSchedulerConfiguration, got "
      "kubescheduler.config.k8s.io/v1, Kind=DynamicResourcesArgs: ");
}

// A metav1.Duration of the wrong JSON type: v1.35's encoding/json names the
// field, v1.26's (Go 1.19) did not.
TEST(ConfigDecodeV135, DurationTypeError) {
  const std::string text = Config(R"("leaderElection": {"leaseDuration": 5})");
  EXPECT_EQ(Error126(text),
            "sched.json: json: cannot unmarshal number into Go value of type string");
  EXPECT_EQ(Error135(text),
            "sched.json: json: cannot unmarshal number into Go struct field "
            "LeaderElectionConfiguration.leaderElection.leaseDuration of type string");
}

// Go's time.ParseDuration, with its three errors.
TEST(ConfigDecode, GoDurations) {
  EXPECT_EQ(ParseGoDuration("1h2m3.5s"), int64_t{3'723'500'000'000});
  EXPECT_EQ(ParseGoDuration("-1.5ms"), int64_t{-1'500'000});
  EXPECT_EQ(ParseGoDuration("+.5us"), int64_t{500});
  EXPECT_EQ(ParseGoDuration("-0"), int64_t{0});
  EXPECT_EQ(ParseGoDuration("1.0000000001s"), int64_t{1'000'000'000});
  EXPECT_EQ(ParseGoDuration("9223372036854775807ns"), INT64_MAX);
  EXPECT_EQ(ParseGoDuration("-9223372036854775808ns"), INT64_MIN);
  EXPECT_EQ(ParseGoDuration("9223372036854775808ns"), std::nullopt);
  auto err = [](std::string_view s) {
    auto r = ParseGoDurationOrError(s);
    return r.ok() ? std::string("<ok>") : r.error().message;
  };
  EXPECT_EQ(err(""), "time: invalid duration \"\"");
  EXPECT_EQ(err(".s"), "time: invalid duration \".s\"");
  EXPECT_EQ(err("soon"), "time: invalid duration \"soon\"");
  EXPECT_EQ(err("5"), "time: missing unit in duration \"5\"");
  EXPECT_EQ(err("5x"), "time: unknown unit \"x\" in duration \"5x\"");
  EXPECT_EQ(err("1s5"), "time: missing unit in duration \"1s5\"");
  EXPECT_EQ(err("9999999999h"), "time: invalid duration \"9999999999h\"");
  EXPECT_EQ(err("5\xC3\xA9"), "time: unknown unit \"\\xc3\\xa9\" in duration \"5\\xc3\\xa9\"");
}

std::filesystem::path SharedDir() {
  for (std::filesystem::path p :
       {std::filesystem::path(KSCHED_SHARED_DIR) / "framework",
        std::filesystem::path(KSCHED_SOURCE_DIR) / "../../shared/framework"})
    if (std::filesystem::is_directory(p)) return p;
  return {};
}

TEST(ConfigDecode, EveryVectorConfigDecodes) {
  std::filesystem::path dir = SharedDir();
  if (dir.empty()) GTEST_SKIP() << "no shared/framework vectors";
  int configs = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const auto name = entry.path().filename().string();
    if (entry.path().extension() != ".json") continue;
    std::ifstream in(entry.path());
    std::stringstream ss;
    ss << in.rdbuf();
    auto j = nlohmann::json::parse(ss.str(), nullptr, false);
    if (j.is_discarded() || !j.contains("config")) continue;
    ++configs;
    auto r = DecodeV126(j["config"].dump(), name);
    EXPECT_TRUE(r.ok()) << r.error().message;
  }
  EXPECT_GT(configs, 0);
}

}  // namespace config_decode_test
}  // namespace ksched::config
