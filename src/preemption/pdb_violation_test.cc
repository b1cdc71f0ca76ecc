#include "preemption/pdb_violation.h"

#include <gtest/gtest.h>

#include "preemption/preemption_test_util.h"

namespace ksched {
namespace pdb_violation_test {

using namespace ksched::testing;

PodDisruptionBudget Budget(const std::string& ns, std::optional<LabelSelector> selector,
                           int allowed) {
  PodDisruptionBudget b;
  b.meta.name = "b";
  b.meta.ns = Intern(ns);
  b.selector = std::move(selector);
  b.disruptions_allowed = allowed;
  return b;
}

LabelSelector AppIs(const std::string& app) {
  LabelSelector s;
  s.match_labels = {{"app", app}};
  return s;
}

Pod Web(const std::string& ns = "default") {
  return TestPod(RunningPodJson("w", "n", "1", 0, "", R"({"app":"web"})", ns));
}

TEST(PodViolatesDisruptionBudget, MatchingBudgetWithoutDisruptionsLeft) {
  EXPECT_TRUE(PodViolatesDisruptionBudget(Web(), {Budget("default", AppIs("web"), 0)}));
  EXPECT_TRUE(PodViolatesDisruptionBudget(Web(), {Budget("default", AppIs("web"), -1)}));
  EXPECT_FALSE(PodViolatesDisruptionBudget(Web(), {Budget("default", AppIs("web"), 1)}))
      << "one allowed disruption protects nothing";
}

TEST(PodViolatesDisruptionBudget, AnyMatchingBudgetCounts) {
  EXPECT_TRUE(PodViolatesDisruptionBudget(
      Web(), {Budget("default", AppIs("web"), 3), Budget("default", AppIs("web"), 0)}));
}

TEST(PodViolatesDisruptionBudget, WhatNeverMatches) {
  EXPECT_FALSE(PodViolatesDisruptionBudget(Web("other"), {Budget("default", AppIs("web"), 0)}))
      << "another namespace";
  EXPECT_FALSE(PodViolatesDisruptionBudget(Web(), {Budget("default", std::nullopt, 0)}))
      << "nil selector";
  EXPECT_FALSE(PodViolatesDisruptionBudget(Web(), {Budget("default", LabelSelector{}, 0)}))
      << "empty selector";
  Pod bare = TestPod(RunningPodJson("b", "n", "1", 0));
  LabelSelector not_web;
  not_web.match_expressions = {{"app", "NotIn", {"web"}}};
  EXPECT_FALSE(PodViolatesDisruptionBudget(bare, {Budget("default", not_web, 0)}))
      << "a pod without labels matches no budget";
  LabelSelector invalid;
  invalid.match_expressions = {{"app", "Inn", {"web"}}};
  EXPECT_FALSE(PodViolatesDisruptionBudget(Web(), {Budget("default", invalid, 0)}));
}

}  // namespace pdb_violation_test
}  // namespace ksched
