#include "api/priority_admission.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace ksched {
namespace priority_admission_test {

PriorityClass Class(std::string name, int32_t value, bool global_default = false) {
  PriorityClass pc;
  pc.meta.name = std::move(name);
  pc.value = value;
  pc.global_default = global_default;
  return pc;
}

Pod PodWith(std::string name, std::string class_name, std::optional<int32_t> priority = {}) {
  Pod p;
  p.meta.name = std::move(name);
  p.meta.ns = Intern("default");
  p.spec.priority_class_name = std::move(class_name);
  p.spec.priority = priority;
  return p;
}

TEST(PriorityAdmission, ClassValueFillsMissingPriority) {
  std::vector<Pod> pods = {PodWith("a", "high"), PodWith("b", "high", 5)};
  ASSERT_TRUE(ApplyPriorityClasses({Class("high", 1000)}, &pods, "p.yaml").ok());
  EXPECT_EQ(pods[0].spec.priority, 1000);
  EXPECT_EQ(pods[1].spec.priority, 5) << "an admitted pod keeps its priority";
}

TEST(PriorityAdmission, GlobalDefaultElseZero) {
  std::vector<Pod> pods = {PodWith("a", "")};
  ASSERT_TRUE(ApplyPriorityClasses({Class("low", -10), Class("def", 7, true)}, &pods, "").ok());
  EXPECT_EQ(pods[0].spec.priority, 7);
  EXPECT_EQ(pods[0].spec.priority_class_name, "def");
  pods = {PodWith("a", "")};
  ASSERT_TRUE(ApplyPriorityClasses({Class("low", -10)}, &pods, "").ok());
  EXPECT_EQ(pods[0].spec.priority, 0);
  EXPECT_EQ(pods[0].spec.priority_class_name, "");
}

TEST(PriorityAdmission, BuiltInClassesNeedNoObject) {
  std::vector<Pod> pods = {PodWith("a", "system-node-critical"),
                           PodWith("b", "system-cluster-critical")};
  ASSERT_TRUE(ApplyPriorityClasses({}, &pods, "").ok());
  EXPECT_EQ(pods[0].spec.priority, 2000001000);
  EXPECT_EQ(pods[1].spec.priority, 2000000000);
}

TEST(PriorityAdmission, UnknownClassNamesThePod) {
  std::vector<Pod> pods = {PodWith("web-1", "hihg")};
  Status s = ApplyPriorityClasses({Class("high", 1000)}, &pods, "pending.yaml");
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(s.error().message,
              ::testing::AllOf(::testing::HasSubstr("pending.yaml: Pod default/web-1"),
                               ::testing::HasSubstr("no PriorityClass with name hihg was found")));
}

}  // namespace priority_admission_test
}  // namespace ksched
