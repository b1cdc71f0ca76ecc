// Small hand-checked clusters for the planning tests, written as YAML.
#pragma once

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "algorithm/provider.h"
#include "api/decode.h"
#include "planning/capacity.h"
#include "planning/snapshot.h"

namespace ksched::planning::testing {

// A Ready node with `cpu` cores, 8Gi and 110 pods, hostname label = name.
inline std::string NodeYaml(const std::string& name, const std::string& cpu,
                            const std::string& extra_meta = "") {
  return fmt::format(R"(
- apiVersion: v1
  kind: Node
  metadata:
    name: {0}
    labels: {{kubernetes.io/hostname: {0}}}
{2}  status:
    allocatable: {{cpu: "{1}", memory: 8Gi, pods: "110"}}
    capacity: {{cpu: "{1}", memory: 8Gi, pods: "110"}}
    conditions: [{{type: Ready, status: "True"}}]
)",
                     name, cpu, extra_meta);
}

// A pod requesting `cpu`, on `node` ("" = pending), with extra metadata lines
// (indented by 4) and an optional priority.
inline std::string PodYaml(const std::string& name, const std::string& cpu, const std::string& node,
                           const std::string& extra_meta = "", int priority = 0) {
  return fmt::format(R"(
- apiVersion: v1
  kind: Pod
  metadata:
    name: {0}
    namespace: default
{3}  spec:
    {2}
    priority: {4}
    containers: [{{name: c, image: pause, resources: {{requests: {{cpu: "{1}"}}}}}}]
)",
                     name, cpu, node.empty() ? "" : "nodeName: " + node, extra_meta, priority);
}

inline ObjectSet DecodeYaml(const std::string& items) {
  ObjectSet set;
  std::string text = "apiVersion: v1\nkind: List\nitems:\n" + items;
  Status s = DecodeObjects(text, "test", &set);
  EXPECT_TRUE(s.ok()) << s.error().message << "\n" << text;
  return set;
}

inline Snapshot SnapshotOf(const std::string& items) {
  auto snap = SplitSnapshot(DecodeYaml(items), "default-scheduler");
  EXPECT_TRUE(snap.ok()) << snap.error().message;
  return snap.ok() ? std::move(snap).value() : Snapshot{};
}

inline SchedulerFactory DefaultScheduler() {
  return []() -> Result<std::unique_ptr<Engine>> {
    auto config = BuildFromProvider("DefaultProvider", BuildOptions{});
    if (!config.ok()) return config.error();
    return MakeV115Engine(std::move(config).value(), TieBreak::kName);
  };
}

inline std::vector<Workload> WorkloadsOf(const std::string& yaml, WorkloadArg arg = {}) {
  arg.file = "workload.yaml";
  auto ws = DecodeWorkloads(yaml, "workload.yaml", arg);
  EXPECT_TRUE(ws.ok()) << ws.error().message;
  return ws.ok() ? std::move(ws).value() : std::vector<Workload>{};
}

// A Deployment (or other kind) with `replicas` (omitted when < 0) whose pods
// request `cpu`.
inline std::string WorkloadYaml(const std::string& kind, const std::string& name,
                                const std::string& cpu, int replicas = -1,
                                const std::string& extra_spec = "") {
  const bool job = kind == "Job";
  std::string count =
      replicas < 0 ? "" : fmt::format("  {}: {}\n", job ? "parallelism" : "replicas", replicas);
  return fmt::format(R"(apiVersion: {5}
kind: {0}
metadata:
  name: {1}
  namespace: default
  uid: uid-{1}
spec:
{3}  selector:
    matchLabels: {{app: {1}}}
{4}  template:
    metadata:
      labels: {{app: {1}}}
    spec:
      containers: [{{name: c, image: pause, resources: {{requests: {{cpu: "{2}"}}}}}}]
{6})",
                     kind, name, cpu, count, extra_spec,
                     job ? "batch/v1" : (kind == "ReplicationController" ? "v1" : "apps/v1"),
                     job ? "      restartPolicy: Never\n" : "");
}

}  // namespace ksched::planning::testing
