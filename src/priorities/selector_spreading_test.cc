#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "priorities/factories.h"
#include "priorities/spreading_test_helper.h"
#include "tests/fixtures.h"

namespace ksched {
namespace selector_spreading_test {

using testing::AddPods;
using testing::LabeledPodJson;
using testing::List;
using testing::RunMap;
using testing::RunScore;
using testing::TestCluster;
using testing::TestPod;
using testing::ZoneNodeJson;
using Scores = std::map<std::string, int64_t>;

const char kZone[] = "failure-domain.beta.kubernetes.io/zone";
const char kRegion[] = "failure-domain.beta.kubernetes.io/region";

std::string InZone(const std::string& name, const std::string& zone) {
  return ZoneNodeJson(name, std::string(R"({")") + kZone + R"(":")" + zone + R"("})");
}

std::string Obj(const std::string& kind, const std::string& name, const std::string& spec,
                const std::string& ns = "default") {
  return testing::ObjectJson(kind, name, spec, ns);
}
std::string Svc(const std::string& name, const std::string& spec,
                const std::string& ns = "default") {
  return Obj("Service", name, spec, ns);
}

const char kWeb[] = R"({"app":"web"})";

Pod Incoming(const std::string& labels = kWeb, const std::string& ns = "default") {
  return TestPod(LabeledPodJson("new", ns, labels));
}

TEST(SelectorSpreadPriority, NoSelectorsScoresEveryNodeTen) {
  std::vector<std::string> items = {ZoneNodeJson("n1"), ZoneNodeJson("n2")};
  AddPods(&items, "w", 3, "default", kWeb, "n1");
  ClusterState c = TestCluster(List(items));
  auto p = NewSelectorSpreadPriority();
  EXPECT_EQ(RunMap(*p, Incoming(), c), (Scores{{"n1", 0}, {"n2", 0}}));
  EXPECT_EQ(RunScore(*p, Incoming(), c), (Scores{{"n1", 10}, {"n2", 10}}));
}

TEST(SelectorSpreadPriority, NoSelectorsWithZonesStillTen) {
  // 10 * 1/3 + 2/3 * 10 is exactly 10.0 in float64.
  ClusterState c = TestCluster(List({InZone("a1", "a"), InZone("b1", "b"), ZoneNodeJson("x")}));
  auto p = NewSelectorSpreadPriority();
  EXPECT_EQ(RunScore(*p, Incoming(), c), (Scores{{"a1", 10}, {"b1", 10}, {"x", 10}}));
}

TEST(SelectorSpreadPriority, ServiceSpreadsAcrossNodes) {
  std::vector<std::string> items = {ZoneNodeJson("n1"), ZoneNodeJson("n2"), ZoneNodeJson("n3"),
                                    Svc("web", R"({"selector":{"app":"web"}})")};
  AddPods(&items, "a", 3, "default", kWeb, "n1");
  AddPods(&items, "b", 1, "default", kWeb, "n2");
  AddPods(&items, "other", 4, "default", R"({"app":"db"})", "n3");
  ClusterState c = TestCluster(List(items));
  auto p = NewSelectorSpreadPriority();
  EXPECT_EQ(RunMap(*p, Incoming(), c), (Scores{{"n1", 3}, {"n2", 1}, {"n3", 0}}));
  // 10 * (3-1)/3 = 6.67 -> 6.
  EXPECT_EQ(RunScore(*p, Incoming(), c), (Scores{{"n1", 0}, {"n2", 6}, {"n3", 10}}));
}

TEST(SelectorSpreadPriority, ServiceWithoutSelectorMatchesNothing) {
  std::vector<std::string> items = {ZoneNodeJson("n1"), ZoneNodeJson("n2"),
                                    Svc("headless", R"({"ports":[{"port":80}]})"),
                                    Svc("null", R"({"selector":null})")};
  AddPods(&items, "w", 2, "default", kWeb, "n1");
  ClusterState c = TestCluster(List(items));
  auto p = NewSelectorSpreadPriority();
  EXPECT_EQ(RunScore(*p, Incoming(), c), (Scores{{"n1", 10}, {"n2", 10}}));
}

TEST(SelectorSpreadPriority, ServiceWithEmptySelectorMatchesEveryPodOfItsNamespace) {
  std::vector<std::string> items = {ZoneNodeJson("n1"), ZoneNodeJson("n2"), ZoneNodeJson("n3"),
                                    Svc("all", R"({"selector":{}})")};
  AddPods(&items, "x", 2, "default", R"({"app":"db"})", "n1");
  AddPods(&items, "y", 1, "default", "{}", "n2");
  AddPods(&items, "z", 5, "kube-system", "{}", "n3");
  ClusterState c = TestCluster(List(items));
  auto p = NewSelectorSpreadPriority();
  // Even an unlabelled pod belongs to the service, and counts every pod of
  // the namespace whatever its labels.
  EXPECT_EQ(RunMap(*p, Incoming("{}"), c), (Scores{{"n1", 2}, {"n2", 1}, {"n3", 0}}));
  EXPECT_EQ(RunScore(*p, Incoming("{}"), c), (Scores{{"n1", 0}, {"n2", 5}, {"n3", 10}}));
}

TEST(SelectorSpreadPriority, ServiceInOtherNamespaceIgnored) {
  std::vector<std::string> items = {ZoneNodeJson("n1"), ZoneNodeJson("n2"),
                                    Svc("web", R"({"selector":{"app":"web"}})", "prod")};
  AddPods(&items, "w", 2, "default", kWeb, "n1");
  ClusterState c = TestCluster(List(items));
  auto p = NewSelectorSpreadPriority();
  EXPECT_EQ(RunScore(*p, Incoming(), c), (Scores{{"n1", 10}, {"n2", 10}}));
}

TEST(SelectorSpreadPriority, PodsInOtherNamespacesIgnored) {
  std::vector<std::string> items = {ZoneNodeJson("n1"), ZoneNodeJson("n2"),
                                    Svc("web", R"({"selector":{"app":"web"}})"),
                                    Svc("web", R"({"selector":{"app":"web"}})", "prod")};
  AddPods(&items, "p", 4, "prod", kWeb, "n1");
  AddPods(&items, "d", 1, "default", kWeb, "n2");
  ClusterState c = TestCluster(List(items));
  auto p = NewSelectorSpreadPriority();
  EXPECT_EQ(RunMap(*p, Incoming(), c), (Scores{{"n1", 0}, {"n2", 1}}));
  EXPECT_EQ(RunScore(*p, Incoming(), c), (Scores{{"n1", 10}, {"n2", 0}}));
}

TEST(SelectorSpreadPriority, TerminatingPodsSkipped) {
  std::vector<std::string> items = {ZoneNodeJson("n1"), ZoneNodeJson("n2"),
                                    Svc("web", R"({"selector":{"app":"web"}})")};
  items.push_back(LabeledPodJson("gone-0", "default", kWeb, "n1", /*terminating=*/true));
  items.push_back(LabeledPodJson("gone-1", "default", kWeb, "n1", /*terminating=*/true));
  items.push_back(LabeledPodJson("live", "default", kWeb, "n2"));
  ClusterState c = TestCluster(List(items));
  auto p = NewSelectorSpreadPriority();
  EXPECT_EQ(RunMap(*p, Incoming(), c), (Scores{{"n1", 0}, {"n2", 1}}));
  EXPECT_EQ(RunScore(*p, Incoming(), c), (Scores{{"n1", 10}, {"n2", 0}}));
}

TEST(SelectorSpreadPriority, ReplicationControllerEmptyOrMissingSelectorMatchesNothing) {
  std::vector<std::string> items = {ZoneNodeJson("n1"), ZoneNodeJson("n2"),
                                    Obj("ReplicationController", "empty", R"({"selector":{}})"),
                                    Obj("ReplicationController", "none", R"({"replicas":1})")};
  AddPods(&items, "w", 2, "default", kWeb, "n1");
  ClusterState c = TestCluster(List(items));
  auto p = NewSelectorSpreadPriority();
  EXPECT_EQ(RunScore(*p, Incoming(), c), (Scores{{"n1", 10}, {"n2", 10}}));
}

TEST(SelectorSpreadPriority, ReplicationControllerSelects) {
  std::vector<std::string> items = {
      ZoneNodeJson("n1"), ZoneNodeJson("n2"),
      Obj("ReplicationController", "rc", R"({"selector":{"app":"web"}})")};
  AddPods(&items, "w", 2, "default", R"({"app":"web","v":"1"})", "n1");
  ClusterState c = TestCluster(List(items));
  auto p = NewSelectorSpreadPriority();
  EXPECT_EQ(RunScore(*p, Incoming(), c), (Scores{{"n1", 0}, {"n2", 10}}));
  // An unlabelled pod belongs to no controller.
  EXPECT_EQ(RunScore(*p, Incoming("{}"), c), (Scores{{"n1", 10}, {"n2", 10}}));
}

TEST(SelectorSpreadPriority, ReplicaSetWithMatchExpressions) {
  std::vector<std::string> items = {ZoneNodeJson("n1"), ZoneNodeJson("n2"), ZoneNodeJson("n3"),
                                    Obj("ReplicaSet", "rs", R"({"selector":{"matchExpressions":[
              {"key":"app","operator":"In","values":["web","api"]},
              {"key":"canary","operator":"DoesNotExist"}]}})")};
  AddPods(&items, "w", 2, "default", kWeb, "n1");
  AddPods(&items, "a", 1, "default", R"({"app":"api"})", "n2");
  AddPods(&items, "c", 3, "default", R"({"app":"web","canary":"yes"})", "n3");
  ClusterState c = TestCluster(List(items));
  auto p = NewSelectorSpreadPriority();
  EXPECT_EQ(RunMap(*p, Incoming(), c), (Scores{{"n1", 2}, {"n2", 1}, {"n3", 0}}));
  EXPECT_EQ(RunScore(*p, Incoming(), c), (Scores{{"n1", 0}, {"n2", 5}, {"n3", 10}}));
  // A canary pod is not selected by the ReplicaSet: no selectors at all.
  EXPECT_EQ(RunScore(*p, Incoming(R"({"app":"web","canary":"yes"})"), c),
            (Scores{{"n1", 10}, {"n2", 10}, {"n3", 10}}));
}

TEST(SelectorSpreadPriority, ReplicaSetEmptyOrMissingSelectorMatchesNothing) {
  std::vector<std::string> items = {ZoneNodeJson("n1"), ZoneNodeJson("n2"),
                                    Obj("ReplicaSet", "empty", R"({"selector":{}})"),
                                    Obj("ReplicaSet", "none", R"({"replicas":1})"),
                                    Obj("StatefulSet", "ss-empty", R"({"selector":{}})")};
  AddPods(&items, "w", 2, "default", kWeb, "n1");
  ClusterState c = TestCluster(List(items));
  auto p = NewSelectorSpreadPriority();
  EXPECT_EQ(RunScore(*p, Incoming(), c), (Scores{{"n1", 10}, {"n2", 10}}));
}

TEST(SelectorSpreadPriority, InvalidReplicaSetSelectorDisablesAllReplicaSets) {
  // Upstream's lister fails as soon as one ReplicaSet of the namespace has an
  // invalid selector, so the valid, matching one is ignored too. StatefulSets
  // are looked up separately and still count.
  std::vector<std::string> items = {
      ZoneNodeJson("n1"), ZoneNodeJson("n2"),
      Obj("ReplicaSet", "good", R"({"selector":{"matchLabels":{"app":"web"}}})"),
      Obj("ReplicaSet", "bad",
          R"({"selector":{"matchExpressions":[{"key":"x","operator":"Gt","values":["1"]}]}})")};
  AddPods(&items, "w", 2, "default", kWeb, "n1");
  ClusterState c = TestCluster(List(items));
  auto p = NewSelectorSpreadPriority();
  EXPECT_EQ(RunScore(*p, Incoming(), c), (Scores{{"n1", 10}, {"n2", 10}}));

  items.push_back(Obj("StatefulSet", "ss", R"({"selector":{"matchLabels":{"app":"web"}}})"));
  ClusterState c2 = TestCluster(List(items));
  EXPECT_EQ(RunScore(*p, Incoming(), c2), (Scores{{"n1", 0}, {"n2", 10}}));
}

TEST(SelectorSpreadPriority, InvalidReplicaSetInOtherNamespaceDoesNotMatter) {
  std::vector<std::string> items = {
      ZoneNodeJson("n1"), ZoneNodeJson("n2"),
      Obj("ReplicaSet", "good", R"({"selector":{"matchLabels":{"app":"web"}}})"),
      Obj("ReplicaSet", "bad", R"({"selector":{"matchExpressions":[{"key":"x","operator":"In"}]}})",
          "prod")};
  AddPods(&items, "w", 2, "default", kWeb, "n1");
  ClusterState c = TestCluster(List(items));
  auto p = NewSelectorSpreadPriority();
  EXPECT_EQ(RunScore(*p, Incoming(), c), (Scores{{"n1", 0}, {"n2", 10}}));
}

TEST(SelectorSpreadPriority, PodMustMatchAllSelectors) {
  std::vector<std::string> items = {
      ZoneNodeJson("n1"), ZoneNodeJson("n2"), ZoneNodeJson("n3"),
      Svc("web", R"({"selector":{"app":"web"}})"),
      Obj("StatefulSet", "ss", R"({"selector":{"matchLabels":{"tier":"fe"}}})")};
  AddPods(&items, "only-app", 3, "default", kWeb, "n1");
  AddPods(&items, "only-tier", 3, "default", R"({"tier":"fe"})", "n2");
  AddPods(&items, "both", 1, "default", R"({"app":"web","tier":"fe"})", "n3");
  ClusterState c = TestCluster(List(items));
  auto p = NewSelectorSpreadPriority();
  Pod pod = Incoming(R"({"app":"web","tier":"fe"})");
  EXPECT_EQ(RunMap(*p, pod, c), (Scores{{"n1", 0}, {"n2", 0}, {"n3", 1}}));
  EXPECT_EQ(RunScore(*p, pod, c), (Scores{{"n1", 10}, {"n2", 10}, {"n3", 0}}));
}

TEST(SelectorSpreadPriority, InvalidServiceSelectorCountsEveryPod) {
  // The service is matched against the pod's labels as given, but the
  // selector used for counting goes through SelectorFromSet, which turns a
  // map with an invalid value into "everything".
  std::vector<std::string> items = {ZoneNodeJson("n1"), ZoneNodeJson("n2"),
                                    Svc("odd", R"({"selector":{"app":"a b"}})")};
  AddPods(&items, "x", 2, "default", R"({"app":"db"})", "n1");
  ClusterState c = TestCluster(List(items));
  auto p = NewSelectorSpreadPriority();
  EXPECT_EQ(RunMap(*p, Incoming(R"({"app":"a b"})"), c), (Scores{{"n1", 2}, {"n2", 0}}));
}

TEST(SelectorSpreadPriority, ZonesBlendNodeAndZoneCounts) {
  std::vector<std::string> items = {InZone("a1", "a"), InZone("a2", "a"), InZone("b1", "b"),
                                    ZoneNodeJson("x"), Svc("web", R"({"selector":{"app":"web"}})")};
  AddPods(&items, "p", 2, "default", kWeb, "a1");
  AddPods(&items, "q", 1, "default", kWeb, "b1");
  ClusterState c = TestCluster(List(items));
  auto p = NewSelectorSpreadPriority();
  // Node max 2, zone max 2 (a: 2, b: 1).
  //   a1: node 0,  zone 0  -> 0
  //   a2: node 10, zone 0  -> 10/3 = 3.33 -> 3
  //   b1: node 5,  zone 5  -> 5
  //   x:  node 10, no zone -> 10
  EXPECT_EQ(RunScore(*p, Incoming(), c), (Scores{{"a1", 0}, {"a2", 3}, {"b1", 5}, {"x", 10}}));
}

TEST(SelectorSpreadPriority, ZoneKeyUsesRegionToo) {
  // Same zone name in two regions: two different zones.
  auto node = [](const std::string& name, const std::string& region) {
    return ZoneNodeJson(
        name, std::string(R"({")") + kRegion + R"(":")" + region + R"(",")" + kZone + R"(":"z"})");
  };
  std::vector<std::string> items = {node("r1", "east"), node("r2", "west"), node("r3", "west"),
                                    Svc("web", R"({"selector":{"app":"web"}})")};
  AddPods(&items, "p", 1, "default", kWeb, "r1");
  ClusterState c = TestCluster(List(items));
  auto p = NewSelectorSpreadPriority();
  EXPECT_EQ(RunScore(*p, Incoming(), c), (Scores{{"r1", 0}, {"r2", 10}, {"r3", 10}}));
}

TEST(SelectorSpreadPriority, ZoneCountsOnlyScoredNodes) {
  // a2's pods are not counted in zone a when a2 is not among the nodes scored.
  std::vector<std::string> items = {InZone("a1", "a"), InZone("a2", "a"), InZone("b1", "b"),
                                    Svc("web", R"({"selector":{"app":"web"}})")};
  AddPods(&items, "p", 3, "default", kWeb, "a2");
  AddPods(&items, "q", 1, "default", kWeb, "b1");
  ClusterState c = TestCluster(List(items));
  auto p = NewSelectorSpreadPriority();
  EXPECT_EQ(RunScore(*p, Incoming(), c, {"a1", "b1"}), (Scores{{"a1", 10}, {"b1", 0}}));
  // All three: node max 3, zone max 3 (a: 3, b: 1).
  //   a1: node 10, zone 0 -> 3.33 -> 3;  b1: node 6.67, zone 6.67 -> 6.
  EXPECT_EQ(RunScore(*p, Incoming(), c), (Scores{{"a1", 3}, {"a2", 0}, {"b1", 6}}));
}

TEST(SelectorSpreadPriority, FloatTruncationFollowsUpstream) {
  // Node max 6, zone max 15. n1 (zone a) has 5 pods, zone a has 5:
  // 10*(1/6) * 1/3 + 2/3 * 10*(10/15) is 5 in exact arithmetic but
  // 4.999999999999999 in float64, and int() truncates it to 4.
  std::vector<std::string> items = {InZone("n1", "a"), InZone("m1", "b"), InZone("m2", "b"),
                                    InZone("m3", "b"), Svc("web", R"({"selector":{"app":"web"}})")};
  AddPods(&items, "n", 5, "default", kWeb, "n1");
  AddPods(&items, "x", 6, "default", kWeb, "m1");
  AddPods(&items, "y", 6, "default", kWeb, "m2");
  AddPods(&items, "z", 3, "default", kWeb, "m3");
  ClusterState c = TestCluster(List(items));
  auto p = NewSelectorSpreadPriority();
  // m1/m2: node 0, zone 0 -> 0.  m3: node 5, zone 0 -> 5/3 = 1.67 -> 1.
  EXPECT_EQ(RunScore(*p, Incoming(), c), (Scores{{"n1", 4}, {"m1", 0}, {"m2", 0}, {"m3", 1}}));
}

TEST(SelectorSpreadPriority, ZonesAllCountsZeroAllTen) {
  std::vector<std::string> items = {InZone("a1", "a"), InZone("b1", "b"), ZoneNodeJson("x"),
                                    Svc("web", R"({"selector":{"app":"web"}})")};
  AddPods(&items, "p", 2, "default", R"({"app":"db"})", "a1");
  ClusterState c = TestCluster(List(items));
  auto p = NewSelectorSpreadPriority();
  EXPECT_EQ(RunScore(*p, Incoming(), c), (Scores{{"a1", 10}, {"b1", 10}, {"x", 10}}));
}

}  // namespace selector_spreading_test
}  // namespace ksched
