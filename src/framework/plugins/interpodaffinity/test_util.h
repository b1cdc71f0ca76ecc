// Test helpers for the InterPodAffinity tests: a Handle over one
// ClusterState, and JSON builders for nodes and pods.
#pragma once

#include <string>
#include <vector>

#include "cache/cluster_state.h"
#include "framework/interface.h"
#include "framework/plugins/interpodaffinity/plugin.h"
#include "tests/fixtures.h"

namespace ksched::framework::interpodaffinity::test {

class FakeHandle final : public Handle {
 public:
  explicit FakeHandle(ClusterState* cluster) : cluster_(cluster) {}
  const ClusterState& cluster() const override { return *cluster_; }
  const NominatedPods* nominated() const override { return nullptr; }
  const config::FeatureGates& feature_gates() const override { return gates; }
  int parallelism() const override { return 1; }
  Status RunFilterPluginsWithNominatedPods(const CycleState&, const Pod&,
                                           const NodeInfo&) const override {
    return Status();
  }
  Status RunPreFilterExtensionAddPod(CycleState*, const Pod&, const PodInfo&,
                                     const NodeInfo&) const override {
    return Status();
  }
  Status RunPreFilterExtensionRemovePod(CycleState*, const Pod&, const PodInfo&,
                                        const NodeInfo&) const override {
    return Status();
  }
  Binder* binder() const override { return nullptr; }
  PreemptionActions* preemption() const override { return nullptr; }
  bool reuse_between_cycles() const override { return reuse; }

  config::FeatureGates gates;  // read when the plugin is built
  bool reuse = false;          // the plugin keeps sums between cycles

 private:
  ClusterState* cluster_;
};

// {"kind":"Node",...} with the given labels JSON (e.g. R"("zone":"a")").
inline std::string NodeJson(const std::string& name, const std::string& labels) {
  return R"({"kind":"Node","metadata":{"name":")" + name + R"(","labels":{)" + labels +
         R"(}},"status":{"allocatable":{"cpu":"4","pods":"110"}}})";
}

// A pod; `node` "" leaves it unplaced; `affinity` is the spec.affinity JSON or "".
inline std::string PodJson(const std::string& name, const std::string& labels,
                           const std::string& node, const std::string& affinity = "",
                           const std::string& ns = "default") {
  std::string s = R"({"kind":"Pod","metadata":{"name":")" + name + R"(","namespace":")" + ns +
                  R"(","labels":{)" + labels + R"(}},"spec":{"containers":[{"name":"c"}])";
  if (!node.empty()) s += R"(,"nodeName":")" + node + "\"";
  if (!affinity.empty()) s += R"(,"affinity":)" + affinity;
  return s + "}}";
}

inline std::string NamespaceJson(const std::string& name, const std::string& labels) {
  return R"({"kind":"Namespace","metadata":{"name":")" + name + R"(","labels":{)" + labels + "}}}";
}

inline std::string ListOf(const std::vector<std::string>& items) {
  std::string s = R"({"kind":"List","items":[)";
  for (size_t i = 0; i < items.size(); ++i) s += (i ? "," : "") + items[i];
  return s + "]}";
}

// One term: {"labelSelector":{"matchLabels":{<match>}},"topologyKey":<key>} plus `extra`.
inline std::string Term(const std::string& match, const std::string& key,
                        const std::string& extra = "") {
  std::string s =
      R"({"labelSelector":{"matchLabels":{)" + match + R"(}},"topologyKey":")" + key + "\"";
  if (!extra.empty()) s += "," + extra;
  return s + "}";
}

inline std::string Weighted(int weight, const std::string& term) {
  return R"({"weight":)" + std::to_string(weight) + R"(,"podAffinityTerm":)" + term + "}";
}

// spec.affinity with podAffinity / podAntiAffinity lists (JSON arrays' contents).
inline std::string Affinity(const std::string& required, const std::string& preferred = "",
                            const std::string& anti_required = "",
                            const std::string& anti_preferred = "") {
  std::string s = "{";
  bool first = true;
  auto add = [&](const std::string& kind, const std::string& req, const std::string& pref) {
    if (req.empty() && pref.empty()) return;
    if (!first) s += ",";
    first = false;
    s += "\"" + kind + "\":{";
    bool inner = false;
    if (!req.empty()) {
      s += R"("requiredDuringSchedulingIgnoredDuringExecution":[)" + req + "]";
      inner = true;
    }
    if (!pref.empty()) {
      if (inner) s += ",";
      s += R"("preferredDuringSchedulingIgnoredDuringExecution":[)" + pref + "]";
    }
    s += "}";
  };
  add("podAffinity", required, preferred);
  add("podAntiAffinity", anti_required, anti_preferred);
  return s + "}";
}

}  // namespace ksched::framework::interpodaffinity::test
