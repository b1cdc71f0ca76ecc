#include "framework/plugins/noderesources/resource_allocation.h"

#include <gtest/gtest.h>

#include "framework/plugins/noderesources/least_allocated.h"
#include "framework/plugins/noderesources/most_allocated.h"
#include "framework/plugins/noderesources/requested_to_capacity_ratio.h"
#include "tests/fixtures.h"

namespace ksched::framework::noderesources {
namespace noderesources_resource_allocation_test {

using ksched::testing::TestPod;

TEST(ResourcesToScore, OneEntryPerNameLastWeightWins) {
  auto r = ResourcesToScore({{"cpu", 1}, {"memory", 2}, {"cpu", 5}, {"example.com/gpu", 3}});
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0].kind, ResourceKind::kCpu);
  EXPECT_EQ(r[0].weight, 5);
  EXPECT_EQ(r[1].kind, ResourceKind::kMemory);
  EXPECT_FALSE(r[1].scalar);
  EXPECT_EQ(r[2].kind, ResourceKind::kOther);
  EXPECT_TRUE(r[2].scalar);
}

TEST(PodResourceRequest, NonZeroDefaultsPerContainerAndInitContainer) {
  Pod pod = TestPod(R"({"kind":"Pod","metadata":{"name":"p","namespace":"default"},"spec":{
      "initContainers":[{"name":"i","resources":{"requests":{"cpu":"250m"}}}],
      "containers":[{"name":"a"},{"name":"b","resources":{"requests":{"cpu":"0","memory":"1Mi"}}}]}})");
  auto r = ResourcesToScore({{"cpu", 1}, {"memory", 1}, {"ephemeral-storage", 1}});
  // cpu: max(100 + 0, 250) = 250; memory: max(200Mi + 1Mi, 200Mi default of the init container).
  EXPECT_EQ(PodResourceRequest(pod, r[0], true), 250);
  EXPECT_EQ(PodResourceRequest(pod, r[1], true), 201 * 1024 * 1024);
  EXPECT_EQ(PodResourceRequest(pod, r[0], false), 250);
  EXPECT_EQ(PodResourceRequest(pod, r[1], false), 1024 * 1024);
  EXPECT_EQ(PodResourceRequest(pod, r[2], true), 0);
}

TEST(Scorers, LeastMostAndRatio) {
  EXPECT_EQ(LeastRequestedScore(1, 3), 66);
  EXPECT_EQ(LeastRequestedScore(4, 3), 0);
  EXPECT_EQ(LeastRequestedScore(0, 0), 0);
  EXPECT_EQ(MostRequestedScore(1, 3), 33);
  EXPECT_EQ(MostRequestedScore(4, 3), 100);
  EXPECT_EQ(MostRequestedScore(1, 0), 0);
  RequestedToCapacityRatio ratio({{0, 10}, {100, 0}});
  EXPECT_EQ(ratio.ResourceScore(0, 10), 100);
  EXPECT_EQ(ratio.ResourceScore(3, 10), 70);
  EXPECT_EQ(ratio.ResourceScore(11, 10), 0) << "over-committed: the shape at 100";
  EXPECT_EQ(ratio.ResourceScore(1, 0), 0);
}

}  // namespace noderesources_resource_allocation_test
}  // namespace ksched::framework::noderesources
