#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "predicates/check_test_helper.h"
#include "predicates/factories.h"
#include "tests/fixtures.h"

namespace ksched {
namespace service_affinity_test {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::List;
using testing::RunCheck;
using testing::TestCluster;
using testing::TestPod;

const std::vector<std::string> kNodes = {
    R"({"kind":"Node","metadata":{"name":"n1","labels":{"zone":"a","region":"r1"}}})",
    R"({"kind":"Node","metadata":{"name":"n2","labels":{"zone":"b","region":"r1"}}})",
    R"({"kind":"Node","metadata":{"name":"n3","labels":{"region":"r2"}}})",
};

std::string PodJson(const std::string& name, const std::string& ns, const std::string& labels,
                    const std::string& node = "", const std::string& node_selector = "") {
  std::string s = R"({"kind":"Pod","metadata":{"name":")" + name + R"(","namespace":")" + ns +
                  R"(","labels":)" + labels + R"(},"spec":{)";
  if (!node.empty()) s += R"("nodeName":")" + node + R"(",)";
  if (!node_selector.empty()) s += R"("nodeSelector":)" + node_selector + ",";
  return s + R"("containers":[]}})";
}

std::string ServiceJson(const std::string& ns, const std::string& selector) {
  std::string s =
      R"({"kind":"Service","metadata":{"name":"svc","namespace":")" + ns + R"("},"spec":{)";
  if (!selector.empty()) s += R"("selector":)" + selector;
  return s + "}}";
}

// Nodes among n1..n3 the pending pod fits, given extra cluster objects.
std::string Fitting(const std::vector<std::string>& labels, const std::vector<std::string>& extra,
                    const std::string& pending) {
  std::vector<std::string> items = kNodes;
  items.insert(items.end(), extra.begin(), extra.end());
  ClusterState c = TestCluster(List(items));
  auto p = NewServiceAffinityPredicate(labels);
  Pod pod = TestPod(pending);
  std::string out;
  for (const char* n : {"n1", "n2", "n3"}) {
    auto r = RunCheck(*p, pod, c, n);
    EXPECT_EQ(r.error, "");
    if (r.fits) {
      out += out.empty() ? "" : ",";
      out += n;
    } else {
      EXPECT_THAT(r.reasons, ElementsAre("node(s) didn't match service affinity"));
    }
  }
  return out;
}

const std::string kWebService = ServiceJson("default", R"({"app":"web"})");
const std::string kWebOnN1 = PodJson("web-1", "default", R"({"app":"web","tier":"fe"})", "n1");

TEST(CheckServiceAffinity, FollowsTheNodeOfAnExistingServicePod) {
  EXPECT_EQ(
      Fitting({"zone"}, {kWebService, kWebOnN1}, PodJson("web-2", "default", R"({"app":"web"})")),
      "n1");
  EXPECT_EQ(
      Fitting({"region"}, {kWebService, kWebOnN1}, PodJson("web-2", "default", R"({"app":"web"})")),
      "n1,n2");
  EXPECT_EQ(Fitting({"region", "zone"}, {kWebService, kWebOnN1},
                    PodJson("web-2", "default", R"({"app":"web"})")),
            "n1");
}

TEST(CheckServiceAffinity, PodOutsideAnyServiceIsFree) {
  EXPECT_EQ(Fitting({"zone"}, {kWebService, kWebOnN1}, PodJson("db", "default", R"({"app":"db"})")),
            "n1,n2,n3");
  // Same labels, but the service lives in another namespace.
  EXPECT_EQ(Fitting({"zone"}, {ServiceJson("other", R"({"app":"web"})"), kWebOnN1},
                    PodJson("web-2", "default", R"({"app":"web"})")),
            "n1,n2,n3");
  // A service without a selector selects nothing.
  EXPECT_EQ(Fitting({"zone"}, {ServiceJson("default", ""), kWebOnN1},
                    PodJson("web-2", "default", R"({"app":"web"})")),
            "n1,n2,n3");
}

TEST(CheckServiceAffinity, FirstPodOfTheServiceIsFree) {
  EXPECT_EQ(Fitting({"zone"}, {kWebService}, PodJson("web-1", "default", R"({"app":"web"})")),
            "n1,n2,n3");
  // Matching pods in other namespaces do not count.
  EXPECT_EQ(Fitting({"zone"}, {kWebService, PodJson("web-x", "other", R"({"app":"web"})", "n1")},
                    PodJson("web-2", "default", R"({"app":"web"})")),
            "n1,n2,n3");
}

TEST(CheckServiceAffinity, ExistingPodsMustCarryAllOfThePodsLabels) {
  // web-1 lacks version=v2, so it does not pin the new pod.
  EXPECT_EQ(Fitting({"zone"}, {kWebService, kWebOnN1},
                    PodJson("web-2", "default", R"({"app":"web","version":"v2"})")),
            "n1,n2,n3");
}

TEST(CheckServiceAffinity, EmptySelectorServiceAndLabelLessPod) {
  // A service with selector {} selects every pod of its namespace; a pod
  // without labels is matched by every pod of its namespace.
  EXPECT_EQ(Fitting({"zone"},
                    {ServiceJson("default", "{}"), PodJson("any", "default", R"({"x":"y"})", "n2")},
                    PodJson("new", "default", "{}")),
            "n2");
}

TEST(CheckServiceAffinity, NodeSelectorPresetsValues) {
  // The nodeSelector value wins over the existing pod's node.
  EXPECT_EQ(Fitting({"zone"}, {kWebService, kWebOnN1},
                    PodJson("web-2", "default", R"({"app":"web"})", "", R"({"zone":"b"})")),
            "n2");
  // Labels the nodeSelector does not set still come from the existing pod.
  EXPECT_EQ(Fitting({"zone", "region"}, {kWebService, kWebOnN1},
                    PodJson("web-2", "default", R"({"app":"web"})", "", R"({"zone":"b"})")),
            "n2");
  // Even a pod outside any service is held to its nodeSelector's values.
  EXPECT_EQ(Fitting({"region"}, {kWebService},
                    PodJson("db", "default", R"({"app":"db"})", "", R"({"region":"r2"})")),
            "n3");
}

TEST(CheckServiceAffinity, LabelMissingOnTheExistingPodsNodeStaysUnset) {
  std::string on_n3 = PodJson("web-1", "default", R"({"app":"web"})", "n3");
  EXPECT_EQ(
      Fitting({"zone"}, {kWebService, on_n3}, PodJson("web-2", "default", R"({"app":"web"})")),
      "n1,n2,n3");
  EXPECT_EQ(Fitting({"zone", "region"}, {kWebService, on_n3},
                    PodJson("web-2", "default", R"({"app":"web"})")),
            "n3");
}

TEST(CheckServiceAffinity, ExistingPodOnUnknownNode) {
  std::string ghost = PodJson("web-0", "default", R"({"app":"web"})", "gone");
  // A pod on a known node is preferred.
  EXPECT_EQ(Fitting({"zone"}, {kWebService, ghost, kWebOnN1},
                    PodJson("web-2", "default", R"({"app":"web"})")),
            "n1");
  // Only a pod on a node that does not exist: upstream fails the cycle.
  ClusterState c = TestCluster(List({kNodes[0], kWebService, ghost}));
  auto p = NewServiceAffinityPredicate({"zone"});
  auto r = RunCheck(*p, TestPod(PodJson("web-2", "default", R"({"app":"web"})")), c, "n1");
  EXPECT_THAT(r.error, HasSubstr("node \"gone\" not found"));
}

TEST(CheckServiceAffinity, IsNotNodeLocal) {
  EXPECT_FALSE(NewServiceAffinityPredicate({"zone"})->NodeLocal());
  EXPECT_TRUE(NewPodFitsResources()->NodeLocal());
}

}  // namespace service_affinity_test
}  // namespace ksched
