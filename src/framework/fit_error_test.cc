#include "framework/fit_error.h"

#include <gtest/gtest.h>

namespace ksched::framework {
namespace {

TEST(FitErrorMessage, HistogramSortedAsStrings) {
  NodeToStatusMap m = {
      {0, Status(Code::kUnschedulable, "Insufficient cpu")},
      {1, Status(Code::kUnschedulable, std::vector<std::string>{"Insufficient cpu", "Too many pods"})},
      {2, Status(Code::kUnschedulableAndUnresolvable, "node(s) were unschedulable")},
  };
  // "1 node(s)..." < "1 Too..." as bytes ('n' > 'T'), and counts sort as text.
  EXPECT_EQ(FitErrorMessage(3, "", m, ""),
            "0/3 nodes are available: 1 Too many pods, 1 node(s) were unschedulable, 2 "
            "Insufficient cpu.");
}

TEST(FitErrorMessage, PreFilterMessageReplacesHistogram) {
  NodeToStatusMap m = {{0, Status(Code::kUnschedulable, "x")}};
  EXPECT_EQ(FitErrorMessage(1, "pod has unbound immediate PersistentVolumeClaims", m, ""),
            "0/1 nodes are available: pod has unbound immediate PersistentVolumeClaims.");
}

TEST(FitErrorMessage, PostFilterMessageAppended) {
  NodeToStatusMap m = {{0, Status(Code::kUnschedulable, "Insufficient cpu")}};
  EXPECT_EQ(FitErrorMessage(1, "", m, "preemption: 0/1 nodes are available: 1 No victims."),
            "0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 "
            "No victims..");
  EXPECT_EQ(FitErrorMessage(0, "", {}, ""), "0/0 nodes are available:");
}

}  // namespace
}  // namespace ksched::framework
