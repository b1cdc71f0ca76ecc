// Small clusters for the preemption tests, written as manifests.
#pragma once

#include <fmt/format.h>

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "algorithm/scheduler_extender.h"
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

// The PodId of the pod named `name` (default namespace).
inline PodId PodNamed(const ClusterState& c, const std::string& name) {
  for (PodId id = 0; id < c.num_pods(); ++id)
    if (c.pod(id).live && c.pod(id).pod.meta.name == name) return id;
  ADD_FAILURE() << "no pod " << name;
  return 0;
}

// An extender whose preempt verb answers with a fixed function of what it is
// asked, and records each call.
class FakeExtender : public SchedulerExtender {
 public:
  using Answer = std::function<Result<std::vector<ExtenderNodeVictims>>(
      const std::vector<ExtenderNodeVictims>&)>;
  FakeExtender(std::string name, Answer answer, bool preempts = true, bool interested = true,
               bool ignorable = false)
      : name_(std::move(name)),
        answer_(std::move(answer)),
        preempts_(preempts),
        interested_(interested),
        ignorable_(ignorable) {}

  std::string Name() const override { return name_; }
  bool IsInterested(const Pod&) const override { return interested_; }
  bool IsIgnorable() const override { return ignorable_; }
  bool HasFilter() const override { return false; }
  bool HasPrioritize() const override { return false; }
  int64_t Weight() const override { return 1; }
  Result<ExtenderFilterResult> Filter(const Pod&, const std::vector<NodeId>& nodes,
                                      const ClusterState&) override {
    return ExtenderFilterResult{nodes, {}, {}};
  }
  Result<std::vector<std::pair<NodeId, int64_t>>> Prioritize(const Pod&, const std::vector<NodeId>&,
                                                             const ClusterState&) override {
    return std::vector<std::pair<NodeId, int64_t>>{};
  }
  bool SupportsPreemption() const override { return preempts_; }
  Result<std::vector<ExtenderNodeVictims>> ProcessPreemption(
      const Pod&, const std::vector<ExtenderNodeVictims>& candidates,
      const ClusterState&) override {
    ++calls;
    asked = candidates;
    return answer_(candidates);
  }

  int calls = 0;
  std::vector<ExtenderNodeVictims> asked;

 private:
  std::string name_;
  Answer answer_;
  bool preempts_, interested_, ignorable_;
};

}  // namespace ksched::testing
