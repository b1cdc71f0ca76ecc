#include "config/validation.h"

#include <gtest/gtest.h>

#include "config/feature_gates.h"
#include "config/load.h"

namespace ksched::config {
namespace config_validation_test {

std::string LoadError(const std::string& body, const FeatureGates& gates = {}) {
  std::string text =
      R"({"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration")" +
      (body.empty() ? "" : ", " + body) + "}";
  auto r = LoadConfiguration(text, "sched.json", gates);
  return r.ok() ? "<ok>" : r.error().message;
}

TEST(ConfigValidation, DefaultIsValid) {
  FeatureGates gates;
  EXPECT_TRUE(ValidateKubeSchedulerConfiguration(DefaultConfiguration(gates), gates).empty());
  gates.volume_capacity_priority = true;
  EXPECT_TRUE(ValidateKubeSchedulerConfiguration(DefaultConfiguration(gates), gates).empty());
  EXPECT_EQ(LoadError(""), "<ok>");
}

TEST(ConfigValidation, TopLevel) {
  EXPECT_EQ(
      LoadError(R"("parallelism": 0)"),
      "sched.json: parallelism: Invalid value: 0: should be an integer value greater than zero");
  EXPECT_EQ(LoadError(R"("parallelism": -1, "percentageOfNodesToScore": 101)"),
            "sched.json: [parallelism: Invalid value: -1: should be an integer value greater than "
            "zero, percentageOfNodesToScore: Invalid value: 101: not in valid range [0-100]]");
  EXPECT_EQ(LoadError(R"("podInitialBackoffSeconds": 0, "podMaxBackoffSeconds": -1)"),
            "sched.json: [podInitialBackoffSeconds: Invalid value: 0: must be greater than 0, "
            "podMaxBackoffSeconds: Invalid value: -1: must be greater than or equal to "
            "PodInitialBackoffSeconds]");
  EXPECT_EQ(LoadError(R"("clientConnection": {"burst": -1})"),
            "sched.json: clientConnection.burst: Invalid value: -1: must be non-negative");
  EXPECT_EQ(LoadError(R"("leaderElection": {"leaseDuration": "5s"})"),
            "sched.json: leaderElection.leaseDuration: Invalid value: 10s: LeaseDuration must be "
            "greater than RenewDeadline");
  EXPECT_EQ(LoadError(R"("leaderElection": {"leaderElect": false, "leaseDuration": "5s"})"),
            "<ok>");
}

TEST(ConfigValidation, Profiles) {
  EXPECT_EQ(LoadError(R"("profiles": [{"schedulerName": "a"}, {}])"),
            "sched.json: profiles[1].schedulerName: Required value");
  EXPECT_EQ(
      LoadError(R"("profiles": [{"schedulerName": "a"}, {"schedulerName": "a"}])"),
      "sched.json: profiles[1].schedulerName: Duplicate value: \"profiles[0].schedulerName\"");
  EXPECT_EQ(LoadError(R"("profiles": [{"schedulerName": "a", "percentageOfNodesToScore": -1}])"),
            "sched.json: profiles[0].percentageOfNodesToScore: Invalid value: -1: not in valid "
            "range [0-100]");
  EXPECT_EQ(LoadError(R"("profiles": [{"schedulerName": "a"},
      {"schedulerName": "b", "plugins": {"queueSort": {"enabled": [{"name": "Other"}], "disabled": [{"name": "*"}]}}}])"),
            "sched.json: profiles[1].plugins.queueSort: Invalid value: "
            "config.PluginSet{Enabled:[]config.Plugin{config.Plugin{Name:\"Other\", Weight:0}}, "
            "Disabled:[]config.Plugin{config.Plugin{Name:\"*\", Weight:0}}}: has to match for all "
            "profiles");
  EXPECT_EQ(
      LoadError(
          R"("profiles": [{"plugins": {"score": {"enabled": [{"name": "SelectorSpread"}]}}}])"),
      "sched.json: profiles[0].plugins.score.enabled[0]: Invalid value: \"SelectorSpread\": "
      "was invalid in version \"v1\" (KubeSchedulerConfiguration is version "
      "\"kubescheduler.config.k8s.io/v1\")");
  EXPECT_EQ(
      LoadError(
          R"("profiles": [{"pluginConfig": [{"name": "NodeAffinity"}, {"name": "NodeAffinity"}]}])"),
      "sched.json: profiles[0].pluginConfig[1]: Duplicate value: \"NodeAffinity\"");
}

TEST(ConfigValidation, Extenders) {
  EXPECT_EQ(
      LoadError(R"("extenders": [{"urlPrefix": "a", "prioritizeVerb": "p", "bindVerb": "b"},
                                         {"urlPrefix": "b", "bindVerb": "b",
                                          "managedResources": [{"name": "cpu"}, {"name": "a/b"}, {"name": "a/b"}]}])"),
      "sched.json: [extenders[0].weight: Invalid value: 0: must have a positive weight applied "
      "to it, extenders[1].managedResources[0].name: Invalid value: \"cpu\": is an invalid "
      "extended resource name, extenders[1].managedResources[2].name: Invalid value: \"a/b\": "
      "duplicate extender managed resource name, extenders: Invalid value: \"found 2 "
      "extenders implementing bind\": only one extender can implement bind]");
}

std::string ArgsError(const std::string& plugin, const std::string& args,
                      const FeatureGates& gates = {}) {
  return LoadError(
      R"("profiles": [{"pluginConfig": [{"name": ")" + plugin + R"(", "args": )" + args + "}]}]",
      gates);
}

TEST(ConfigValidation, InterPodAffinityAndPreemption) {
  EXPECT_EQ(ArgsError("InterPodAffinity", R"({"hardPodAffinityWeight": 101})"),
            "sched.json: profiles[0].pluginConfig[0].args.hardPodAffinityWeight: Invalid value: "
            "101: not in valid range [0, 100]");
  EXPECT_EQ(ArgsError("DefaultPreemption",
                      R"({"minCandidateNodesPercentage": 0, "minCandidateNodesAbsolute": 0})"),
            "sched.json: [profiles[0].pluginConfig[0].args.minCandidateNodesPercentage: Invalid "
            "value: 0: cannot be zero at the same time as minCandidateNodesAbsolute, "
            "profiles[0].pluginConfig[0].args.minCandidateNodesAbsolute: Invalid value: 0: cannot "
            "be zero at the same time as minCandidateNodesPercentage]");
  EXPECT_EQ(ArgsError("DefaultPreemption",
                      R"({"minCandidateNodesPercentage": 101, "minCandidateNodesAbsolute": -1})"),
            "sched.json: [profiles[0].pluginConfig[0].args.minCandidateNodesPercentage: Invalid "
            "value: 101: not in valid range [0, 100], "
            "profiles[0].pluginConfig[0].args.minCandidateNodesAbsolute: Invalid value: -1: not in "
            "valid range [0, inf)]");
}

TEST(ConfigValidation, PodTopologySpread) {
  EXPECT_EQ(
      ArgsError(
          "PodTopologySpread",
          R"({"defaultConstraints": [{"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule"}]})"),
      "sched.json: profiles[0].pluginConfig[0].args.defaultingType: Invalid value: "
      "\"System\": when .defaultConstraints are not empty");
  EXPECT_EQ(ArgsError("PodTopologySpread", R"({"defaultingType": "List", "defaultConstraints": [
      {"maxSkew": 0, "topologyKey": "", "whenUnsatisfiable": "Maybe", "labelSelector": {}},
      {"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule"},
      {"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule"}]})"),
            "sched.json: [profiles[0].pluginConfig[0].args.defaultConstraints[0].maxSkew: Invalid "
            "value: 0: not in valid range (0, inf), "
            "profiles[0].pluginConfig[0].args.defaultConstraints[0].topologyKey: Required value: "
            "can not be empty, "
            "profiles[0].pluginConfig[0].args.defaultConstraints[0].whenUnsatisfiable: Unsupported "
            "value: \"Maybe\": supported values: \"DoNotSchedule\", \"ScheduleAnyway\", "
            "profiles[0].pluginConfig[0].args.defaultConstraints[0].labelSelector: Forbidden: "
            "constraint must not define a selector, as they deduced for each pod, "
            "profiles[0].pluginConfig[0].args.defaultConstraints[2]: Duplicate value: \"{zone, "
            "DoNotSchedule}\"]");
  EXPECT_EQ(ArgsError("PodTopologySpread", R"({"defaultingType": "Other"})"),
            "sched.json: profiles[0].pluginConfig[0].args.defaultingType: Unsupported value: "
            "\"Other\": supported values: \"System\", \"List\"");
}

TEST(ConfigValidation, BalancedAllocation) {
  EXPECT_EQ(ArgsError("NodeResourcesBalancedAllocation",
                      R"({"resources": [{"name": "cpu", "weight": 2}, {"name": "cpu"}]})"),
            "sched.json: [profiles[0].pluginConfig[0].args.resources[0].weight: Invalid value: 2: "
            "must be 1, profiles[0].pluginConfig[0].args.resources[1].name: Duplicate value: "
            "\"cpu\"]");
}

TEST(ConfigValidation, NodeAffinity) {
  EXPECT_EQ(
      ArgsError("NodeAffinity", R"({"addedAffinity": {
      "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
        {"matchExpressions": [{"key": "k", "operator": "Inn", "values": ["v"]},
                              {"key": "k", "operator": "In"}],
         "matchFields": [{"key": "metadata.name", "operator": "Exists"}]}]},
      "preferredDuringSchedulingIgnoredDuringExecution": [
        {"weight": 1, "preference": {"matchExpressions": [{"key": "k", "operator": "Gt", "values": ["x"]}]}}]}})"),
      "sched.json: [profiles[0].pluginConfig[0].args.addedAffinity."
      "requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0]"
      ".operator: Unsupported value: \"Inn\", profiles[0].pluginConfig[0].args.addedAffinity."
      "requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[1]"
      ".values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be "
      "empty, profiles[0].pluginConfig[0].args.addedAffinity."
      "requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0]"
      ".operator: Unsupported value: \"Exists\": supported values: \"In\", \"NotIn\", "
      "profiles[0].pluginConfig[0].args.addedAffinity."
      "preferredDuringSchedulingIgnoredDuringExecution[0].matchExpressions[0].values[0]: "
      "Invalid value: \"x\": for 'Gt', 'Lt' operators, the value must be an integer]");
}

TEST(ConfigValidation, VolumeBinding) {
  EXPECT_EQ(ArgsError("VolumeBinding", R"({"bindTimeoutSeconds": -1})"),
            "sched.json: profiles[0].pluginConfig[0].args.bindTimeoutSeconds: Invalid value: -1: "
            "invalid BindTimeoutSeconds, should not be a negative value");
  EXPECT_EQ(
      ArgsError("VolumeBinding", R"({"shape": [{"utilization": 0, "score": 0}]})"),
      "sched.json: profiles[0].pluginConfig[0].args.shape: Invalid value: "
      "[]config.UtilizationShapePoint{config.UtilizationShapePoint{Utilization:0, Score:0}}: "
      "unexpected field `shape`, remove it or turn on the feature gate VolumeCapacityPriority");
  FeatureGates vcp;
  vcp.volume_capacity_priority = true;
  EXPECT_EQ(
      ArgsError("VolumeBinding",
                R"({"shape": [{"utilization": 50, "score": 11}, {"utilization": 50, "score": 1}]})",
                vcp),
      "sched.json: [profiles[0].pluginConfig[0].args.shape[1].utilization: Invalid value: "
      "50: utilization values must be sorted in increasing order, "
      "profiles[0].pluginConfig[0].args.shape[0].score: Invalid value: 11: not in valid "
      "range [0, 10]]");
}

// v1.35: StorageCapacityScoring replaced VolumeCapacityPriority as the gate
// that allows a shape.
TEST(ConfigValidation, VolumeBindingShapeGateByRelease) {
  FeatureGates v135 = DefaultFeatureGates(SchedulerVersion::kV135);
  EXPECT_EQ(
      ArgsError("VolumeBinding", R"({"shape": [{"utilization": 0, "score": 0}]})", v135),
      "sched.json: profiles[0].pluginConfig[0].args.shape: Invalid value: "
      "[{\"Utilization\":0,\"Score\":0}]: "
      "unexpected field `shape`, remove it or turn on the feature gate StorageCapacityScoring");
  v135.storage_capacity_scoring = true;
  EXPECT_EQ(
      ArgsError("VolumeBinding",
                R"({"shape": [{"utilization": 0, "score": 10}, {"utilization": 100, "score": 0}]})",
                v135),
      "<ok>");
}

// NodeResourcesFit's args are checked when the framework builds the plugin.
TEST(ConfigValidation, NodeResourcesFitWhenThePluginIsBuilt) {
  EXPECT_EQ(
      ArgsError(
          "NodeResourcesFit",
          R"({"scoringStrategy": {"type": "LeastAllocated", "resources": [{"name": "cpu", "weight": 101}]}})"),
      "sched.json: initializing profiles: creating profile for scheduler name "
      "default-scheduler: initializing plugin \"NodeResourcesFit\": "
      "scoringStrategy.resources[0].weight: Invalid value: 101: resource weight of cpu not "
      "in valid range (0, 100]");
  EXPECT_EQ(ArgsError("NodeResourcesFit", R"({"scoringStrategy": {}})"),
            "sched.json: initializing profiles: creating profile for scheduler name "
            "default-scheduler: initializing plugin \"NodeResourcesFit\": scoringStrategy.type: "
            "Unsupported value: \"\": supported values: \"LeastAllocated\", \"MostAllocated\", "
            "\"RequestedToCapacityRatio\"");
  EXPECT_EQ(
      ArgsError("NodeResourcesFit", R"({"scoringStrategy": {"type": "RequestedToCapacityRatio",
      "requestedToCapacityRatio": {"shape": [{"utilization": 60, "score": 1}, {"utilization": 40, "score": 5}]}},
      "ignoredResourceGroups": ["a/b"]})"),
      "sched.json: initializing profiles: creating profile for scheduler name "
      "default-scheduler: initializing plugin \"NodeResourcesFit\": "
      "[ignoredResourceGroups[0]: Invalid value: \"a/b\": resource group name can't contain "
      "'/', scoringStrategy.shape[1].utilization: Invalid value: 40: utilization values must "
      "be sorted in increasing order]");
  // Not built: not checked.
  EXPECT_EQ(
      LoadError(
          R"("profiles": [{"plugins": {"multiPoint": {"disabled": [{"name": "NodeResourcesFit"}]}},
      "pluginConfig": [{"name": "NodeResourcesFit", "args": {"scoringStrategy": {}}}]}])"),
      "<ok>");
}

TEST(ConfigValidation, UnknownPluginsAsTheFrameworkReportsThem) {
  EXPECT_EQ(LoadError(R"("profiles": [{"plugins": {"filter": {"enabled": [{"name": "Nope"}]}}}])"),
            "sched.json: initializing profiles: creating profile for scheduler name "
            "default-scheduler: FilterPlugin \"Nope\" does not exist");
  EXPECT_EQ(LoadError(R"("profiles": [{"schedulerName": "a"}, {"schedulerName": "b",
      "plugins": {"multiPoint": {"enabled": [{"name": "Nope"}]}, "preFilter": {"disabled": [{"name": "*"}]}}}])"),
            "sched.json: initializing profiles: creating profile for scheduler name b: "
            "FilterPlugin \"Nope\" does not exist");
  FeatureGates dra;
  dra.dynamic_resource_allocation = true;
  EXPECT_EQ(LoadError("", dra), "<ok>");
}

TEST(ConfigValidation, AggregateFormatting) {
  ErrorList errs = {{FieldError::Type::kRequired, "a", "", ""},
                    {FieldError::Type::kRequired, "a", "", ""}};
  EXPECT_EQ(AggregateError(errs), "a: Required value");
  errs.push_back({FieldError::Type::kInvalid, "b", "1", "bad"});
  EXPECT_EQ(AggregateError(errs), "[a: Required value, b: Invalid value: 1: bad]");
  EXPECT_EQ(AggregateError({}), "");
}

// ---------------------------------------------------------------- v1.35
// Expected texts are refsched135's (kube-scheduler v1.35.4's validation).

FeatureGates V135() { return DefaultFeatureGates(SchedulerVersion::kV135); }

std::string ArgsError135(const std::string& plugin, const std::string& args,
                         const FeatureGates& gates = V135()) {
  return ArgsError(plugin, args, gates);
}

TEST(ConfigValidationV135, DefaultIsValid) {
  FeatureGates gates = V135();
  EXPECT_TRUE(ValidateKubeSchedulerConfiguration(DefaultConfiguration(gates), gates).empty());
  EXPECT_EQ(LoadError("", gates), "<ok>");
  EXPECT_TRUE(ValidateFramework(DefaultConfiguration(gates), gates).ok());
}

// v1.35 accepts only the "leases" lock (the others left client-go).
TEST(ConfigValidationV135, ResourceLockMustBeLeases) {
  const std::string body = R"("leaderElection": {"resourceLock": "endpointsleases"})";
  EXPECT_EQ(LoadError(body), "<ok>");
  EXPECT_EQ(LoadError(body, V135()),
            "sched.json: leaderElection.resourceLock: Invalid value: \"endpointsleases\": "
            "resourceLock value must be \"leases\"");
  EXPECT_EQ(
      LoadError(R"("leaderElection": {"leaderElect": false, "resourceLock": "endpoints"})", V135()),
      "<ok>");
}

// component-base's wording and v1.35's JSON printing of a metav1.Duration.
TEST(ConfigValidationV135, LeaderElectionDurations) {
  const std::string body = R"("leaderElection": {"leaseDuration": "-1s"})";
  EXPECT_EQ(LoadError(body),
            "sched.json: [leaderElection.leaseDuration: Invalid value: -1s: must be greater than "
            "zero, leaderElection.leaseDuration: Invalid value: 10s: LeaseDuration must be greater "
            "than RenewDeadline]");
  EXPECT_EQ(LoadError(body, V135()),
            "sched.json: [leaderElection.leaseDuration: Invalid value: \"-1s\": must be greater "
            "than zero, leaderElection.leaseDuration: Invalid value: \"10s\": must be greater than "
            "`RenewDeadline`]");
}

TEST(ConfigValidationV135, DuplicateSchedulerName) {
  const std::string body = R"("profiles": [{"schedulerName": "a"}, {"schedulerName": "a"}])";
  EXPECT_EQ(
      LoadError(body),
      "sched.json: profiles[1].schedulerName: Duplicate value: \"profiles[0].schedulerName\"");
  EXPECT_EQ(LoadError(body, V135()), "sched.json: profiles[1].schedulerName: Duplicate value: {}");
}

TEST(ConfigValidationV135, QueueSortMustBeTheSame) {
  const std::string body = R"("profiles": [{"schedulerName": "a"},
      {"schedulerName": "b", "plugins": {"queueSort": {"enabled": [{"name": "PrioritySort"}], "disabled": [{"name": "*"}]}}}])";
  EXPECT_EQ(LoadError(body),
            "sched.json: profiles[1].plugins.queueSort: Invalid value: "
            "config.PluginSet{Enabled:[]config.Plugin{config.Plugin{Name:\"PrioritySort\", "
            "Weight:0}}, Disabled:[]config.Plugin{config.Plugin{Name:\"*\", Weight:0}}}: has to "
            "match for all profiles");
  EXPECT_EQ(LoadError(body, V135()),
            "sched.json: profiles[1].plugins.queueSort: Invalid value: "
            "{\"Enabled\":[{\"Name\":\"PrioritySort\",\"Weight\":0}],\"Disabled\":[{\"Name\":\"*\","
            "\"Weight\":0}]}: must be the same for all profiles");
}

// v1.35 refuses the removed in-tree volume limits plugins at the named
// points and in pluginConfig (not in multiPoint, which NewFramework then
// reports); SelectorSpread is left to NewFramework. The version text is
// kube-scheduler's (the harness prints `is version ""`).
TEST(ConfigValidationV135, InvalidPlugins) {
  FeatureGates gates = V135();
  EXPECT_EQ(
      LoadError(R"("profiles": [{"plugins": {"filter": {"enabled": [{"name": "EBSLimits"}]}}}])",
                gates),
      "sched.json: profiles[0].plugins.filter.enabled[0]: Invalid value: \"EBSLimits\": was "
      "invalid in version \"v1\" (KubeSchedulerConfiguration is version "
      "\"kubescheduler.config.k8s.io/v1\")");
  EXPECT_EQ(
      LoadError(R"("profiles": [{"pluginConfig": [{"name": "GCEPDLimits", "args": {}}]}])", gates),
      "sched.json: profiles[0].pluginConfig[0]: Invalid value: \"GCEPDLimits\": was invalid "
      "in version \"v1\" (KubeSchedulerConfiguration is version "
      "\"kubescheduler.config.k8s.io/v1\")");
  EXPECT_EQ(
      LoadError(
          R"("profiles": [{"plugins": {"multiPoint": {"enabled": [{"name": "AzureDiskLimits"}]}}}])",
          gates),
      "sched.json: initializing profiles: creating profile for scheduler name "
      "default-scheduler: PreFilterPlugin \"AzureDiskLimits\" does not exist");
  const std::string spread =
      R"("profiles": [{"plugins": {"score": {"enabled": [{"name": "SelectorSpread"}]}}}])";
  EXPECT_EQ(LoadError(spread, gates),
            "sched.json: initializing profiles: creating profile for scheduler name "
            "default-scheduler: ScorePlugin \"SelectorSpread\" does not exist");
  // v1.26 knows the volume limits plugins and refuses SelectorSpread.
  EXPECT_EQ(
      LoadError(R"("profiles": [{"plugins": {"filter": {"enabled": [{"name": "EBSLimits"}]}}}])"),
      "<ok>");
  EXPECT_NE(LoadError(spread).find("was invalid in version \"v1\""), std::string::npos);
  // A pluginConfig entry for a plugin no point enables is not checked.
  EXPECT_EQ(LoadError(R"("profiles": [{"pluginConfig": [{"name": "SelectorSpread", "args": {}}]}])",
                      gates),
            "<ok>");
}

TEST(ConfigValidationV135, Shapes) {
  // VolumeBinding's shape needs StorageCapacityScoring in v1.35.
  const std::string shape = R"({"shape": [{"utilization": 0, "score": 0}]})";
  EXPECT_EQ(ArgsError135("VolumeBinding", shape),
            "sched.json: profiles[0].pluginConfig[0].args.shape: Invalid value: "
            "[{\"Utilization\":0,\"Score\":0}]: unexpected field `shape`, remove it or turn on the "
            "feature gate StorageCapacityScoring");
  FeatureGates vcp = V135();
  vcp.volume_capacity_priority = true;  // not a v1.35 gate
  EXPECT_NE(ArgsError135("VolumeBinding", shape, vcp), "<ok>");
  FeatureGates scs = V135();
  scs.storage_capacity_scoring = true;
  const std::string unsorted =
      R"({"shape": [{"utilization": 10, "score": 0}, {"utilization": 5, "score": 11}]})";
  EXPECT_EQ(ArgsError135("VolumeBinding", unsorted, scs),
            "sched.json: [profiles[0].pluginConfig[0].args.shape[1].utilization: Invalid value: 5: "
            "values must be sorted in increasing order, "
            "profiles[0].pluginConfig[0].args.shape[1].score: Invalid value: 11: not in valid "
            "range [0, 10]]");
  EXPECT_EQ(ArgsError135("VolumeBinding", R"({"shape": []})", scs), "<ok>");
  // NodeResourcesFit's shape, checked when the plugin is built.
  const std::string fit = R"({"scoringStrategy": {"type": "RequestedToCapacityRatio",
      "requestedToCapacityRatio": {"shape": [{"utilization": 10, "score": 0}, {"utilization": 5, "score": 1}]}}})";
  EXPECT_EQ(ArgsError135("NodeResourcesFit", fit),
            "sched.json: initializing profiles: creating profile for scheduler name "
            "default-scheduler: initializing plugin \"NodeResourcesFit\": "
            "scoringStrategy.shape[1].utilization: Invalid value: 5: values must be sorted in "
            "increasing order");
  EXPECT_NE(ArgsError("NodeResourcesFit", fit).find("utilization values must be sorted"),
            std::string::npos);
}

TEST(ConfigValidationV135, NodeAffinityValues) {
  auto na = [](const std::string& exprs) {
    return R"({"addedAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [{"matchExpressions": )" +
           exprs + "}]}}}";
  };
  const std::string prefix =
      "sched.json: profiles[0].pluginConfig[0].args.addedAffinity."
      "requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].";
  EXPECT_EQ(ArgsError135("NodeAffinity", na(R"([{"key": "a", "operator": "In"}])")),
            prefix +
                "values: Invalid value: null: for 'in', 'notin' operators, values set can't "
                "be empty");
  EXPECT_EQ(ArgsError135("NodeAffinity",
                         na(R"([{"key": "a", "operator": "Exists", "values": ["x", "y"]}])")),
            prefix +
                "values: Invalid value: [\"x\",\"y\"]: values set must be empty for exists "
                "and does not exist");
  EXPECT_EQ(
      ArgsError("NodeAffinity", na(R"([{"key": "a", "operator": "Exists", "values": ["x"]}])")),
      prefix +
          "values: Invalid value: []string{\"x\"}: values set must be empty for exists "
          "and does not exist");
  // v1.35's component-helpers lists the operators.
  EXPECT_EQ(
      ArgsError135("NodeAffinity", na(R"([{"key": "a", "operator": "Foo", "values": ["x"]}])")),
      prefix +
          "operator: Unsupported value: \"Foo\": supported values: \"In\", \"NotIn\", "
          "\"Exists\", \"DoesNotExist\", \"Gt\", \"Lt\"");
}

TEST(ConfigValidationV135, DynamicResourcesArgs) {
  FeatureGates gates = V135();
  EXPECT_EQ(ArgsError135("DynamicResources", R"({"filterTimeout": "0s"})"), "<ok>");
  EXPECT_EQ(ArgsError135("DynamicResources", R"({"filterTimeout": "-1s"})"),
            "sched.json: profiles[0].pluginConfig[0].args.filterTimeout: Invalid value: \"-1s\": "
            "must be zero or positive");
  EXPECT_EQ(
      ArgsError135("DynamicResources", R"({"bindingTimeout": "500ms", "filterTimeout": "-2s"})"),
      "sched.json: [profiles[0].pluginConfig[0].args.filterTimeout: Invalid value: \"-2s\": "
      "must be zero or positive, profiles[0].pluginConfig[0].args.bindingTimeout: "
      "Forbidden: DRADeviceBindingConditions or DRAResourceClaimDeviceStatus feature gate "
      "is disabled]");
  FeatureGates no_filter = gates;
  no_filter.dra_scheduler_filter_timeout = false;
  EXPECT_EQ(ArgsError135("DynamicResources", R"({"filterTimeout": "-1s"})", no_filter),
            "sched.json: profiles[0].pluginConfig[0].args.filterTimeout: Forbidden: "
            "DRASchedulingFilterTimeout feature gate is disabled");
  FeatureGates binding = gates;
  binding.dra_device_binding_conditions = true;
  EXPECT_EQ(ArgsError135("DynamicResources", R"({"bindingTimeout": "500ms"})", binding),
            "sched.json: profiles[0].pluginConfig[0].args.bindingTimeout: Invalid value: "
            "\"500ms\": must be at least 1 second");
  EXPECT_EQ(ArgsError135("DynamicResources", R"({"bindingTimeout": "1s"})", binding), "<ok>");
  // v1.26: the plugin has no args kind, so nothing is checked.
  FeatureGates dra;
  dra.dynamic_resource_allocation = true;
  EXPECT_EQ(ArgsError("DynamicResources", R"({"filterTimeout": "-1s"})", dra), "<ok>");
}

}  // namespace config_validation_test
}  // namespace ksched::config
