// Small clusters for the preemption tests, written as manifests.
#pragma once

#include <fmt/format.h>

#include <string>
#include <vector>

#include "tests/fixtures.h"

namespace ksched::testing {

// A node with `cpu` cores, 10 pods, 10Gi memory.
inline std::string NodeJson(const std::string& name, const std::string& cpu = "2",
                            const std::string& labels = "{}") {
  return fmt::format(R"({{"kind":"Node","metadata":{{"name":"{}","labels":{}}},
    "status":{{"allocatable":{{"cpu":"{}","memory":"10Gi","pods":"10"}}}}}})",
                     name, labels, cpu);
}

// A running pod on `node` requesting `cpu`.
inline std::string RunningPodJson(const std::string& name, const std::string& node,
                                  const std::string& cpu, int priority,
                                  const std::string& start = "", const std::string& labels = "{}",
                                  const std::string& ns = "default") {
  std::string status = start.empty()
                           ? R"({"phase":"Running"})"
                           : fmt::format(R"({{"phase":"Running","startTime":"{}"}})", start);
  return fmt::format(R"({{"kind":"Pod","metadata":{{"name":"{}","namespace":"{}","uid":"{}/{}",
    "labels":{}}},"spec":{{"nodeName":"{}","priority":{},
    "containers":[{{"name":"c","resources":{{"requests":{{"cpu":"{}"}}}}}}]}},"status":{}}})",
                     name, ns, ns, name, labels, node, priority, cpu, status);
}

inline std::string PendingPodJson(const std::string& name, const std::string& cpu, int priority,
                                  const std::string& extra_spec = "") {
  return fmt::format(R"({{"kind":"Pod","metadata":{{"name":"{}","namespace":"default",
    "uid":"default/{}"}},"spec":{{"priority":{},{}
    "containers":[{{"name":"c","resources":{{"requests":{{"cpu":"{}"}}}}}}]}}}})",
                     name, name, priority, extra_spec, cpu);
}

inline std::string ListOf(const std::vector<std::string>& items) {
  std::string s = R"({"kind":"List","items":[)";
  for (size_t i = 0; i < items.size(); ++i) s += (i ? "," : "") + items[i];
  return s + "]}";
}

// The PodId of the pod named `name` (default namespace).
inline PodId PodNamed(const ClusterState& c, const std::string& name) {
  for (PodId id = 0; id < c.num_pods(); ++id)
    if (c.pod(id).live && c.pod(id).pod.meta.name == name) return id;
  ADD_FAILURE() << "no pod " << name;
  return 0;
}

}  // namespace ksched::testing
