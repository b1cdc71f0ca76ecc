#include "api/pod_resources.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/fixtures.h"

namespace ksched {
namespace pod_resources_test {

using ::ksched::testing::TestPod;

std::string Get(const ResourceList& l, std::string_view name) {
  const ResourceQuantity* q = FindResource(l, Intern(name));
  return q == nullptr ? "-" : q->String();
}

TEST(AggregateContainerRequests, SidecarsAddAndInitContainersTakeTheMax) {
  // containers 1 cpu; sidecar 500m first, then an init container of 2 cpu
  // that runs beside the sidecar: max(1 + 0.5, 2 + 0.5) = 2.5.
  Pod p = TestPod(R"({"kind":"Pod","metadata":{"name":"p"},"spec":{
      "initContainers":[{"name":"s","restartPolicy":"Always",
                         "resources":{"requests":{"cpu":"500m","memory":"64Mi"},
                                      "limits":{"memory":"128Mi"}}},
                        {"name":"i","resources":{"requests":{"cpu":"2"}}}],
      "containers":[{"name":"c","resources":{"requests":{"cpu":"1","memory":"1Gi"},
                                             "limits":{"memory":"1Gi"}}}]}})");
  ResourceList r = AggregateContainerRequests(p.spec);
  EXPECT_EQ(Get(r, "cpu"), "2500m");
  EXPECT_EQ(Get(r, "memory"), "1088Mi");
  ResourceList l = AggregateContainerLimits(p.spec);
  EXPECT_EQ(Get(l, "memory"), "1152Mi");
  EXPECT_EQ(Get(l, "cpu"), "-");
}

TEST(PodLevelResourceNames, CpuMemoryHugepages) {
  EXPECT_TRUE(IsSupportedPodLevelResource("cpu"));
  EXPECT_TRUE(IsSupportedPodLevelResource("hugepages-1Gi"));
  EXPECT_FALSE(IsSupportedPodLevelResource("ephemeral-storage"));
  EXPECT_FALSE(IsSupportedPodLevelResource("nvidia.com/gpu"));
}

}  // namespace pod_resources_test
}  // namespace ksched
