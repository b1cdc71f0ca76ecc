// Test helpers for the spreading plugins: a Handle over one ClusterState and
// compact builders for the nodes, pods and constraints upstream's tests use.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "api/types.h"
#include "cache/cluster_state.h"
#include "config/types.h"
#include "framework/interface.h"
#include "tests/fixtures.h"

namespace ksched::framework::plugins::spread_testing {

class TestHandle final : public Handle {
 public:
  explicit TestHandle(ClusterState cluster) : cluster_(std::move(cluster)) {}
  const ClusterState& cluster() const override { return cluster_; }
  ClusterState& mutable_cluster() { return cluster_; }
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

  config::FeatureGates gates;
  bool reuse = false;  // the plugins keep counts between cycles (ScoresOf)

 private:
  ClusterState cluster_;
};

// {"k":"v",...} from pairs.
inline std::string JsonMap(const std::vector<std::pair<std::string, std::string>>& pairs) {
  std::string out = "{";
  for (size_t i = 0; i < pairs.size(); ++i) {
    if (i) out += ",";
    out += "\"" + pairs[i].first + "\":\"" + pairs[i].second + "\"";
  }
  return out + "}";
}

inline std::string NodeJson(const std::string& name,
                            const std::vector<std::pair<std::string, std::string>>& labels,
                            const std::string& extra_spec = "") {
  return R"({"kind":"Node","apiVersion":"v1","metadata":{"name":")" + name + R"(","labels":)" +
         JsonMap(labels) + R"(},"spec":{)" + extra_spec +
         R"(},"status":{"allocatable":{"cpu":"4","memory":"8Gi","pods":"110"}}})";
}

inline std::string PodJson(const std::string& name, const std::string& node,
                           const std::vector<std::pair<std::string, std::string>>& labels,
                           const std::string& ns = "default", const std::string& extra_meta = "",
                           const std::string& extra_spec = "") {
  std::string spec = R"("containers":[{"name":"c","image":"i"}])";
  if (!node.empty()) spec += R"(,"nodeName":")" + node + "\"";
  if (!extra_spec.empty()) spec += "," + extra_spec;
  return R"({"kind":"Pod","apiVersion":"v1","metadata":{"name":")" + name + R"(","namespace":")" +
         ns + R"(","labels":)" + JsonMap(labels) + extra_meta + R"(},"spec":{)" + spec + "}}";
}

inline std::string ListJson(const std::vector<std::string>& items) {
  std::string out = R"({"kind":"List","apiVersion":"v1","items":[)";
  for (size_t i = 0; i < items.size(); ++i) out += (i ? "," : "") + items[i];
  return out + "]}";
}

// A constraint selecting pods that carry `selector_key` (Exists), as
// upstream's tests' fooSelector does; no selector when the key is empty.
inline TopologySpreadConstraint Spread(int32_t max_skew, std::string key, std::string action,
                                       const std::string& selector_key = "foo") {
  TopologySpreadConstraint c;
  c.max_skew = max_skew;
  c.topology_key = std::move(key);
  c.when_unsatisfiable = std::move(action);
  if (!selector_key.empty()) {
    LabelSelector s;
    s.match_expressions.push_back(SelectorRequirement{selector_key, "Exists", {}});
    c.label_selector = s;
  }
  return c;
}

}  // namespace ksched::framework::plugins::spread_testing
