#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "priorities/factories.h"
#include "priorities/spreading_test_helper.h"
#include "tests/fixtures.h"

namespace ksched {
namespace service_anti_affinity_test {

using testing::AddPods;
using testing::LabeledPodJson;
using testing::List;
using testing::ObjectJson;
using testing::RunMap;
using testing::RunScore;
using testing::TestCluster;
using testing::TestPod;
using testing::ZoneNodeJson;
using Scores = std::map<std::string, int64_t>;

const char kRack[] = "topology.example.com/rack";
const char kWeb[] = R"({"app":"web"})";

std::string OnRack(const std::string& name, const std::string& rack) {
  return ZoneNodeJson(name, std::string(R"({")") + kRack + R"(":")" + rack + R"("})");
}
std::string Svc(const std::string& name, const std::string& spec,
                const std::string& ns = "default") {
  return ObjectJson("Service", name, spec, ns);
}
Pod Incoming(const std::string& labels = kWeb) {
  return TestPod(LabeledPodJson("new", "default", labels));
}

TEST(ServiceAntiAffinityPriority, SpreadsOverLabelValues) {
  std::vector<std::string> items = {OnRack("n1", "r1"), OnRack("n2", "r1"), OnRack("n3", "r2"),
                                    ZoneNodeJson("n4"),
                                    Svc("web", R"({"selector":{"app":"web"}})")};
  AddPods(&items, "a", 2, "default", kWeb, "n1");
  AddPods(&items, "b", 1, "default", kWeb, "n3");
  AddPods(&items, "c", 1, "default", kWeb, "n4");
  AddPods(&items, "other", 5, "default", R"({"app":"db"})", "n2");
  ClusterState c = TestCluster(List(items));
  auto p = NewServiceAntiAffinityPriority(kRack);
  EXPECT_EQ(RunMap(*p, Incoming(), c), (Scores{{"n1", 2}, {"n2", 0}, {"n3", 1}, {"n4", 1}}));
  // Total 4 includes the pod on the unlabelled node. r1: 10*2/4 = 5;
  // r2: 10*3/4 = 7.5 -> 7; n4 has no rack label: 0.
  EXPECT_EQ(RunScore(*p, Incoming(), c), (Scores{{"n1", 5}, {"n2", 5}, {"n3", 7}, {"n4", 0}}));
}

TEST(ServiceAntiAffinityPriority, NoServiceGivesLabelledNodesTen) {
  std::vector<std::string> items = {OnRack("n1", "r1"), OnRack("n2", "r2"), ZoneNodeJson("n3")};
  AddPods(&items, "a", 2, "default", kWeb, "n1");
  ClusterState c = TestCluster(List(items));
  auto p = NewServiceAntiAffinityPriority(kRack);
  EXPECT_EQ(RunScore(*p, Incoming(), c), (Scores{{"n1", 10}, {"n2", 10}, {"n3", 0}}));
}

TEST(ServiceAntiAffinityPriority, NoNodeHasTheLabel) {
  std::vector<std::string> items = {ZoneNodeJson("n1"), ZoneNodeJson("n2"),
                                    Svc("web", R"({"selector":{"app":"web"}})")};
  AddPods(&items, "a", 2, "default", kWeb, "n1");
  ClusterState c = TestCluster(List(items));
  auto p = NewServiceAntiAffinityPriority(kRack);
  EXPECT_EQ(RunScore(*p, Incoming(), c), (Scores{{"n1", 0}, {"n2", 0}}));
}

TEST(ServiceAntiAffinityPriority, OnlyTheFirstServiceCounts) {
  // The headless service (no selector) does not select the pod; of the two
  // that do, only the first one's pods are counted.
  std::vector<std::string> items = {OnRack("n1", "r1"),
                                    OnRack("n2", "r2"),
                                    OnRack("n3", "r3"),
                                    Svc("headless", R"({"ports":[{"port":80}]})"),
                                    Svc("tier", R"({"selector":{"tier":"fe"}})"),
                                    Svc("web", R"({"selector":{"app":"web"}})")};
  AddPods(&items, "fe", 2, "default", R"({"tier":"fe"})", "n1");
  AddPods(&items, "web", 1, "default", kWeb, "n2");
  ClusterState c = TestCluster(List(items));
  auto p = NewServiceAntiAffinityPriority(kRack);
  Pod pod = Incoming(R"({"app":"web","tier":"fe"})");
  EXPECT_EQ(RunMap(*p, pod, c), (Scores{{"n1", 2}, {"n2", 0}, {"n3", 0}}));
  EXPECT_EQ(RunScore(*p, pod, c), (Scores{{"n1", 0}, {"n2", 10}, {"n3", 10}}));
}

TEST(ServiceAntiAffinityPriority, FloatTruncation) {
  // Total 3; r1 holds 1: 10 * (2/3) = 6.67 -> 6; r2 holds 2: 3.33 -> 3.
  std::vector<std::string> items = {OnRack("n1", "r1"), OnRack("n2", "r2"), OnRack("n3", "r3"),
                                    Svc("web", R"({"selector":{"app":"web"}})")};
  AddPods(&items, "a", 1, "default", kWeb, "n1");
  AddPods(&items, "b", 2, "default", kWeb, "n2");
  ClusterState c = TestCluster(List(items));
  auto p = NewServiceAntiAffinityPriority(kRack);
  EXPECT_EQ(RunScore(*p, Incoming(), c), (Scores{{"n1", 6}, {"n2", 3}, {"n3", 10}}));
}

TEST(ServiceAntiAffinityPriority, SkipsTerminatingAndOtherNamespaces) {
  std::vector<std::string> items = {OnRack("n1", "r1"), OnRack("n2", "r2"),
                                    Svc("web", R"({"selector":{"app":"web"}})")};
  items.push_back(LabeledPodJson("gone", "default", kWeb, "n1", /*terminating=*/true));
  AddPods(&items, "prod", 3, "prod", kWeb, "n1");
  AddPods(&items, "live", 1, "default", kWeb, "n2");
  ClusterState c = TestCluster(List(items));
  auto p = NewServiceAntiAffinityPriority(kRack);
  EXPECT_EQ(RunScore(*p, Incoming(), c), (Scores{{"n1", 10}, {"n2", 0}}));
}

TEST(ServiceAntiAffinityPriority, EmptySelectorServiceCountsWholeNamespace) {
  std::vector<std::string> items = {OnRack("n1", "r1"), OnRack("n2", "r2"),
                                    Svc("all", R"({"selector":{}})")};
  AddPods(&items, "x", 1, "default", R"({"app":"db"})", "n1");
  AddPods(&items, "y", 3, "default", "{}", "n2");
  ClusterState c = TestCluster(List(items));
  auto p = NewServiceAntiAffinityPriority(kRack);
  // Total 4: r1 10*3/4 = 7.5 -> 7, r2 10*1/4 = 2.5 -> 2.
  EXPECT_EQ(RunScore(*p, Incoming("{}"), c), (Scores{{"n1", 7}, {"n2", 2}}));
}

TEST(ServiceAntiAffinityPriority, CountsOnlyScoredNodes) {
  std::vector<std::string> items = {OnRack("n1", "r1"), OnRack("n2", "r1"), OnRack("n3", "r2"),
                                    Svc("web", R"({"selector":{"app":"web"}})")};
  AddPods(&items, "a", 5, "default", kWeb, "n2");
  AddPods(&items, "b", 1, "default", kWeb, "n3");
  ClusterState c = TestCluster(List(items));
  auto p = NewServiceAntiAffinityPriority(kRack);
  // n2 is not scored: only n3's pod counts.
  EXPECT_EQ(RunScore(*p, Incoming(), c, {"n1", "n3"}), (Scores{{"n1", 10}, {"n3", 0}}));
}

}  // namespace service_anti_affinity_test
}  // namespace ksched
