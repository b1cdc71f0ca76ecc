#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "predicates/check_test_helper.h"
#include "predicates/factories.h"
#include "tests/fixtures.h"

namespace ksched {
namespace pod_fits_host_test {

using ::testing::ElementsAre;
using testing::RunCheck;
using testing::TestCluster;
using testing::TestPod;

constexpr const char* kCluster = R"({"kind":"List","items":[
  {"kind":"Node","metadata":{"name":"n1"}},
  {"kind":"Node","metadata":{"name":"n10"}}]})";

TEST(PodFitsHost, NoNodeNameFitsEveryNode) {
  ClusterState c = TestCluster(kCluster);
  Pod pod = TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[]}})");
  auto p = NewPodFitsHost();
  EXPECT_TRUE(RunCheck(*p, pod, c, "n1").fits);
  EXPECT_TRUE(RunCheck(*p, pod, c, "n10").fits);
}

TEST(PodFitsHost, NodeNameMustMatchExactly) {
  ClusterState c = TestCluster(kCluster);
  Pod pod =
      TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{"nodeName":"n1","containers":[]}})");
  auto p = NewPodFitsHost();
  EXPECT_TRUE(RunCheck(*p, pod, c, "n1").fits);
  EXPECT_THAT(RunCheck(*p, pod, c, "n10").reasons,
              ElementsAre("node(s) didn't match the requested hostname"));
}

TEST(PodFitsHost, NodeNameOfMissingNodeMatchesNothing) {
  ClusterState c = TestCluster(kCluster);
  Pod pod = TestPod(
      R"({"kind":"Pod","metadata":{"name":"p"},"spec":{"nodeName":"gone","containers":[]}})");
  auto p = NewPodFitsHost();
  EXPECT_FALSE(RunCheck(*p, pod, c, "n1").fits);
  EXPECT_FALSE(RunCheck(*p, pod, c, "n10").fits);
}

}  // namespace pod_fits_host_test
}  // namespace ksched
