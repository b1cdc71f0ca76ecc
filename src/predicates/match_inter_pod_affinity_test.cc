#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "predicates/factories.h"
#include "tests/fixtures.h"

namespace ksched {
namespace match_inter_pod_affinity_test {

using ::ksched::testing::TestCluster;
using ::ksched::testing::TestPod;

constexpr char kGeneral[] = "node(s) didn't match pod affinity/anti-affinity";
constexpr char kAffinity[] = "node(s) didn't match pod affinity rules";
constexpr char kAnti[] = "node(s) didn't match pod anti-affinity rules";
constexpr char kExisting[] = "node(s) didn't satisfy existing pods anti-affinity rules";

// A node with the given labels (a JSON object body, e.g. "\"zone\":\"z1\"").
std::string NodeJson(const std::string& name, const std::string& labels) {
  return R"({"kind":"Node","metadata":{"name":")" + name + R"(","labels":{)" + labels + "}}}";
}

// A pod; `node` may be empty (pending) and `affinity` is the body of
// spec.affinity (may be empty).
std::string PodJson(const std::string& name, const std::string& ns, const std::string& labels,
                    const std::string& node, const std::string& affinity) {
  std::string s = R"({"kind":"Pod","metadata":{"name":")" + name + R"(","namespace":")" + ns +
                  R"(","labels":{)" + labels + R"(}},"spec":{)";
  s += R"("containers":[{"name":"c","image":"busybox"}])";
  if (!node.empty()) s += R"(,"nodeName":")" + node + "\"";
  if (!affinity.empty()) s += R"(,"affinity":{)" + affinity + "}";
  s += "}}";
  return s;
}

std::string List(const std::vector<std::string>& items) {
  std::string s = R"({"kind":"List","items":[)";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) s += ",";
    s += items[i];
  }
  return s + "]}";
}

// A required term: `selector` is the labelSelector JSON (or "" for none).
std::string Term(const std::string& selector, const std::string& key,
                 const std::string& namespaces = "") {
  std::string s = "{";
  if (!selector.empty()) s += R"("labelSelector":)" + selector + ",";
  if (!namespaces.empty()) s += R"("namespaces":)" + namespaces + ",";
  return s + R"("topologyKey":")" + key + "\"}";
}

std::string Required(const std::string& kind, const std::vector<std::string>& terms) {
  std::string s = "\"" + kind + R"(":{"requiredDuringSchedulingIgnoredDuringExecution":[)";
  for (size_t i = 0; i < terms.size(); ++i) {
    if (i > 0) s += ",";
    s += terms[i];
  }
  return s + "]}";
}

std::string AppIs(const std::string& app) { return R"({"matchLabels":{"app":")" + app + R"("}})"; }

constexpr char kZone[] = "zone";
constexpr char kHost[] = "kubernetes.io/hostname";

// Three nodes: n1, n2 in zone z1; n3 in zone z2; n4 without a zone label.
std::vector<std::string> BaseNodes() {
  return {NodeJson("n1", R"("zone":"z1","kubernetes.io/hostname":"n1")"),
          NodeJson("n2", R"("zone":"z1","kubernetes.io/hostname":"n2")"),
          NodeJson("n3", R"("zone":"z2","kubernetes.io/hostname":"n3")"),
          NodeJson("n4", R"("kubernetes.io/hostname":"n4")")};
}

struct Outcome {
  std::string error;                                       // Prepare() error, if any
  std::map<std::string, std::vector<std::string>> failed;  // node -> reasons
};

Outcome Eval(const ClusterState& cluster, const Pod& pod, const Predicate& pred) {
  Outcome out;
  PodInfo info = MakePodInfo(pod);
  PodToSchedule target;
  target.info = &info;
  auto state = pred.Prepare(target, cluster);
  if (!state.ok()) {
    out.error = state.error().message;
    return out;
  }
  ReasonList reasons;
  for (NodeId n = 0; n < cluster.num_nodes(); ++n) {
    reasons.Clear();
    bool fits = pred.Check(target, state->get(), cluster.node_info(n), &reasons);
    EXPECT_EQ(fits, reasons.empty());
    if (!fits) {
      std::vector<std::string>& r = out.failed[std::string(cluster.node_info(n).name())];
      for (ReasonId id : reasons.reasons()) r.emplace_back(Str(id));
    }
  }
  return out;
}

Outcome Eval(const ClusterState& cluster, const Pod& pod) {
  auto pred = NewMatchInterPodAffinity();
  return Eval(cluster, pod, *pred);
}

using Failed = std::map<std::string, std::vector<std::string>>;
const std::vector<std::string> kAffinityFail = {kGeneral, kAffinity};
const std::vector<std::string> kAntiFail = {kGeneral, kAnti};
const std::vector<std::string> kExistingFail = {kGeneral, kExisting};

TEST(MatchInterPodAffinityTest, IsNotNodeLocal) {
  EXPECT_FALSE(NewMatchInterPodAffinity()->NodeLocal());
}

TEST(MatchInterPodAffinityTest, NoAffinityAnywherePassesEverywhere) {
  std::vector<std::string> items = BaseNodes();
  items.push_back(PodJson("db", "default", R"("app":"db")", "n1", ""));
  ClusterState c = TestCluster(List(items));
  Outcome o = Eval(c, TestPod(PodJson("web", "default", R"("app":"web")", "", "")));
  EXPECT_EQ(o.error, "");
  EXPECT_TRUE(o.failed.empty());
}

TEST(MatchInterPodAffinityTest, RequiredAffinityByZone) {
  std::vector<std::string> items = BaseNodes();
  items.push_back(PodJson("db", "default", R"("app":"db")", "n1", ""));
  ClusterState c = TestCluster(List(items));
  Pod pod = TestPod(PodJson("web", "default", R"("app":"web")", "",
                            Required("podAffinity", {Term(AppIs("db"), kZone)})));
  Outcome o = Eval(c, pod);
  EXPECT_EQ(o.failed, (Failed{{"n3", kAffinityFail}, {"n4", kAffinityFail}}));
}

TEST(MatchInterPodAffinityTest, RequiredAffinityByHostname) {
  std::vector<std::string> items = BaseNodes();
  items.push_back(PodJson("db", "default", R"("app":"db")", "n2", ""));
  ClusterState c = TestCluster(List(items));
  Pod pod = TestPod(PodJson("web", "default", R"("app":"web")", "",
                            Required("podAffinity", {Term(AppIs("db"), kHost)})));
  Outcome o = Eval(c, pod);
  EXPECT_EQ(o.failed,
            (Failed{{"n1", kAffinityFail}, {"n3", kAffinityFail}, {"n4", kAffinityFail}}));
}

TEST(MatchInterPodAffinityTest, HostnameLabelNotNodeName) {
  // Topology comes from labels only, even for the hostname key.
  std::vector<std::string> items = {
      NodeJson("ip-10-0-0-1.ec2.internal", R"("kubernetes.io/hostname":"ip-10-0-0-1")"),
      NodeJson("ip-10-0-0-2.ec2.internal", R"("kubernetes.io/hostname":"ip-10-0-0-1")"),
      NodeJson("ip-10-0-0-3.ec2.internal", R"("kubernetes.io/hostname":"ip-10-0-0-3")")};
  items.push_back(PodJson("db", "default", R"("app":"db")", "ip-10-0-0-1.ec2.internal", ""));
  ClusterState c = TestCluster(List(items));
  Pod pod = TestPod(PodJson("web", "default", R"("app":"web")", "",
                            Required("podAffinity", {Term(AppIs("db"), kHost)})));
  Outcome o = Eval(c, pod);
  EXPECT_EQ(o.failed, (Failed{{"ip-10-0-0-3.ec2.internal", kAffinityFail}}));
}

TEST(MatchInterPodAffinityTest, AllAffinityTermsMustHold) {
  std::vector<std::string> items = BaseNodes();
  items.push_back(PodJson("db", "default", R"("app":"db","tier":"x")", "n1", ""));
  ClusterState c = TestCluster(List(items));
  Pod pod =
      TestPod(PodJson("web", "default", R"("app":"web")", "",
                      Required("podAffinity", {Term(AppIs("db"), kZone),
                                               Term(R"({"matchLabels":{"tier":"x"}})", kHost)})));
  Outcome o = Eval(c, pod);
  EXPECT_EQ(o.failed,
            (Failed{{"n2", kAffinityFail}, {"n3", kAffinityFail}, {"n4", kAffinityFail}}));
}

TEST(MatchInterPodAffinityTest, AffinityTermsAreMatchedByOnePodForAll) {
  // Upstream keeps only pods matching *all* terms; a pod matching one term
  // does not help, even if another pod matches the other.
  std::vector<std::string> items = BaseNodes();
  items.push_back(PodJson("db", "default", R"("app":"db")", "n1", ""));
  items.push_back(PodJson("cache", "default", R"("tier":"x")", "n3", ""));
  ClusterState c = TestCluster(List(items));
  Pod pod =
      TestPod(PodJson("web", "default", R"("app":"web")", "",
                      Required("podAffinity", {Term(AppIs("db"), kZone),
                                               Term(R"({"matchLabels":{"tier":"x"}})", kZone)})));
  Outcome o = Eval(c, pod);
  // Nobody matches both; the pod does not match its own terms either.
  EXPECT_EQ(o.failed, (Failed{{"n1", kAffinityFail},
                              {"n2", kAffinityFail},
                              {"n3", kAffinityFail},
                              {"n4", kAffinityFail}}));
}

TEST(MatchInterPodAffinityTest, NamespacesDefaultToThePodsOwn) {
  std::vector<std::string> items = BaseNodes();
  items.push_back(PodJson("db", "other", R"("app":"db")", "n3", ""));
  ClusterState c = TestCluster(List(items));

  Pod own = TestPod(PodJson("web", "default", R"("app":"web")", "",
                            Required("podAffinity", {Term(AppIs("db"), kZone)})));
  EXPECT_EQ(Eval(c, own).failed.size(), 4u);

  Pod listed = TestPod(
      PodJson("web", "default", R"("app":"web")", "",
              Required("podAffinity", {Term(AppIs("db"), kZone, R"(["default","other"])")})));
  EXPECT_EQ(Eval(c, listed).failed,
            (Failed{{"n1", kAffinityFail}, {"n2", kAffinityFail}, {"n4", kAffinityFail}}));

  Pod wrong =
      TestPod(PodJson("web", "default", R"("app":"web")", "",
                      Required("podAffinity", {Term(AppIs("db"), kZone, R"(["default"])")})));
  EXPECT_EQ(Eval(c, wrong).failed.size(), 4u);
}

TEST(MatchInterPodAffinityTest, EmptySelectorMatchesEveryPodInNamespaces) {
  std::vector<std::string> items = BaseNodes();
  items.push_back(PodJson("a", "default", R"("x":"1")", "n3", ""));
  items.push_back(PodJson("b", "other", R"("x":"2")", "n1", ""));
  ClusterState c = TestCluster(List(items));
  Pod pod = TestPod(PodJson("web", "default", R"("app":"web")", "",
                            Required("podAffinity", {Term("{}", kZone)})));
  EXPECT_EQ(Eval(c, pod).failed,
            (Failed{{"n1", kAffinityFail}, {"n2", kAffinityFail}, {"n4", kAffinityFail}}));

  Pod anti = TestPod(PodJson("web", "default", R"("app":"web")", "",
                             Required("podAntiAffinity", {Term("{}", kZone, R"(["other"])")})));
  EXPECT_EQ(Eval(c, anti).failed, (Failed{{"n1", kAntiFail}, {"n2", kAntiFail}}));
}

TEST(MatchInterPodAffinityTest, MissingSelectorMatchesNothing) {
  std::vector<std::string> items = BaseNodes();
  items.push_back(PodJson("a", "default", R"("app":"web")", "n3", ""));
  ClusterState c = TestCluster(List(items));
  // Not even the pod itself matches: every node fails.
  Pod pod = TestPod(
      PodJson("web", "default", R"("app":"web")", "", Required("podAffinity", {Term("", kZone)})));
  EXPECT_EQ(Eval(c, pod).failed.size(), 4u);
  // And an anti-affinity term without selector never conflicts.
  Pod anti = TestPod(PodJson("web", "default", R"("app":"web")", "",
                             Required("podAntiAffinity", {Term("", kZone)})));
  EXPECT_TRUE(Eval(c, anti).failed.empty());
}

TEST(MatchInterPodAffinityTest, MatchExpressions) {
  std::vector<std::string> items = BaseNodes();
  items.push_back(PodJson("a", "default", R"("app":"db")", "n3", ""));
  items.push_back(PodJson("b", "default", R"("app":"cache")", "n1", ""));
  ClusterState c = TestCluster(List(items));
  Pod pod = TestPod(PodJson(
      "web", "default", R"("app":"web")", "",
      Required("podAntiAffinity",
               {Term(R"({"matchExpressions":[{"key":"app","operator":"In","values":["db","x"]}]})",
                     kHost)})));
  EXPECT_EQ(Eval(c, pod).failed, (Failed{{"n3", kAntiFail}}));
  Pod notin = TestPod(PodJson(
      "web", "default", R"("app":"web")", "",
      Required("podAntiAffinity",
               {Term(R"({"matchExpressions":[{"key":"app","operator":"NotIn","values":["db"]}]})",
                     kHost)})));
  EXPECT_EQ(Eval(c, notin).failed, (Failed{{"n1", kAntiFail}}));
}

TEST(MatchInterPodAffinityTest, NodeWithoutTopologyKey) {
  std::vector<std::string> items = BaseNodes();
  items.push_back(PodJson("db", "default", R"("app":"db")", "n1", ""));
  items.push_back(PodJson("db2", "default", R"("app":"db")", "n4", ""));
  ClusterState c = TestCluster(List(items));
  // n4 has no zone: it never satisfies a zone affinity term...
  Pod aff = TestPod(PodJson("web", "default", R"("app":"web")", "",
                            Required("podAffinity", {Term(AppIs("db"), kZone)})));
  EXPECT_EQ(Eval(c, aff).failed, (Failed{{"n3", kAffinityFail}, {"n4", kAffinityFail}}));
  // ...and never conflicts with a zone anti-affinity term, even with a
  // matching pod on it.
  Pod anti = TestPod(PodJson("web", "default", R"("app":"web")", "",
                             Required("podAntiAffinity", {Term(AppIs("db"), kZone)})));
  EXPECT_EQ(Eval(c, anti).failed, (Failed{{"n1", kAntiFail}, {"n2", kAntiFail}}));
}

TEST(MatchInterPodAffinityTest, TopologyKeyNoNodeHas) {
  std::vector<std::string> items = BaseNodes();
  items.push_back(PodJson("db", "default", R"("app":"db")", "n1", ""));
  ClusterState c = TestCluster(List(items));
  // The matching pod's node lacks the key, so no pair exists: the incoming
  // pod does not match itself, so every node fails.
  Pod aff = TestPod(PodJson("web", "default", R"("app":"web")", "",
                            Required("podAffinity", {Term(AppIs("db"), "rack")})));
  EXPECT_EQ(Eval(c, aff).failed.size(), 4u);
  Pod anti = TestPod(PodJson("web", "default", R"("app":"web")", "",
                             Required("podAntiAffinity", {Term(AppIs("db"), "rack")})));
  EXPECT_TRUE(Eval(c, anti).failed.empty());
}

TEST(MatchInterPodAffinityTest, FirstPodOfGroupMayMatchItself) {
  std::vector<std::string> items = BaseNodes();
  items.push_back(PodJson("other", "default", R"("app":"db")", "n1", ""));
  ClusterState c = TestCluster(List(items));
  // Nobody else matches app=web and the pod does: allowed everywhere, even
  // on n4 which lacks the zone key.
  Pod pod = TestPod(PodJson("web", "default", R"("app":"web")", "",
                            Required("podAffinity", {Term(AppIs("web"), kZone)})));
  EXPECT_TRUE(Eval(c, pod).failed.empty());
  // Not if the pod is outside the term's namespaces.
  Pod elsewhere =
      TestPod(PodJson("web", "default", R"("app":"web")", "",
                      Required("podAffinity", {Term(AppIs("web"), kZone, R"(["prod"])")})));
  EXPECT_EQ(Eval(c, elsewhere).failed.size(), 4u);
}

TEST(MatchInterPodAffinityTest, SelfMatchAppliesWhenMatchingPodsHaveNoTopology) {
  // A matching pod exists, but on a node without the key: upstream's pair map
  // stays empty, so the self-match exception still applies.
  std::vector<std::string> items = BaseNodes();
  items.push_back(PodJson("web-0", "default", R"("app":"web")", "n4", ""));
  ClusterState c = TestCluster(List(items));
  Pod pod = TestPod(PodJson("web", "default", R"("app":"web")", "",
                            Required("podAffinity", {Term(AppIs("web"), kZone)})));
  EXPECT_TRUE(Eval(c, pod).failed.empty());
}

TEST(MatchInterPodAffinityTest, SecondPodOfGroupFollowsTheFirst) {
  std::vector<std::string> items = BaseNodes();
  ClusterState c = TestCluster(List(items));
  std::string aff = Required("podAffinity", {Term(AppIs("web"), kZone)});
  Pod first = TestPod(PodJson("web-0", "default", R"("app":"web")", "", aff));
  EXPECT_TRUE(Eval(c, first).failed.empty());
  // Bound during the run: counts exactly like an initial pod.
  c.Assume(first, 2);  // n3, zone z2
  Pod second = TestPod(PodJson("web-1", "default", R"("app":"web")", "", aff));
  EXPECT_EQ(Eval(c, second).failed,
            (Failed{{"n1", kAffinityFail}, {"n2", kAffinityFail}, {"n4", kAffinityFail}}));
}

TEST(MatchInterPodAffinityTest, RequiredAntiAffinity) {
  std::vector<std::string> items = BaseNodes();
  items.push_back(PodJson("web-0", "default", R"("app":"web")", "n2", ""));
  ClusterState c = TestCluster(List(items));
  Pod host = TestPod(PodJson("web", "default", R"("app":"web")", "",
                             Required("podAntiAffinity", {Term(AppIs("web"), kHost)})));
  EXPECT_EQ(Eval(c, host).failed, (Failed{{"n2", kAntiFail}}));
  // Any one anti-affinity term is enough to reject a node.
  Pod two = TestPod(PodJson(
      "web", "default", R"("app":"web")", "",
      Required("podAntiAffinity", {Term(AppIs("nope"), kHost), Term(AppIs("web"), kZone)})));
  EXPECT_EQ(Eval(c, two).failed, (Failed{{"n1", kAntiFail}, {"n2", kAntiFail}}));
}

TEST(MatchInterPodAffinityTest, ExistingPodsAntiAffinityIsSymmetric) {
  std::vector<std::string> items = BaseNodes();
  items.push_back(PodJson("guard", "default", R"("app":"guard")", "n1",
                          Required("podAntiAffinity", {Term(AppIs("web"), kZone)})));
  items.push_back(PodJson("guard2", "default", R"("app":"guard")", "n4",
                          Required("podAntiAffinity", {Term(AppIs("web"), kZone)})));
  ClusterState c = TestCluster(List(items));
  Pod web = TestPod(PodJson("web", "default", R"("app":"web")", "", ""));
  // guard2's node has no zone: it rejects nothing.
  EXPECT_EQ(Eval(c, web).failed, (Failed{{"n1", kExistingFail}, {"n2", kExistingFail}}));
  // A pod the term does not select is unaffected.
  Pod db = TestPod(PodJson("db", "default", R"("app":"db")", "", ""));
  EXPECT_TRUE(Eval(c, db).failed.empty());
  // Nor is a pod in another namespace (the term defaults to the guard's).
  Pod other = TestPod(PodJson("web", "other", R"("app":"web")", "", ""));
  EXPECT_TRUE(Eval(c, other).failed.empty());
}

TEST(MatchInterPodAffinityTest, ExistingAntiAffinityIsCheckedFirst) {
  std::vector<std::string> items = BaseNodes();
  items.push_back(PodJson("guard", "default", R"("app":"db")", "n1",
                          Required("podAntiAffinity", {Term(AppIs("web"), kHost)})));
  ClusterState c = TestCluster(List(items));
  // n1 violates both the guard's rule and the pod's own anti-affinity; the
  // existing pods' reason wins. Affinity is checked before anti-affinity.
  Pod pod = TestPod(PodJson("web", "default", R"("app":"web")", "",
                            Required("podAffinity", {Term(AppIs("db"), kZone)}) + "," +
                                Required("podAntiAffinity", {Term(AppIs("db"), kHost)})));
  EXPECT_EQ(Eval(c, pod).failed,
            (Failed{{"n1", kExistingFail}, {"n3", kAffinityFail}, {"n4", kAffinityFail}}));
}

TEST(MatchInterPodAffinityTest, AffinityReasonBeforeAntiAffinityReason) {
  std::vector<std::string> items = BaseNodes();
  items.push_back(PodJson("db", "default", R"("app":"db")", "n3", ""));
  ClusterState c = TestCluster(List(items));
  Pod pod = TestPod(PodJson("web", "default", R"("app":"web")", "",
                            Required("podAffinity", {Term(AppIs("db"), kZone)}) + "," +
                                Required("podAntiAffinity", {Term(AppIs("db"), kHost)})));
  EXPECT_EQ(
      Eval(c, pod).failed,
      (Failed{
          {"n1", kAffinityFail}, {"n2", kAffinityFail}, {"n3", kAntiFail}, {"n4", kAffinityFail}}));
}

TEST(MatchInterPodAffinityTest, InvalidSelectorOfExistingAntiAffinityFailsTheCycle) {
  std::vector<std::string> items = BaseNodes();
  items.push_back(PodJson(
      "guard", "default", R"("app":"guard")", "n1",
      Required(
          "podAntiAffinity",
          {Term(R"({"matchExpressions":[{"key":"app","operator":"In","values":[]}]})", kZone)})));
  ClusterState c = TestCluster(List(items));
  Outcome o = Eval(c, TestPod(PodJson("web", "default", R"("app":"web")", "", "")));
  EXPECT_EQ(o.error,
            "Failed to get all terms that match pod default/web: for 'in', 'notin' operators, "
            "values set can't be empty");
}

TEST(MatchInterPodAffinityTest, InvalidSelectorOfIncomingAffinity) {
  std::string bad = R"({"matchExpressions":[{"key":"app","operator":"Exists","values":["x"]}]})";
  Pod pod = TestPod(
      PodJson("web", "default", R"("app":"web")", "", Required("podAffinity", {Term(bad, kZone)})));
  // With pods around, upstream's fallback errors.
  std::vector<std::string> items = BaseNodes();
  items.push_back(PodJson("db", "default", R"("app":"db")", "n1", ""));
  EXPECT_NE(Eval(TestCluster(List(items)), pod).error, "");
  // Without any pod, every node fails the affinity rules.
  Outcome o = Eval(TestCluster(List(BaseNodes())), pod);
  EXPECT_EQ(o.error, "");
  EXPECT_EQ(o.failed.size(), 4u);
  EXPECT_EQ(o.failed["n1"], kAffinityFail);
}

TEST(MatchInterPodAffinityTest, InvalidSelectorOfIncomingAntiAffinity) {
  std::string bad = R"({"matchExpressions":[{"key":"app","operator":"Bogus"}]})";
  Pod pod = TestPod(PodJson("web", "default", R"("app":"web")", "",
                            Required("podAntiAffinity", {Term(bad, kZone)})));
  // No pods: nothing to conflict with.
  EXPECT_TRUE(Eval(TestCluster(List(BaseNodes())), pod).failed.empty());
  // With any pod, upstream's fallback counts the error as a conflict.
  std::vector<std::string> items = BaseNodes();
  items.push_back(PodJson("db", "default", R"("app":"db")", "n1", ""));
  Outcome o = Eval(TestCluster(List(items)), pod);
  EXPECT_EQ(o.error, "");
  EXPECT_EQ(o.failed.size(), 4u);
  EXPECT_EQ(o.failed["n3"], kAntiFail);
}

TEST(MatchInterPodAffinityTest, FallbackWhenAPodIsBoundToAMissingNode) {
  // A pod bound to a node that does not exist makes upstream fall back to its
  // per-node check, where one pod must match every anti-affinity term (and
  // share every topology) to reject a node.
  std::vector<std::string> items = BaseNodes();
  items.push_back(PodJson("db", "default", R"("app":"db")", "n1", ""));
  std::string anti =
      Required("podAntiAffinity", {Term(AppIs("db"), kZone), Term(AppIs("db"), kHost)});
  Pod pod = TestPod(PodJson("web", "default", R"("app":"web")", "", anti));
  EXPECT_EQ(Eval(TestCluster(List(items)), pod).failed,
            (Failed{{"n1", kAntiFail}, {"n2", kAntiFail}}));

  items.push_back(PodJson("ghost", "default", R"("app":"x")", "gone", ""));
  EXPECT_EQ(Eval(TestCluster(List(items)), pod).failed, (Failed{{"n1", kAntiFail}}));
}

TEST(MatchInterPodAffinityTest, FallbackAffinityNeedsOnePodSharingAllTopologies) {
  std::vector<std::string> items = BaseNodes();
  items.push_back(PodJson("db", "default", R"("app":"db")", "n4", ""));
  items.push_back(PodJson("ghost", "default", R"("app":"x")", "gone", ""));
  // The only matching pod runs on a node without a zone: upstream's fallback
  // knows a pod matched the selector, so the first-pod exception is off.
  Pod pod = TestPod(PodJson("web", "default", R"("app":"db")", "",
                            Required("podAffinity", {Term(AppIs("db"), kZone)})));
  EXPECT_EQ(Eval(TestCluster(List(items)), pod).failed.size(), 4u);
  // On the metadata path the same case passes everywhere (empty pair map).
  items.pop_back();
  EXPECT_TRUE(Eval(TestCluster(List(items)), pod).failed.empty());
}

TEST(MatchInterPodAffinityTest, ReusedPredicateSeesChangedClusters) {
  // The per-pod term cache must not leak between clusters.
  auto pred = NewMatchInterPodAffinity();
  Pod web = TestPod(PodJson("web", "default", R"("app":"web")", "", ""));
  for (int round = 0; round < 3; ++round) {
    std::vector<std::string> items = BaseNodes();
    std::string target = round % 2 == 0 ? "web" : "other";
    items.push_back(PodJson("guard", "default", R"("app":"guard")", "n3",
                            Required("podAntiAffinity", {Term(AppIs(target), kHost)})));
    ClusterState c = TestCluster(List(items));
    Outcome o = Eval(c, web, *pred);
    if (round % 2 == 0) {
      EXPECT_EQ(o.failed, (Failed{{"n3", kExistingFail}})) << round;
    } else {
      EXPECT_TRUE(o.failed.empty()) << round;
    }
  }
}

}  // namespace match_inter_pod_affinity_test
}  // namespace ksched
