// PodTopologySpread's and InterPodAffinity's version-keyed decisions end to
// end: small scenarios replayed as `ksched replay` does, once as v1.26 and
// once as v1.35, each release with its own answers (v1.35's from the
// reference harness refsched135; v1.26's as ksched, exact on the v1.26
// vectors, decides). Only what these two plugins decide is compared: the
// node, and whether each of them is listed among the scores.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "api/scenario.h"
#include "cli/framework_step_writer.h"
#include "cli/replay.h"

namespace ksched {
namespace framework_spread_affinity_versions_test {

using nlohmann::json;

std::string NodeJson(const std::string& name, const std::string& labels) {
  return R"({"apiVersion":"v1","kind":"Node","metadata":{"name":")" + name +
         R"(","labels":{"kubernetes.io/hostname":")" + name + "\"" +
         (labels.empty() ? "" : "," + labels) +
         R"(}},"spec":{},"status":{"capacity":{"cpu":"4","memory":"8Gi","pods":"110"},)"
         R"("allocatable":{"cpu":"4","memory":"8Gi","pods":"110"},)"
         R"("conditions":[{"type":"Ready","status":"True"}]}})";
}

// A pod requesting 100m; `node` "" leaves it pending; `spec` and `status`
// are extra fields (JSON members, without braces).
std::string PodJson(const std::string& name, const std::string& labels, const std::string& node,
                    const std::string& ns = "default", const std::string& spec = "",
                    const std::string& status = "") {
  std::string s = R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":")" + name +
                  R"(","namespace":")" + ns + R"(","uid":"uid-)" + ns + "-" + name +
                  R"(","labels":{)" + labels +
                  R"(}},"spec":{"containers":[{"name":"c",)"
                  R"("image":"busybox","resources":{"requests":{"cpu":"100m","memory":"64Mi"}}}])";
  if (!node.empty()) s += R"(,"nodeName":")" + node + "\"";
  if (!spec.empty()) s += "," + spec;
  s += R"(},"status":{"phase":")" + std::string(node.empty() ? "Pending" : "Running") + "\"";
  if (!status.empty()) s += "," + status;
  return s + "}}";
}

std::string Join(const std::vector<std::string>& items) {
  std::string s;
  for (size_t i = 0; i < items.size(); ++i) s += (i ? "," : "") + items[i];
  return s;
}

struct Step {
  std::string node;  // "" when unscheduled
  bool spread_listed = false;
  bool affinity_listed = false;
  bool operator==(const Step&) const = default;
};

std::ostream& operator<<(std::ostream& os, const Step& s) {
  return os << "{" << (s.node.empty() ? "<none>" : s.node) << (s.spread_listed ? " PTS" : "")
            << (s.affinity_listed ? " IPA" : "") << "}";
}

// Replays the scenario as `version`, one Step per attempt.
std::vector<Step> Replay(const std::string& version, const std::vector<std::string>& nodes,
                         const std::vector<std::string>& pods,
                         const std::vector<std::string>& pending,
                         const std::vector<std::string>& namespaces = {}, bool loop = false) {
  std::string text = R"({"name":"t","schedulerVersion":")" + version +
                     R"(","config":{"apiVersion":"kubescheduler.config.k8s.io/v1",)"
                     R"("kind":"KubeSchedulerConfiguration",)"
                     R"("profiles":[{"schedulerName":"default-scheduler"}]},)"
                     R"("cluster":{"nodes":[)" +
                     Join(nodes) + R"(],"pods":[)" + Join(pods) + "]";
  if (!namespaces.empty()) text += R"(,"namespaces":[)" + Join(namespaces) + "]";
  text += R"(},"pending":[)" + Join(pending) + "]";
  if (loop) text += R"(,"preemption":true)";
  text += "}";
  Result<Scenario> sc = ParseScenario(text, "t.json");
  EXPECT_TRUE(sc.ok()) << sc.error().message;
  if (!sc.ok()) return {};
  std::vector<Step> out;
  Status s =
      RunFrameworkReplay(std::move(sc).value(), FrameworkReplayOptions{},
                         [&](const Pod& pod, const framework::CycleResult& r, const ClusterState& c,
                             const FrameworkPreemption* p) {
                           json line = json::parse(FrameworkStepToJson(pod, r, c, p));
                           Step step;
                           if (line["node"].is_string()) step.node = line["node"];
                           if (line.contains("plugins") && line["plugins"].is_object()) {
                             step.spread_listed = line["plugins"].contains("PodTopologySpread");
                             step.affinity_listed = line["plugins"].contains("InterPodAffinity");
                           }
                           out.push_back(step);
                         });
  EXPECT_TRUE(s.ok()) << s.error().message;
  return out;
}

std::string Tsc(const std::string& key, const std::string& action, const std::string& selector,
                int skew = 1, const std::string& extra = "") {
  std::string s = R"({"maxSkew":)" + std::to_string(skew) + R"(,"topologyKey":")" + key +
                  R"(","whenUnsatisfiable":")" + action + "\"";
  if (!selector.empty()) s += R"(,"labelSelector":)" + selector;
  return s + extra + "}";
}

std::string Spread(const std::vector<std::string>& constraints) {
  return R"("topologySpreadConstraints":[)" + Join(constraints) + "]";
}

const std::string kZone = "topology.kubernetes.io/zone";
const std::string kHost = "kubernetes.io/hostname";

TEST(SpreadAffinityVersions, NominatedPodsAntiAffinityIsUnseenWhenInterPodAffinitySkips) {
  // Pod a, nominated to n1, has required anti-affinity against app=b; pod
  // b comes first. v1.26 adds a to n1 (AddPod) and keeps b off it; v1.35's
  // InterPodAffinity skips for b (no terms, no placed pod's anti-affinity
  // matches), so n1, the emptiest node, takes b.
  const std::vector<std::string> nodes = {NodeJson("n1", ""), NodeJson("n2", ""),
                                          NodeJson("n3", "")};
  const std::string big =
      R"("containers":[{"name":"c","image":"busybox","resources":{"requests":{"cpu":"3","memory":"64Mi"}}}])";
  std::vector<std::string> pods = {PodJson("big", "", "n2"), PodJson("big3", "", "n3")};
  for (std::string& p : pods) {
    const size_t at = p.find(R"("containers":)");
    const size_t end = p.find("]", at) + 1;
    p.replace(at, end - at, big);
  }
  const std::string anti =
      R"("priority":10,"affinity":{"podAntiAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[)"
      R"({"labelSelector":{"matchLabels":{"app":"b"}},"topologyKey":"kubernetes.io/hostname"}]}})";
  const std::vector<std::string> pending = {
      PodJson("b", R"("app":"b")", "", "default", R"("priority":10)"),
      PodJson("a", R"("app":"a")", "", "default", anti, R"("nominatedNodeName":"n1")")};
  const auto v126 = Replay("v1.26", nodes, pods, pending, {}, /*loop=*/true);
  const auto v135 = Replay("v1.35", nodes, pods, pending, {}, /*loop=*/true);
  ASSERT_EQ(v126.size(), 2u);
  ASSERT_EQ(v135.size(), 2u);
  EXPECT_EQ(v126[0], (Step{"n2", true, true}));
  EXPECT_EQ(v135[0], (Step{"n1", false, false}));
}

TEST(SpreadAffinityVersions, SpreadConstraints) {
  const std::vector<std::string> nodes = {
      NodeJson("a1", R"(")" + kZone + R"(":"za")"), NodeJson("a2", R"(")" + kZone + R"(":"za")"),
      NodeJson("b1", R"(")" + kZone + R"(":"zb")"), NodeJson("b2", R"(")" + kZone + R"(":"zb")"),
      NodeJson("c1", R"(")" + kZone + R"(":"zc")")};
  const std::vector<std::string> pods = {
      PodJson("x1", R"("app":"a")", "a1"), PodJson("x2", R"("app":"a")", "a2"),
      PodJson("x3", R"("app":"b")", "b1"), PodJson("x4", R"("app":"b")", "b2"),
      PodJson("x5", R"("app":"b")", "b2"), PodJson("x6", R"("app":"a")", "c1"),
      PodJson("x7", R"("app":"c")", "c1")};
  const std::string sel_a = R"({"matchLabels":{"app":"a"}})";
  const std::string sel_b = R"({"matchLabels":{"app":"b"}})";
  const std::string sel_c = R"({"matchLabels":{"app":"c"}})";
  const std::vector<std::string> pending = {
      // Hard and soft on one key, other selectors: counts kept apart (v1.35).
      PodJson("p1", R"("app":"a")", "", "default",
              Spread({Tsc(kZone, "DoNotSchedule", sel_a), Tsc(kZone, "ScheduleAnyway", sel_b)})),
      // Two soft on one key: v1.26 sums them and sizes the second 0.
      PodJson(
          "p2", R"("app":"b")", "", "default",
          Spread({Tsc(kZone, "ScheduleAnyway", sel_a), Tsc(kZone, "ScheduleAnyway", sel_b, 2)})),
      // Two hard on one key: v1.26's later constraint overwrites per node.
      PodJson("p3", R"("app":"a")", "", "default",
              Spread({Tsc(kZone, "DoNotSchedule", sel_b), Tsc(kZone, "DoNotSchedule", sel_a)})),
      PodJson("p4", R"("app":"c")", "", "default",
              Spread({Tsc(kHost, "ScheduleAnyway", sel_a), Tsc(kHost, "ScheduleAnyway", sel_b),
                      Tsc(kZone, "ScheduleAnyway", sel_c)})),
      // labelSelector {}: v1.35 counts no pod.
      PodJson("p5", R"("app":"a")", "", "default",
              Spread({Tsc(kHost, "DoNotSchedule", "{}"), Tsc(kZone, "ScheduleAnyway", "{}")})),
      PodJson("p6", R"("app":"a")", "", "default", Spread({Tsc(kZone, "DoNotSchedule", "{}")})),
      PodJson("p7", R"("app":"a")", "", "default", Spread({Tsc(kHost, "ScheduleAnyway", "{}")})),
      // minDomains above the zones: v1.35 honours it without a gate.
      PodJson("p8", R"("app":"a")", "", "default",
              Spread({Tsc(kZone, "DoNotSchedule", sel_a, 1, R"(,"minDomains":5)")})),
      // No constraints, nothing selects the pod: v1.35 skips the scores.
      PodJson("p9", R"("app":"zzz")", ""),
  };
  const auto v126 = Replay("v1.26", nodes, pods, pending);
  const auto v135 = Replay("v1.35", nodes, pods, pending);
  EXPECT_EQ(v126, (std::vector<Step>{{"b1", true, true},
                                     {"c1", true, true},
                                     {"b1", true, true},
                                     {"a1", true, true},
                                     {"a2", false, false},
                                     {"c1", false, false},
                                     {"a1", true, true},
                                     {"b2", true, true},
                                     {"a2", true, true}}));
  EXPECT_EQ(v135, (std::vector<Step>{{"b1", true, false},
                                     {"c1", true, false},
                                     {"c1", false, false},
                                     {"a1", true, false},
                                     {"a2", true, false},
                                     {"a1", false, false},
                                     {"a2", true, false},
                                     {"", false, false},
                                     {"b1", false, false}}));
}

TEST(SpreadAffinityVersions, PodAffinity) {
  const std::vector<std::string> namespaces = {
      R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":"default"}})",
      R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":"dev","labels":{"env":"dev"}}})",
      R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":"prod","labels":{"env":"prod"}}})",
      R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":"bare"}})"};
  std::vector<std::string> nodes = {
      NodeJson("a1", R"(")" + kZone + R"(":"za")"), NodeJson("a2", R"(")" + kZone + R"(":"za")"),
      NodeJson("b1", R"(")" + kZone + R"(":"zb")"), NodeJson("c1", R"(")" + kZone + R"(":"zc")"),
      NodeJson("nolabel", "")};
  // A node with no label at all.
  const std::string host = R"("labels":{"kubernetes.io/hostname":"nolabel"})";
  nodes[4].replace(nodes[4].find(host), host.size(), R"("labels":{})");
  const std::vector<std::string> pods = {PodJson("w1", R"("app":"web")", "a1", "prod"),
                                         PodJson("w2", R"("app":"web")", "b1", "dev"),
                                         PodJson("w3", R"("app":"db")", "c1", "bare"),
                                         PodJson("w4", R"("app":"web")", "nolabel", "prod")};
  auto term = [](const std::string& sel, const std::string& key, const std::string& ns_sel) {
    std::string t = R"({"labelSelector":)" + sel + R"(,"topologyKey":")" + key + "\"";
    if (!ns_sel.empty()) t += R"(,"namespaceSelector":)" + ns_sel;
    return t + "}";
  };
  auto weighted = [](int w, const std::string& t) {
    return R"({"weight":)" + std::to_string(w) + R"(,"podAffinityTerm":)" + t + "}";
  };
  const std::string web = R"({"matchLabels":{"app":"web"}})";
  const std::string not_prod =
      R"({"matchExpressions":[{"key":"env","operator":"NotIn","values":["prod"]}]})";
  const std::string no_env = R"({"matchExpressions":[{"key":"env","operator":"DoesNotExist"}]})";
  const std::string is_dev = R"({"matchLabels":{"env":"dev"}})";
  auto req_anti = [](const std::string& t) {
    return R"("affinity":{"podAntiAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[)" +
           t + "]}}";
  };
  auto req_aff = [](const std::string& t) {
    return R"("affinity":{"podAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[)" + t +
           "]}}";
  };
  auto pref = [](const std::string& aff, const std::string& anti) {
    std::string s = R"("affinity":{)";
    if (!aff.empty())
      s += R"("podAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[)" + aff + "]}";
    if (!anti.empty()) {
      if (!aff.empty()) s += ",";
      s +=
          R"("podAntiAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[)" + anti + "]}";
    }
    return s + "}";
  };
  const std::vector<std::string> pending = {
      // The pod's namespaceSelector kept after merging (v1.35): NotIn and
      // DoesNotExist match the prod pods too.
      PodJson("r1", R"("app":"x")", "", "dev", req_anti(term(web, kZone, not_prod))),
      PodJson("r2", R"("app":"x")", "", "dev",
              req_aff(term(R"({"matchLabels":{"app":"db"}})", kZone, no_env))),
      PodJson("r3", R"("app":"x")", "", "dev", req_anti(term(web, kZone, is_dev))),
      PodJson("s1", R"("app":"x")", "", "dev", pref(weighted(10, term(web, kZone, not_prod)), "")),
      // Weights cancelling: scored (0s) in both.
      PodJson("s2", R"("app":"x")", "", "prod",
              pref(weighted(5, term(web, kZone, "")), weighted(5, term(web, kZone, "")))),
      // The only matching pod is on a node without the key: v1.35 skips.
      PodJson("s3", R"("app":"x")", "", "prod", pref(weighted(5, term(web, "rack", "")), "")),
      PodJson("s4", R"("app":"y")", "", "prod"),
      PodJson("s5", R"("app":"x")", "", "prod",
              pref(weighted(7, term(R"({"matchLabels":{"app":"z"}})", kZone, "")), "")),
      // s5's preferred term scores s6.
      PodJson("s6", R"("app":"z")", "", "prod"),
      PodJson("s7", R"("app":"q")", "", "prod",
              req_anti(term(R"({"matchLabels":{"app":"none"}})", "nokey", ""))),
      PodJson("s8", R"("app":"none")", "", "prod"),
  };
  const auto v126 = Replay("v1.26", nodes, pods, pending, namespaces);
  const auto v135 = Replay("v1.35", nodes, pods, pending, namespaces);
  EXPECT_EQ(v126, (std::vector<Step>{{"a2", true, true},
                                     {"c1", false, false},
                                     {"a1", true, true},
                                     {"b1", true, true},
                                     {"a2", true, true},
                                     {"nolabel", true, true},
                                     {"a1", true, true},
                                     {"a2", true, true},
                                     {"a1", true, true},
                                     {"b1", true, true},
                                     {"c1", true, true}}));
  EXPECT_EQ(v135, (std::vector<Step>{{"c1", false, false},
                                     {"c1", false, false},
                                     {"a2", false, false},
                                     {"a1", false, true},
                                     {"a2", false, true},
                                     {"b1", false, false},
                                     {"nolabel", false, false},
                                     {"a1", false, false},
                                     {"a2", false, true},
                                     {"b1", false, false},
                                     {"nolabel", false, false}}));
}

}  // namespace framework_spread_affinity_versions_test
}  // namespace ksched
