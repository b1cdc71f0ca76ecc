#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "explain/explain_test_util.h"

namespace ksched::explain {
namespace explain_node_selector_test {

using ::testing::ElementsAre;
using testing::List;
using testing::ScheduleAndExplain;

const char* kNodeA =
    R"({"kind":"Node","metadata":{"name":"a","labels":{"disktype":"hdd","zone":"z1"}},"status":{"allocatable":{"pods":"10"}}})";
const char* kNodeB =
    R"({"kind":"Node","metadata":{"name":"b","labels":{"zone":"z2"}},"status":{"allocatable":{"pods":"10"}}})";

TEST(ExplainNodeSelector, SelectorEntryAndTheNodesValue) {
  auto e = ScheduleAndExplain(
      List({kNodeA, kNodeB}),
      R"({"kind":"Pod","metadata":{"name":"p"},"spec":{"nodeSelector":{"disktype":"ssd"},
          "containers":[{"name":"c"}]}})");
  EXPECT_THAT(e.reasons["a"], ElementsAre("node(s) didn't match node selector"));
  EXPECT_THAT(e.Messages("a"), ElementsAre("nodeSelector disktype=ssd: node has disktype=hdd"));
  EXPECT_THAT(e.Messages("b"),
              ElementsAre("nodeSelector disktype=ssd: node has no label disktype"));
  EXPECT_EQ(e.causes["a"][0].details["nodeValue"], "hdd");
  EXPECT_TRUE(e.causes["b"][0].details["nodeValue"].is_null());
}

TEST(ExplainNodeSelector, EachRequiredTermWithItsFailingRequirement) {
  auto e = ScheduleAndExplain(List({kNodeA, kNodeB}), R"({"kind":"Pod","metadata":{"name":"p"},
      "spec":{"affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{
        "nodeSelectorTerms":[
          {"matchExpressions":[{"key":"zone","operator":"In","values":["z3","z4"]}]},
          {"matchExpressions":[{"key":"zone","operator":"Exists"},
                               {"key":"gpu","operator":"Exists"}]},
          {"matchFields":[{"key":"metadata.name","operator":"In","values":["c"]}]}]}}},
      "containers":[{"name":"c"}]}})");
  EXPECT_THAT(e.Messages("a"),
              ElementsAre("required node affinity term 1 zone In (z3,z4): node has zone=z1",
                          "required node affinity term 2 gpu Exists: node has no label gpu",
                          "required node affinity term 3 metadata.name In (c): node's "
                          "metadata.name is a"));
  EXPECT_EQ(e.causes["b"][0].details["term"], 1);
  EXPECT_EQ(e.causes["b"][0].details["why"], "node has zone=z2");
}

}  // namespace explain_node_selector_test
}  // namespace ksched::explain
