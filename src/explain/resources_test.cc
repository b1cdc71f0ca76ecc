#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "explain/explain_test_util.h"

namespace ksched::explain {
namespace resources_test {

using ::testing::ElementsAre;
using testing::List;
using testing::ScheduleAndExplain;

const char* kNode =
    R"({"kind":"Node","metadata":{"name":"n1"},"status":{"allocatable":{"cpu":"4","memory":"8Gi","pods":"3","example.com/gpu":"1"}}})";

std::string Pod(const std::string& name, const std::string& requests, const std::string& node) {
  std::string s =
      R"({"kind":"Pod","metadata":{"name":")" + name + R"(","namespace":"default"},"spec":{)";
  if (!node.empty()) s += R"("nodeName":")" + node + R"(",)";
  return s + R"("containers":[{"name":"c","resources":{"requests":)" + requests + "}}]}}";
}

TEST(ExplainResources, CpuAndMemoryRequestedAgainstFree) {
  auto e = ScheduleAndExplain(List({kNode, Pod("a", R"({"cpu":"2500m","memory":"6Gi"})", "n1")}),
                              Pod("new", R"({"cpu":"2","memory":"3Gi"})", ""));
  EXPECT_THAT(e.reasons["n1"], ElementsAre("Insufficient cpu", "Insufficient memory"));
  EXPECT_THAT(e.Messages("n1"),
              ElementsAre("cpu: the pod requests 2, the node has 1500m free (allocatable 4, "
                          "requested by its pods 2500m)",
                          "memory: the pod requests 3Gi, the node has 2Gi free (allocatable "
                          "8Gi, requested by its pods 6Gi)"));
  const Cause& cpu = e.causes["n1"][0];
  EXPECT_EQ(cpu.kind, "resource");
  EXPECT_EQ(cpu.details["resource"], "cpu");
  EXPECT_EQ(cpu.details["requested"], 2000);
  EXPECT_EQ(cpu.details["free"], 1500);
  EXPECT_EQ(cpu.details["allocatable"], 4000);
  EXPECT_EQ(cpu.details["unit"], "millicores");
}

TEST(ExplainResources, PodCountAgainstTheNodesLimit) {
  auto e = ScheduleAndExplain(
      List({kNode, Pod("a", "{}", "n1"), Pod("b", "{}", "n1"), Pod("c", "{}", "n1")}),
      Pod("new", "{}", ""));
  EXPECT_THAT(e.reasons["n1"], ElementsAre("Insufficient pods"));
  EXPECT_THAT(e.Messages("n1"), ElementsAre("pods: the node allows 3 pods and already counts 3"));
}

TEST(ExplainResources, ExtendedResourceTheNodeLacks) {
  const char* plain =
      R"({"kind":"Node","metadata":{"name":"n2"},"status":{"allocatable":{"cpu":"4","pods":"10"}}})";
  auto e = ScheduleAndExplain(List({kNode, plain, Pod("a", R"({"example.com/gpu":"1"})", "n1")}),
                              Pod("new", R"({"example.com/gpu":"1"})", ""));
  EXPECT_THAT(e.Messages("n1"),
              ElementsAre("example.com/gpu: the pod requests 1, the node has 0 free (allocatable "
                          "1, requested by its pods 1)"));
  EXPECT_THAT(e.Messages("n2"),
              ElementsAre("example.com/gpu: the pod requests 1, the node has 0 free (allocatable "
                          "0, requested by its pods 0); the node has no example.com/gpu"));
}

TEST(ExplainResources, NominatedPodsTakeRoomToo) {
  // A pod nominated to n1 (by an earlier preemption) reserves 2 cpus there.
  auto e = ScheduleAndExplain(List({kNode, Pod("a", R"({"cpu":"1"})", "n1")}),
                              Pod("new", R"({"cpu":"2"})", ""),
                              {{Pod("waiting", R"({"cpu":"2"})", ""), "n1"}});
  EXPECT_THAT(e.reasons["n1"], ElementsAre("Insufficient cpu"));
  EXPECT_THAT(e.Messages("n1"),
              ElementsAre("cpu: the pod requests 2, the node has 1 free (allocatable 4, requested "
                          "by its pods 1, by 1 nominated pod(s) 2)"));
  EXPECT_EQ(e.causes["n1"][0].details["requestedByNominatedPods"], 2000);
}

TEST(ExplainFormat, Amounts) {
  EXPECT_EQ(FormatAmount("cpu", 1500), "1500m");
  EXPECT_EQ(FormatAmount("cpu", 3000), "3");
  EXPECT_EQ(FormatAmount("memory", 512 * 1024 * 1024), "512Mi");
  EXPECT_EQ(FormatAmount("memory", 1000), "1000");
  EXPECT_EQ(FormatAmount("memory", 0), "0");
  EXPECT_EQ(FormatAmount("example.com/gpu", 2048), "2048");
}

// One line, one unit: the largest binary suffix every amount is exact in.
TEST(ExplainFormat, AmountsOfOneLineShareAUnit) {
  const int64_t ki = 1024, mi = ki * 1024, gi = mi * 1024;
  EXPECT_EQ(FormatAmountsAlike("memory", {8312 * mi, 6586008 * ki, 0}),
            (std::vector<std::string>{"8511488Ki", "6586008Ki", "0"}));
  EXPECT_EQ(FormatAmountsAlike("memory", {3 * gi, 2 * gi, 4 * gi, 2 * gi, 0}),
            (std::vector<std::string>{"3Gi", "2Gi", "4Gi", "2Gi", "0"}));
  EXPECT_EQ(FormatAmountsAlike("memory", {512 * mi, 2 * gi}),
            (std::vector<std::string>{"512Mi", "2048Mi"}));
  EXPECT_EQ(FormatAmountsAlike("memory", {1000, 2 * gi}),
            (std::vector<std::string>{"1000", "2147483648"}));
  EXPECT_EQ(FormatAmountsAlike("cpu", {1500, 2000}), (std::vector<std::string>{"1500m", "2"}));
}

}  // namespace resources_test
}  // namespace ksched::explain
