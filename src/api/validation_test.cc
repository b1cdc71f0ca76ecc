#include "api/validation.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "api/decode.h"
#include "api/defaults.h"
#include "tests/fixtures.h"

namespace ksched {
namespace {

using ::ksched::testing::TestNode;
using ::ksched::testing::TestPod;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

// A pod with `spec` (JSON) merged into a minimal valid one, defaulted as
// the API server would before validating.
std::vector<std::string> PodErrors(std::string_view spec) {
  Pod p = TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":)" + std::string(spec) + "}");
  SetPodDefaults(&p);
  return ValidatePod(p);
}

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
  EXPECT_THAT(
      PodErrors(R"({"containers":[{"name":"c"}],"affinity":{"podAntiAffinity":{
      "requiredDuringSchedulingIgnoredDuringExecution":[
        {"labelSelector":{"matchExpressions":[{"key":"app","operator":"In"}]},"topologyKey":""}],
      "preferredDuringSchedulingIgnoredDuringExecution":[{"weight":5,"podAffinityTerm":{
        "labelSelector":{"matchExpressions":[{"key":"app","operator":"Gt","values":["1"]}]},
        "namespaces":["Not_A_Namespace"],"topologyKey":"zone"}}]}}})"),
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

TEST(ValidatePod, ResourcesAsTheApiServer) {
  EXPECT_THAT(PodErrors(R"({"containers":[{"name":"c","resources":{
      "requests":{"cpu":"3"},"limits":{"cpu":"2"}}}]})"),
              ElementsAre("spec.containers[0].resources.requests: Invalid value: \"3\": must be "
                          "less than or equal to cpu limit"));
  EXPECT_THAT(PodErrors(R"({"containers":[{"name":"c","resources":{
      "requests":{"nvidia.com/gpu":1}}}]})"),
              ElementsAre(HasSubstr("resources.limits: Required value: Limit must be set for non "
                                    "overcommitable resources (nvidia.com/gpu)")));
  EXPECT_THAT(PodErrors(R"({"containers":[{"name":"c","resources":{
      "requests":{"nvidia.com/gpu":1},"limits":{"nvidia.com/gpu":2}}}]})"),
              ElementsAre(HasSubstr("must be equal to nvidia.com/gpu limit")));
  EXPECT_THAT(PodErrors(R"({"containers":[{"name":"c","resources":{
      "limits":{"nvidia.com/gpu":"500m"}}}]})"),
              ElementsAre(HasSubstr("resources.limits[nvidia.com/gpu]: Invalid value: \"500m\": "
                                    "must be an integer"),
                          HasSubstr("resources.requests[nvidia.com/gpu]: Invalid value: "
                                    "\"500m\": must be an integer")));
  EXPECT_THAT(PodErrors(R"({"containers":[{"name":"c","resources":{"requests":{"gpu":1}}}]})"),
              ElementsAre(HasSubstr("requests[gpu]: Invalid value: \"gpu\": must be a standard "
                                    "resource for containers")));
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
  std::vector<std::string> errs = ValidatePods(pods, "f.yaml", 2);
  ASSERT_EQ(errs.size(), 3u);
  EXPECT_EQ(errs[2], "... and 3 more invalid field(s)");
}

}  // namespace
}  // namespace ksched

namespace ksched {
namespace {

TEST(ValidatePod, TopologySpreadConstraintsAsV126) {
  auto errors = [](std::string_view constraints) {
    return PodErrors(R"({"containers":[{"name":"c"}],"topologySpreadConstraints":)" +
                     std::string(constraints) + "}");
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

}  // namespace
}  // namespace ksched
