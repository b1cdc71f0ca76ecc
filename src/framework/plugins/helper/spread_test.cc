#include "framework/plugins/helper/spread.h"

#include <gtest/gtest.h>

#include "framework/plugins/podtopologyspread/test_util.h"

namespace ksched::framework::plugins::helper {
namespace spread_test {

using ::ksched::testing::TestCluster;
using ::ksched::testing::TestPod;
using spread_testing::ListJson;
using spread_testing::PodJson;

Labels L(std::vector<std::pair<std::string, std::string>> pairs) {
  std::vector<Labels::Pair> ids;
  for (auto& [k, v] : pairs) ids.emplace_back(Intern(k), Intern(v));
  return Labels(std::move(ids));
}

const char* kOwned =
    R"(,"ownerReferences":[{"apiVersion":"%s","kind":"%s","name":"%s","uid":"u","controller":true}])";

std::string Owner(const std::string& api, const std::string& kind, const std::string& name) {
  char buf[256];
  snprintf(buf, sizeof buf, kOwned, api.c_str(), kind.c_str(), name.c_str());
  return buf;
}

TEST(DefaultSelector, NothingSelectsThePod) {
  ClusterState cluster = TestCluster(ListJson({}));
  Pod pod = TestPod(PodJson("p", "", {{"app", "a"}}));
  EXPECT_TRUE(DefaultSelector(pod, cluster).Empty());
}

TEST(DefaultSelector, ServicesMerge) {
  ClusterState cluster = TestCluster(ListJson({
      R"({"kind":"Service","apiVersion":"v1","metadata":{"name":"s1","namespace":"default"},"spec":{"selector":{"app":"a"}}})",
      R"({"kind":"Service","apiVersion":"v1","metadata":{"name":"s2","namespace":"default"},"spec":{"selector":{"tier":"t"}}})",
      // Another namespace, a selector the pod does not match, no selector.
      R"({"kind":"Service","apiVersion":"v1","metadata":{"name":"s3","namespace":"other"},"spec":{"selector":{"x":"y"}}})",
      R"({"kind":"Service","apiVersion":"v1","metadata":{"name":"s4","namespace":"default"},"spec":{"selector":{"app":"b"}}})",
      R"({"kind":"Service","apiVersion":"v1","metadata":{"name":"s5","namespace":"default"},"spec":{}})",
  }));
  Pod pod = TestPod(PodJson("p", "", {{"app", "a"}, {"tier", "t"}, {"x", "y"}}));
  SpreadSelector s = DefaultSelector(pod, cluster);
  EXPECT_EQ(s.set(), L({{"app", "a"}, {"tier", "t"}}));
  EXPECT_TRUE(s.requirements().Empty());
  EXPECT_TRUE(s.Matches(L({{"app", "a"}, {"tier", "t"}, {"z", "1"}})));
  EXPECT_FALSE(s.Matches(L({{"app", "a"}})));
}

TEST(DefaultSelector, ReplicaSetOwnerAddsItsRequirements) {
  ClusterState cluster = TestCluster(ListJson({
      R"({"kind":"Service","apiVersion":"v1","metadata":{"name":"s1","namespace":"default"},"spec":{"selector":{"app":"a"}}})",
      R"({"kind":"ReplicaSet","apiVersion":"apps/v1","metadata":{"name":"rs","namespace":"default"},"spec":{"selector":{"matchExpressions":[{"key":"rev","operator":"In","values":["1","2"]}]}}})",
  }));
  Pod pod = TestPod(PodJson("p", "", {{"app", "a"}, {"rev", "1"}}, "default",
                            Owner("apps/v1", "ReplicaSet", "rs")));
  SpreadSelector s = DefaultSelector(pod, cluster);
  EXPECT_TRUE(s.Matches(L({{"app", "a"}, {"rev", "2"}})));
  EXPECT_FALSE(s.Matches(L({{"app", "a"}, {"rev", "3"}})));
  EXPECT_FALSE(s.Matches(L({{"rev", "1"}})));
  // Wrong group version or kind: the owner is not followed.
  for (const auto& owner :
       {Owner("extensions/v1beta1", "ReplicaSet", "rs"), Owner("apps/v1", "Deployment", "rs"),
        Owner("apps/v1", "ReplicaSet", "x"), Owner("a/b/c", "ReplicaSet", "rs")}) {
    Pod other = TestPod(PodJson("p", "", {{"app", "a"}, {"rev", "1"}}, "default", owner));
    EXPECT_TRUE(DefaultSelector(other, cluster).Matches(L({{"app", "a"}, {"rev", "3"}}))) << owner;
  }
}

TEST(DefaultSelector, ReplicationControllerOwnerMergesItsPairs) {
  ClusterState cluster = TestCluster(ListJson({
      R"({"kind":"ReplicationController","apiVersion":"v1","metadata":{"name":"rc","namespace":"default"},"spec":{"selector":{"app":"a","rc":"1"}}})",
  }));
  Pod pod = TestPod(PodJson("p", "", {{"app", "a"}, {"rc", "1"}}, "default",
                            Owner("v1", "ReplicationController", "rc")));
  EXPECT_EQ(DefaultSelector(pod, cluster).set(), L({{"app", "a"}, {"rc", "1"}}));
}

TEST(DefaultSelector, StatefulSetOwner) {
  ClusterState cluster = TestCluster(ListJson({
      R"({"kind":"StatefulSet","apiVersion":"apps/v1","metadata":{"name":"ss","namespace":"default"},"spec":{"selector":{"matchLabels":{"db":"x"}}}})",
  }));
  Pod pod =
      TestPod(PodJson("p", "", {{"db", "x"}}, "default", Owner("apps/v1", "StatefulSet", "ss")));
  SpreadSelector s = DefaultSelector(pod, cluster);
  EXPECT_FALSE(s.Empty());
  EXPECT_TRUE(s.Matches(L({{"db", "x"}})));
  EXPECT_FALSE(s.Matches(L({{"db", "y"}})));
}

TEST(SpreadSelector, FromSetAndDropsNothing) {
  SpreadSelector s = SpreadSelector::FromSetAnd(L({{"a", "1"}}), labels::Selector::Nothing());
  EXPECT_TRUE(s.Matches(L({{"a", "1"}})));
  EXPECT_FALSE(SpreadSelector(labels::Selector::Nothing()).Matches(L({{"a", "1"}})));
  EXPECT_FALSE(SpreadSelector(labels::Selector::Nothing()).Empty());
  EXPECT_TRUE(SpreadSelector().Empty());
}

}  // namespace spread_test
}  // namespace ksched::framework::plugins::helper
