// Hostile and extreme input (docs/input-limits.md): each case either works as
// upstream would or fails with an error naming the file, object and field;
// none may crash, overflow in silence or take super-linear time.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "algorithm/generic_scheduler.h"
#include "algorithm/provider.h"
#include "api/decode.h"
#include "cache/cluster_state.h"
#include "cache/node_tree.h"
#include "labels/selector.h"

namespace ksched {
namespace limits_test {

std::string NodeJson(const std::string& name, const std::string& cpu = "4") {
  return R"({"kind":"Node","metadata":{"name":")" + name +
         R"(","labels":{"zone":"a"}},"status":{"allocatable":{"cpu":")" + cpu +
         R"(","memory":"8Gi","pods":"110"}}})";
}

std::string PodJson(const std::string& name, const std::string& requests = R"({"cpu":"100m"})",
                    const std::string& extra_spec = "", const std::string& node = "") {
  std::string spec =
      R"({"containers":[{"name":"c","image":"i","resources":{"requests":)" + requests + "}}]";
  if (!node.empty()) spec += R"(,"nodeName":")" + node + "\"";
  if (!extra_spec.empty()) spec += "," + extra_spec;
  spec += "}";
  return R"({"kind":"Pod","metadata":{"name":")" + name + R"(","namespace":"default"},"spec":)" +
         spec + "}";
}

std::string List(const std::vector<std::string>& items) {
  std::string s = R"({"kind":"List","items":[)";
  for (size_t i = 0; i < items.size(); ++i) s += (i ? "," : "") + items[i];
  return s + "]}";
}

// Decodes, builds and schedules every pending pod with DefaultProvider; the
// returned strings are the chosen nodes or the error. A failure to decode or
// build is returned as "error: <message>".
std::vector<std::string> Schedule(const std::string& text, size_t* on_missing = nullptr) {
  ObjectSet set;
  if (Status s = DecodeObjects(text, "limits.json", &set); !s.ok()) {
    return {"error: " + s.error().message};
  }
  std::vector<Pod> pending;
  auto cluster = ClusterState::Build(std::move(set), &pending);
  if (!cluster.ok()) return {"error: " + cluster.error().message};
  if (on_missing) *on_missing = cluster->num_pods_on_missing_nodes();
  auto config = BuildFromProvider("DefaultProvider", BuildOptions{});
  EXPECT_TRUE(config.ok());
  GenericScheduler scheduler(std::move(config).value(), TieBreak::kName);
  NodeTree tree(*cluster);
  std::vector<std::string> out;
  for (Pod& p : pending) {
    ScheduleResult r = scheduler.Schedule(p, *cluster, &tree);
    out.push_back(r.chosen == kNoNode ? r.error : cluster->node(r.chosen).meta.name);
    if (r.chosen != kNoNode) cluster->Assume(std::move(p), r.chosen);
  }
  return out;
}

TEST(Limits, DeepJsonNestingIsAClearError) {
  std::string deep =
      R"({"kind":"List","items":)" + std::string(100000, '[') + std::string(100000, ']') + "}";
  ObjectSet set;
  Status s = DecodeObjects(deep, "deep.json", &set);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("deep.json"), std::string::npos) << s.error().message;
  EXPECT_NE(s.error().message.find("nested deeper"), std::string::npos) << s.error().message;
}

TEST(Limits, DeepYamlNestingIsAClearError) {
  std::string flow = "kind: List\nitems: " + std::string(100000, '[') + std::string(100000, ']');
  std::string block = "kind: List\nitems:\n";
  for (int i = 1; i < 3000; ++i) block += std::string(2 * i, ' ') + "- \n";
  for (const std::string& yaml : {flow, block}) {
    ObjectSet set;
    Status s = DecodeObjects(yaml, "deep.yaml", &set);
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.error().message.find("deep.yaml:"), std::string::npos) << s.error().message;
    EXPECT_NE(s.error().message.find("nested deeper"), std::string::npos) << s.error().message;
  }
}

TEST(Limits, YamlWithAStrayTokenIsAnError) {
  // A document that starts with a token no node can start with. yaml-cpp 0.7,
  // used before libyaml, started empty documents at that token forever (found
  // by fuzzing).
  for (const std::string yaml : {",", ", ae", "kind: List\n---\n,", "- a\n---\n, b", "]", "}"}) {
    ObjectSet set;
    Status s = DecodeObjects(yaml, "loop.yaml", &set);
    ASSERT_FALSE(s.ok()) << yaml;
    EXPECT_NE(s.error().message.find("loop.yaml:"), std::string::npos) << s.error().message;
    EXPECT_NE(s.error().message.find("did not find expected node content"), std::string::npos)
        << s.error().message;
  }
}

TEST(Limits, VeryLongStringsWork) {
  std::string big(10 << 20, 'x');
  std::string pod =
      R"({"kind":"Pod","metadata":{"name":"p","namespace":"default","labels":{"k":")" + big +
      R"("}},"spec":{"containers":[{"name":"c","image":"i"}]}})";
  EXPECT_EQ(Schedule(List({NodeJson("n1"), pod})), std::vector<std::string>{"n1"});
}

TEST(Limits, HugeQuantitiesSaturateAsUpstreamDoes) {
  // A request beyond int64 milli-units can never fit; an allocatable beyond
  // it fits everything. Neither wraps around.
  EXPECT_EQ(Schedule(List({NodeJson("n1"), PodJson("p", R"({"cpu":"1e400"})")})),
            std::vector<std::string>{"0/1 nodes are available: 1 Insufficient cpu."});
  EXPECT_EQ(
      Schedule(List({NodeJson("n1"), PodJson("p", R"({"memory":"99999999999999999999Ei"})")})),
      std::vector<std::string>{"0/1 nodes are available: 1 Insufficient memory."});
  EXPECT_EQ(Schedule(List({NodeJson("n1", "99999999999999999999Ei"), PodJson("p")})),
            std::vector<std::string>{"n1"});
}

// Sums are another matter: upstream adds int64 quantities without checking,
// so two saturated requests wrap to -2 and the pod then fits anywhere. ksched
// decides the same (and UBSan, which aborts on signed overflow in the sanitizer
// build, checks that no C++ overflow is involved).
TEST(Limits, HugeRequestSumsWrapAsGoInt64Does) {
  const std::string two_huge = R"({"kind":"Pod","metadata":{"name":"p","namespace":"default"},)"
                               R"("spec":{"containers":[)"
                               R"({"name":"a","resources":{"requests":{"cpu":"1e400"}}},)"
                               R"({"name":"b","resources":{"requests":{"cpu":"1e400"}}}]}})";
  EXPECT_EQ(Schedule(List({NodeJson("n1"), two_huge})), std::vector<std::string>{"n1"});
  // The same on the node's side: a bound pod whose containers sum past int64
  // leaves n1's requested cpu at -2m, so 4001m fits n1's 4 cores (and not n2).
  std::string bound = two_huge;
  bound.replace(bound.find(R"("spec":{)"), 8, R"("spec":{"nodeName":"n1",)");
  bound.replace(bound.find(R"("name":"p")"), 10, R"("name":"old")");
  EXPECT_EQ(
      Schedule(List({NodeJson("n1"), NodeJson("n2"), bound, PodJson("p", R"({"cpu":"4001m"})")})),
      std::vector<std::string>{"n1"});
}

// A node whose pods' memory sums wrap to -2^62 scores far outside 0-10 in
// LeastRequested and BalancedResourceAllocation (as in Go). The full
// computation and the incremental score index must still agree: the index
// hands such cycles back to the full computation.
TEST(Limits, WrappedRequestSumsScoreTheSameOnEveryPath) {
  const std::string half = "6917529027641081856";  // 2^62 + 2^61: twice wraps to -2^62
  const std::string old = R"({"kind":"Pod","metadata":{"name":"old","namespace":"default"},)"
                          R"("spec":{"nodeName":"n1","containers":[)"
                          R"({"name":"a","resources":{"requests":{"memory":")" +
                          half + R"("}}},{"name":"b","resources":{"requests":{"memory":")" + half +
                          R"("}}}]}})";
  ObjectSet set;
  ASSERT_TRUE(
      DecodeObjects(List({NodeJson("n1"), NodeJson("n2"), old, PodJson("p")}), "w.json", &set)
          .ok());
  std::vector<Pod> pending;
  auto cluster = ClusterState::Build(std::move(set), &pending);
  ASSERT_TRUE(cluster.ok()) << cluster.error().message;
  ASSERT_EQ(pending.size(), 1u);
  std::vector<NodeId> chosen;
  for (bool details : {true, false}) {
    auto config = BuildFromProvider("DefaultProvider", BuildOptions{});
    ASSERT_TRUE(config.ok());
    GenericScheduler scheduler(std::move(config).value(), TieBreak::kName);
    NodeTree tree(*cluster);
    ScheduleResult r = scheduler.Schedule(pending[0], *cluster, &tree, details);
    chosen.push_back(r.chosen);
    if (!details) continue;
    ASSERT_EQ(r.feasible.size(), 2u);
    int64_t lowest = 0;
    for (const auto& scores : r.priority_scores)
      for (int64_t v : scores) lowest = std::min(lowest, v);
    EXPECT_LT(lowest, -1000000);  // far outside 0-10, as Go computes it
  }
  ASSERT_NE(chosen[0], kNoNode);
  EXPECT_EQ(cluster->node(chosen[0]).meta.name, "n2");
  EXPECT_EQ(chosen[1], chosen[0]);
}

TEST(Limits, NegativeQuantitiesAreRejectedLikeTheApiServerDoes) {
  std::vector<std::string> r = Schedule(List({NodeJson("n1"), PodJson("p", R"({"cpu":"-1"})")}));
  ASSERT_EQ(r.size(), 1u);
  EXPECT_NE(r[0].find("Pod default/p: spec.containers[0].resources.requests.cpu: must be greater "
                      "than or equal to 0"),
            std::string::npos)
      << r[0];
  r = Schedule(List({NodeJson("n1", "-2"), PodJson("p")}));
  ASSERT_EQ(r.size(), 1u);
  EXPECT_NE(r[0].find("Node n1: status.allocatable.cpu: must be greater than or equal to 0"),
            std::string::npos)
      << r[0];
}

TEST(Limits, DuplicateNamesAreErrors) {
  std::vector<std::string> r = Schedule(List({NodeJson("n1"), NodeJson("n1"), PodJson("p")}));
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0], "error: Node n1: duplicate node name");
  r = Schedule(List({NodeJson("n1"), PodJson("p"), PodJson("p")}));
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0], "error: Pod default/p: duplicate pod (same namespace and name)");
}

TEST(Limits, PodsBoundToMissingNodesStayInTheCache) {
  size_t on_missing = 0;
  EXPECT_EQ(Schedule(List({NodeJson("n1"), PodJson("bound", R"({"cpu":"100m"})", "", "ghost"),
                           PodJson("p")}),
                     &on_missing),
            std::vector<std::string>{"n1"});
  EXPECT_EQ(on_missing, 1u);
}

TEST(Limits, SelectorsWithThousandsOfValues) {
  std::string values;
  for (int i = 0; i < 20000; ++i) values += "\"v" + std::to_string(i) + "\",";
  std::string affinity =
      R"("affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":)"
      R"({"nodeSelectorTerms":[{"matchExpressions":[{"key":"zone","operator":"In","values":[)" +
      values + R"("a"]}]}]}}})";
  EXPECT_EQ(Schedule(List({NodeJson("n1"), PodJson("p", R"({"cpu":"1"})", affinity)})),
            std::vector<std::string>{"n1"});

  std::string text = "k in (";
  for (int i = 0; i < 20000; ++i) {
    if (i) text += ',';
    text += 'v';
    text += std::to_string(i);
  }
  text += ")";
  auto sel = labels::Parse(text);
  ASSERT_TRUE(sel.ok()) << sel.error().message;
  EXPECT_TRUE(sel->Matches(Labels({{Intern("k"), Intern("v19999")}})));
  EXPECT_FALSE(sel->Matches(Labels({{Intern("k"), Intern("w")}})));
}

}  // namespace limits_test
using namespace limits_test;
// Pods and nodes that list thousands of tolerations, taints, images and disks.
// Each of these used to cost the product of two such counts; the answers
// here pin down that the indexed paths still decide as upstream does.
TEST(Limits, ThousandsOfTaintsTolerationsImagesAndDisks) {
  constexpr int kMany = 5000;
  std::string taints, tolerations, images, containers, old_disks, new_disks;
  for (int i = 0; i < kMany; ++i) {
    std::string n = std::to_string(i);
    taints +=
        std::string(i ? "," : "") + R"({"key":"k)" + n + R"(","value":"v","effect":"NoSchedule"})";
    // Tolerate every taint but k0's, whose value differs.
    tolerations += std::string(i ? "," : "") + R"({"key":"k)" + n +
                   R"(","operator":"Equal","value":")" + (i == 0 ? "other" : "v") +
                   R"(","effect":"NoSchedule"})";
    images += std::string(i ? "," : "") + R"({"names":["img)" + n + R"(:v1"],"sizeBytes":1000000})";
    containers +=
        std::string(i ? "," : "") + R"({"name":"c)" + n + R"(","image":"img)" + n + R"(:v1"})";
    old_disks += std::string(i ? "," : "") + R"({"name":"v)" + n +
                 R"(","gcePersistentDisk":{"pdName":"old)" + n + R"("}})";
    new_disks += std::string(i ? "," : "") + R"({"name":"v)" + n +
                 R"(","gcePersistentDisk":{"pdName":"new)" + n + R"("}})";
  }
  auto tainted = [&](const std::string& name) {
    return R"({"kind":"Node","metadata":{"name":")" + name + R"("},"spec":{"taints":[)" + taints +
           R"(]},"status":{"allocatable":{"cpu":"4","pods":"110"}}})";
  };
  auto tolerating = [&](const std::string& name, const std::string& list) {
    return R"({"kind":"Pod","metadata":{"name":")" + name +
           R"(","namespace":"default"},"spec":{"containers":[{"name":"c"}],"tolerations":[)" +
           list + "]}}";
  };
  // One untolerated taint is enough to rule the node out.
  EXPECT_EQ(Schedule(List({tainted("n1"), tolerating("p", tolerations)})),
            std::vector<std::string>{
                "0/1 nodes are available: 1 node(s) had taints that the pod didn't tolerate."});
  std::string all = tolerations;
  all.replace(all.find("\"other\""), 7, "\"v\"");
  EXPECT_EQ(Schedule(List({tainted("n1"), tolerating("p", all)})), std::vector<std::string>{"n1"});

  // ImageLocality prefers the node holding the images (n1 is otherwise the
  // same and would win the name tie-break).
  std::string with_images = R"({"kind":"Node","metadata":{"name":"n2"},"status":{"allocatable":)"
                            R"({"cpu":"4","memory":"8Gi","pods":"110"},"images":[)" +
                            images + "]}}";
  std::string pod = R"({"kind":"Pod","metadata":{"name":"p","namespace":"default"},"spec":)"
                    R"({"containers":[)" +
                    containers + "]}}";
  EXPECT_EQ(Schedule(List({NodeJson("n1"), with_images, pod})), std::vector<std::string>{"n2"});

  // 5,000 disks each: no conflict, but n1 is far over its GCE PD limit (16).
  std::string holder = R"({"kind":"Pod","metadata":{"name":"old","namespace":"default"},)"
                       R"("spec":{"nodeName":"n1","containers":[{"name":"c"}],"volumes":[)" +
                       old_disks + "]}}";
  std::string disks = R"({"kind":"Pod","metadata":{"name":"p","namespace":"default"},)"
                      R"("spec":{"containers":[{"name":"c"}],"volumes":[)" +
                      new_disks + "]}}";
  EXPECT_EQ(
      Schedule(List({NodeJson("n1"), holder, disks})),
      std::vector<std::string>{"0/1 nodes are available: 1 node(s) exceed max volume count."});
}

// Nodes with thousands of extended resources, listed in a different order on
// every node, and a pod asking for many of them across containers.
TEST(Limits, ThousandsOfExtendedResources) {
  constexpr int kMany = 5000;
  auto node = [&](const std::string& name, int rotate, int amount) {
    std::string alloc = R"("cpu":"4","memory":"8Gi","pods":"110")";
    for (int j = 0; j < kMany; ++j) {
      int i = (j * 7 + rotate) % kMany;  // 7 is coprime with kMany: every name once
      alloc += R"(,"example.com/r)" + std::to_string(i) + R"(":")" + std::to_string(amount) + "\"";
    }
    return R"({"kind":"Node","metadata":{"name":")" + name + R"("},"status":{"allocatable":{)" +
           alloc + "}}}";
  };
  auto pod = [&](const std::string& name, int count) {
    std::string containers;
    for (int c = 0; c < 2; ++c) {
      std::string req = R"("cpu":"10m")";
      for (int i = count - 1; i >= 0; --i)
        req += R"(,"example.com/r)" + std::to_string(i) + R"(":"1")";
      containers += std::string(c ? "," : "") + R"({"name":"c)" + std::to_string(c) +
                    R"(","resources":{"requests":{)" + req + "}}}";
    }
    return R"({"kind":"Pod","metadata":{"name":")" + name +
           R"(","namespace":"default"},"spec":{"containers":[)" + containers + "]}}";
  };
  // Each pod takes 2 of every resource it names (1 per container); n1 has 3
  // of each, n2 has 4. Extended resources do not enter the scores, so p1 goes
  // to n1 on the name tie-break; p2 no longer fits n1 (2 + 2 > 3) and takes
  // n2; p3 (two names) fits n2 once more; p4 fits nowhere.
  std::vector<std::string> r = Schedule(List({node("n1", 0, 3), node("n2", 11, 4), pod("p1", kMany),
                                              pod("p2", kMany), pod("p3", 2), pod("p4", 2)}));
  EXPECT_EQ(r, (std::vector<std::string>{
                   "n1", "n2", "n2",
                   "0/2 nodes are available: 2 Insufficient example.com/r0, 2 Insufficient "
                   "example.com/r1."}));
}

}  // namespace ksched
