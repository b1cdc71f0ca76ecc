#include "preemption/nodes_where_preemption_might_help.h"

#include <gtest/gtest.h>

#include "preemption/preemption_test_util.h"

namespace ksched {
namespace nodes_where_preemption_might_help_test {

using namespace ksched::testing;

TEST(NodesWherePreemptionMightHelp, UnresolvableReasonsExcludeANode) {
  ClusterState c = TestCluster(
      ListOf({NodeJson("a"), NodeJson("b"), NodeJson("c"), NodeJson("d"), NodeJson("e")}));
  auto f = [&](const char* node, std::vector<std::string> reasons, std::string pred) {
    return NodeFailure{c.FindNode(node), std::move(reasons), std::move(pred)};
  };
  std::vector<NodeFailure> failures = {
      f("a", {"Insufficient cpu", "Insufficient memory"}, "GeneralPredicates"),
      f("b", {"node(s) didn't match node selector"}, "GeneralPredicates"),
      f("c",
        {"node(s) didn't match pod affinity/anti-affinity",
         "node(s) didn't match pod affinity rules"},
        "MatchInterPodAffinity"),
      f("d",
        {"node(s) didn't match pod affinity/anti-affinity",
         "node(s) didn't match pod anti-affinity rules"},
        "MatchInterPodAffinity"),
      // An extender's reason is resolvable whatever its words.
      f("e", {"node(s) didn't match node selector"}, ""),
  };
  std::vector<std::string> names;
  for (NodeId n : NodesWherePreemptionMightHelp(c, failures)) names.push_back(c.node(n).meta.name);
  EXPECT_EQ(names, (std::vector<std::string>{"a", "d", "e"}));
}

TEST(NodesWherePreemptionMightHelp, TheUnresolvableList) {
  for (const char* r :
       {"node(s) were unschedulable", "node(s) had taints that the pod didn't tolerate",
        "node(s) didn't match the requested hostname", "node(s) had no available volume zone",
        "node(s) had volume node affinity conflict",
        "node(s) didn't find available persistent volumes to bind",
        "node(s) didn't have the requested labels", "node(s) were not ready",
        "node(s) had unavailable network", "node(s) had unknown conditions",
        "node(s) had memory pressure", "node(s) had disk pressure", "node(s) had pid pressure"}) {
    EXPECT_TRUE(IsUnresolvableReason(r)) << r;
  }
  for (const char* r :
       {"Insufficient cpu", "Insufficient example.com/gpu",
        "node(s) didn't have free ports for the requested pod ports",
        "node(s) didn't satisfy existing pods anti-affinity rules", "node(s) had no available disk",
        "node(s) exceed max volume count", "node(s) didn't match service affinity"}) {
    EXPECT_FALSE(IsUnresolvableReason(r)) << r;
  }
}

}  // namespace nodes_where_preemption_might_help_test
}  // namespace ksched
