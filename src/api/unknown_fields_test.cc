#include "api/unknown_fields.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "api/decode.h"
#include "api/version_skew.h"

namespace ksched {
namespace unknown_fields_test {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

struct Found {
  std::vector<std::string> unknown;  // messages
  std::vector<std::string> newer;    // paths
};

Found Check(std::string_view kind, std::string_view json, NewerFieldFilter filter = nullptr) {
  simdjson::dom::parser parser;
  auto root = ParseJson(parser, json, "t.json");
  EXPECT_TRUE(root.ok());
  std::vector<FoundField> out;
  FindUnknownFields(*root, kind, &out, filter);
  Found f;
  for (const FoundField& x : out) {
    if (x.what == FieldFinding::What::kUnknown) {
      f.unknown.push_back(x.Message(kind));
    } else {
      f.newer.push_back(x.Path());
    }
  }
  return f;
}

TEST(UnknownFields, MisspeltFieldsAsKubectlSaysThem) {
  Found f = Check("Pod", R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"a","lables":{}},
      "spec":{"affinty":{},"containers":[{"name":"c","resource":{}},
        {"name":"d","resources":{"request":{"cpu":"1"}},"ports":[{"containerPort":1,"hostport":2}]}],
        "tolerations":[{"key":"k","efect":"NoSchedule"}]}})");
  EXPECT_THAT(f.unknown,
              ElementsAre("unknown field \"lables\" in Pod.metadata",
                          "unknown field \"affinty\" in Pod.spec",
                          "unknown field \"resource\" in Pod.spec.containers[0]",
                          "unknown field \"request\" in Pod.spec.containers[1].resources",
                          "unknown field \"hostport\" in Pod.spec.containers[1].ports[0]",
                          "unknown field \"efect\" in Pod.spec.tolerations[0]"));
}

TEST(UnknownFields, MapsAndOpaqueValuesAreNotEntered) {
  Found f = Check("Pod", R"({"kind":"Pod","metadata":{"name":"a","labels":{"anything":"x"},
      "annotations":{"whatever/x":"y"},
      "managedFields":[{"manager":"kubectl","fieldsV1":{"f:spec":{"f:any":{}}}}]},
      "spec":{"nodeSelector":{"zone":"a"},"containers":[{"name":"c",
        "resources":{"limits":{"example.com/foo":1}}}]},
      "status":{"phase":"Running","podIPs":[{"ip":"10.0.0.1"}]}})");
  EXPECT_THAT(f.unknown, IsEmpty());
  EXPECT_THAT(f.newer, ElementsAre("metadata.managedFields[0].fieldsV1", "status.podIPs"))
      << "fields of later releases are no typos, and fieldsV1's content is not entered";
}

TEST(UnknownFields, EveryKindWithATable) {
  EXPECT_THAT(Check("Node", R"({"metadata":{"name":"n"},"spec":{"taint":[]},
      "status":{"allocatable":{"cpu":"1"},"capacit":{}}})")
                  .unknown,
              ElementsAre("unknown field \"taint\" in Node.spec",
                          "unknown field \"capacit\" in Node.status"));
  EXPECT_THAT(Check("ReplicaSet", R"({"metadata":{"name":"r"},"spec":{"selectr":{}}})").unknown,
              ElementsAre("unknown field \"selectr\" in ReplicaSet.spec"));
  EXPECT_THAT(Check("Service", R"({"metadata":{"name":"s"},"spec":{"selector":{"a":"b"},
      "ports":[{"port":80,"targetPort":"http"}]}})")
                  .unknown,
              IsEmpty());
  // capacity --pod's workloads, their templates included.
  EXPECT_THAT(
      Check("Deployment", R"({"spec":{"anything":1,"template":{"spec":{"nodeSelectr":{}}}}})")
          .unknown,
      ElementsAre("unknown field \"anything\" in Deployment.spec",
                  "unknown field \"nodeSelectr\" in Deployment.spec.template.spec"));
  EXPECT_THAT(
      Check("Job", R"({"spec":{"backoffLimit":1,"podFailurePolicy":{"rules":[]}}})").unknown,
      IsEmpty());
  EXPECT_THAT(Check("ConfigMap", R"({"data":{"anything":1}})").unknown, IsEmpty())
      << "kinds ksched does not read are not checked";
  EXPECT_TRUE(HasFieldTable("PodDisruptionBudget"));
  EXPECT_FALSE(HasFieldTable("ConfigMap"));
}

TEST(UnknownFields, NewerFieldsOnlyThroughTheFilter) {
  constexpr std::string_view kPod = R"({"metadata":{"name":"a","managedFields":[]},
      "status":{"hostIPs":[{"ip":"10.0.0.1"}]},
      "spec":{"containers":[{"name":"c"}],"topologySpreadConstraints":[{"maxSkew":1}],
        "initContainers":[{"name":"s","restartPolicy":"Always"}],"resources":{}}})";
  EXPECT_THAT(Check("Pod", kPod, IsSkewField).newer,
              ElementsAre("spec.topologySpreadConstraints", "spec.initContainers[0].restartPolicy",
                          "spec.resources"));
  EXPECT_THAT(Check("Pod", kPod).newer,
              ElementsAre("status.hostIPs", "spec.topologySpreadConstraints",
                          "spec.initContainers[0].restartPolicy", "spec.resources"))
      << "managedFields is a v1.15 field; the fields inside a newer field are not listed";
}

TEST(UnknownFields, DecoderRecordsNotesWithTheObject) {
  ObjectSet set;
  ASSERT_TRUE(DecodeObjects(R"({"kind":"List","items":[
      {"kind":"Pod","metadata":{"name":"web-1","namespace":"shop"},
       "spec":{"affinty":{},"overhead":{"cpu":"100m"},"containers":[{"name":"c"}]}},
      {"kind":"Node","metadata":{"name":"n1","managedFields":[]}}]})",
                            "snap.json", &set)
                  .ok());
  ASSERT_EQ(set.field_notes.size(), 2u) << "managedFields-like newer fields are dropped early";
  EXPECT_EQ(set.field_notes[0].file, "snap.json");
  EXPECT_EQ(set.field_notes[0].kind, "Pod");
  EXPECT_EQ(set.field_notes[0].object, "shop/web-1");
  EXPECT_EQ(set.field_notes[0].finding.field, "affinty");
  EXPECT_EQ(set.field_notes[0].skew, -1);
  EXPECT_EQ(set.field_notes[1].finding.field, "overhead");
  EXPECT_GE(set.field_notes[1].skew, 0);
}

}  // namespace unknown_fields_test
}  // namespace ksched
