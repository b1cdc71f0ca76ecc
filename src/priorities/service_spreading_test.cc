#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "priorities/factories.h"
#include "priorities/spreading_test_helper.h"
#include "tests/fixtures.h"

namespace ksched {
namespace service_spreading_test {

using testing::AddPods;
using testing::LabeledPodJson;
using testing::List;
using testing::ObjectJson;
using testing::RunScore;
using testing::TestCluster;
using testing::TestPod;
using testing::ZoneNodeJson;
using Scores = std::map<std::string, int64_t>;

const char kWeb[] = R"({"app":"web"})";

TEST(ServiceSpreadingPriority, CountsControllersLikeSelectorSpread) {
  // Upstream builds it with empty RC/RS/StatefulSet listers, but those are
  // only used without metadata; the scheduler's metadata always carries the
  // controllers' selectors, so a ReplicaSet alone still spreads the pods.
  std::vector<std::string> items = {
      ZoneNodeJson("n1"), ZoneNodeJson("n2"),
      ObjectJson("ReplicaSet", "rs", R"({"selector":{"matchLabels":{"app":"web"}}})")};
  AddPods(&items, "w", 2, "default", kWeb, "n1");
  ClusterState c = TestCluster(List(items));
  Pod pod = TestPod(LabeledPodJson("new", "default", kWeb));
  EXPECT_EQ(RunScore(*NewServiceSpreadingPriority(), pod, c), (Scores{{"n1", 0}, {"n2", 10}}));
}

TEST(ServiceSpreadingPriority, ServiceAndControllerMustBothMatch) {
  std::vector<std::string> items = {
      ZoneNodeJson("n1"), ZoneNodeJson("n2"), ZoneNodeJson("n3"),
      ObjectJson("Service", "web", R"({"selector":{"app":"web"}})"),
      ObjectJson("ReplicationController", "rc", R"({"selector":{"app":"web","v":"2"}})")};
  AddPods(&items, "old", 3, "default", kWeb, "n1");
  AddPods(&items, "new", 1, "default", R"({"app":"web","v":"2"})", "n2");
  ClusterState c = TestCluster(List(items));
  Pod pod = TestPod(LabeledPodJson("p", "default", R"({"app":"web","v":"2"})"));
  auto svc = RunScore(*NewServiceSpreadingPriority(), pod, c);
  EXPECT_EQ(svc, (Scores{{"n1", 10}, {"n2", 0}, {"n3", 10}}));
  EXPECT_EQ(svc, RunScore(*NewSelectorSpreadPriority(), pod, c));
}

}  // namespace service_spreading_test
}  // namespace ksched
