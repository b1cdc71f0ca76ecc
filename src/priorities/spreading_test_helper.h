// Test helper for the spreading priorities: builds cluster objects as JSON and
// scores a pending pod over chosen nodes the way the scheduler does (Prepare
// once, Map per node, Reduce once).
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "predicates/check_test_helper.h"
#include "priorities/priority.h"

namespace ksched::testing {

inline std::string ZoneNodeJson(const std::string& name, const std::string& labels = "{}") {
  return R"({"kind":"Node","metadata":{"name":")" + name + R"(","labels":)" + labels + "}}";
}

// A pod in `ns` with `labels` (a JSON object); bound to `node` when non-empty.
inline std::string LabeledPodJson(const std::string& name, const std::string& ns,
                                  const std::string& labels, const std::string& node = "",
                                  bool terminating = false) {
  std::string s = R"({"kind":"Pod","metadata":{"name":")" + name + R"(","namespace":")" + ns +
                  R"(","labels":)" + labels;
  if (terminating) s += R"(,"deletionTimestamp":"2019-10-01T00:00:00Z")";
  s += R"(},"spec":{)";
  if (!node.empty()) s += R"("nodeName":")" + node + R"(",)";
  return s + R"("containers":[{"name":"c","image":"nginx"}]}})";
}

// A namespaced object (Service, ReplicationController, ReplicaSet,
// StatefulSet) whose spec is the JSON `spec`.
inline std::string ObjectJson(const std::string& kind, const std::string& name,
                              const std::string& spec, const std::string& ns = "default") {
  return R"({"kind":")" + kind + R"(","metadata":{"name":")" + name + R"(","namespace":")" + ns +
         R"("},"spec":)" + spec + "}";
}

// `count` identical pods named prefix-0.. on `node`.
inline void AddPods(std::vector<std::string>* items, const std::string& prefix, int count,
                    const std::string& ns, const std::string& labels, const std::string& node) {
  for (int i = 0; i < count; ++i)
    items->push_back(LabeledPodJson(prefix + "-" + std::to_string(i), ns, labels, node));
}

// Node name -> final score, for `node_names` (all nodes, in cluster order,
// when empty).
inline std::map<std::string, int64_t> RunScore(const Priority& priority, const Pod& pod,
                                               const ClusterState& cluster,
                                               std::vector<std::string> node_names = {}) {
  std::vector<NodeId> nodes;
  if (node_names.empty()) {
    for (NodeId id = 0; id < cluster.num_nodes(); ++id) nodes.push_back(id);
  } else {
    for (const std::string& n : node_names) {
      NodeId id = cluster.FindNode(n);
      if (id == kNoNode) {
        ADD_FAILURE() << "no node " << n;
        return {};
      }
      nodes.push_back(id);
    }
  }
  PreparedPod prepared(pod);
  auto state = priority.Prepare(prepared.target, cluster);
  std::vector<int64_t> scores(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i)
    scores[i] = priority.Map(prepared.target, state.get(), cluster, nodes[i]);
  priority.Reduce(prepared.target, state.get(), cluster, nodes, scores);
  std::map<std::string, int64_t> out;
  for (size_t i = 0; i < nodes.size(); ++i)
    out[std::string(cluster.node(nodes[i]).meta.name)] = scores[i];
  return out;
}

// Raw Map() values (before Reduce) for every node, by name.
inline std::map<std::string, int64_t> RunMap(const Priority& priority, const Pod& pod,
                                             const ClusterState& cluster) {
  std::vector<NodeId> nodes;
  for (NodeId id = 0; id < cluster.num_nodes(); ++id) nodes.push_back(id);
  PreparedPod prepared(pod);
  auto state = priority.Prepare(prepared.target, cluster);
  std::map<std::string, int64_t> out;
  for (NodeId id : nodes)
    out[std::string(cluster.node(id).meta.name)] =
        priority.Map(prepared.target, state.get(), cluster, id);
  return out;
}

}  // namespace ksched::testing
