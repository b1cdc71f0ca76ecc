#include "algorithm/equivalence.h"

#include <gtest/gtest.h>

#include "tests/fixtures.h"

namespace ksched {
namespace equivalence_test {

Pod PodWithLabels(const char* labels) {
  return testing::TestPod(
      std::string(R"({"kind":"Pod","metadata":{"name":"p","namespace":"ns","labels":)") + labels +
      R"(},"spec":{"containers":[{"name":"c","image":"i"}]}})");
}

TEST(EquivalenceKey, NameAndUidDoNotMatterButSpecDoes) {
  Pod a = PodWithLabels(R"({"app":"web"})");
  Pod b = a;
  b.meta.name = "other";
  b.meta.uid = "u2";
  EXPECT_EQ(EquivalenceKey(a), EquivalenceKey(b));
  b.spec.containers[0].image = "j";
  EXPECT_NE(EquivalenceKey(a), EquivalenceKey(b));
}

TEST(EquivalenceKey, LabelsNoWorkloadSelectorMentionsAreLeftOut) {
  std::vector<StrId> keys = {Intern("app")};
  std::sort(keys.begin(), keys.end());
  Pod a = PodWithLabels(R"({"app":"web","group":"anti-1"})");
  Pod b = PodWithLabels(R"({"app":"web","group":"anti-2"})");
  Pod c = PodWithLabels(R"({"app":"db","group":"anti-1"})");
  EXPECT_EQ(EquivalenceKey(a, &keys), EquivalenceKey(b, &keys));
  EXPECT_NE(EquivalenceKey(a, &keys), EquivalenceKey(c, &keys));
  // Without a filter every label counts.
  EXPECT_NE(EquivalenceKey(a), EquivalenceKey(b));
  // Spreading skips pods without labels, so "no labels" differs from "only
  // labels nobody selects on".
  Pod none = PodWithLabels("{}");
  Pod other = PodWithLabels(R"({"group":"x"})");
  EXPECT_NE(EquivalenceKey(none, &keys), EquivalenceKey(other, &keys));
}

TEST(WorkloadSelectorKeys, CollectsEveryKindOfSelector) {
  ClusterState c = testing::TestCluster(R"({"kind":"List","items":[
    {"kind":"Service","metadata":{"name":"s","namespace":"ns"},"spec":{"selector":{"svc":"a"}}},
    {"kind":"ReplicationController","metadata":{"name":"r","namespace":"ns"},"spec":{"selector":{"rc":"a"}}},
    {"apiVersion":"apps/v1","kind":"ReplicaSet","metadata":{"name":"rs","namespace":"ns"},
     "spec":{"selector":{"matchLabels":{"rs":"a"},"matchExpressions":[{"key":"rsx","operator":"Exists"}]}}},
    {"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"ss","namespace":"ns"},
     "spec":{"selector":{"matchLabels":{"ss":"a"}}}}]})");
  std::vector<StrId> want = {Intern("svc"), Intern("rc"), Intern("rs"), Intern("rsx"),
                             Intern("ss")};
  std::sort(want.begin(), want.end());
  EXPECT_EQ(WorkloadSelectorKeys(c), want);
}

}  // namespace equivalence_test
}  // namespace ksched
