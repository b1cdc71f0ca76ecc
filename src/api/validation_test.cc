#include "api/validation.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "api/decode.h"
#include "api/defaults.h"
#include "tests/fixtures.h"

namespace ksched {
namespace api_validation_test {

using ::ksched::testing::TestNode;
using ::ksched::testing::TestPod;
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

// A pod with `spec` (JSON) merged into a minimal valid one, defaulted as
// the API server of `release` would before validating.
std::vector<std::string> PodErrors(std::string_view spec, ApiRelease release = ApiRelease::kV135) {
  Pod p = TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":)" + std::string(spec) + "}");
  const ApiServerOptions api = ApiServerOptions::For(release);
  SetPodDefaults(&p, api);
  return ValidatePod(p, api);
}
constexpr ApiRelease kV126 = ApiRelease::kV126;

std::string NodeAffinity(std::string_view requirement) {
  return R"({"containers":[{"name":"c"}],"affinity":{"nodeAffinity":{
      "requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[
        {"matchExpressions":[)" +
         std::string(requirement) + "]}]}}}}";
}

constexpr std::string_view kTermPath =
    "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution."
    "nodeSelectorTerms[0].matchExpressions[0]";

TEST(ValidatePod, ValidPodHasNoErrors) {
  EXPECT_THAT(PodErrors(R"({"containers":[{"name":"c","resources":{"requests":{"cpu":"1"},
      "limits":{"cpu":"2","nvidia.com/gpu":1}},"ports":[{"containerPort":80,"hostPort":80}]}],
      "nodeSelector":{"disk":"ssd"},
      "tolerations":[{"key":"k","operator":"Equal","value":"v","effect":"NoSchedule"},
                     {"operator":"Exists"}]})"),
              IsEmpty());
}

TEST(ValidatePod, NodeAffinityUnknownOperator) {
  EXPECT_THAT(PodErrors(NodeAffinity(R"({"key":"zone","operator":"Inn","values":["a"]})")),
              ElementsAre(std::string(kTermPath) +
                          ".operator: Invalid value: \"Inn\": not a valid selector operator (In, "
                          "NotIn, Exists, DoesNotExist, Gt or Lt)"));
}

TEST(ValidatePod, NodeAffinityValuesPerOperator) {
  EXPECT_THAT(PodErrors(NodeAffinity(R"({"key":"zone","operator":"In"})")),
              ElementsAre(std::string(kTermPath) +
                          ".values: Required value: must be specified when `operator` is 'In' or "
                          "'NotIn'"));
  EXPECT_THAT(PodErrors(NodeAffinity(R"({"key":"zone","operator":"Exists","values":["a"]})")),
              ElementsAre(HasSubstr(".values: Forbidden: may not be specified when `operator` is "
                                    "'Exists' or 'DoesNotExist'")));
  EXPECT_THAT(PodErrors(NodeAffinity(R"({"key":"cores","operator":"Gt","values":["1","2"]})")),
              ElementsAre(HasSubstr("must be specified single value when `operator` is 'Lt' or "
                                    "'Gt'")));
  EXPECT_THAT(PodErrors(NodeAffinity(R"({"key":"cores","operator":"Lt","values":["four"]})")),
              ElementsAre(HasSubstr(".values[0]: Invalid value: \"four\": must be an integer")));
  EXPECT_THAT(PodErrors(NodeAffinity(R"({"key":"cores","operator":"Gt","values":["4"]})")),
              IsEmpty());
  EXPECT_THAT(PodErrors(NodeAffinity(R"({"key":"bad key","operator":"Exists"})")),
              ElementsAre(HasSubstr(".key: Invalid value: \"bad key\": name part must consist")));
}

TEST(ValidatePod, NodeSelectorNeedsATermAndFieldsOnlyName) {
  EXPECT_THAT(PodErrors(R"({"containers":[{"name":"c"}],"affinity":{"nodeAffinity":{
      "requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[]}}}})"),
              ElementsAre(HasSubstr("nodeSelectorTerms: Required value: must have at least one "
                                    "node selector term")));
  EXPECT_THAT(PodErrors(R"({"containers":[{"name":"c"}],"affinity":{"nodeAffinity":{
      "requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[
        {"matchFields":[{"key":"metadata.labels","operator":"Exists"}]}]}}}})"),
              ElementsAre(HasSubstr("matchFields[0].operator: Invalid value: \"Exists\""),
                          HasSubstr("matchFields[0].key: Invalid value: \"metadata.labels\"")));
}

TEST(ValidatePod, PodAffinityTopologyKeyAndSelector) {
  constexpr std::string_view kSpec = R"({"containers":[{"name":"c"}],"affinity":{"podAntiAffinity":{
      "requiredDuringSchedulingIgnoredDuringExecution":[
        {"labelSelector":{"matchExpressions":[{"key":"app","operator":"In"}]},"topologyKey":""}],
      "preferredDuringSchedulingIgnoredDuringExecution":[{"weight":5,"podAffinityTerm":{
        "labelSelector":{"matchExpressions":[{"key":"app","operator":"Gt","values":["1"]}]},
        "namespaces":["Not_A_Namespace"],"topologyKey":"zone"}}]}}})";
  // v1.35 names the field as upstream does (as v1.15 did): "namespace".
  EXPECT_THAT(PodErrors(kSpec),
              Contains(HasSubstr("podAffinityTerm.namespace: Invalid value: \"Not_A_Namespace\"")));
  EXPECT_THAT(
      PodErrors(kSpec, kV126),
      ElementsAre(
          "spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0]."
          "labelSelector.matchExpressions[0].values: Required value: must be specified when "
          "`operator` is 'In' or 'NotIn'",
          "spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0]."
          "topologyKey: Required value: can not be empty",
          HasSubstr("podAffinityTerm.labelSelector.matchExpressions[0].operator: Invalid value: "
                    "\"Gt\": not a valid selector operator (In, NotIn, Exists or DoesNotExist)"),
          HasSubstr("podAffinityTerm.namespaces: Invalid value: \"Not_A_Namespace\"")));
}

TEST(ValidatePod, TolerationsAsTheApiServer) {
  EXPECT_THAT(PodErrors(R"({"containers":[{"name":"c"}],"tolerations":[
      {"key":"k","operator":"Equal","value":"v","effect":"NoSchedul"}]})"),
              ElementsAre("spec.tolerations[0].effect: Unsupported value: \"NoSchedul\": "
                          "supported values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\""));
  EXPECT_THAT(PodErrors(R"({"containers":[{"name":"c"}],"tolerations":[
      {"key":"k","operator":"Equals","value":"v"}]})"),
              ElementsAre("spec.tolerations[0].operator: Unsupported value: \"Equals\": supported "
                          "values: \"Equal\", \"Exists\""));
  EXPECT_THAT(PodErrors(R"({"containers":[{"name":"c"}],"tolerations":[{"value":"v"}]})"),
              ElementsAre(HasSubstr("operator must be Exists when `key` is empty")));
  EXPECT_THAT(PodErrors(R"({"containers":[{"name":"c"}],"tolerations":[
      {"key":"k","operator":"Exists","value":"v"}]})"),
              ElementsAre(HasSubstr("value must be empty when `operator` is 'Exists'")));
  EXPECT_THAT(PodErrors(R"({"containers":[{"name":"c"}],"tolerations":[
      {"key":"k","operator":"Exists","effect":"NoSchedule","tolerationSeconds":5}]})"),
              ElementsAre("spec.tolerations[0].effect: Invalid value: \"NoSchedule\": effect must "
                          "be 'NoExecute' when `tolerationSeconds` is set"));
}

TEST(ValidatePod, ResourcesAsTheV126ApiServer) {
  EXPECT_THAT(PodErrors(R"({"containers":[{"name":"c","resources":{
      "requests":{"cpu":"3"},"limits":{"cpu":"2"}}}]})",
                        kV126),
              ElementsAre("spec.containers[0].resources.requests: Invalid value: \"3\": must be "
                          "less than or equal to cpu limit"));
  EXPECT_THAT(PodErrors(R"({"containers":[{"name":"c","resources":{
      "requests":{"nvidia.com/gpu":1}}}]})",
                        kV126),
              ElementsAre(HasSubstr("resources.limits: Required value: Limit must be set for non "
                                    "overcommitable resources (nvidia.com/gpu)")));
  EXPECT_THAT(PodErrors(R"({"containers":[{"name":"c","resources":{
      "requests":{"nvidia.com/gpu":1},"limits":{"nvidia.com/gpu":2}}}]})",
                        kV126),
              ElementsAre(HasSubstr("must be equal to nvidia.com/gpu limit")));
  EXPECT_THAT(PodErrors(R"({"containers":[{"name":"c","resources":{
      "limits":{"nvidia.com/gpu":"500m"}}}]})",
                        kV126),
              ElementsAre(HasSubstr("resources.limits[nvidia.com/gpu]: Invalid value: \"500m\": "
                                    "must be an integer"),
                          HasSubstr("resources.requests[nvidia.com/gpu]: Invalid value: "
                                    "\"500m\": must be an integer")));
  EXPECT_THAT(
      PodErrors(R"({"containers":[{"name":"c","resources":{"requests":{"gpu":1}}}]})", kV126),
      ElementsAre(HasSubstr("requests[gpu]: Invalid value: \"gpu\": must be a standard "
                            "resource for containers (cpu,")));
}

TEST(ValidatePod, Ports) {
  EXPECT_THAT(PodErrors(R"({"containers":[{"name":"c","ports":[
      {"containerPort":70000},{"containerPort":80,"hostPort":-1},
      {"containerPort":81,"protocol":"HTTP"}]}]})"),
              ElementsAre(HasSubstr("ports[0].containerPort: Invalid value: 70000: must be "
                                    "between 1 and 65535, inclusive"),
                          HasSubstr("ports[1].hostPort: Invalid value: -1"),
                          "spec.containers[0].ports[2].protocol: Unsupported value: \"HTTP\": "
                          "supported values: \"SCTP\", \"TCP\", \"UDP\""));
  EXPECT_THAT(PodErrors(R"({"hostNetwork":true,"containers":[{"name":"c","ports":[
      {"containerPort":80,"hostPort":81}]}]})"),
              ElementsAre(HasSubstr("must match `containerPort` when `hostNetwork` is true")));
}

TEST(ValidatePod, WeightsAndLabels) {
  Pod p = TestPod(R"({"kind":"Pod","metadata":{"name":"p","labels":{"app":"a b"}},
      "spec":{"containers":[{"name":"c"}],"nodeSelector":{"-bad":"x"}}})");
  EXPECT_THAT(ValidatePod(p), ElementsAre(HasSubstr("metadata.labels: Invalid value: \"a b\""),
                                          HasSubstr("spec.nodeSelector: Invalid value: \"-bad\"")));
}

TEST(ValidateNode, TaintEffectsKeysAndDuplicates) {
  Node n = TestNode(R"({"kind":"Node","metadata":{"name":"n"},"spec":{"taints":[
      {"key":"gpu","value":"true","effect":"NoSchedul"},
      {"key":"a","effect":""},
      {"key":"b","effect":"NoExecute"},{"key":"b","effect":"NoExecute"}]}})");
  EXPECT_THAT(ValidateNode(n),
              ElementsAre("spec.taints[0].effect: Unsupported value: \"NoSchedul\": supported "
                          "values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\"",
                          "spec.taints[1].effect: Required value",
                          HasSubstr("spec.taints[3]: Duplicate value: b:NoExecute")));
}

TEST(ValidateObjects, NamesFileObjectAndField) {
  ObjectSet set;
  ASSERT_TRUE(DecodeObjects(R"({"kind":"List","items":[
      {"kind":"Node","metadata":{"name":"n1"},"spec":{"taints":[{"key":"k","effect":"Bad"}]}},
      {"kind":"ReplicaSet","metadata":{"name":"rs","namespace":"shop"},
       "spec":{"selector":{"matchExpressions":[{"key":"app","operator":"in","values":["a"]}]}}},
      {"kind":"Service","metadata":{"name":"svc"},"spec":{"selector":{"app":"?"}}}]})",
                            "snap.json", &set)
                  .ok());
  EXPECT_THAT(ValidateObjects(set, "snap.json"),
              ElementsAre(HasSubstr("snap.json: Node n1: spec.taints[0].effect: Unsupported"),
                          HasSubstr("snap.json: Service default/svc: spec.selector: Invalid value: "
                                    "\"?\""),
                          HasSubstr("snap.json: ReplicaSet shop/rs: spec.selector."
                                    "matchExpressions[0].operator: Invalid value: \"in\"")));
}

TEST(ValidateObjects, StopsAfterMaxErrors) {
  std::vector<Pod> pods;
  for (int i = 0; i < 5; ++i) {
    pods.push_back(
        TestPod(R"({"kind":"Pod","metadata":{"name":"p)" + std::to_string(i) +
                R"("},"spec":{"containers":[{"name":"c"}],"tolerations":[{"value":"v"}]}})"));
  }
  std::vector<std::string> errs = ValidatePods(pods, "f.yaml", {}, 2);
  ASSERT_EQ(errs.size(), 3u);
  EXPECT_EQ(errs[2], "... and 3 more invalid field(s)");
}

}  // namespace api_validation_test
}  // namespace ksched

namespace ksched {
namespace api_validation_test {

TEST(ValidatePod, TopologySpreadConstraintsAsV126) {
  auto errors = [](std::string_view constraints) {
    return PodErrors(R"({"containers":[{"name":"c"}],"topologySpreadConstraints":)" +
                         std::string(constraints) + "}",
                     kV126);
  };
  constexpr std::string_view kPath = "spec.topologySpreadConstraints[0].";
  EXPECT_THAT(errors(R"([{"maxSkew":1,"topologyKey":"zone","whenUnsatisfiable":"DoNotSchedule",
      "minDomains":2,"nodeAffinityPolicy":"Honor","nodeTaintsPolicy":"Ignore",
      "labelSelector":{"matchLabels":{"app":"a"}},"matchLabelKeys":["pod-template-hash"]},
      {"maxSkew":3,"topologyKey":"zone","whenUnsatisfiable":"ScheduleAnyway"}])"),
              IsEmpty());
  EXPECT_THAT(
      errors(R"([{"maxSkew":0,"topologyKey":"zone","whenUnsatisfiable":"Never"}])"),
      ElementsAre(std::string(kPath) + "maxSkew: Invalid value: 0: must be greater than zero",
                  std::string(kPath) +
                      "whenUnsatisfiable: Unsupported value: \"Never\": supported values: "
                      "\"DoNotSchedule\", \"ScheduleAnyway\""));
  EXPECT_THAT(
      errors(R"([{"maxSkew":1,"whenUnsatisfiable":"ScheduleAnyway","minDomains":0}])"),
      ElementsAre(std::string(kPath) + "topologyKey: Required value: can not be empty",
                  std::string(kPath) + "minDomains: Invalid value: 0: must be greater than zero",
                  std::string(kPath) + "minDomains: Invalid value: 0: can only use minDomains if "
                                       "whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway"));
  EXPECT_THAT(errors(R"([{"maxSkew":1,"topologyKey":"z","whenUnsatisfiable":"DoNotSchedule",
      "nodeAffinityPolicy":"honor","nodeTaintsPolicy":"Always"}])"),
              ElementsAre(std::string(kPath) +
                              "nodeAffinityPolicy: Unsupported value: \"honor\": supported values: "
                              "\"Honor\", \"Ignore\"",
                          std::string(kPath) +
                              "nodeTaintsPolicy: Unsupported value: \"Always\": supported values: "
                              "\"Honor\", \"Ignore\""));
  EXPECT_THAT(
      errors(R"([{"maxSkew":1,"topologyKey":"z","whenUnsatisfiable":"DoNotSchedule"},
      {"maxSkew":2,"topologyKey":"z","whenUnsatisfiable":"DoNotSchedule"}])"),
      ElementsAre(std::string(kPath) +
                  "{topologyKey, whenUnsatisfiable}: Duplicate value: \"{z, DoNotSchedule}\""));
  EXPECT_THAT(
      errors(R"([{"maxSkew":1,"topologyKey":"z","whenUnsatisfiable":"DoNotSchedule",
      "labelSelector":{"matchExpressions":[{"key":"app","operator":"Exists"}]},
      "matchLabelKeys":["app","bad key"]}])"),
      ElementsAre(std::string(kPath) + "matchLabelKeys[0]: Invalid value: \"app\": exists in both "
                                       "matchLabelKeys and labelSelector",
                  HasSubstr(std::string(kPath) + "matchLabelKeys[1]: Invalid value: "
                                                 "\"bad key\"")));
}

TEST(ValidatePod, NamespaceSelectorIsALabelSelector) {
  EXPECT_THAT(PodErrors(R"({"containers":[{"name":"c"}],"affinity":{"podAffinity":{
      "requiredDuringSchedulingIgnoredDuringExecution":[{"topologyKey":"zone",
      "namespaceSelector":{"matchExpressions":[{"key":"team","operator":"Is"}]}}]}}})"),
              ElementsAre(HasSubstr("spec.affinity.podAffinity."
                                    "requiredDuringSchedulingIgnoredDuringExecution[0]."
                                    "namespaceSelector.matchExpressions[0].operator: Invalid "
                                    "value: \"Is\"")));
}

}  // namespace api_validation_test
}  // namespace ksched

// v1.35's rules (ApiServerOptions' default), each beside what v1.26 says of
// the same pod.
namespace ksched {
namespace api_validation_test {

std::vector<std::string> PodErrorsWith(std::string_view spec, const ApiServerOptions& api,
                                       std::string_view labels = "{}") {
  Pod p = TestPod(R"({"kind":"Pod","metadata":{"name":"p","labels":)" + std::string(labels) +
                  R"(},"spec":)" + std::string(spec) + "}");
  SetPodDefaults(&p, api);
  return ValidatePod(p, api);
}

std::string Spread(std::string_view selector, std::string_view keys) {
  return R"({"containers":[{"name":"c"}],"topologySpreadConstraints":[{"maxSkew":1,
      "topologyKey":"zone","whenUnsatisfiable":"DoNotSchedule")" +
         (selector.empty() ? std::string() : ",\"labelSelector\":" + std::string(selector)) +
         R"(,"matchLabelKeys":)" + std::string(keys) + "}]}";
}

TEST(ValidatePodV135, SpreadSelectorsMergedByTheApiServerAreValid) {
  // What a v1.34+ API server stores for a Deployment's pod.
  const std::string merged = Spread(R"({"matchLabels":{"app":"web"},"matchExpressions":[
      {"key":"pod-template-hash","operator":"In","values":["5d8f7c9b4"]}]})",
                                    R"(["pod-template-hash"])");
  EXPECT_THAT(PodErrors(merged), IsEmpty());
  EXPECT_THAT(PodErrors(merged, kV126),
              ElementsAre("spec.topologySpreadConstraints[0].matchLabelKeys[0]: Invalid value: "
                          "\"pod-template-hash\": exists in both matchLabelKeys and "
                          "labelSelector"));
  // With the merge gate off, v1.35 keeps the legacy rule.
  ApiServerOptions no_merge;
  no_merge.match_label_keys_selector_merge = false;
  EXPECT_THAT(PodErrorsWith(merged, no_merge),
              ElementsAre(HasSubstr("matchLabelKeys[0]: Invalid value: \"pod-template-hash\": "
                                    "exists in both matchLabelKeys and labelSelector")));
}

TEST(ValidatePodV135, SpreadKeyGivenTwiceIsRefused) {
  // In matchLabels and in matchExpressions: upstream's path has no
  // ".matchLabelKeys" segment.
  EXPECT_THAT(PodErrors(Spread(R"({"matchLabels":{"h":"1"},"matchExpressions":[
      {"key":"h","operator":"In","values":["1"]}]})",
                               R"(["h"])")),
              ElementsAre("spec.topologySpreadConstraints[0][0]: Invalid value: \"h\": exists in "
                          "both matchLabelKeys and labelSelector"));
  EXPECT_THAT(PodErrors(Spread(R"({"matchExpressions":[
      {"key":"h","operator":"In","values":["1"]},{"key":"h","operator":"Exists"}]})",
                               R"(["x","h"])")),
              ElementsAre("spec.topologySpreadConstraints[0][1]: Invalid value: \"h\": exists in "
                          "both matchLabelKeys and labelSelector"));
  EXPECT_THAT(PodErrors(Spread("", R"(["h"])")),
              ElementsAre("spec.topologySpreadConstraints[0].matchLabelKeys: Forbidden: must not "
                          "be specified when labelSelector is not set"));
  // v1.35 also validates the constraint's selector.
  EXPECT_THAT(PodErrors(Spread(R"({"matchExpressions":[{"key":"a","operator":"Is"}]})", "[]")),
              ElementsAre(HasSubstr("spec.topologySpreadConstraints[0].labelSelector."
                                    "matchExpressions[0].operator: Invalid value: \"Is\"")));
  EXPECT_THAT(
      PodErrors(Spread(R"({"matchExpressions":[{"key":"a","operator":"Is"}]})", "[]"), kV126),
      IsEmpty());
}

TEST(ValidatePodV135, AffinityMatchAndMismatchLabelKeys) {
  auto term = [](std::string_view body) {
    return R"({"containers":[{"name":"c"}],"affinity":{"podAntiAffinity":{
        "requiredDuringSchedulingIgnoredDuringExecution":[{"topologyKey":"zone")" +
           std::string(body) + "}]}}}";
  };
  constexpr std::string_view kTerm =
      "spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0]";
  // Stored after the merge: valid.
  EXPECT_THAT(PodErrors(term(R"(,"labelSelector":{"matchLabels":{"app":"web"},
      "matchExpressions":[{"key":"h","operator":"In","values":["1"]},
      {"key":"t","operator":"NotIn","values":["a"]}]},
      "matchLabelKeys":["h"],"mismatchLabelKeys":["t"])")),
              IsEmpty());
  EXPECT_THAT(
      PodErrors(term(R"(,"matchLabelKeys":["h"],"mismatchLabelKeys":["t"])")),
      ElementsAre(std::string(kTerm) + ".matchLabelKeys: Forbidden: must not be specified when "
                                       "labelSelector is not set",
                  std::string(kTerm) + ".mismatchLabelKeys: Forbidden: must not be specified when "
                                       "labelSelector is not set"));
  EXPECT_THAT(
      PodErrors(term(R"(,"labelSelector":{},"matchLabelKeys":["h","bad key"],
      "mismatchLabelKeys":["h"])")),
      ElementsAre(HasSubstr(std::string(kTerm) + ".matchLabelKeys[1]: Invalid value: "
                                                 "\"bad key\""),
                  std::string(kTerm) + ".matchLabelKeys[0]: Invalid value: \"h\": exists in both "
                                       "matchLabelKeys and mismatchLabelKeys"));
  EXPECT_THAT(PodErrors(term(R"(,"labelSelector":{"matchLabels":{"h":"1"},
      "matchExpressions":[{"key":"h","operator":"In","values":["1"]}]},"matchLabelKeys":["h"])")),
              ElementsAre(std::string(kTerm) +
                          "[0]: Invalid value: \"h\": exists in both matchLabelKeys and "
                          "labelSelector"));
  // v1.26 does not know the fields.
  EXPECT_THAT(PodErrors(term(R"(,"matchLabelKeys":["h"],"mismatchLabelKeys":["h"])"), kV126),
              IsEmpty());
}

TEST(ValidatePodV135, ContainerRestartPolicy) {
  constexpr std::string_view kSidecar = R"({"containers":[{"name":"c"}],
      "initContainers":[{"name":"log","restartPolicy":"Always"},{"name":"i","restartPolicy":"Never"},
      {"name":"j","restartPolicy":"Sometimes"}]})";
  EXPECT_THAT(PodErrors(kSidecar),
              ElementsAre("spec.initContainers[2].restartPolicy: Unsupported value: "
                          "\"Sometimes\": supported values: \"Always\", \"Never\", \"OnFailure\""));
  ApiServerOptions no_rules;
  no_rules.container_restart_rules = false;
  EXPECT_THAT(PodErrorsWith(kSidecar, no_rules),
              ElementsAre("spec.initContainers[1].restartPolicy: Unsupported value: \"Never\": "
                          "supported values: \"Always\"",
                          "spec.initContainers[2].restartPolicy: Unsupported value: "
                          "\"Sometimes\": supported values: \"Always\""));
  constexpr std::string_view kRegular =
      R"({"containers":[{"name":"c","restartPolicy":"OnFailure"}]})";
  EXPECT_THAT(PodErrors(kRegular), IsEmpty());
  EXPECT_THAT(PodErrorsWith(kRegular, no_rules),
              ElementsAre("spec.containers[0].restartPolicy: Forbidden: may not be set for "
                          "non-init containers"));
  EXPECT_THAT(PodErrors(kSidecar, kV126), IsEmpty());
}

TEST(ValidatePodV135, ResizePolicy) {
  EXPECT_THAT(PodErrors(R"({"containers":[{"name":"c","resizePolicy":[
      {"resourceName":"cpu","restartPolicy":"NotRequired"},
      {"resourceName":"memory","restartPolicy":"RestartContainer"}]}]})"),
              IsEmpty());
  EXPECT_THAT(PodErrors(R"({"restartPolicy":"Never","containers":[{"name":"c","resizePolicy":[
      {"resourceName":"cpu","restartPolicy":"RestartContainer"},
      {"resourceName":"cpu","restartPolicy":"Sometimes"},
      {"resourceName":"gpu","restartPolicy":"NotRequired"}]}]})"),
              ElementsAre("spec.containers[0].resizePolicy: Invalid value: \"RestartContainer\": "
                          "must be 'NotRequired' when `restartPolicy` is 'Never'",
                          "spec.containers[0].resizePolicy[1]: Duplicate value: \"cpu\"",
                          "spec.containers[0].resizePolicy: Unsupported value: \"Sometimes\": "
                          "supported values: \"NotRequired\", \"RestartContainer\"",
                          "spec.containers[0].resizePolicy: Invalid value: \"Sometimes\": must "
                          "be 'NotRequired' when `restartPolicy` is 'Never'",
                          "spec.containers[0].resizePolicy: Unsupported value: \"gpu\": "
                          "supported values: \"cpu\", \"memory\""));
}

TEST(ValidatePodV135, PodLevelResources) {
  // Requests at least the containers' (a sidecar adds to them), each
  // container's limit within the pod's.
  constexpr std::string_view kPod = R"({"resources":{"requests":{"cpu":"1","memory":"1Gi"},
      "limits":{"cpu":"2","memory":"2Gi"}},
      "initContainers":[{"name":"s","restartPolicy":"Always","resources":{"requests":{"cpu":"500m"}}}],
      "containers":[{"name":"c","resources":{"requests":{"cpu":"750m","memory":"512Mi"},
      "limits":{"memory":"3Gi"}}}]})";
  EXPECT_THAT(PodErrors(kPod),
              ElementsAre("spec.resources.requests[cpu]: Invalid value: \"1\": must be greater "
                          "than or equal to aggregate container requests of 1250m",
                          "spec.resources.containers[0][memory].limits: Invalid value: \"3Gi\": "
                          "must be less than or equal to pod limits of 2Gi"));
  EXPECT_THAT(PodErrors(R"({"containers":[{"name":"c"}],"resources":{
      "requests":{"ephemeral-storage":"1Gi","cpu":"2"},"limits":{"cpu":"1"}}})"),
              ElementsAre("spec.resources.requests[ephemeral-storage]: Unsupported value: "
                          "\"ephemeral-storage\": supported values: \"cpu\", \"hugepages-\", "
                          "\"memory\"",
                          "spec.resources.requests: Invalid value: \"2\": must be less than or "
                          "equal to cpu limit of 1"));
  ApiServerOptions off;
  off.pod_level_resources = false;
  EXPECT_THAT(PodErrorsWith(kPod, off), IsEmpty());
  EXPECT_THAT(PodErrors(kPod, kV126), IsEmpty());
}

TEST(ValidatePodV135, SchedulingGates) {
  constexpr std::string_view kGates = R"({"containers":[{"name":"c"}],
      "schedulingGates":[{"name":"example.com/quota"},{"name":"bad gate"},{"name":"example.com/quota"}]})";
  EXPECT_THAT(PodErrors(kGates),
              ElementsAre(HasSubstr("spec.schedulingGates[1]: Invalid value: \"bad gate\": name "
                                    "part must consist"),
                          "spec.schedulingGates[2]: Duplicate value: \"example.com/quota\""));
  EXPECT_THAT(PodErrors(kGates, kV126), IsEmpty());
}

TEST(ValidatePodV135, TolerationComparisonOperators) {
  constexpr std::string_view kLt = R"({"containers":[{"name":"c"}],"tolerations":[
      {"key":"cost","operator":"Lt","value":"007","effect":"NoSchedule"}]})";
  // The gate is off: upstream lists all four operators while refusing two.
  EXPECT_THAT(PodErrors(kLt), ElementsAre("spec.tolerations[0].operator: Unsupported value: "
                                          "\"Lt\": supported values: \"Equal\", \"Exists\", "
                                          "\"Lt\", \"Gt\""));
  EXPECT_THAT(PodErrors(kLt, kV126), ElementsAre("spec.tolerations[0].operator: Unsupported "
                                                 "value: \"Lt\": supported values: \"Equal\", "
                                                 "\"Exists\""));
  ApiServerOptions on;
  on.taint_toleration_comparison_operators = true;
  EXPECT_THAT(PodErrorsWith(kLt, on),
              ElementsAre("spec.tolerations[0].value: Invalid value: \"007\": must be a valid "
                          "decimal integer in canonical form"));
  EXPECT_THAT(PodErrorsWith(R"({"containers":[{"name":"c"}],"tolerations":[
      {"key":"cost","operator":"Gt","value":"99999999999999999999"}]})",
                            on),
              ElementsAre("spec.tolerations[0].value: Invalid value: \"99999999999999999999\": "
                          "strconv.ParseInt: parsing \"99999999999999999999\": value out of "
                          "range"));
}

TEST(ValidatePodV135, ResourceMessages) {
  EXPECT_THAT(PodErrors(R"({"containers":[{"name":"c","resources":{
      "requests":{"cpu":"3","memory":"2Gi"},"limits":{"cpu":"2","memory":"1Gi"}}}]})"),
              ElementsAre("spec.containers[0].resources.requests: Invalid value: \"3\": must be "
                          "less than or equal to cpu limit of 2",
                          "spec.containers[0].resources.requests: Invalid value: \"2Gi\": must be "
                          "less than or equal to memory limit of 1Gi"));
  EXPECT_THAT(PodErrors(R"({"containers":[{"name":"c","resources":{
      "requests":{"nvidia.com/gpu":1}}}]})"),
              ElementsAre("spec.containers[0].resources.limits: Required value: Limit must be "
                          "set for non overcommitable resources"));
  EXPECT_THAT(PodErrors(R"({"containers":[{"name":"c","resources":{
      "requests":{"nvidia.com/gpu":1},"limits":{"nvidia.com/gpu":2}}}]})"),
              ElementsAre(HasSubstr("must be equal to nvidia.com/gpu limit of 2")));
  EXPECT_THAT(PodErrors(R"({"containers":[{"name":"c","resources":{"requests":{"gpu":1,"pods":1,
      "requests.example.com/gpu":1}}}]})"),
              ElementsAre("spec.containers[0].resources.requests[gpu]: Invalid value: \"gpu\": "
                          "must be a standard resource type or fully qualified",
                          "spec.containers[0].resources.requests[gpu]: Invalid value: \"gpu\": "
                          "must be a standard resource for containers",
                          "spec.containers[0].resources.requests[pods]: Invalid value: \"pods\": "
                          "must be a standard resource for containers",
                          "spec.containers[0].resources.requests[requests.example.com/gpu]: "
                          "Invalid value: \"requests.example.com/gpu\": doesn't follow extended "
                          "resource name standard",
                          "spec.containers[0].resources.limits: Required value: Limit must be "
                          "set for non overcommitable resources"));
  EXPECT_THAT(PodErrors(R"({"containers":[{"name":"c","resources":{
      "limits":{"hugepages-2Mi":"3Mi"}}}]})"),
              ElementsAre("spec.containers[0].resources.limits[hugepages-2Mi]: Invalid value: "
                          "\"3Mi\": 3Mi is not positive integer multiple of hugepages-2Mi",
                          "spec.containers[0].resources.requests[hugepages-2Mi]: Invalid value: "
                          "\"3Mi\": 3Mi is not positive integer multiple of hugepages-2Mi",
                          "spec.containers[0].resources: Forbidden: HugePages require cpu or "
                          "memory"));
}

}  // namespace api_validation_test
}  // namespace ksched
